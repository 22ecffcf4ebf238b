// Armed leases: a Decision signed with the breaker's key (role BREAKER) that
// binds one request id, one command digest, the tier and the host, and lives
// lease_ttl_s seconds. One lease per request id while it is live: asking
// twice for the same id is refused (a replaying or confused gateway).
import { randomBytes, sign, type KeyObject } from "node:crypto";
import { Attestation, Decision, Role, type Tier } from "../../proto/gen/agent_sudo/v1/decision_pb.js";

export interface LeaseBinding {
  requestId: string;
  commandDigest: Uint8Array;
  tier: Tier;
  host: string;
}

/** A lease (role BREAKER), or with `role` BREAKER_GRANT a rollback grant. */
export function signLease(
  key: KeyObject,
  b: LeaseBinding,
  ttlS: number,
  now = Math.floor(Date.now() / 1000),
  rule = "armed",
  role: Role = Role.ROLE_BREAKER,
): Attestation {
  const decision = Decision.create({
    role,
    requestId: b.requestId,
    commandDigest: Buffer.from(b.commandDigest),
    tier: b.tier,
    host: b.host,
    issuedAt: now,
    expiresAt: now + ttlS,
    nonce: randomBytes(16),
    rule,
  });
  const bytes = Buffer.from(Decision.encode(decision).finish());
  return Attestation.create({ signer: "breaker", decision: bytes, signature: sign(null, bytes, key) });
}

/** Request ids holding a live lease, forgotten once the lease has expired. */
export class LeasedIds {
  private readonly live = new Map<string, number>();

  /** Claims `id` until `expiresAtMs`; false when it already holds a live lease. */
  claim(id: string, nowMs: number, expiresAtMs: number): boolean {
    if (this.live.size > 4096) this.prune(nowMs);
    const held = this.live.get(id);
    if (held !== undefined && held > nowMs) return false;
    this.live.set(id, expiresAtMs);
    return true;
  }

  private prune(nowMs: number): void {
    for (const [id, until] of this.live) if (until <= nowMs) this.live.delete(id);
  }
}
