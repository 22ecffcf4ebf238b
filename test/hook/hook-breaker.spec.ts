// A tier-4 attempt through the hook counts for the breaker like one on /exec
// (seed CA D7: any tier-4 attempt → the daemon disarms), under the same
// setting (breaker trip_on_tier4, on by default); and the hook's log line
// and audit row of one decision carry one request id.
import { readFileSync } from "node:fs";
import { request } from "node:http";
import { join } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startStack, type Stack } from "../support/stack.js";
import { decisionOf, preToolUse, runHook } from "./hook-client.js";

const root = process.getuid?.() === 0;

function hook(
  socketPath: string,
  command: string,
  path = "/v1/hook",
  event: Record<string, unknown> = {},
): Promise<{ status: number; body: string }> {
  const payload = JSON.stringify({
    hook_event_name: "PreToolUse",
    session_id: "s",
    tool_name: "Bash",
    tool_input: { command },
    cwd: "/home/dev/project",
    ...event,
  });
  return new Promise((resolve, reject) => {
    const req = request({ socketPath, path, method: "POST", headers: { "content-type": "application/json" } }, (res) => {
      let body = "";
      res.on("data", (c: Buffer) => (body += c.toString()));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on("error", reject);
    req.end(payload);
  });
}

interface HookRecord {
  request_id: string;
  phase: string;
  decision_type: string;
  exit_code: number | null;
  evidence: Record<string, unknown> | null;
}

/** The hook's audit rows, once the spool has shipped them (shipped records leave the spool). */
async function hookRecords(stack: Stack): Promise<HookRecord[]> {
  const t0 = Date.now();
  for (;;) {
    const audit = (await stack.health()).body.audit as { spool?: { depth?: number }; shipper?: { state?: string } } | undefined;
    if (audit?.spool?.depth === 0 && audit.shipper?.state === "ok") break;
    if (Date.now() - t0 > 30_000) throw new Error("the audit spool did not drain");
    await new Promise((r) => setTimeout(r, 100));
  }
  const client = new pg.Client({ connectionString: readFileSync(join(stack.home, "database-url"), "utf8").trim() });
  await client.connect();
  try {
    return (
      await client.query<HookRecord>(
        "SELECT request_id, phase, decision_type, exit_code, evidence FROM command_audit WHERE source = 'hook'",
      )
    ).rows;
  } finally {
    await client.end();
  }
}

describe.skipIf(!root)("the hook and the breaker", () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack();
  }, 120_000);
  afterAll(async () => {
    await stack?.stop();
  });

  it("a read is allowed with one request id in the log and the audit spool", async () => {
    const r = await hook(join(stack.home, "run", "hook.sock"), "git status");
    expect(r.status).toBe(200);
    await new Promise((res) => setTimeout(res, 300));
    const logged = readFileSync(join(stack.home, "logs", "gateway.log"), "utf8")
      .split("\n")
      .filter((l) => l.includes('"hook judged"'))
      .map((l) => JSON.parse(l) as { request_id: string });
    const last = logged.at(-1)?.request_id ?? "";
    expect(last).toMatch(/^[0-9a-f-]{36}$/);
    expect(
      (await hookRecords(stack))
        .filter((r) => r.request_id === last)
        .map((r) => r.phase)
        .sort(),
    ).toEqual(["intent", "outcome"]);
  });

  it("PostToolUse and PostToolUseFailure outcomes are audited (hook_outcome, exit code, the tool_use_id that joins them to the decision)", async () => {
    const sock = join(stack.home, "run", "hook.sock");
    expect((await hook(sock, "ls /tmp", "/v1/hook", { tool_use_id: "toolu_pre_1" })).status).toBe(200);
    const ok = await hook(sock, "ls /tmp", "/v1/hook/post-tool-use", {
      hook_event_name: "PostToolUse",
      tool_use_id: "toolu_pre_1",
      tool_response: { stdout: "", stderr: "", interrupted: false },
    });
    expect(ok.status).toBe(204);
    const bad = await hook(sock, "ls /nonexistent-x", "/v1/hook/post-tool-use", {
      hook_event_name: "PostToolUseFailure",
      tool_use_id: "toolu_pre_2",
      error: "Exit code 2",
    });
    expect(bad.status).toBe(204);
    await new Promise((res) => setTimeout(res, 500));
    const records = await hookRecords(stack);
    const outcomes = records.filter((r) => r.decision_type === "hook_outcome" && r.phase === "outcome");
    expect(outcomes.find((r) => r.evidence?.tool_use_id === "toolu_pre_1")).toMatchObject({
      exit_code: 0,
      evidence: { event: "PostToolUse" },
    });
    expect(outcomes.find((r) => r.evidence?.tool_use_id === "toolu_pre_2")).toMatchObject({
      exit_code: 2,
      evidence: { event: "PostToolUseFailure", error: "Exit code 2" },
    });
    expect(records.some((r) => r.decision_type === "allowed" && r.evidence?.tool_use_id === "toolu_pre_1")).toBe(true);
  });

  it("an answer the hook gave up waiting for is audited as late, not as the allow it would have been", async () => {
    const gw = stack.pids().gateway as number;
    process.kill(gw, "SIGSTOP");
    let run;
    try {
      run = await runHook(preToolUse("git status", { tool_use_id: "toolu_late_1" }), {
        AGENT_SUDO_HOOK_SOCKET: join(stack.home, "run", "hook.sock"),
      });
    } finally {
      process.kill(gw, "SIGCONT");
    }
    expect(decisionOf(run.stdout)).toMatchObject({ decision: "deny", reason: expect.stringContaining("did not answer in time") });
    // An answer in time for the same command is audited as allowed.
    const inTime = await runHook(preToolUse("git status", { tool_use_id: "toolu_late_2" }), {
      AGENT_SUDO_HOOK_SOCKET: join(stack.home, "run", "hook.sock"),
    });
    expect(decisionOf(inTime.stdout).decision).toBe("allow");
    // Both outcome rows, from PostgreSQL once shipped (shipped records leave the spool).
    const t0 = Date.now();
    let all: HookRecord[] = [];
    const both = () =>
      ["toolu_late_1", "toolu_late_2"].every((id) => all.some((r) => r.phase === "outcome" && r.evidence?.tool_use_id === id));
    while (Date.now() - t0 < 30_000 && !both()) {
      all = (await hookRecords(stack)).filter((r) => r.phase === "outcome");
      if (!both()) await new Promise((res) => setTimeout(res, 200));
    }
    expect(all.filter((r) => r.evidence?.tool_use_id === "toolu_late_1")).toEqual([
      expect.objectContaining({
        decision_type: "late",
        evidence: expect.objectContaining({ delivered: false, would_have_been: "allowed" }),
      }),
    ]);
    expect(all.filter((r) => r.evidence?.tool_use_id === "toolu_late_2").map((r) => r.decision_type)).toEqual(["allowed"]);
  });

  it("a tier-4 command through the hook is denied and disarms the breaker (trip_on_tier4)", async () => {
    const r = await hook(join(stack.home, "run", "hook.sock"), "rm -rf /");
    expect(r.status).toBe(200);
    expect(r.body).toContain('"permissionDecision":"deny"');
    const t0 = Date.now();
    let state = "";
    while (Date.now() - t0 < 5000) {
      state = ((await stack.health()).body.breaker as { state: string }).state;
      if (state === "disarmed") break;
      await new Promise((res) => setTimeout(res, 100));
    }
    expect(state).toBe("disarmed");
  });
});
