// The quorums and signing keys tests present to the executor's checks: which
// signers an honest gateway gathers for Execute at each tier, a fresh
// ed25519 key per signer with the pinned table the executor would load for
// them, and an attestation over exact decision bytes (what a signer sends;
// tests that tamper with the bytes sign them as they are).
import { generateKeyPairSync, type KeyObject, sign } from "node:crypto";
import { Attestation } from "../../proto/gen/agent_sudo/v1/decision_pb.js";
import type { PinnedKey } from "../../services/executor/verify.js";
import { SIGNER_ROLES, SIGNERS, type Signer } from "../../services/shared/keys.js";
import type { TierNumber } from "../../services/shared/tier.js";

/** The signers an honest gateway gathers for Execute, per tier (1, 2 and 4 are what Execute must refuse). */
export const EXECUTE_QUORUM: Record<TierNumber, readonly Signer[]> = {
  0: ["classifier"],
  1: ["classifier", "breaker"],
  2: ["classifier", "breaker", "sandbox"],
  3: ["classifier", "concurrence", "breaker"],
  4: ["classifier", "concurrence", "breaker", "sandbox"],
};

export interface TestSigners {
  /** Each signer's private key. */
  keys: Record<Signer, KeyObject>;
  /** The public keys as the executor pins them (signer name → roles and key). */
  pinned: Map<string, PinnedKey>;
}

/** A fresh key pair for every signer, pinned with the signer's roles. */
export function testSigners(): TestSigners {
  const keys = {} as Record<Signer, KeyObject>;
  const pinned = new Map<string, PinnedKey>();
  for (const s of SIGNERS) {
    const pair = generateKeyPairSync("ed25519");
    keys[s] = pair.privateKey;
    pinned.set(s, { roles: SIGNER_ROLES[s], key: pair.publicKey });
  }
  return { keys, pinned };
}

/** An attestation by `signer` over exactly `decision` (encoded Decision bytes, or any bytes), signed with `key`. */
export function attestBytes(signer: string, key: KeyObject, decision: Uint8Array): Attestation {
  const bytes = Buffer.from(decision);
  return Attestation.create({ signer, decision: bytes, signature: sign(null, bytes, key) });
}
