import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { TripRules } from "./rules.js";
import { BreakerSettingsShape, breakerSettingsFromEnv } from "./settings.js";

const defaults = BreakerSettingsShape.parse({});
const MIN = 60_000;

describe("trip rules", () => {
  it("trips on the third tier-3 failure within 10 minutes, not on two", () => {
    const r = new TripRules(defaults);
    expect(r.observe({ tier: 3, ok: false, refused: false }, 0)).toBeUndefined();
    expect(r.observe({ tier: 3, ok: false, refused: false }, 4 * MIN)).toBeUndefined();
    expect(r.observe({ tier: 3, ok: false, refused: false }, 9 * MIN)?.rule).toBe("tier3-failures");
  });

  it("lets old tier-3 failures slide out of the window", () => {
    const r = new TripRules(defaults);
    r.observe({ tier: 3, ok: false, refused: false }, 0);
    r.observe({ tier: 3, ok: false, refused: false }, 5 * MIN);
    expect(r.observe({ tier: 3, ok: false, refused: false }, 10 * MIN + 1)).toBeUndefined();
    expect(r.observe({ tier: 3, ok: false, refused: false }, 11 * MIN)?.rule).toBe("tier3-failures");
  });

  it("trips on any tier-4 attempt by default, and not when configured off", () => {
    expect(new TripRules(defaults).observe({ tier: 4, ok: false, refused: true }, 0)?.rule).toBe("tier4-attempt");
    const off = new TripRules({ ...defaults, trip_on_tier4: false });
    expect(off.observe({ tier: 4, ok: false, refused: true }, 0)).toBeUndefined();
  });

  it("trips on a shift in the command mix: the share of tier ≥ 2 far above its baseline, not on a steady mix", () => {
    const small = { ...defaults, mix_last: 10, mix_baseline: 50, max_requests_per_min: 100_000, trip_on_tier4: false };
    const shift = new TripRules(small);
    let t = 0;
    // A baseline of mostly tier 0 (1 in 10 is tier 2) …
    for (let i = 0; i < 50; i++)
      expect(shift.observe({ tier: i % 10 === 0 ? 2 : 0, ok: true, refused: false }, (t += 1000))).toBeUndefined();
    // … then tier 2 and 3 only: the share goes from 10% towards 100%, and trips once the rise passes 0.5.
    const trips = [];
    for (let i = 0; i < 10; i++) trips.push(shift.observe({ tier: i % 2 === 0 ? 2 : 3, ok: true, refused: false }, (t += 1000))?.rule);
    expect(trips.filter((x) => x === "command-mix")).not.toHaveLength(0);
    expect(trips.slice(0, 5)).toEqual([undefined, undefined, undefined, undefined, undefined]);
    // A steady mix (half tier 2) never trips, however long it runs.
    const steady = new TripRules(small);
    for (let i = 0; i < 500; i++)
      expect(steady.observe({ tier: i % 2 === 0 ? 2 : 0, ok: true, refused: false }, (t += 1000))).toBeUndefined();
    // Nothing is judged before a whole baseline was seen; 1 turns the rule off.
    const young = new TripRules(small);
    for (let i = 0; i < 59; i++) expect(young.observe({ tier: i < 49 ? 0 : 2, ok: true, refused: false }, (t += 1000))).toBeUndefined();
    const off = new TripRules({ ...small, mix_max_rise: 1 });
    for (let i = 0; i < 50; i++) off.observe({ tier: 0, ok: true, refused: false }, (t += 1000));
    for (let i = 0; i < 20; i++) expect(off.observe({ tier: 2, ok: true, refused: false }, (t += 1000))).toBeUndefined();
  });

  it("trips when the request rate passes R per sliding minute", () => {
    const r = new TripRules({ ...defaults, max_requests_per_min: 10 });
    for (let i = 0; i < 10; i++) expect(r.observe({ tier: 0, ok: true, refused: false }, i * 100)).toBeUndefined();
    expect(r.observe({ tier: 0, ok: true, refused: false }, 1100)?.rule).toBe("request-rate");
    const slow = new TripRules({ ...defaults, max_requests_per_min: 10 });
    for (let i = 0; i < 30; i++) expect(slow.observe({ tier: 0, ok: true, refused: false }, i * 7000)).toBeUndefined();
  });

  it("trips when more than F of the last M tier 1–3 outcomes failed, ignoring tier 0", () => {
    const r = new TripRules({ ...defaults, failure_ratio_last: 4, max_failure_ratio: 0.5 });
    for (let i = 0; i < 50; i++) expect(r.observe({ tier: 0, ok: false, refused: false }, i)).toBeUndefined();
    expect(r.observe({ tier: 1, ok: false, refused: false }, 100)).toBeUndefined();
    expect(r.observe({ tier: 1, ok: true, refused: false }, 101)).toBeUndefined();
    expect(r.observe({ tier: 2, ok: false, refused: false }, 102)).toBeUndefined(); // 2 of 3: not yet M
    expect(r.observe({ tier: 1, ok: true, refused: false }, 103)).toBeUndefined(); // 2 of 4 = 0.5: not above
    expect(r.observe({ tier: 2, ok: false, refused: false }, 104)).toBeUndefined(); // the window slides: still 2 of 4
    expect(r.observe({ tier: 3, ok: true, refused: true }, 105)).toBeUndefined(); // still 2 of 4
    expect(r.observe({ tier: 1, ok: false, refused: true }, 106)).toBeUndefined(); // still 2 of 4
    expect(r.observe({ tier: 1, ok: false, refused: false }, 107)?.rule).toBe("failure-ratio"); // 3 of 4
  });

  it("forgets its windows on reset", () => {
    const r = new TripRules(defaults);
    r.observe({ tier: 3, ok: false, refused: false }, 0);
    r.observe({ tier: 3, ok: false, refused: false }, 1);
    r.reset();
    expect(r.observe({ tier: 3, ok: false, refused: false }, 2)).toBeUndefined();
  });

  it("never trips on successes at a modest rate (property)", () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(0, 1, 2, 3), { maxLength: 300 }), (tiers) => {
        const r = new TripRules(defaults);
        return tiers.every((tier, i) => r.observe({ tier: tier as 0 | 1 | 2 | 3, ok: true, refused: false }, i * 1000) === undefined);
      }),
    );
  });

  it("always trips within N tier-3 failures inside the window (property)", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10 }), fc.integer({ min: 1, max: 60 }), (n, w) => {
        const r = new TripRules({ ...defaults, tier3_failures: n, tier3_window_min: w });
        let tripped = false;
        for (let i = 0; i < n; i++) tripped = r.observe({ tier: 3, ok: false, refused: false }, i) !== undefined;
        return tripped;
      }),
    );
  });
});

