// GatewayMetrics read back through a Prometheus text-format parser: what the
// audit trail and the HTTP handler report moves the right series, labels stay
// in their closed sets, and the breaker's gauges say when it did not answer.
import { afterEach, describe, expect, it } from "vitest";
import type { BreakerStatus } from "../../../proto/gen/agent_sudo/v1/breaker_admin_pb.js";
import { DECISION_TYPES } from "../audit/record.js";
import { histogramCount, labelValues, parseMetrics, parserMissing, sample, total } from "../../../test/support/prometheus.js";
import { GatewayMetrics, type MetricSources } from "./gateway-metrics.js";

const armed: BreakerStatus = { armed: true, rule: "", reason: "", since: 1, events: [], rearms: [] };
const tripped: BreakerStatus = {
  armed: false,
  rule: "tier4",
  reason: "a tier-4 attempt",
  since: 1700000100,
  events: [
    { at: 1700000000, kind: "trip", rule: "manual", reason: "x", by: "ops" },
    { at: 1700000050, kind: "rearm", rule: "", reason: "checked", by: "root" },
    { at: 1700000100, kind: "trip", rule: "tier4", reason: "a tier-4 attempt", by: "breaker" },
  ],
  rearms: [],
};

let metrics: GatewayMetrics | undefined;
afterEach(() => metrics?.close());

function make(over: Partial<MetricSources> = {}): GatewayMetrics {
  metrics = new GatewayMetrics(
    {
      host: "primary",
      spool: () => ({ depth: 0, segments: 1, rejected_total: 0 }),
      shipper: () => ({ state: "ok", shipped_total: 7 }),
      unauditedRefusals: () => 0,
      breaker: async () => armed,
      ...over,
    },
    DECISION_TYPES,
  );
  return metrics;
}

const scrape = async (m: GatewayMetrics) => parseMetrics(await m.registry.metrics());
// prom-client's own default metrics are in the same text: the parser must read all of it.

const skip = parserMissing();

