// The audit spool on a small, filling disk (issue 18, items 4 and 3), on a
// 1 MiB tmpfs of this test's own under a real stack:
//  - shipped records leave the disk: far more records than the free room are
//    written through /exec, and every one is served (before: shipped records
//    stayed until a 64 MB rotation, so a small disk filled and stayed full);
//  - a full disk: intents are refused (503), but a refusal and the outcome of
//    a command that was running are still written, into the reserve's room;
//    /health says so; with room again the reserve is set aside and commands
//    run again;
//  - a spool that cannot be written at all: a tier-4 attempt is answered 403
//    audited:false and still reaches the breaker, which disarms.
import { execFileSync, spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statfsSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { journalEntries } from "../support/journal.js";
import { startStack, type Stack } from "../support/stack.js";

const root = process.getuid?.() === 0;
const KiB = 1024;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface SpoolHealth {
  trail: { writable: boolean; unaudited_refusals: number };
  spool: { depth: number; reserve: { bytes: number; held: boolean; released_at?: string } };
  shipper: { state: string };
}

describe.skipIf(!root)("chaos: the audit spool on a small disk", () => {
  let stack: Stack;
  let home: string;
  let spool: string;
  const fills: string[] = [];

  const audit = async () => (await stack.health()).body.audit as SpoolHealth;
  const rows = async (like: string) => {
    const client = new pg.Client({ connectionString: readFileSync(join(home, "database-url"), "utf8").trim() });
    await client.connect();
    try {
      return (
        await client.query<{ command: string; phase: string; decision_type: string }>(
          "SELECT command, phase, decision_type FROM command_audit WHERE command LIKE $1 ORDER BY command, phase",
          [like],
        )
      ).rows;
    } finally {
      await client.end();
    }
  };
  const drained = async (timeoutMs = 60_000) => {
    const t0 = Date.now();
    for (;;) {
      const a = await audit().catch(() => undefined);
      if (a && a.spool.depth === 0 && a.shipper.state === "ok") return;
      if (Date.now() - t0 > timeoutMs) throw new Error(`the spool did not drain: ${JSON.stringify(a)}`);
      await sleep(100);
    }
  };
  const segmentBytes = () =>
    readdirSync(spool)
      .filter((f) => f.startsWith("seg-"))
      .reduce((n, f) => n + statSync(join(spool, f)).size, 0);
  const free = () => {
    const s = statfsSync(spool);
    return s.bavail * s.bsize;
  };
  const fill = (bytes?: number) => {
    const file = join(spool, `fill-${fills.length}`);
    fills.push(file);
    const args = bytes === undefined ? [] : [`count=${Math.floor(bytes / (4 * KiB))}`];
    spawnSync("dd", ["if=/dev/zero", `of=${file}`, "bs=4096", ...args], { stdio: "ignore" });
  };

  beforeAll(async () => {
    home = mkdtempSync(join(tmpdir(), "agent-sudo-spoolspace-"));
    spool = join(home, "state", "gateway", "audit-spool");
    mkdirSync(spool, { recursive: true });
    execFileSync("mount", ["-t", "tmpfs", "-o", "size=1m,mode=0700", "agent-sudo-test-spool", spool]);
    writeFileSync(join(home, "config.json"), JSON.stringify({ audit: { spool_segment_bytes: 16 * KiB, spool_reserve_bytes: 64 * KiB } }));
    // The first case sends 160 requests in well under a minute: the breaker's rate trip is opened wide (its tier-4 trip stays on).
    stack = await startStack({ home, env: { AGENT_SUDO_BREAKER_MAX_REQUESTS_PER_MIN: "100000" } });
  }, 120_000);
  afterAll(async () => {
    await stack?.stop();
    spawnSync("umount", ["-l", spool]);
    rmSync(home, { recursive: true, force: true });
  });

  it("frees shipped records: a disk with room for ~70 requests serves 160", async () => {
    expect((await stack.exec({ command: "echo first" })).status).toBe(200);
    const a = await audit();
    expect(a.spool.reserve).toMatchObject({ bytes: 64 * KiB, held: true });
    // Leave ~96 KiB: about 70 requests' intent and outcome records (~1.4 KB a request).
    fill(free() - 96 * KiB);
    const statuses: number[] = [];
    for (let i = 0; i < 160; i++) {
      let r = await stack.exec({ command: `echo space-${i}` });
      // A shipper behind on a loaded machine may leave a moment with no room: once drained, there must be.
      if (r.status === 503) {
        await drained();
        r = await stack.exec({ command: `echo space-${i}-again` });
      }
      statuses.push(r.status);
      if (r.status !== 200) break;
    }
    expect(
      statuses.filter((s) => s !== 200),
      `request ${statuses.length} failed`,
    ).toEqual([]);
    await drained();
    expect(segmentBytes()).toBeLessThan(48 * KiB);
    const shipped = await rows("echo space-%");
    expect(shipped.length).toBeGreaterThanOrEqual(320);
  }, 300_000);

  it("a full disk: intents refused, a refusal and a running command's outcome still written; room again → served", async () => {
    // A command that runs while the disk fills: its intent is written before.
    const running = stack.exec({ command: "sleep 4" });
    const t0 = Date.now();
    while (!journalEntries(home, "execute").some((e) => e.command === "sleep 4")) {
      if (Date.now() - t0 > 30_000) throw new Error("sleep 4 never started");
      await sleep(20);
    }
    fill();
    let r = await stack.exec({ command: "echo while-full" });
    for (let i = 0; i < 20 && r.status === 200; i++) r = await stack.exec({ command: `echo while-full-${i}` });
    expect(r.status, JSON.stringify(r.body)).toBe(503);
    expect(r.body).toMatchObject({ error: "unavailable", component: "audit" });

    // A refusal (the cwd does not exist: 400, nothing ran) is on the record.
    const refused = await stack.exec({ command: "echo refused-while-full", cwd: "/nonexistent-agent-sudo-spool-test" });
    expect(refused.status).toBe(400);
    expect(refused.body.audited, JSON.stringify(refused.body)).toBeUndefined();
    expect((await running).status).toBe(200);

    // The reserve was used; until it is set aside again, /health is 503 degraded (the shipper
    // may already have freed room for it: shipped segments leave the disk).
    const h = await stack.health();
    const a = h.body.audit as SpoolHealth;
    expect(a.spool.reserve.released_at).toBeDefined();
    if (!a.spool.reserve.held) expect([h.status, h.body.status]).toEqual([503, "degraded"]);
    expect(a.trail.unaudited_refusals).toBe(0);

    for (const f of fills.splice(0)) rmSync(f);
    // The reserve is set aside again (after the shipper frees segments, or within seconds).
    const t1 = Date.now();
    while (!(await audit()).spool.reserve.held) {
      if (Date.now() - t1 > 20_000) throw new Error("the reserve was not set aside again");
      await sleep(200);
    }
    expect((await stack.exec({ command: "echo room-again" })).status).toBe(200);
    expect((await stack.health()).status).toBe(200);

    await drained();
    const recorded = await rows("%");
    const phases = (cmd: string) =>
      recorded
        .filter((x) => x.command === cmd)
        .map((x) => `${x.phase}:${x.decision_type}`)
        .join(",");
    expect(phases("sleep 4")).toBe("intent:pending,outcome:executed");
    expect(phases("echo refused-while-full")).toBe("intent:pending,outcome:error");
  }, 120_000);

  it("a spool that cannot be written: a tier-4 attempt is answered 403 audited:false, and the breaker still disarms", async () => {
    const before = await stack.health();
    expect((before.body.breaker as { state: string }).state, JSON.stringify(before.body.breaker)).toBe("armed");
    // The gateway's user owns the spool directory; without write permission every append fails (EACCES), reserve or not.
    chmodSync(spool, 0o500);
    try {
      const r = await stack.exec({ command: "rm -rf /" });
      expect(r.status).toBe(403);
      expect(r.body.audited).toBe(false);
      const t0 = Date.now();
      let state = "";
      while (state !== "disarmed" && Date.now() - t0 < 15_000) {
        state = ((await stack.health()).body.breaker as { state: string }).state;
        if (state !== "disarmed") await sleep(100);
      }
      expect(state, "the breaker never heard the unaudited tier-4 attempt").toBe("disarmed");
      expect((await audit()).trail.unaudited_refusals).toBeGreaterThanOrEqual(1);
    } finally {
      chmodSync(spool, 0o700);
    }
  }, 60_000);
});
