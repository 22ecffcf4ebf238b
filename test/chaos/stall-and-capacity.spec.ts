// A stall of a part answers 503 (retryable), never a 403 refusal; a long
// trial still runs; a sandbox at capacity answers 429 with Retry-After
// (issue 18, item 6). One stack with a short decision lifetime
// (decision_ttl_s 4), one trial at a time (sandbox.json max_concurrent 1) and
// a test rule that makes `sleep 6` a package run (trialled, then run on the
// host in the live envelope: harmless). Every command here is harmless on
// this machine: echo, sleep, and touch in this test's own temp dir.
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { copyPolicies, startStack, type Stack } from "../support/stack.js";

const root = process.getuid?.() === 0;
const TTL_S = 4;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Answer {
  status: number;
  retryAfter: string | null;
  body: Record<string, unknown>;
}

describe.skipIf(!root)("chaos: stalls and capacity answer retryably", () => {
  let stack: Stack;
  let home: string;
  let policies: string;
  let work: string;

  const exec = async (command: string): Promise<Answer> => {
    const res = await fetch(`${stack.url}/exec`, {
      method: "POST",
      headers: { authorization: `Bearer ${stack.token}`, "content-type": "application/json" },
      body: JSON.stringify({ command, timeout: 30 }),
    });
    const text = await res.text();
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(text) as Record<string, unknown>;
    } catch {
      body = { raw: text };
    }
    return { status: res.status, retryAfter: res.headers.get("retry-after"), body };
  };

  beforeAll(async () => {
    home = mkdtempSync(join(tmpdir(), "agent-sudo-stall-"));
    work = mkdtempSync("/tmp/agent-sudo-stall-work-");
    chmodSync(work, 0o755);
    mkdirSync(join(work, "w"), { mode: 0o777 });
    writeFileSync(join(home, "config.json"), JSON.stringify({ decision_ttl_s: TTL_S }));
    writeFileSync(join(home, "sandbox.json"), JSON.stringify({ max_concurrent: 1 }));
    const table = [
      "## Rules: test stalls",
      "",
      "| id | patterns | tier | class | hosts | state | attrs | rationale |",
      "|---|---|---|---|---|---|---|---|",
      "| test-slow-package | `sleep 6` | 2 | reproducible | | active | package | test: a package run whose trial outlives the decision |",
      "",
      "",
    ].join("\n");
    policies = copyPolicies("agent-sudo-stall-policies-", { "SUDO.md": table });
    stack = await startStack({ home, env: { AGENT_SUDO_POLICIES: policies, AGENT_SUDO_BREAKER_TRIP_ON_TIER4: "0" } });
  }, 120_000);
  afterAll(async () => {
    await stack?.stop();
    rmSync(home, { recursive: true, force: true });
    rmSync(policies, { recursive: true, force: true });
    rmSync(work, { recursive: true, force: true });
  });

  it("an executor stopped past the decision's lifetime: the waiting request gets 503 with Retry-After (or 200), never 403", async () => {
    await stack.waitHealthy(30_000);
    const executor = stack.pids().executor;
    expect(executor).toBeGreaterThan(0);
    process.kill(executor as number, "SIGSTOP");
    let answer: Answer;
    try {
      const pending = exec("echo stalled-executor");
      await sleep(2 * TTL_S * 1000 + 2000);
      process.kill(executor as number, "SIGCONT");
      answer = await pending;
    } finally {
      process.kill(executor as number, "SIGCONT");
    }
    console.log(`chaos stall: executor stopped ${2 * TTL_S + 2} s, answered ${answer.status} ${String(answer.body.error ?? "")}`);
    expect(answer.status, JSON.stringify(answer.body)).not.toBe(403);
    if (answer.status === 200) expect(answer.body.output).toBe("stalled-executor\n");
    else {
      expect(answer.status, JSON.stringify(answer.body)).toBe(503);
      expect(answer.body).toMatchObject({ error: "unavailable", component: "executor" });
      expect(answer.retryAfter).toBe("1");
    }
    // And the stack serves again at once.
    const after = await exec("echo after-the-stall");
    expect(after.status, JSON.stringify(after.body)).toBe(200);
  }, 60_000);

  it("a package run whose trial takes longer than the decision's lifetime still runs (200)", async () => {
    const t0 = Date.now();
    const answer = await exec("sleep 6");
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body).toMatchObject({ exit_code: 0, tier: 2 });
    expect(Date.now() - t0).toBeGreaterThan(TTL_S * 1000);
  }, 90_000);

  it("a sandbox at capacity (max_concurrent 1): of two slow tier-2 runs at once, one is answered 429 with Retry-After", async () => {
    const slow = (n: number) => exec(`sleep 5; touch ${work}/w/capacity-${n}`);
    const first = slow(1);
    await sleep(1000); // the first one holds the only trial slot
    const answers = await Promise.all([first, slow(2)]);
    const busy = answers.filter((a) => a.status === 429);
    expect(answers.map((a) => a.status).sort(), JSON.stringify(answers.map((a) => a.body))).toEqual([200, 429]);
    expect(answers[0]?.body).toMatchObject({ tier: 2, exit_code: 0 });
    expect(busy[0]?.body).toMatchObject({ error: "busy" });
    expect(busy[0]?.retryAfter).toBeTruthy();
  }, 90_000);
});
