// Signed policies at load: with verify_enforce on, a tampered policy makes
// the classifier refuse every classification (503) while the stack stays up
// and /health says why, also when `agent-sudo start` begins with it;
// re-signed, the classifier serves again.
import { execFileSync } from "node:child_process";
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
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
    if (home) rmSync(home, { recursive: true, force: true });
    if (policies) rmSync(policies, { recursive: true, force: true });
  });

  it("starts with a signed policy and reports it signed", async () => {
    const health = await stack.health();
    expect(health.status).toBe(200);
    expect((health.body.policy as { signature: string }).signature).toBe("signed");
  });

  it("a tampered policy: the classifier refuses every classification (503), /health names the file, the stack stays up", async () => {
    const file = join(policies, "SUDO.md");
    const original = readFileSync(file);
    appendFileSync(file, "\n<!-- tampered -->\n");
    process.kill(stack.pids().classifier as number, "SIGKILL");
    // (The gateway re-checks the signatures for /health at most every 5 s.)
    const refusing = await until(
      () => stack.health(),
      (h) =>
        (h.body.services as Record<string, string>).classifier === "refusing" &&
        (h.body.policy as { signature: string }).signature === "tampered",
      15_000,
    );
    expect(refusing.status).toBe(503);
    expect(refusing.body.status).toBe("degraded");
    const policy = refusing.body.policy as { signature: string; files: Array<{ file: string; state: string; reason: string }> };
    expect(policy.signature).toBe("tampered");
    expect(policy.files.find((f) => f.file === "SUDO.md")?.state).toBe("tampered");
    const refused = await stack.exec({ command: "echo hi" });
    expect(refused.status).toBe(503);
    expect(refused.body).toMatchObject({ error: "unavailable", component: "classifier" });
    expect(readFileSync(join(stack.home, "logs", "classifier.log"), "utf8")).toMatch(/REFUSING EVERY CLASSIFICATION.*SUDO\.md/);

    // `agent-sudo start` on the tampered policy comes up too, says so, and refuses.
    await stack.stop();
    stack = await startStack({ home, env: { AGENT_SUDO_POLICIES: policies } });
    expect(stack.output()).toMatch(/REFUSING: classifier: policy signature tampered .*SUDO\.md/);
    expect((await stack.exec({ command: "echo hi" })).status).toBe(503);

    // Restored, a restart of the classifier serves again.
    writeFileSync(file, original);
    process.kill(stack.pids().classifier as number, "SIGKILL");
    const back = await until(
      () => stack.health(),
      (h) => h.status === 200 && (h.body.policy as { signature: string }).signature === "signed",
      15_000,
    );
    expect(back.status).toBe(200);
    expect((back.body.policy as { signature: string }).signature).toBe("signed");
    expect((await stack.exec({ command: "echo hi" })).status).toBe(200);
  }, 90_000);
});
