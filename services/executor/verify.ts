// Attestation checks: every attestation must be signed by a pinned key for
// a role that key may sign, bind exactly this request (the command digest
// derived here with the /exec policy source, so a decision made with the
// hook's policy never fits), be fresh and unseen; together they must form
// the quorum the tier demands. Anything else refuses.
//   Execute  tier 0: classifier
//            tier 3: a live action (the classifier's signed live_action) + concurrence (not 4) + breaker lease
//            tier 2 package run (classifier's signed package_run): + breaker + sandbox trial ok
//   Commit   tiers 1–3 (no live action): classifier + breaker lease for the final tier + sandbox run report
//            + classifier and concurrence effect verdicts, all over one manifest digest
//   Rollback a grant over rollbackDigest(undo id): the breaker's (role BREAKER_GRANT,
//            never a lease: a gateway may ask a lease over any digest; only for a recent
//            tier-3 live action's record, with its request id) or a person's
import { timingSafeEqual, verify, type KeyObject } from "node:crypto";
import { Decision, Role } from "../../proto/gen/agent_sudo/v1/decision_pb.js";
import type { Attestation } from "../../proto/gen/agent_sudo/v1/decision_pb.js";
import { bindingOf, commandDigest, rollbackDigest, touchedDigest } from "../shared/attestation.js";
import { CodedError } from "../shared/errors.js";
import { tierFromEnum, type TierNumber } from "../shared/tier.js";
import type { NonceEntry, ReplayMemory } from "./replay.js";
import type { UndoOwner } from "./undo.js";

export interface PinnedKey {
  roles: readonly Role[];
  key: KeyObject;
}

export type Pinned = ReadonlyMap<string, PinnedKey>;

/** The request fields every decision binds. */
export interface Bound {
  requestId: string;
  command: string;
  cwd: string;
  host: string;
  runAs: string;
  envNames: readonly string[];
  attestations: readonly Attestation[];
}

export interface Verified {
  tier: TierNumber;
  byRole: ReadonlyMap<Role, Decision>;
  nonces: NonceEntry[];
}

const MAX_TTL_S = 300;
const CLOCK_SKEW_S = 5;

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}

function checkOne(att: Attestation, pinned: Pinned, digest: Buffer, requestId: string | undefined, host: string, now: number): Decision {
  const pin = pinned.get(att.signer);
  if (!pin) throw new CodedError("ATTESTATION_UNPINNED", `signer ${JSON.stringify(att.signer.slice(0, 32))}`);
  if (att.signature.length !== 64 || !verify(null, att.decision, pin.key, att.signature))
    throw new CodedError("ATTESTATION_BAD_SIGNATURE", att.signer);
  let d: Decision;
  try {
    d = Decision.decode(att.decision);
  } catch {
    throw new CodedError("ATTESTATION_MALFORMED", `${att.signer}: undecodable`);
  }
  if (!pin.roles.includes(d.role)) throw new CodedError("ATTESTATION_MISMATCH", `${att.signer} signed for another role`);
  if (requestId !== undefined && d.requestId !== requestId) throw new CodedError("ATTESTATION_MISMATCH", `${att.signer}: request id`);
  if (!sameBytes(d.commandDigest, digest)) throw new CodedError("ATTESTATION_MISMATCH", `${att.signer}: command digest`);
  if (d.host !== host) throw new CodedError("ATTESTATION_MISMATCH", `${att.signer}: host`);
  if (d.nonce.length !== 16) throw new CodedError("ATTESTATION_MALFORMED", `${att.signer}: nonce`);
  if (d.issuedAt > now + CLOCK_SKEW_S || d.expiresAt <= now || d.expiresAt - d.issuedAt > MAX_TTL_S)
    throw new CodedError("ATTESTATION_EXPIRED", att.signer);
  return d;
}

/** Verifies every attestation of `req` and returns them by role (one per role). */
function decisions(req: Bound, pinned: Pinned, now: number): Map<Role, Decision> {
  if (req.attestations.length === 0) throw new CodedError("ATTESTATION_MISSING", "no attestations");
  // Bound with the /exec policy source: the executor accepts no other.
  const digest = commandDigest(bindingOf(req, "sudo"));
  const byRole = new Map<Role, Decision>();
  for (const att of req.attestations) {
    const d = checkOne(att, pinned, digest, req.requestId, req.host, now);
    if (byRole.has(d.role)) throw new CodedError("ATTESTATION_MALFORMED", "two attestations for one role");
    byRole.set(d.role, d);
  }
  return byRole;
}

