// A failed hook self-test is announced on ntfy with high priority (a
// loopback stand-in ntfy server), once per 10 minutes however many sessions
// start. The failure is real: a policy in which `git status` is not tier 0.
import { rmSync } from "node:fs";
import { request } from "node:http";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { copyPolicies, startStack, type Stack } from "../support/stack.js";
import { type NtfySink, startNtfySink } from "./ntfy-sink.js";

function sessionStart(socketPath: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      { socketPath, path: "/v1/hook/session-start", method: "POST", headers: { "content-type": "application/json" } },
      (res) => {
        let body = "";
        res.on("data", (c: Buffer) => (body += c.toString()));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on("error", reject);
    req.end("{}");
  });
}

describe("hook self-test failure notification (ntfy stand-in on loopback)", () => {
  let stack: Stack;
  let sink: NtfySink;
  let policies: string;
  beforeAll(async () => {
    sink = await startNtfySink();
    const broken =
      "## Rules: test — git status is not read-only here\n\n| id | patterns | tier | class | hosts | state | rationale |\n|---|---|---|---|---|---|---|\n| test-git-status | `git status` | 1 | workspace-write | | active | A deliberately wrong tier for the self-test. |\n\n";
    policies = copyPolicies("agent-sudo-selftest-policies-", { "CLAUDE_CMDS.md": broken });
    stack = await startStack({ env: { AGENT_SUDO_NTFY_URL: sink.url, AGENT_SUDO_POLICIES: policies } });
  });
  afterAll(async () => {
    await stack?.stop();
    await sink?.close();
    rmSync(policies, { recursive: true, force: true });
  });

  it("tells the agent, and sends one high-priority message for repeated session starts", async () => {
    const first = await sessionStart(join(stack.home, "run", "hook.sock"));
    expect(first.status).toBe(200);
    expect(first.body).toContain("SELF-TEST FAILED");
    const msg = await sink.waitFor((r) => String(r.headers.title ?? "").includes("self-test failed"), 10_000);
    expect(msg.headers.priority).toBe("4");
    expect(msg.body).toMatch(/git status → tier [1-4]/);
    await sessionStart(join(stack.home, "run", "hook.sock"));
    await new Promise((r) => setTimeout(r, 500));
    expect(sink.received.filter((r) => String(r.headers.title ?? "").includes("self-test failed"))).toHaveLength(1);
  });
});
