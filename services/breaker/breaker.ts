// The breaker's decisions, apart from its sockets: leases while armed,
// trip rules over reported outcomes, manual trips and person-made rearms,
// each change persisted before it takes effect and announced on ntfy.
import type { KeyObject } from "node:crypto";
import type {
  LeaseRequest,
  LeaseResponse,
  Outcome,
  RollbackGrantRequest,
  RollbackGrantResponse,
} from "../../proto/gen/agent_sudo/v1/breaker_pb.js";
import { rollbackDigest } from "../shared/attestation.js";
import type { BreakerEvent, BreakerStatus } from "../../proto/gen/agent_sudo/v1/breaker_admin_pb.js";
import { Role, Tier } from "../../proto/gen/agent_sudo/v1/decision_pb.js";
import { CodedError } from "../shared/errors.js";
import type { Logger } from "../shared/log.js";
import { PRIORITY, type Notifier } from "../shared/ntfy.js";
import { BREAKER_PAGE } from "../shared/console-url.js";
import { tierFromEnum } from "../shared/tier.js";
import { LeasedIds, signLease } from "./lease.js";
import type { TripRules } from "./rules.js";
import type { BreakerSettings } from "./settings.js";
import type { BreakerEventRecord, BreakerState } from "./state.js";

const REARM_HINT = "a person re-arms it with `agent-sudo breaker rearm --reason …` as root";

function toEvent(e: BreakerEventRecord): BreakerEvent {
  return { at: e.at, kind: e.kind, rule: e.rule, reason: e.reason, by: e.by };
}

/** How long after its failed verify a tier-3 undo record may be rolled back on the breaker's word. */
const ROLLBACK_WINDOW_MS = 10 * 60_000;
const GRANT_TTL_S = 30;

export class Breaker {
  private readonly leased = new LeasedIds();
  private outcomes = 0;
  /** Undo records of tier-3 commands reported failed (with the reporting request id), each good for one grant. */
  private readonly rollbackable = new Map<string, { requestId: string; until: number }>();

  constructor(
    private readonly state: BreakerState,
    private readonly rules: TripRules,
    private readonly settings: BreakerSettings,
    private readonly key: KeyObject,
    private readonly notifier: Notifier,
    private readonly host: string,
    private readonly log: Logger,
  ) {}

  /** A signed lease while armed; never one for tier 0 (not needed) or 4 (never). */
  lease(req: LeaseRequest, log: Logger): LeaseResponse {
    if (req.tier === Tier.TIER_REFUSE) {
      log.warn("lease asked for a tier-4 command");
      this.observe({ tier: 4, ok: false, refused: true }, log);
      return { armed: false, reason: "no lease is ever issued for tier 4", lease: undefined };
    }
    if (req.tier !== Tier.TIER_REVERSIBLE && req.tier !== Tier.TIER_SANDBOX_FIRST && req.tier !== Tier.TIER_LIVE_SERVICE) {
      throw new CodedError("BAD_REQUEST", "tier");
    }
    if (!this.state.armed) {
      const v = this.state.view();
      return { armed: false, reason: `disarmed by ${v.rule}: ${v.reason}; ${REARM_HINT}`, lease: undefined };
    }
    const nowMs = Date.now();
    const ttl = this.settings.lease_ttl_s;
    if (!this.leased.claim(req.requestId, nowMs, nowMs + ttl * 1000)) throw new CodedError("REFUSED", "request id already holds a lease");
    return { armed: true, reason: "armed", lease: signLease(this.key, req, ttl, Math.floor(nowMs / 1000)) };
  }

  report(o: Outcome, log: Logger): void {
    this.outcomes++;
    const now = Date.now();
    if (tierFromEnum(o.tier) === 3 && !o.ok && !o.refused && o.undoId) {
      for (const [id, r] of this.rollbackable) if (r.until <= now) this.rollbackable.delete(id);
      if (this.rollbackable.size < 1024) this.rollbackable.set(o.undoId, { requestId: o.requestId, until: now + ROLLBACK_WINDOW_MS });
    }
    // A tier-4 attempt nobody can see afterwards disarms, whatever trip_on_tier4 says.
    if (tierFromEnum(o.tier) === 4 && o.unaudited)
      this.trip("unaudited-tier4", `a tier-4 attempt (request ${o.requestId}) was refused but could not be audited`, "breaker", log);
    else this.observe({ tier: tierFromEnum(o.tier), ok: o.ok, refused: o.refused }, log);
  }