function need(byRole: ReadonlyMap<Role, Decision>, role: Role, why: string): Decision {
  const d = byRole.get(role);
  if (!d) throw new CodedError("ATTESTATION_MISSING", `${why} needs ${Role[role]}`);
  return d;
}

/** Consumes the nonces (after every other check passed). */
function consume(byRole: ReadonlyMap<Role, Decision>, replay: ReplayMemory): NonceEntry[] {
  const nonces = [...byRole.values()].map((d) => ({ nonceHex: Buffer.from(d.nonce).toString("hex"), expiresAt: d.expiresAt }));
  if (nonces.some((n) => replay.has(n.nonceHex))) throw new CodedError("ATTESTATION_REPLAYED");
  replay.record(nonces);
  return nonces;
}

/** A lease names a tier 1–3 no lower than the one it is used for. */
function leaseCovers(lease: Decision, tier: TierNumber): void {
  const leased = tierFromEnum(lease.tier);
  if (leased === 4 || leased < tier) throw new CodedError("ATTESTATION_MISMATCH", `the lease is for tier ${leased}, not ${tier}`);
}

function allowed(byRole: ReadonlyMap<Role, Decision>, roles: readonly Role[]): void {
  for (const role of byRole.keys())
    if (!roles.includes(role)) throw new CodedError("ATTESTATION_MALFORMED", `${Role[role]} has no place in this quorum`);
}

/** Execute: tier 0, tier 3, or a tier-2 package run. `undoPaths` must be the signed plan. */
export function checkExecute(
  req: Bound & { undoPaths: readonly string[] },
  pinned: Pinned,
  replay: ReplayMemory,
  now = Math.floor(Date.now() / 1000),
): Verified & { packageRun: boolean } {
  const byRole = decisions(req, pinned, now);
  const classifier = need(byRole, Role.ROLE_CLASSIFIER, "every tier");
  const tier = tierFromEnum(classifier.tier);
  if (tier === 4) throw new CodedError("TIER_REFUSED");
  const packageRun = tier === 2 && classifier.packageRun;
  if ((tier === 1 || tier === 2) && !packageRun)
    throw new CodedError("ATTESTATION_MISMATCH", "tiers 1–2 reach the host only as a committed diff (Commit)");
  if (tier === 3 && !classifier.liveAction)
    throw new CodedError(
      "ATTESTATION_MISMATCH",
      "a tier-3 command that is not a live action reaches the host only as a committed diff (Commit)",
    );
  const roles =
    tier === 0
      ? [Role.ROLE_CLASSIFIER]
      : tier === 3
        ? [Role.ROLE_CLASSIFIER, Role.ROLE_CONCURRENCE, Role.ROLE_BREAKER]
        : [Role.ROLE_CLASSIFIER, Role.ROLE_BREAKER, Role.ROLE_SANDBOX];
  allowed(byRole, roles);
  for (const role of roles) need(byRole, role, `tier ${tier}`);
  if (tier >= 1) leaseCovers(need(byRole, Role.ROLE_BREAKER, "a lease"), tier);
  if (tier === 3 && tierFromEnum(need(byRole, Role.ROLE_CONCURRENCE, "tier 3").tier) === 4)
    throw new CodedError("TIER_REFUSED", "concurrence judged tier 4");
  // The undo plan is signed: the trial's touched list for a package run, the classifier's otherwise.
  const planSigner = packageRun ? need(byRole, Role.ROLE_SANDBOX, "a package run") : classifier;
  if (packageRun && !planSigner.trialOk) throw new CodedError("ATTESTATION_MISSING", "trial report not ok");
  if (tier >= 1 && !sameBytes(planSigner.touchedDigest, touchedDigest(req.undoPaths)))
    throw new CodedError("ATTESTATION_MISMATCH", "undo plan is not the signed one");
  return { tier, byRole, nonces: consume(byRole, replay), packageRun };
}

