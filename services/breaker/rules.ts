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

export type TripRule = "tier3-failures" | "tier4-attempt" | "request-rate" | "failure-ratio" | "command-mix";

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
  /** The latest mix_last + mix_baseline outcomes of any tier, true = tier ≥ 2. */
  private mix: boolean[] = [];

  constructor(private readonly s: BreakerSettings) {}

  /** Records one outcome at `now` (ms); returns the trip it causes, if any. */
  observe(o: ReportedOutcome, now: number): Trip | undefined {
    this.requests.push(now);
    this.requests = this.requests.filter((t) => now - t < MINUTE_MS);
    const mix = this.mixTrip(o.tier >= 2);
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
    return mix ?? this.rateTrip();
  }

  /**
   * Seed D9's command-mix anomaly: the share of tier ≥ 2 among the latest
   * mix_last outcomes rose more than mix_max_rise above its share among the
   * mix_baseline outcomes before them (an agent that suddenly does far more
   * dangerous work than it used to).
   */
  private mixTrip(high: boolean): Trip | undefined {
    this.mix.push(high);
    const keep = this.s.mix_last + this.s.mix_baseline;
    if (this.mix.length > keep) this.mix.shift();
    if (this.mix.length < keep) return undefined;
    const share = (xs: boolean[]) => xs.filter(Boolean).length / xs.length;
    const base = share(this.mix.slice(0, this.s.mix_baseline));
    const recent = share(this.mix.slice(this.s.mix_baseline));
    if (recent - base <= this.s.mix_max_rise) return undefined;
    return {
      rule: "command-mix",
      reason: `tier ≥ 2 made ${Math.round(recent * 100)}% of the last ${this.s.mix_last} outcomes, against ${Math.round(base * 100)}% of the ${this.s.mix_baseline} before them (a rise over ${this.s.mix_max_rise})`,
    };
  }

  private rateTrip(): Trip | undefined {
    if (this.requests.length > this.s.max_requests_per_min) {
      return {
        rule: "request-rate",
        reason: `${this.requests.length} requests in the last minute (limit ${this.s.max_requests_per_min}/min)`,
      };
    }
    return undefined;
  }

  /** Forgets every window (on rearm: old failures must not re-trip at once). */
  reset(): void {
    this.tier3Failures = [];
    this.requests = [];
    this.recent = [];
    this.mix = [];
  }
}
