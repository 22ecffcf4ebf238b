// A tier-4 attempt through the hook counts for the breaker like one on /exec
// (seed CA D7: any tier-4 attempt → the daemon disarms), under the same
// setting (breaker trip_on_tier4, on by default); and the hook's log line
// and audit row of one decision carry one request id.
import { readdirSync, readFileSync } from "node:fs";
import { request } from "node:http";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startStack, type Stack } from "../support/stack.js";

const root = process.getuid?.() === 0;

function hook(socketPath: string, command: string): Promise<{ status: number; body: string }> {
  const payload = JSON.stringify({ hook_event_name: "PreToolUse", session_id: "s", tool_name: "Bash", tool_input: { command }, cwd: "/home/dev/project" });
  return new Promise((resolve, reject) => {
    const req = request({ socketPath, path: "/v1/hook", method: "POST", headers: { "content-type": "application/json" } }, (res) => {
      let body = "";
      res.on("data", (c: Buffer) => (body += c.toString()));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on("error", reject);
    req.end(payload);
  });
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
    const logged = readFileSync(join(stack.home, "logs", "gateway.log"), "utf8").split("\n").filter((l) => l.includes('"hook judged"')).map((l) => JSON.parse(l) as { request_id: string });
    const last = logged.at(-1)?.request_id ?? "";
    expect(last).toMatch(/^[0-9a-f-]{36}$/);
    const spool = join(stack.home, "state", "gateway", "audit-spool");
    const lines = readdirSync(spool).filter((n) => n.endsWith(".log")).flatMap((n) => readFileSync(join(spool, n), "utf8").split("\n"));
    expect(lines.filter((l) => l.includes(last)).length).toBeGreaterThanOrEqual(2);
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
