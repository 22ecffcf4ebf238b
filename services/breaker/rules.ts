// The trip rules: sliding windows over the outcomes the gateway reports.
// Pure and clock-injected, so the rules can be tested without a process.
// The windows live in memory: a restart of the breaker forgets them (the
// disarmed state itself is persisted, see state.ts).
import type { TierNumber } from "../shared/tier.js";
import type { BreakerSettings } from "./settings.js";

export interface ReportedOutcome {
  tier: TierNumber;
  ok: boolean;
  refused: boolean;
}

export type TripRule = "tier3-failures" | "tier4-attempt" | "request-rate" | "failure-ratio";

export interface Trip {
  rule: TripRule;
  reason: string;
}

const MINUTE_MS = 60_000;

export class TripRules {
  private tier3Failures: number[] = [];
  private requests: number[] = [];
  /** The last M tier 1–3 outcomes, true = failed. */
  private recent: boolean[] = [];

  constructor(private readonly s: BreakerSettings) {}

  /** Records one outcome at `now` (ms); returns the trip it causes, if any. */
  observe(o: ReportedOutcome, now: number): Trip | undefined {
    this.requests.push(now);
    this.requests = this.requests.filter((t) => now - t < MINUTE_MS);
    if (o.tier === 4) {
      if (this.s.trip_on_tier4) return { rule: "tier4-attempt", reason: "a tier-4 command was attempted" };
      return this.rateTrip();
    }
    if (o.tier === 3 && !o.ok) {
      const windowMs = this.s.tier3_window_min * MINUTE_MS;
      this.tier3Failures.push(now);
      this.tier3Failures = this.tier3Failures.filter((t) => now - t < windowMs);
      if (this.tier3Failures.length >= this.s.tier3_failures) {
        return {
          rule: "tier3-failures",
          reason: `${this.tier3Failures.length} tier-3 failures within ${this.s.tier3_window_min} min (limit ${this.s.tier3_failures})`,
        };
      }
    }
    if (o.tier >= 1) {
      this.recent.push(!o.ok);
      if (this.recent.length > this.s.failure_ratio_last) this.recent.shift();
      if (this.recent.length >= this.s.failure_ratio_last) {
        const failed = this.recent.filter(Boolean).length;
        const ratio = failed / this.recent.length;
        if (ratio > this.s.max_failure_ratio) {
          return {
            rule: "failure-ratio",
            reason: `${failed} of the last ${this.recent.length} tier 1–3 outcomes failed (ratio ${ratio.toFixed(2)} > ${this.s.max_failure_ratio})`,
          };
        }
      }
    }
    return this.rateTrip();
  }

  private rateTrip(): Trip | undefined {
    if (this.requests.length > this.s.max_requests_per_min) {
      return { rule: "request-rate", reason: `${this.requests.length} requests in the last minute (limit ${this.s.max_requests_per_min}/min)` };
    }
    return undefined;
  }

  /** Forgets every window (on rearm: old failures must not re-trip at once). */
  reset(): void {
    this.tier3Failures = [];
    this.requests = [];
    this.recent = [];
  }
}
