// What a test stack's gateway audited: the records still in its spool
// (state/gateway/audit-spool/*.log: one `<crc32> <json>` line per record)
// and those already shipped to its PostgreSQL (shipped segments leave the
// spool), one per request id and phase.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import pg from "pg";

export interface SpoolRecord {
  request_id: string;
  phase: "intent" | "outcome";
  source: string;
  command: string;
  decision_type: string;
  assigned_tier: number | null;
  matched_rule: string | null;
  exit_code: number | null;
  duration_ms: number | null;
  evidence: Record<string, unknown>;
}

/** The records still in the spool (not yet shipped). */
export function spoolRecords(home: string): SpoolRecord[] {
  const dir = join(home, "state", "gateway", "audit-spool");
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((n) => n.endsWith(".log"))
    .sort()
    .flatMap((n) => {
      try {
        return readFileSync(join(dir, n), "utf8").split("\n");
      } catch {
        return []; // shipped and removed meanwhile
      }
    })
    .filter((l) => l.length > 9)
    .map((l) => JSON.parse(l.slice(9)) as SpoolRecord);
}

/** The records shipped to the stack's PostgreSQL. */
async function shippedRecords(home: string): Promise<SpoolRecord[]> {
  const url = join(home, "database-url");
  if (!existsSync(url)) return [];
  const client = new pg.Client({ connectionString: readFileSync(url, "utf8").trim() });
  await client.connect();
  try {
    const q =
      "SELECT request_id::text, phase, source, command, decision_type, assigned_tier::int, matched_rule, exit_code::int, duration_ms::float8 AS duration_ms, evidence FROM command_audit";
    return (await client.query<SpoolRecord>(q)).rows.map((r) => ({ ...r, evidence: r.evidence ?? {} }));
  } finally {
    await client.end();
  }
}

/** Every record, shipped or not, once per request id and phase. */
export async function auditRecords(home: string): Promise<SpoolRecord[]> {
  const spooled = spoolRecords(home);
  const shipped = await shippedRecords(home);
  const seen = new Set<string>();
  return [...shipped, ...spooled, ...spoolRecords(home)].filter((r) => {
    const key = `${r.request_id} ${r.phase}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** The outcome-phase records matching `match`, waiting up to `ms` for at least `count` of them. */
export async function audited(home: string, match: (r: SpoolRecord) => boolean, count = 1, ms = 10_000): Promise<SpoolRecord[]> {
  const t0 = Date.now();
  for (;;) {
    const found = (await auditRecords(home)).filter((r) => r.phase === "outcome" && match(r));
    if (found.length >= count || Date.now() - t0 > ms) return found;
    await new Promise((r) => setTimeout(r, 200));
  }
}
