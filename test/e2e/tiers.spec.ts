// Tiers 2 and 3 through the whole stack with the real policy engine:
// a trialled edit executes with the trial's touched list as its undo plan
// and rolls back; a tier-3 command is auto-verified, a failed verify rolls
// back and counts toward the breaker, which disarms to read-only after 3.
// Every command here is harmless even if judged wrongly: files in temp dirs
// or test-named files in /etc, and `systemctl` on a unit that does not exist.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cliMain, startStack, type Stack } from "../support/stack.js";

const root = process.getuid?.() === 0;

describe.skipIf(!root)("tiers 2 and 3 end to end", () => {
  let stack: Stack;
  let work: string;
  const etcFile = `/etc/agent-sudo-e2e-${process.pid}.conf`;
  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), "agent-sudo-tiers-"));
    // server-01: the concurrence leaves restarts of unknown units to a person on primary.
    stack = await startStack({ env: { AGENT_SUDO_BREAKER_TRIP_ON_TIER4: "0", AGENT_SUDO_HOST_ID: "server-01" } });
  });
  afterAll(async () => {
    await stack?.stop();
    rmSync(work, { recursive: true, force: true });
    rmSync(etcFile, { force: true });
  });

  it("tier 2: trial ok → executed on the host → rollback restores the file from the trial's touched list", async () => {
    const file = join(work, "config.ini");
    writeFileSync(file, "mode=old\n");
    const res = await stack.exec({ command: `sed -i s/old/new/ ${file}` });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.tier).toBe(2);
    expect(readFileSync(file, "utf8")).toBe("mode=new\n");
    const undoId = res.body.undo_id as string;
    expect(undoId).toMatch(/^[0-9a-f-]{36}$/);
    const out = execFileSync(process.execPath, [cliMain, "rollback", undoId], { env: stack.cliEnv, encoding: "utf8" });
    expect(out).toContain(`restored ${file}`);
    expect(readFileSync(file, "utf8")).toBe("mode=old\n");
  });

  it("tier 3: a command whose verify passes is executed with verify_passed", async () => {
    const res = await stack.exec({ command: `touch ${etcFile}` });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ tier: 3, exit_code: 0, verify_passed: true, rolled_back: false });
  });

  it("tier 3 answers 503 while the concurrence is down, and tier 0 goes on", async () => {
    const pid = stack.pids().concurrence as number;
    process.kill(pid, "SIGKILL");
    const res = await stack.exec({ command: `touch ${etcFile}` });
    expect(res.status, JSON.stringify(res.body)).toBe(503);
    expect(res.body).toMatchObject({ error: "unavailable", component: "concurrence" });
    expect((await stack.exec({ command: "echo tier-0-still" })).status).toBe(200);
    await stack.waitHealthy(15_000);
  });

  it("tier 3: a failed verify rolls the files back; three disarm the breaker to read-only", async () => {
    for (let i = 1; i <= 3; i++) {
      writeFileSync(etcFile, "setting=1\n");
      const res = await stack.exec({ command: `sed -i s/1/${i + 1}/ ${etcFile} && systemctl restart e2e-missing-unit-zz9` });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body).toMatchObject({ tier: 3, verify_passed: false, rolled_back: true });
      expect(readFileSync(etcFile, "utf8")).toBe("setting=1\n");
    }
    const refused = await stack.exec({ command: `touch ${etcFile}` });
    expect(refused.status).toBe(403);
    expect(String(refused.body.reason)).toContain("breaker disarmed");
    expect((await stack.exec({ command: "echo still-read-only" })).status).toBe(200);

    const env = { ...process.env, AGENT_SUDO_HOME: stack.home };
    execFileSync(process.execPath, [cliMain, "breaker", "rearm", "--reason", "e2e test"], { env, encoding: "utf8" });
    const again = await stack.exec({ command: `touch ${etcFile}` });
    expect(again.status, JSON.stringify(again.body)).toBe(200);
  });
});
