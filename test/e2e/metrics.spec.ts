// GET /metrics on a real stack, read with the Prometheus project's own
// text-format parser: refused without its own token (an /exec token is not
// one), and its figures move as /exec and hook requests are made. With the
// console off, the tier-4 notification carries no console link.
import { request } from "node:http";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startOperatorStack, type OperatorStack } from "../support/operator-stack.js";
import { histogramCount, labelValues, parseMetrics, parserMissing, sample, total, type Families } from "../support/prometheus.js";
import { startNtfySink, type NtfySink } from "../tier3/ntfy-sink.js";

const skip = parserMissing();

function hook(home: string, body: unknown): Promise<number> {
  return new Promise((resolve, reject) => {
    const payload = JSON.stringify(body);
    const req = request(
      {
        socketPath: join(home, "run", "hook.sock"),
        path: "/v1/hook",
        method: "POST",
        headers: { "content-type": "application/json", "content-length": Buffer.byteLength(payload) },
      },
      (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode ?? 0));
      },
    );
    req.on("error", reject);
    req.end(payload);
  });
}

describe.skipIf(skip)(`GET /metrics on a real stack${skip ? ` — ${skip}` : ""}`, () => {
  let op: OperatorStack;
  let sink: NtfySink;
  beforeAll(async () => {
    sink = await startNtfySink();
    op = await startOperatorStack({ console: false, env: { AGENT_SUDO_NTFY_URL: sink.url } });
  }, 180_000);
  afterAll(async () => {
    await op?.stop();
    await sink?.close();
  });

  const get = (token?: string, path = "/metrics", method = "GET") =>
    fetch(`${op.stack.url}${path}`, { method, headers: token ? { authorization: `Bearer ${token}` } : {} });
  async function scrape(): Promise<Families> {
    const res = await get(op.metricsToken);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
    return parseMetrics(await res.text());
  }

  it("refuses without a token, with an /exec caller's token and with a wrong one; only GET", async () => {
    expect((await get()).status).toBe(401);
    expect((await get(op.stack.token)).status).toBe(401);
    expect((await get(`${op.metricsToken}x`)).status).toBe(401);
    expect((await get(op.metricsToken, "/metrics", "POST")).status).toBe(405);
    const refused = await get(op.stack.token);
    expect(await refused.text()).not.toContain("agent_sudo_");
  });

  it("is Prometheus text, and its figures move as requests are made", async () => {
    const before = await scrape();
    expect(sample(before, "agent_sudo_breaker_armed", { host: "primary" })).toBe(1);
    expect(sample(before, "agent_sudo_breaker_trips_recorded")).toBe(0);
    expect(sample(before, "agent_sudo_audit_shipper_up")).toBe(1);
    expect(sample(before, "agent_sudo_audit_spool_depth")).toBeGreaterThanOrEqual(0);

    const ok = await op.stack.exec({ command: "echo metrics-e2e" });
    expect(ok.status).toBe(200);
    const refused = await op.stack.exec({ command: "rm -rf /" });
    expect(refused.status).toBe(403);
    expect(
      await hook(op.home, {
        hook_event_name: "PreToolUse",
        tool_name: "Bash",
        tool_input: { command: "git status" },
        cwd: "/home/dev/project",
        session_id: "s",
        tool_use_id: "t1",
      }),
    ).toBe(200);
    expect((await get(undefined, "/no-such-route-xyz")).status).toBe(404);

    // The hook's record is written after its answer: wait until it is counted.
    let after = await scrape();
    for (let i = 0; i < 50 && total(after, "agent_sudo_hook_decisions_total") < 1; i++) {
      await new Promise((r) => setTimeout(r, 100));
      after = await scrape();
    }
    const moved = (name: string, labels: Record<string, string>) => total(after, name, labels) - total(before, name, labels);
    expect(moved("agent_sudo_requests_total", { route: "/exec", status: "200", tier: "0" })).toBe(1);
    expect(moved("agent_sudo_requests_total", { route: "/exec", status: "403", tier: "4" })).toBe(1);
    expect(moved("agent_sudo_requests_total", { route: "/v1/hook", status: "200" })).toBe(1);
    expect(moved("agent_sudo_requests_total", { route: "other", status: "404" })).toBe(1);
    expect(labelValues(after, "agent_sudo_requests_total", "route")).not.toContain("/no-such-route-xyz");
    expect(moved("agent_sudo_decisions_total", { source: "http", decision: "executed", tier: "0" })).toBe(1);
    expect(moved("agent_sudo_decisions_total", { source: "http", decision: "refused", tier: "4" })).toBe(1);
    expect(moved("agent_sudo_hook_decisions_total", { decision: "allowed", tier: "0" })).toBe(1);
    expect(
      histogramCount(after, "agent_sudo_stage_duration_seconds", { stage: "classify" }) -
        histogramCount(before, "agent_sudo_stage_duration_seconds", { stage: "classify" }),
    ).toBe(2);
    expect(
      histogramCount(after, "agent_sudo_stage_duration_seconds", { stage: "execute" }) -
        histogramCount(before, "agent_sudo_stage_duration_seconds", { stage: "execute" }),
    ).toBe(1);
    expect(
      histogramCount(after, "agent_sudo_request_duration_seconds", { tier: "0" }) -
        histogramCount(before, "agent_sudo_request_duration_seconds", { tier: "0" }),
    ).toBe(1);
    // The tier-4 attempt disarmed the breaker (trip_on_tier4 by default).
    expect(sample(after, "agent_sudo_breaker_armed", { host: "primary" })).toBe(0);
    expect(sample(after, "agent_sudo_breaker_trips_recorded")).toBe(1);
    expect(sample(after, "agent_sudo_breaker_last_trip_timestamp_seconds")).toBeGreaterThan(Date.now() / 1000 - 600);
    // The refused scrapes of the first test were counted too.
    expect(total(after, "agent_sudo_requests_total", { route: "/metrics", status: "401" })).toBeGreaterThanOrEqual(3);
  });

  it("with the console off, the tier-4 notification has no console link", async () => {
    const msg = await sink.waitFor((r) => String(r.headers.title ?? "").includes("tier 4"), 20_000);
    expect(msg.headers.click).toBeUndefined();
    expect(msg.body).not.toMatch(/https?:\/\//);
  });
});
