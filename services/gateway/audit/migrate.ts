// Applies services/gateway/audit/migrations/*.sql in name order, once each.
//
// All pending files run in one transaction under a transaction-scoped
// advisory lock, so two gateways starting together serialize: the second
// waits, then finds everything applied. Each applied file is recorded in
// schema_migrations with its sha256; a recorded file whose contents changed
// since is an error (we refuse to start on a schema we cannot vouch for).
// What it trusts: the SQL files in the repository. How it fails: throws; the
// transaction rolls back and nothing is half-applied. Statements that cannot
// run in a transaction (CREATE INDEX CONCURRENTLY) are not supported.
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type pg from "pg";

/** pg_advisory_xact_lock key: "agsudo01" as a 64-bit integer. */
const MIGRATION_LOCK_KEY = "7018705492313583665";

/** The migrations directory, from source (tsx/vitest) or from dist/ (tsc output has no .sql). */
export function migrationsDir(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  const candidates = [join(here, "migrations"), resolve(here, "..", "..", "..", "..", "services", "gateway", "audit", "migrations")];
  const found = candidates.find((d) => existsSync(d));
  if (!found) throw new Error(`audit migrations not found (looked in ${candidates.join(", ")})`);
  return found;
}

export interface Migration {
  name: string;
  sql: string;
  sha256: string;
}

export function loadMigrations(dir: string = migrationsDir()): Migration[] {
  return readdirSync(dir)
    .filter((n) => /^\d{3}_[a-z0-9_]+\.sql$/.test(n))
    .sort()
    .map((name) => {
      const sql = readFileSync(join(dir, name), "utf8");
      return { name, sql, sha256: createHash("sha256").update(sql).digest("hex") };
    });
}

export class MigrationError extends Error {
  override readonly name = "MigrationError";
}

/** Applies pending migrations; returns the names applied now. */
export async function migrate(client: pg.ClientBase, migrations: Migration[] = loadMigrations()): Promise<string[]> {
  const applied: string[] = [];
  await client.query("BEGIN");
  try {
    await client.query("SELECT pg_advisory_xact_lock($1::bigint)", [MIGRATION_LOCK_KEY]);
    // Checked first: a least-privileged role may not CREATE in the schema at all.
    const exists = await client.query("SELECT to_regclass('schema_migrations') IS NOT NULL AS e");
    if (exists.rows[0]?.e !== true) {
      await client.query(
        `CREATE TABLE schema_migrations (
           name text PRIMARY KEY, sha256 text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`,
      );
    }
    const done = await client.query<{ name: string; sha256: string }>("SELECT name, sha256 FROM schema_migrations");
    const known = new Map(done.rows.map((r) => [r.name, r.sha256]));
    for (const m of migrations) {
      const sha = known.get(m.name);
      if (sha !== undefined) {
        if (sha !== m.sha256) throw new MigrationError(`migration ${m.name} changed after it was applied`);
        continue;
      }
      await client.query(m.sql);
      await client.query("INSERT INTO schema_migrations (name, sha256) VALUES ($1, $2)", [m.name, m.sha256]);
      applied.push(m.name);
    }
    await client.query("COMMIT");
  } catch (err) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw err;
  }
  return applied;
}