describe.skipIf(skip)(`gateway metrics${skip ? ` — ${skip}` : ""}`, () => {
  it("an executed /exec request moves decisions, stage and request histograms, and its trial", async () => {
    const m = make();
    m.observeOutcome({
      source: "http",
      decision: "executed",
      tier: 2,
      durationMs: 1500,
      evidence: { stages_ms: { classify: 3.5, run: 900, judge: 20, commit: 40, bogus: 5 }, run: { ok: true } },
    });
    m.observeOutcome({
      source: "http",
      decision: "sandbox_failed",
      tier: 2,
      durationMs: 800,
      evidence: { stages_ms: { classify: 2 }, run: { ok: false } },
    });
    m.observeOutcome({ source: "http", decision: "refused", tier: 1, durationMs: 500, evidence: { http_status: 409, run: { ok: true } } });
    m.observeOutcome({
      source: "http",
      decision: "executed",
      tier: 3,
      durationMs: 90_000,
      evidence: { trial: { ok: true, timed_out: true } },
    });
    const f = await scrape(m);
    expect(sample(f, "agent_sudo_decisions_total", { source: "http", decision: "executed", tier: "2" })).toBe(1);
    expect(sample(f, "agent_sudo_decisions_total", { source: "http", decision: "sandbox_failed", tier: "2" })).toBe(1);
    expect(histogramCount(f, "agent_sudo_stage_duration_seconds", { stage: "classify" })).toBe(2);
    expect(histogramCount(f, "agent_sudo_stage_duration_seconds", { stage: "run" })).toBe(1);
    expect(labelValues(f, "agent_sudo_stage_duration_seconds_count", "stage")).toEqual(["classify", "commit", "judge", "run"]);
    expect(histogramCount(f, "agent_sudo_request_duration_seconds", { tier: "2" })).toBe(2);
    expect(sample(f, "agent_sudo_trials_total", { kind: "mirror", outcome: "ok" })).toBe(1);
    expect(sample(f, "agent_sudo_trials_total", { kind: "mirror", outcome: "failed" })).toBe(1);
    expect(sample(f, "agent_sudo_trials_total", { kind: "mirror", outcome: "conflict" })).toBe(1);
    expect(sample(f, "agent_sudo_trials_total", { kind: "package", outcome: "timed_out" })).toBe(1);
  });

  it("hook answers count by kind; the client's own outcomes are decisions but not hook answers", async () => {
    const m = make();
    for (const decision of ["allowed", "allowed", "denied", "routed", "no_opinion", "late", "hook_outcome"])
      m.observeOutcome({ source: "hook", decision, tier: 0, durationMs: undefined, evidence: {} });
    const f = await scrape(m);
    expect(sample(f, "agent_sudo_hook_decisions_total", { decision: "allowed", tier: "0" })).toBe(2);
    expect(total(f, "agent_sudo_hook_decisions_total")).toBe(6);
    expect(sample(f, "agent_sudo_decisions_total", { source: "hook", decision: "hook_outcome" })).toBe(1);
    expect(histogramCount(f, "agent_sudo_request_duration_seconds", { source: "hook" })).toBe(0);
  });

  it("labels stay in closed sets: an odd path, decision or tier becomes 'other' or 'none'", async () => {
    const m = make();
    m.observeAnswer("/exec", 200, 0);
    m.observeAnswer("/../../etc/passwd?x=1", 404, undefined);
    m.observeAnswer("/exec", 403, "4; drop table");
    m.observeOutcome({ source: "http", decision: "made-up", tier: 9, durationMs: 1, evidence: {} });
    const f = await scrape(m);
    expect(sample(f, "agent_sudo_requests_total", { route: "/exec", status: "200", tier: "0" })).toBe(1);
    expect(sample(f, "agent_sudo_requests_total", { route: "other", status: "404", tier: "none" })).toBe(1);
    expect(sample(f, "agent_sudo_requests_total", { route: "/exec", status: "403", tier: "none" })).toBe(1);
    expect(sample(f, "agent_sudo_decisions_total", { decision: "other", tier: "none" })).toBe(1);
    expect(labelValues(f, "agent_sudo_requests_total", "route")).toEqual(["/exec", "other"]);
  });

  it("breaker gauges: armed, then tripped with its trips; a breaker that does not answer is status_up 0 and no armed figure", async () => {
    let status: BreakerStatus | Error = armed;
    const m = make({ breaker: async () => (status instanceof Error ? Promise.reject(status) : status) });
    let f = await scrape(m);
    expect(sample(f, "agent_sudo_breaker_armed")).toBe(1);
    expect(sample(f, "agent_sudo_breaker_trips_recorded")).toBe(0);
    await new Promise((r) => setTimeout(r, 600)); // one status read per scrape (cached 500 ms)
    status = tripped;
    f = await scrape(m);
    expect(sample(f, "agent_sudo_breaker_status_up")).toBe(1);
    expect(sample(f, "agent_sudo_breaker_armed")).toBe(0);
    expect(sample(f, "agent_sudo_breaker_trips_recorded")).toBe(2);
    expect(sample(f, "agent_sudo_breaker_last_trip_timestamp_seconds")).toBe(1700000100);
    await new Promise((r) => setTimeout(r, 600));
    status = new Error("UNAVAILABLE");
    f = await scrape(m);
    expect(sample(f, "agent_sudo_breaker_status_up")).toBe(0);
    expect(sample(f, "agent_sudo_breaker_armed")).toBeUndefined();
  });

  it("spool and shipper: depth, shipped, shipper up; lag grows only while records wait without progress", async () => {
    let depth = 0;
    let shipped = 7;
    const m = make({
      spool: () => ({ depth, segments: 2, rejected_total: 1 }),
      shipper: () => ({ state: depth > 0 ? "retrying" : "ok", shipped_total: shipped }),
    });
    let f = await scrape(m);
    expect(sample(f, "agent_sudo_audit_spool_depth")).toBe(0);
    expect(sample(f, "agent_sudo_audit_shipper_lag_seconds")).toBe(0);
    expect(sample(f, "agent_sudo_audit_shipper_up")).toBe(1);
    expect(sample(f, "agent_sudo_audit_shipped_records")).toBe(7);
    depth = 5;
    await new Promise((r) => setTimeout(r, 2300));
    f = await scrape(m);
    expect(sample(f, "agent_sudo_audit_spool_depth")).toBe(5);
    expect(sample(f, "agent_sudo_audit_shipper_up")).toBe(0);
    expect(sample(f, "agent_sudo_audit_shipper_lag_seconds")).toBeGreaterThanOrEqual(1);
    shipped = 9; // progress: the lag starts again
    await new Promise((r) => setTimeout(r, 1200));
    expect(m.lagSeconds()).toBeLessThan(1.5);
    const none = make({ shipper: () => undefined });
    expect(sample(await scrape(none), "agent_sudo_audit_shipper_up")).toBeUndefined();
  });
});
