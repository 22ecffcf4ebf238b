// Signing side of attestations: the command digest every signer binds, and
// how a Decision becomes a signed Attestation. Verification is the
// executor's own code (services/executor/verify.ts).
import { createHash, randomBytes, sign, type KeyObject } from "node:crypto";
import { Attestation, Decision, type Role } from "../../proto/gen/agent_sudo/v1/decision_pb.js";
import { tierToEnum, type TierNumber } from "./tier.js";

/** Which policy judged a command: SUDO.md for /exec, CLAUDE_CMDS.md for the hook. */
export type PolicySource = "sudo" | "claude";

export interface CommandBinding {
  command: string;
  /** The resolved working directory (no symlink in it), or "" for the run-as user's home. */
  cwd: string;
  host: string;
  runAs: string;
  /** Names of the secret environment variables the command is given (env_secrets); values are never bound. */
  envNames?: readonly string[];
  /** The policy the classifier judged with. The executor derives every digest with "sudo". */
  source: PolicySource;
}

/**
 * The binding of a request as every signer sees it: the same fields, the
 * secret-variable names and the policy source included, so no signer can
 * forget one.
 */
export function bindingOf(
  req: { command: string; cwd: string; host: string; runAs: string; envNames?: readonly string[] },
  source: PolicySource,
): CommandBinding {
  return { command: req.command, cwd: req.cwd, host: req.host, runAs: req.runAs, envNames: req.envNames ?? [], source };
}

function lengthPrefixed(hash: ReturnType<typeof createHash>, fields: readonly string[]): void {
  for (const field of fields) {
    const bytes = Buffer.from(field, "utf8");
    const len = Buffer.alloc(4);
    len.writeUInt32BE(bytes.length);
    hash.update(len);
    hash.update(bytes);
  }
}

/**
 * sha256 over a domain tag and length-prefixed UTF-8 fields, so no two
 * different (command, cwd, host, run_as, policy source, env names) tuples
 * can share an encoding. The policy source is bound: a decision made with
 * the hook's policy never fits an /exec request (the executor derives the
 * digest with "sudo").
 */
export function commandDigest(b: CommandBinding): Buffer {
  const hash = createHash("sha256");
  hash.update("agent-sudo/command/v3\0");
  lengthPrefixed(hash, [b.command, b.cwd, b.host, b.runAs, b.source, [...(b.envNames ?? [])].sort().join("\n")]);
  return hash.digest();
}

/** What a rollback grant binds in place of a command digest: the undo record's id. */
export function rollbackDigest(undoId: string, host: string): Buffer {
  const hash = createHash("sha256");
  hash.update("agent-sudo/rollback/v1\0");
  lengthPrefixed(hash, [undoId, host]);
  return hash.digest();
}

/** What the sandbox's run report and both effect verdicts bind: the manifest's exact encoded bytes. */
export function manifestDigest(manifest: Uint8Array): Buffer {
  return createHash("sha256").update("agent-sudo/manifest/v1\0").update(manifest).digest();
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
  manifestDigest?: Buffer;
  packageRun?: boolean;
  liveAction?: boolean;
  /** Overrides the digest derived from `binding` (rollback grants bind rollbackDigest). */
  commandDigest?: Buffer;
  now?: number;
}

export function signDecision(signer: string, key: KeyObject, f: DecisionFields): Attestation {
  const now = f.now ?? Math.floor(Date.now() / 1000);
  const decision = Decision.create({
    role: f.role,
    requestId: f.requestId,
    commandDigest: f.commandDigest ?? commandDigest(f.binding),
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
    manifestDigest: f.manifestDigest ?? Buffer.alloc(0),
    packageRun: f.packageRun ?? false,
    liveAction: f.liveAction ?? false,
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