/** Commit: tiers 1–3 (not a live action), the manifest judged by both judges; returns the final tier (max of all). */
export function checkCommit(
  req: Bound,
  manifestDigest: Buffer,
  pinned: Pinned,
  replay: ReplayMemory,
  now = Math.floor(Date.now() / 1000),
): Verified {
  const byRole = decisions(req, pinned, now);
  const roles = [Role.ROLE_CLASSIFIER, Role.ROLE_BREAKER, Role.ROLE_SANDBOX, Role.ROLE_CLASSIFIER_EFFECTS, Role.ROLE_CONCURRENCE_EFFECTS];
  allowed(byRole, roles);
  const classifier = need(byRole, Role.ROLE_CLASSIFIER, "a commit");
  const predicted = tierFromEnum(classifier.tier);
  if (predicted !== 1 && predicted !== 2 && predicted !== 3)
    throw new CodedError("ATTESTATION_MISMATCH", `a tier-${predicted} command is not committed from a diff`);
  if (classifier.packageRun) throw new CodedError("ATTESTATION_MISMATCH", "a package run is not committed from a diff");
  if (classifier.liveAction) throw new CodedError("ATTESTATION_MISMATCH", "a live action runs on the host (Execute), not from a diff");
  const run = need(byRole, Role.ROLE_SANDBOX, "a commit");
  if (!run.trialOk) throw new CodedError("ATTESTATION_MISSING", "run report not ok");
  let tier: TierNumber = predicted;
  for (const role of [Role.ROLE_SANDBOX, Role.ROLE_CLASSIFIER_EFFECTS, Role.ROLE_CONCURRENCE_EFFECTS]) {
    const d = need(byRole, role, "a commit");
    if (!sameBytes(d.manifestDigest, manifestDigest)) throw new CodedError("ATTESTATION_MISMATCH", `${Role[role]}: another manifest`);
    if (role !== Role.ROLE_SANDBOX) tier = Math.max(tier, tierFromEnum(d.tier)) as TierNumber;
  }
  if (tier === 4) throw new CodedError("TIER_REFUSED", "an effect of the run is tier 4");
  leaseCovers(need(byRole, Role.ROLE_BREAKER, "a commit"), tier);
  return { tier, byRole, nonces: consume(byRole, replay) };
}

/**
 * How old a record a breaker grant may still roll back: the longest command
 * (3600 s), its verify, and the breaker's 10-minute window after the report.
 */
export const BREAKER_GRANT_MAX_AGE_S = 3600 + 900;

/**
 * The breaker grants on the gateway's report of a failed tier-3 verify, so
 * its grant reaches only what that report can honestly name: the record of
 * a recent tier-3 live action, for that action's own request id. Any other
 * record (a committed diff, an old one) needs a person's grant.
 */
function breakerMayUndo(d: Decision, record: UndoOwner | undefined, now: number): void {
  if (!record || !record.live || d.requestId !== record.requestId || now - record.createdAt > BREAKER_GRANT_MAX_AGE_S)
    throw new CodedError(
      "ATTESTATION_MISMATCH",
      "the breaker's grant undoes only a recent tier-3 live action's own record; a person rolls back anything else",
    );
}

/**
 * Rollback: a grant for exactly this undo record, from the breaker or a person. `record` is the undo
 * record's owner, or how to read it: read only for a breaker grant whose signature holds.
 */
export function checkGrant(
  grant: Attestation | undefined,
  undoId: string,
  host: string,
  pinned: Pinned,
  replay: ReplayMemory,
  now = Math.floor(Date.now() / 1000),
  record?: UndoOwner | (() => UndoOwner | undefined),
): { signer: string; nonces: NonceEntry[] } {
  if (!grant) throw new CodedError("ATTESTATION_MISSING", "a rollback needs a signed grant");
  const d = checkOne(grant, pinned, rollbackDigest(undoId, host), undefined, host, now);
  if (d.role !== Role.ROLE_BREAKER_GRANT && d.role !== Role.ROLE_OPERATOR)
    throw new CodedError("ATTESTATION_MISMATCH", "only the breaker or a person grants a rollback");
  if (d.role === Role.ROLE_BREAKER_GRANT) breakerMayUndo(d, typeof record === "function" ? record() : record, now);
  const byRole = new Map([[d.role, d]]);
  return { signer: grant.signer, nonces: consume(byRole, replay) };
}
