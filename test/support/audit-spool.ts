// Reads a test stack's audit spool (state/gateway/audit-spool/*.log: one
// `<crc32> <json>` line per record), for checks on what the gateway audited.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

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

export function spoolRecords(home: string): SpoolRecord[] {
  const dir = join(home, "state", "gateway", "audit-spool");
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((n) => n.endsWith(".log"))
    .sort()
    .flatMap((n) => readFileSync(join(dir, n), "utf8").split("\n"))
    .filter((l) => l.length > 9)
    .map((l) => JSON.parse(l.slice(9)) as SpoolRecord);
}

/** The outcome-phase records matching `match`, waiting up to `ms` for at least `count` of them. */
export async function audited(home: string, match: (r: SpoolRecord) => boolean, count = 1, ms = 5000): Promise<SpoolRecord[]> {
  const t0 = Date.now();
  for (;;) {
    const found = spoolRecords(home).filter((r) => r.phase === "outcome" && match(r));
    if (found.length >= count || Date.now() - t0 > ms) return found;
    await new Promise((r) => setTimeout(r, 100));
  }
}