describe("breaker settings from the environment", () => {
  it("reads and validates AGENT_SUDO_BREAKER_*", () => {
    expect(breakerSettingsFromEnv({})).toEqual(defaults);
    expect(defaults).toMatchObject({ tier3_failures: 3, tier3_window_min: 10, trip_on_tier4: true, lease_ttl_s: 10 });
    const s = breakerSettingsFromEnv({
      AGENT_SUDO_BREAKER_TIER3_FAILURES: "5",
      AGENT_SUDO_BREAKER_TRIP_ON_TIER4: "off",
      AGENT_SUDO_BREAKER_MAX_FAILURE_RATIO: "0.25",
    });
    expect(s).toMatchObject({ tier3_failures: 5, trip_on_tier4: false, max_failure_ratio: 0.25 });
    expect(() => breakerSettingsFromEnv({ AGENT_SUDO_BREAKER_TIER3_FAILURES: "0" })).toThrow(/TIER3_FAILURES/);
    expect(() => breakerSettingsFromEnv({ AGENT_SUDO_BREAKER_TRIP_ON_TIER4: "maybe" })).toThrow(/TRIP_ON_TIER4/);
    expect(() => breakerSettingsFromEnv({ AGENT_SUDO_BREAKER_LEASE_TTL_S: "600" })).toThrow(/LEASE_TTL_S/);
  });
});
