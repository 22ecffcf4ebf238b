// `agent-sudo start` runs `agent-sudo rules learn` on a timer (the stand-in
// for agent-sudo-rules-learn.timer): every AGENT_SUDO_RULES_LEARN_INTERVAL_S,
// one run at a time, output in logs/rules-learn.log; a bad interval stops
// the start before anything is touched. Policies are a copy (learn writes
// proposals beside configured policies); with the package's own policies the
// proposals go to the state dir, never into the checkout.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { PENDING_FILE } from "../../services/shared/proposals.js";
import { cliMain, copyPolicies, repoRoot, startStack } from "../support/stack.js";

const root = process.getuid?.() === 0;

describe.skipIf(!root)("the rules-learn timer under agent-sudo start", () => {
  // Removed once every test is done (each stops its own stack or start first).
  const dirs: string[] = [];
  afterAll(() => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });

  it("runs rules learn every interval and logs it", async () => {
    const policies = copyPolicies("agent-sudo-learn-timer-");
    dirs.push(policies);
    const stack = await startStack({ env: { AGENT_SUDO_RULES_LEARN_INTERVAL_S: "1", AGENT_SUDO_POLICIES: policies } });
    try {
      expect(stack.output()).toContain("rules learn every 1 s");
      expect((await stack.exec({ command: "echo one" })).status).toBe(200);
      const log = join(stack.home, "logs", "rules-learn.log");
      const t0 = Date.now();
      while (
        Date.now() - t0 < 15_000 &&
        !(existsSync(log) && /read \d+ executed runs/.test(readFileSync(log, "utf8")) && /--- exit 0/.test(readFileSync(log, "utf8")))
      )
        await new Promise((r) => setTimeout(r, 200));
      const text = readFileSync(log, "utf8");
      expect(text).toMatch(/agent-sudo rules learn\n/);
      expect(text).toMatch(/read \d+ executed runs/);
      expect(text).toContain("--- exit 0");
    } finally {
      await stack.stop();
    }
  }, 150_000);

  it("with the package's own policies, proposals go to the state dir, not into the checkout", async () => {
    const inCheckout = join(repoRoot, "policies", PENDING_FILE);
    const before = existsSync(inCheckout) ? statSync(inCheckout).mtimeMs : undefined;
    const stack = await startStack({ env: { AGENT_SUDO_RULES_LEARN_INTERVAL_S: "1" } });
    try {
      const log = join(stack.home, "logs", "rules-learn.log");
      const t0 = Date.now();
      while (Date.now() - t0 < 15_000 && !(existsSync(log) && /--- exit 0/.test(readFileSync(log, "utf8"))))
        await new Promise((r) => setTimeout(r, 200));
      const text = readFileSync(log, "utf8");
      expect(text).toContain(`proposals written to ${join(stack.home, "state", "proposals", PENDING_FILE)}`);
      expect(existsSync(inCheckout) ? statSync(inCheckout).mtimeMs : undefined).toBe(before);
    } finally {
      await stack.stop();
    }
  }, 150_000);

  it("a bad interval stops the start with a clear error, touching nothing", () => {
    const parent = mkdtempSync(join(tmpdir(), "agent-sudo-learn-bad-"));
    dirs.push(parent);
    const home = join(parent, "home");
    const r = spawnSync(process.execPath, [cliMain, "start"], {
      env: { ...process.env, AGENT_SUDO_HOME: home, AGENT_SUDO_RULES_LEARN_INTERVAL_S: "hourly" },
      encoding: "utf8",
      timeout: 60_000,
    });
    expect(r.status, r.stderr).toBe(1);
    expect(r.stderr).toMatch(/AGENT_SUDO_RULES_LEARN_INTERVAL_S must be whole seconds/);
    expect(existsSync(home)).toBe(false);
  }, 90_000);
});
