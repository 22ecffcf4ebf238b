// ed25519 signing keys, one pair per signer, generated on first run.
// Private keys are 0600; public keys are what the executor pins.
import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Role } from "../../proto/gen/agent_sudo/v1/decision_pb.js";

/**
 * Every key the executor pins. `operator` is a person's: the CLI as root signs
 * rollback requests with it; no service reads its private half.
 */
export const SIGNERS = ["classifier", "concurrence", "sandbox", "breaker", "operator"] as const;
export type Signer = (typeof SIGNERS)[number];

/** The role each key speaks for in a command decision: a classifier key cannot sign a lease. */
export const SIGNER_ROLE: Record<Signer, Role> = {
  classifier: Role.ROLE_CLASSIFIER,
  concurrence: Role.ROLE_CONCURRENCE,
  sandbox: Role.ROLE_SANDBOX,
  breaker: Role.ROLE_BREAKER,
  operator: Role.ROLE_OPERATOR,
};

/**
 * Every role a key may sign: its command role, for the two judges the
 * effect verdict over a run's manifest, for the breaker its rollback grant
 * (each a separate role, so no kind of decision can stand in for another).
 */
export const SIGNER_ROLES: Record<Signer, readonly Role[]> = {
  classifier: [Role.ROLE_CLASSIFIER, Role.ROLE_CLASSIFIER_EFFECTS],
  concurrence: [Role.ROLE_CONCURRENCE, Role.ROLE_CONCURRENCE_EFFECTS],
  sandbox: [Role.ROLE_SANDBOX],
  breaker: [Role.ROLE_BREAKER, Role.ROLE_BREAKER_GRANT],
  operator: [Role.ROLE_OPERATOR],
};

export function privateKeyPath(keysDir: string, signer: Signer): string {
  return join(keysDir, `${signer}.key`);
}

export function publicKeyPath(keysDir: string, signer: Signer): string {
  return join(keysDir, `${signer}.pub`);
}

function writeAtomic(path: string, data: string, mode: number): void {
  const tmp = `${path}.tmp-${process.pid}`;
  writeFileSync(tmp, data, { mode, flag: "wx" });
  chmodSync(tmp, mode);
  renameSync(tmp, path);
}

/** Creates any missing key pair. Returns the signers whose keys were created. */
export function ensureKeys(keysDir: string): Signer[] {
  mkdirSync(keysDir, { recursive: true, mode: 0o755 });
  chmodSync(keysDir, 0o755);
  const created: Signer[] = [];
  for (const signer of SIGNERS) {
    const priv = privateKeyPath(keysDir, signer);
    const pub = publicKeyPath(keysDir, signer);
    if (existsSync(priv) && existsSync(pub)) continue;
    if (existsSync(priv) !== existsSync(pub)) {
      throw new Error(`key pair for ${signer} is half present in ${keysDir}; remove both files to regenerate`);
    }
    const pair = generateKeyPairSync("ed25519");
    writeAtomic(priv, pair.privateKey.export({ format: "pem", type: "pkcs8" }).toString(), 0o600);
    writeAtomic(pub, pair.publicKey.export({ format: "pem", type: "spki" }).toString(), 0o644);
    created.push(signer);
  }
  return created;
}

export function loadPrivateKey(keysDir: string, signer: Signer): KeyObject {
  const key = createPrivateKey(readFileSync(privateKeyPath(keysDir, signer)));
  if (key.asymmetricKeyType !== "ed25519") throw new Error(`${signer}.key is not an ed25519 key`);
  return key;
}

export function loadPublicKey(keysDir: string, signer: Signer): KeyObject {
  const key = createPublicKey(readFileSync(publicKeyPath(keysDir, signer)));
  if (key.asymmetricKeyType !== "ed25519") throw new Error(`${signer}.pub is not an ed25519 key`);
  return key;
}