  /**
   * A signed rollback request, only for the undo record of a tier-3 command
   * this breaker heard fail (its verify), once, within the window. Given
   * while disarmed too: putting a failed change back only makes the host
   * safer. Any other undo record needs a person (keys/operator.key).
   */
  grantRollback(req: RollbackGrantRequest, log: Logger): RollbackGrantResponse {
    // The grant names the request that reported the failure (the executor checks it owns the record): no other asks for it.
    const reported = this.rollbackable.get(req.undoId);
    if (reported === undefined || reported.until <= Date.now() || reported.requestId !== req.requestId) {
      log.warn({ undo_id: req.undoId }, "rollback grant refused: no failed tier-3 outcome of this request with this undo id");
      return {
        granted: false,
        reason: "no failed tier-3 outcome of this request with this undo id was reported (or its window passed); a person rolls it back",
        grant: undefined,
      };
    }
    this.rollbackable.delete(req.undoId);
    const lease = {
      requestId: req.requestId,
      commandDigest: rollbackDigest(req.undoId, this.host),
      tier: Tier.TIER_UNSPECIFIED,
      host: this.host,
    };
    log.warn({ undo_id: req.undoId }, "rollback granted after a failed tier-3 verify");
    return {
      granted: true,
      reason: "failed tier-3 verify",
      grant: signLease(this.key, lease, GRANT_TTL_S, Math.floor(Date.now() / 1000), "rollback", Role.ROLE_BREAKER_GRANT),
    };
  }

  private observe(o: Parameters<TripRules["observe"]>[0], log: Logger): void {
    if (!this.state.armed) return;
    const trip = this.rules.observe(o, Date.now());
    if (trip) this.trip(trip.rule, trip.reason, "breaker", log);
  }

  /** Disarms (persisted first), then queues the urgent notification. */
  trip(rule: string, reason: string, by: string, log: Logger = this.log): void {
    if (!this.state.trip(rule, reason, by)) {
      log.info({ rule, reason, by }, "trip asked while already disarmed");
      return;
    }
    log.error({ rule, reason, by }, "BREAKER TRIPPED: disarmed, no leases; only tier 0 executes");
    this.announceTrip();
  }

  /** Re-queues the trip notification when a restart finds it undelivered. */
  announcePending(): void {
    const v = this.state.view();
    if (!v.armed && !v.notified) this.announceTrip();
  }

  private announceTrip(): void {
    const v = this.state.view();
    this.notifier.notify({
      title: `agent-sudo breaker tripped on ${this.host}`,
      body: `Disarmed by ${v.rule}: ${v.reason}. Only tier 0 (read-only) executes; ${REARM_HINT}.`,
      priority: PRIORITY.urgent,
      tags: ["rotating_light", "agent-sudo", "breaker"],
      link: BREAKER_PAGE,
      onDelivered: () => this.state.markNotified(),
    });
  }

  /** A person's act, through the root-only socket: logged loudly, recorded, announced. */
  rearm(reason: string, by: string, log: Logger = this.log): void {
    const before = this.state.view();
    this.state.rearm(reason, by);
    this.rules.reset();
    log.warn(
      { by, reason, was_armed: before.armed, tripped_by: before.rule, tripped_reason: before.reason },
      "BREAKER RE-ARMED BY A PERSON: leases are issued again",
    );
    this.notifier.notify({
      title: `agent-sudo breaker re-armed on ${this.host}`,
      body: `Re-armed by ${by}: ${reason}.${before.armed ? " (it was already armed)" : ` It had been disarmed by ${before.rule}: ${before.reason}.`}`,
      priority: PRIORITY.high,
      tags: ["white_check_mark", "agent-sudo", "breaker"],
    });
  }

  status(): BreakerStatus {
    const v = this.state.view();
    const events = v.events.map(toEvent);
    return { armed: v.armed, rule: v.rule, reason: v.reason, since: v.since, events, rearms: events.filter((e) => e.kind === "rearm") };
  }

  healthDetail(): string {
    const v = this.state.view();
    const head = v.armed ? "armed" : `disarmed by ${v.rule}: ${v.reason}`;
    return `${head}; ${this.outcomes} outcomes heard`;
  }
}
