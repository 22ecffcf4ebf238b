import { rmSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { join } from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { freePort, tempRoot } from "../test/audit/postgres-fixture.js";
import { EmbeddedPostgresError, startEmbeddedPostgres, type EmbeddedPostgres } from "./embedded-postgres.js";

const root = tempRoot("agent-sudo-embpg-");
const started: EmbeddedPostgres[] = [];
afterAll(async () => {
  for (const s of started) await s.stop();
  rmSync(root, { recursive: true, force: true });
});

async function query(url: string, sql: string): Promise<unknown[]> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query(sql)).rows;
  } finally {
    await c.end();
  }
}

describe.skipIf(Boolean(process.env.DATABASE_URL))("embedded PostgreSQL", () => {
  const dataDir = join(root, "data");
  let port = 0;

  it("starts a real server on 127.0.0.1 and is idempotent across restarts", async () => {
    port = await freePort();
    const a = await startEmbeddedPostgres({ dataDir, port });
    started.push(a);
    expect(a.url).toContain(`@127.0.0.1:${port}/agent_sudo`);
    const rows = (await query(a.url, "SHOW listen_addresses")) as { listen_addresses: string }[];
    expect(rows[0]?.listen_addresses).toBe("127.0.0.1");
    await query(a.url, "CREATE TABLE kept (x int); INSERT INTO kept VALUES (42)");
    await a.stop();
    const b = await startEmbeddedPostgres({ dataDir, port });
    started.push(b);
    expect(await query(b.url, "SELECT x FROM kept")).toEqual([{ x: 42 }]);
  });

  it("adopts a postmaster already running on the same data dir", async () => {
    const c = await startEmbeddedPostgres({ dataDir, port });
    expect(c.pid).toBe(started[started.length - 1]?.pid);
  });

  it("refuses a port that is taken, with a clear error", async () => {
    const busy = await freePort();
    const srv: Server = createServer();
    await new Promise<void>((r) => srv.listen(busy, "127.0.0.1", () => r()));
    try {
      const p = startEmbeddedPostgres({ dataDir: join(root, "other"), port: busy });
      await expect(p).rejects.toThrow(EmbeddedPostgresError);
      await expect(p).rejects.toThrow(/port .* already in use/);
    } finally {
      srv.close();
    }
  });
});
