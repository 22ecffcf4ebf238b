import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadMigrations, migrate, MigrationError } from "../../services/gateway/audit/migrate.js";
import { startTestPostgres, type TestPostgres } from "./postgres-fixture.js";

let db: TestPostgres;
beforeAll(async () => {
  db = await startTestPostgres();
});
afterAll(async () => {
  await db?.stop();
});

async function withClient<T>(fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: db.url });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

describe("audit migrations", () => {
  it("concurrent starters apply each migration exactly once", async () => {
    const results = await Promise.all(Array.from({ length: 6 }, () => withClient((c) => migrate(c))));
    const all = results.flat();
    const names = loadMigrations().map((m) => m.name);
    expect(all.sort()).toEqual([...names].sort());
    const rows = await withClient((c) => c.query("SELECT name FROM schema_migrations ORDER BY name"));
    expect(rows.rows.map((r) => r.name)).toEqual(names);
    expect(await withClient((c) => migrate(c))).toEqual([]);
  });

  it("refuses a migration whose file changed after it was applied", async () => {
    const changed = loadMigrations().map((m, i) => (i === 0 ? { ...m, sha256: "0".repeat(64) } : m));
    await expect(withClient((c) => migrate(c, changed))).rejects.toThrow(MigrationError);
  });

  it("rolls back everything when one pending migration fails", async () => {
    const broken = [
      ...loadMigrations(),
      { name: "900_good.sql", sql: "CREATE TABLE t900 (x int)", sha256: "a" },
      { name: "901_bad.sql", sql: "SELEC nonsense", sha256: "b" },
    ];
    await expect(withClient((c) => migrate(c, broken))).rejects.toThrow();
    const t = await withClient((c) => c.query("SELECT to_regclass('t900') AS t"));
    expect(t.rows[0].t).toBeNull();
  });
});
