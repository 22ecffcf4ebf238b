// The gateway SIGKILLed mid-load: every append the spool acknowledged
// reaches PostgreSQL exactly once after restart (0 lost, 0 duplicated).
import { spawn } from "node:child_process";
import { rmSync } from "node:fs";
import { join } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startShipper } from "../../services/gateway/audit/shipper.js";
import { openSpool } from "../../services/gateway/audit/spool.js";
import { startTestPostgres, tempRoot, type TestPostgres } from "./postgres-fixture.js";

let db: TestPostgres;
const root = tempRoot("agent-sudo-crash-");
beforeAll(async () => {
  db = await startTestPostgres();
});
afterAll(async () => {
  await db?.stop();
  rmSync(root, { recursive: true, force: true });
});

describe("audit spool across a SIGKILLed gateway", () => {
  it("replays after restart: every acknowledged record exactly once", async () => {
    const dir = join(root, "spool");
    const child = spawn(process.execPath, ["-e", "import('vite').then(v => v.runnerImport(process.env.CRASH_WRITER))"], {
      cwd: process.cwd(),
      env: { ...process.env, SPOOL_DIR: dir, DATABASE_URL: db.url, CRASH_WRITER: "./test/audit/crash-writer.ts" },
      stdio: ["ignore", "pipe", "ignore"],
    });
    const acked = new Set<string>();
    let buf = "";
    const exited = new Promise<void>((r) => child.once("exit", () => r()));
    child.stdout.on("data", (d: Buffer) => {
      buf += d.toString();
      const lines = buf.split("\n");
      buf = lines.pop() ?? "";
      for (const l of lines) if (l.startsWith("ack ")) acked.add(l.slice(4));
    });
    for (let i = 0; i < 600 && acked.size < 4000; i++) await new Promise((r) => setTimeout(r, 50));
    child.kill("SIGKILL");
    await exited;
    expect(acked.size).toBeGreaterThan(1000);

    const spool = await openSpool({ dir }); // takes over the dead pid's lock
    const shipper = startShipper({ spool, databaseUrl: db.url, minBackoffMs: 20, maxBackoffMs: 200 });
    await shipper.drained(60_000);
    await shipper.stop();
    await spool.close();

    const c = new pg.Client({ connectionString: db.url });
    await c.connect();
    const r = await c.query<{ request_id: string; phase: string; n: number }>(
      "SELECT request_id, phase, count(*)::int AS n FROM command_audit GROUP BY request_id, phase",
    );
    await c.end();
    const inDb = new Map(r.rows.map((x) => [`${x.request_id} ${x.phase}`, x.n]));
    const lost = [...acked].filter((k) => !inDb.has(k));
    const duplicated = r.rows.filter((x) => x.n !== 1);
    expect(lost).toEqual([]);
    expect(duplicated).toEqual([]);
    // Unacknowledged appends may also have landed (written, fsync not yet
    // returned): at most one group per writer beyond what was acknowledged.
    expect(inDb.size).toBeLessThanOrEqual(acked.size + 40);
  }, 120_000);
});
