// Attestation checks: every attestation must be signed by a pinned key for
// its own role, bind exactly this request, be fresh and unseen; together they
// must form the quorum the classifier's tier demands. Anything else refuses.
import { timingSafeEqual, verify, type KeyObject } from "node:crypto";
import { Decision, Role } from "../../proto/gen/agent_sudo/v1/decision_pb.js";
import type { ExecuteRequest } from "../../proto/gen/agent_sudo/v1/executor_pb.js";
import { bindingOf, commandDigest, touchedDigest } from "../shared/attestation.js";
import { CodedError } from "../shared/errors.js";
import { tierFromEnum, type TierNumber } from "../shared/tier.js";
import type { NonceEntry, ReplayMemory } from "./replay.js";

export interface PinnedKey {
  role: Role;
  key: KeyObject;
}

const MAX_TTL_S = 300;
const CLOCK_SKEW_S = 5;

/** The roles each tier needs besides the classifier; tier 4 needs the impossible. */
const QUORUM: Record<Exclude<TierNumber, 4>, Role[]> = {
  0: [Role.ROLE_CLASSIFIER],
  1: [Role.ROLE_CLASSIFIER, Role.ROLE_BREAKER],
  2: [Role.ROLE_CLASSIFIER, Role.ROLE_BREAKER, Role.ROLE_SANDBOX],
  3: [Role.ROLE_CLASSIFIER, Role.ROLE_CONCURRENCE, Role.ROLE_BREAKER],
};

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}

function checkOne(att: ExecuteRequest["attestations"][number], pinned: ReadonlyMap<string, PinnedKey>, digest: Buffer, req: ExecuteRequest, now: number): Decision {
  const pin = pinned.get(att.signer);
  if (!pin) throw new CodedError("ATTESTATION_UNPINNED", `signer ${JSON.stringify(att.signer.slice(0, 32))}`);
  if (att.signature.length !== 64 || !verify(null, att.decision, pin.key, att.signature)) {
    throw new CodedError("ATTESTATION_BAD_SIGNATURE", att.signer);
  }
  let d: Decision;
  try {
    d = Decision.decode(att.decision);
  } catch {
    throw new CodedError("ATTESTATION_MALFORMED", `${att.signer}: undecodable`);
  }
  if (d.role !== pin.role) throw new CodedError("ATTESTATION_MISMATCH", `${att.signer} signed for another role`);
  if (d.requestId !== req.requestId) throw new CodedError("ATTESTATION_MISMATCH", `${att.signer}: request id`);
  if (!sameBytes(d.commandDigest, digest)) throw new CodedError("ATTESTATION_MISMATCH", `${att.signer}: command digest`);
  if (d.host !== req.host) throw new CodedError("ATTESTATION_MISMATCH", `${att.signer}: host`);
  if (d.nonce.length !== 16) throw new CodedError("ATTESTATION_MALFORMED", `${att.signer}: nonce`);
  if (d.issuedAt > now + CLOCK_SKEW_S || d.expiresAt <= now || d.expiresAt - d.issuedAt > MAX_TTL_S) {
    throw new CodedError("ATTESTATION_EXPIRED", att.signer);
  }
  return d;
}

/**
 * Verifies the quorum for `req` and consumes its nonces. Returns the tier
 * the classifier signed. Throws a CodedError on any failure.
 */
export function verifyQuorum(req: ExecuteRequest, pinned: ReadonlyMap<string, PinnedKey>, replay: ReplayMemory, now = Math.floor(Date.now() / 1000)): TierNumber {
  return checkQuorum(req, pinned, replay, now).tier;
}

/** verifyQuorum, also returning the verified decisions by role. */
export function checkQuorum(req: ExecuteRequest, pinned: ReadonlyMap<string, PinnedKey>, replay: ReplayMemory, now = Math.floor(Date.now() / 1000)): { tier: TierNumber; byRole: ReadonlyMap<Role, Decision>; nonces: NonceEntry[] } {
  if (req.attestations.length === 0) throw new CodedError("ATTESTATION_MISSING", "no attestations");
  // The secret variables' names are bound too: a gateway cannot add one to a vetted command.
  const digest = commandDigest(bindingOf({ ...req, envNames: Object.keys(req.env ?? {}) }));
  const byRole = new Map<Role, Decision>();
  for (const att of req.attestations) {
    const d = checkOne(att, pinned, digest, req, now);
    if (byRole.has(d.role)) throw new CodedError("ATTESTATION_MALFORMED", "two attestations for one role");
    byRole.set(d.role, d);
  }
  const classifier = byRole.get(Role.ROLE_CLASSIFIER);
  if (!classifier) throw new CodedError("ATTESTATION_MISSING", "no classifier decision");
  const tier = tierFromEnum(classifier.tier);
  if (tier === 4) throw new CodedError("TIER_REFUSED");
  for (const role of QUORUM[tier]) {
    if (!byRole.has(role)) throw new CodedError("ATTESTATION_MISSING", `tier ${tier} needs ${Role[role]}`);
  }
  const concurrence = byRole.get(Role.ROLE_CONCURRENCE);
  if (tier === 3 && concurrence && tierFromEnum(concurrence.tier) === 4) {
    throw new CodedError("TIER_REFUSED", "concurrence judged tier 4");
  }
  const trial = byRole.get(Role.ROLE_SANDBOX);
  if (tier === 2 && trial && !trial.trialOk) throw new CodedError("ATTESTATION_MISSING", "trial report not ok");
  // The undo plan is signed: the trial's touched list for tier 2, the
  // classifier's path analysis otherwise. The gateway cannot choose it.
  const planSigner = tier === 2 ? trial : classifier;
  if (tier >= 1 && planSigner && !sameBytes(planSigner.touchedDigest, touchedDigest(req.undoPaths))) {
    throw new CodedError("ATTESTATION_MISMATCH", "undo plan is not the signed one");
  }

  const nonces = [...byRole.values()].map((d) => ({ nonceHex: Buffer.from(d.nonce).toString("hex"), expiresAt: d.expiresAt }));
  if (nonces.some((n) => replay.has(n.nonceHex))) throw new CodedError("ATTESTATION_REPLAYED");
  replay.record(nonces);
  return { tier, byRole, nonces };
}
