// Signing side of attestations: the command digest every signer binds, and
// how a Decision becomes a signed Attestation. Verification is the
// executor's own code (services/executor/verify.ts).
import { createHash, randomBytes, sign, type KeyObject } from "node:crypto";
import { Attestation, Decision, type Role } from "../../proto/gen/agent_sudo/v1/decision_pb.js";
import { tierToEnum, type TierNumber } from "./tier.js";

export interface CommandBinding {
  command: string;
  cwd: string;
  host: string;
  runAs: string;
  /** Names of the secret environment variables the command is given (env_secrets); values are never bound. */
  envNames?: readonly string[];
}

/**
 * The binding of a request as every signer sees it: the same fields, the
 * secret-variable names included, so no signer can forget one.
 */
export function bindingOf(req: { command: string; cwd: string; host: string; runAs: string; envNames?: readonly string[] }): CommandBinding {
  return { command: req.command, cwd: req.cwd, host: req.host, runAs: req.runAs, envNames: req.envNames ?? [] };
}

/**
 * sha256 over a domain tag and length-prefixed UTF-8 fields, so no two
 * different (command, cwd, host, run_as[, env names]) tuples can share an
 * encoding. A command given secret variables binds their sorted names under
 * its own tag (v2), so no signer's decision for the bare command fits it.
 */
export function commandDigest(b: CommandBinding): Buffer {
  const hash = createHash("sha256");
  const names = [...(b.envNames ?? [])].sort();
  hash.update(names.length > 0 ? "agent-sudo/command/v2\0" : "agent-sudo/command/v1\0");
  for (const field of [b.command, b.cwd, b.host, b.runAs, ...(names.length > 0 ? [names.join("\n")] : [])]) {
    const bytes = Buffer.from(field, "utf8");
    const len = Buffer.alloc(4);
    len.writeUInt32BE(bytes.length);
    hash.update(len);
    hash.update(bytes);
  }
  return hash.digest();
}

export interface DecisionFields {
  role: Role;
  requestId: string;
  binding: CommandBinding;
  tier: TierNumber;
  policyDigest?: Buffer;
  ttlS: number;
  rule?: string;
  trialOk?: boolean;
  touchedDigest?: Buffer;
  network?: boolean;
  now?: number;
}

export function signDecision(signer: string, key: KeyObject, f: DecisionFields): Attestation {
  const now = f.now ?? Math.floor(Date.now() / 1000);
  const decision = Decision.create({
    role: f.role,
    requestId: f.requestId,
    commandDigest: commandDigest(f.binding),
    tier: tierToEnum(f.tier),
    host: f.binding.host,
    policyDigest: f.policyDigest ?? Buffer.alloc(0),
    issuedAt: now,
    expiresAt: now + f.ttlS,
    nonce: randomBytes(16),
    rule: f.rule ?? "",
    trialOk: f.trialOk ?? false,
    touchedDigest: f.touchedDigest ?? Buffer.alloc(0),
    network: f.network ?? false,
  });
  const bytes = Buffer.from(Decision.encode(decision).finish());
  return Attestation.create({ signer, decision: bytes, signature: sign(null, bytes, key) });
}

/**
 * The digest a sandbox trial report binds for its touched-path list and the
 * executor re-derives from the undo plan it is given: sha256 over the sorted,
 * de-duplicated paths, each followed by a newline.
 */
export function touchedDigest(paths: readonly string[]): Buffer {
  const hash = createHash("sha256");
  hash.update("agent-sudo/touched/v1\0");
  for (const p of [...new Set(paths)].sort()) hash.update(`${p}\n`);
  return hash.digest();
}
