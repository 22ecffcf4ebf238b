// Signed policies at load: with verify_enforce on, a tampered policy keeps
// the classifier from starting and /health says why; re-signed, it starts.
import { execFileSync } from "node:child_process";
import { appendFileSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cliMain, copyPolicies, startStack, type Stack } from "../support/stack.js";

function cli(home: string, ...args: string[]): string {
  return execFileSync(process.execPath, [cliMain, ...args], { env: { ...process.env, AGENT_SUDO_HOME: home }, encoding: "utf8" });
}

async function until<T>(probe: () => Promise<T>, ok: (v: T) => boolean, ms = 15_000): Promise<T> {
  const t0 = Date.now();
  let v = await probe();
  while (!ok(v) && Date.now() - t0 < ms) {
    await new Promise((r) => setTimeout(r, 100));
    v = await probe();
  }
  return v;
}

describe("policy signatures at load", () => {
  let stack: Stack;
  let policies: string;
  let home: string;
  beforeAll(async () => {
    home = mkdtempSync(join(tmpdir(), "agent-sudo-enforce-"));
    policies = copyPolicies("agent-sudo-policies-");
    execFileSync("mkdir", ["-p", join(home, "keys")]);
    cli(home, "policy", "keygen");
    cli(home, "policy", "sign", "--policies", policies);
    writeFileSync(join(home, "config.json"), JSON.stringify({ policy: { verify_enforce: true } }));
    stack = await startStack({ home, env: { AGENT_SUDO_POLICIES: policies } });
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it("starts with a signed policy and reports it signed", async () => {
    const health = await stack.health();
    expect(health.status).toBe(200);
    expect((health.body.policy as { signature: string }).signature).toBe("signed");
  });

  it("refuses to start the classifier on a tampered policy, says why, and starts once re-signed", async () => {
    const file = join(policies, "SUDO.md");
    const original = readFileSync(file);
    appendFileSync(file, "\n<!-- tampered -->\n");
    process.kill(stack.pids().classifier as number, "SIGKILL");
    const down = await until(() => stack.health(), (h) => (h.body.services as Record<string, string>).classifier === "down" && (h.body.policy as { signature: string }).signature === "tampered", 5000);
    expect((down.body.services as Record<string, string>).classifier).toBe("down");
    const policy = down.body.policy as { signature: string; files: Array<{ file: string; state: string; reason: string }> };
    expect(policy.signature).toBe("tampered");
    expect(policy.files.find((f) => f.file === "SUDO.md")?.state).toBe("tampered");
    const refused = await stack.exec({ command: "echo hi" });
    expect(refused.status).toBe(503);
    expect(readFileSync(join(stack.home, "logs", "classifier.log"), "utf8")).toContain("SUDO.md");

    // Like systemd after its start limit, the supervisor leaves a unit that
    // keeps failing down; with the policy restored, a restart brings it up.
    writeFileSync(file, original);
    await stack.stop();
    stack = await startStack({ home, env: { AGENT_SUDO_POLICIES: policies } });
    const back = await stack.health();
    expect(back.status).toBe(200);
    expect((back.body.policy as { signature: string }).signature).toBe("signed");
    expect((await stack.exec({ command: "echo hi" })).status).toBe(200);
  });
});
