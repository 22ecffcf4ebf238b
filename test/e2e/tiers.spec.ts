// Tiers 2 and 3 through the whole stack with the real policy engine: an
// edit runs once in the mirror, its judged diff is committed and rolls
// back; a tier-3 write is committed from its diff only when its run
// succeeds; a tier-3 live action is auto-verified, a failed verify rolls
// back; each failure counts toward the breaker, which disarms after 3.
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

  it("tier 3 that is not a live action (a write to /etc): run in the mirror, its judged diff committed, verify_passed", async () => {
    rmSync(etcFile, { force: true });
    const res = await stack.exec({ command: `touch ${etcFile}` });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ tier: 3, exit_code: 0, committed: 1, verify_passed: true, rolled_back: false });
    expect(readFileSync(etcFile, "utf8")).toBe("");
  });

  it("tier 3 answers 503 while the concurrence is down (a live action, and a diff it must judge), and tier 0 goes on", async () => {
    const pid = stack.pids().concurrence as number;
    process.kill(pid, "SIGKILL");
    const live = await stack.exec({ command: "systemctl restart e2e-missing-unit-zz9" });
    expect(live.status, JSON.stringify(live.body)).toBe(503);
    expect(live.body).toMatchObject({ error: "unavailable", component: "concurrence" });
    writeFileSync(etcFile, "setting=1\n");
    const diff = await stack.exec({ command: `sed -i s/1/2/ ${etcFile}` });
    expect(diff.status, JSON.stringify(diff.body)).toBe(503);
    expect(diff.body).toMatchObject({ error: "unavailable", component: "concurrence" });
    expect(readFileSync(etcFile, "utf8")).toBe("setting=1\n");
    expect((await stack.exec({ command: "echo tier-0-still" })).status).toBe(200);
    await stack.waitHealthy(15_000);
  });

  it("tier 3: a live action beside a file change is refused (send them as two requests); nothing runs", async () => {
    writeFileSync(etcFile, "setting=1\n");
    const res = await stack.exec({ command: `sed -i s/1/2/ ${etcFile} && systemctl restart e2e-missing-unit-zz9` });
    expect(res.status, JSON.stringify(res.body)).toBe(403);
    expect(String(res.body.reason)).toMatch(/send them as two requests/);
    expect(readFileSync(etcFile, "utf8")).toBe("setting=1\n");
  });

  it("tier 3: a failed run commits nothing, a failed verify of a live action rolls back; three disarm the breaker to read-only", async () => {
    for (let i = 1; i <= 2; i++) {
      writeFileSync(etcFile, "setting=1\n");
      const res = await stack.exec({ command: `sed -i s/1/${i + 1}/ ${etcFile}; false` });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body).toMatchObject({ tier: 3, exit_code: 1, committed: 0, verify_passed: false });
      expect(String(res.body.not_committed)).toMatch(/committed only when its run succeeds/);
      expect(readFileSync(etcFile, "utf8")).toBe("setting=1\n");
    }
    const live = await stack.exec({ command: "systemctl restart e2e-missing-unit-zz9" });
    expect(live.status, JSON.stringify(live.body)).toBe(200);
    expect(live.body).toMatchObject({ tier: 3, verify_passed: false, rolled_back: true });
    const refused = await stack.exec({ command: `sed -i s/1/9/ ${etcFile}` });
    expect(refused.status).toBe(403);
    expect(String(refused.body.reason)).toContain("breaker disarmed");
    expect((await stack.exec({ command: "echo still-read-only" })).status).toBe(200);

    const env = { ...process.env, AGENT_SUDO_HOME: stack.home };
    execFileSync(process.execPath, [cliMain, "breaker", "rearm", "--reason", "e2e test"], { env, encoding: "utf8" });
    const again = await stack.exec({ command: `sed -i s/1/9/ ${etcFile}` });
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(readFileSync(etcFile, "utf8")).toBe("setting=9\n");
  });
});
