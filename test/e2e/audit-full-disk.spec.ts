// The audit spool on a full disk: execution stays fail-closed (503), a
// refusal is still answered 403 but says `audited: false` (it is not on the
// record), and /health turns 503 "degraded" naming why; once there is room
// again, the next record is written and /health is ok. The spool directory
// is a 512 KiB tmpfs of this test's own, filled by the test. The spool's
// reserve is off here (it would write the refusal: test/chaos/spool-space.spec.ts).
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startStack, type Stack } from "../support/stack.js";

const root = process.getuid?.() === 0;

describe.skipIf(!root)("the audit spool on a full disk", () => {
  let stack: Stack;
  let home: string;
  let spool: string;
  beforeAll(async () => {
    home = mkdtempSync(join(tmpdir(), "agent-sudo-fulldisk-"));
    spool = join(home, "state", "gateway", "audit-spool");
    mkdirSync(spool, { recursive: true });
    execFileSync("mount", ["-t", "tmpfs", "-o", "size=512k,mode=0700", "agent-sudo-test-spool", spool]);
    writeFileSync(join(home, "config.json"), JSON.stringify({ audit: { spool_reserve_bytes: 0 } }));
    stack = await startStack({ home, env: { AGENT_SUDO_BREAKER_TRIP_ON_TIER4: "0" } });
  }, 120_000);
  afterAll(async () => {
    await stack?.stop();
    spawnSync("umount", ["-l", spool]);
    rmSync(home, { recursive: true, force: true });
  });

  it("refuses to execute, answers refusals with audited:false, and /health says degraded until there is room again", async () => {
    expect((await stack.exec({ command: "echo before" })).status).toBe(200);
    // Fill what is left of the spool's file system.
    spawnSync("dd", ["if=/dev/zero", `of=${join(spool, "fill")}`, "bs=4096"], { stdio: "ignore" });

    // The segment's last page may still hold a record or two: the first refusal comes within a few.
    let run = await stack.exec({ command: "echo while-full" });
    for (let i = 0; i < 20 && run.status === 200; i++) run = await stack.exec({ command: `echo while-full-${i}` });
    expect(run.status, JSON.stringify(run.body)).toBe(503);
    expect(run.body).toMatchObject({ error: "unavailable", component: "audit" });
    const refused = await stack.exec({ command: "rm -rf /" });
    expect(refused.status).toBe(403);
    expect(refused.body.audited).toBe(false);

    const h = await stack.health();
    expect(h.status).toBe(503);
    expect(h.body.status).toBe("degraded");
    const trail = (h.body.audit as { trail: { writable: boolean; unaudited_refusals: number; last_failure?: { reason: string } } }).trail;
    expect(trail.writable).toBe(false);
    expect(trail.unaudited_refusals).toBeGreaterThanOrEqual(1);
    expect(trail.last_failure?.reason).toMatch(/ENOSPC|no space/i);

    rmSync(join(spool, "fill"));
    const again = await stack.exec({ command: "echo room-again" });
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    const ok = await stack.health();
    expect(ok.status).toBe(200);
    expect((ok.body.audit as { trail: { writable: boolean } }).trail.writable).toBe(true);
  }, 60_000);
});
