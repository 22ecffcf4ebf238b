// What the console reads from command_audit (PostgreSQL, read only but for
// labels: audit/label.ts). One line per request: its intent row (or its
// outcome row when no intent was shipped) beside its outcome. Rows still in
// the gateway's spool are not here yet, as with `agent-sudo audit tail`.
import pg from "pg";

export interface TimelineFilter {
  tier?: number;
  decision?: string;
  source?: string;
  caller?: string;
  since?: Date;
  until?: Date;
  /** Older than this head row id (paging). */
  before?: string;
  limit: number;
}

export interface TimelineRow {
  key: string;
  request_id: string;
  ts: Date;
  source: string;
  caller: string;
  command: string;
  tier: number | null;
  decision: string;
  rule: string | null;
  exit_code: number | null;
  duration_ms: string | null;
  verdict: string | null;
}

export type AuditRow = Record<string, unknown> & { phase: string; evidence: Record<string, unknown> | null };

export interface TierBucket {
  bucket: Date;
  tier: number | null;
  n: number;
}

export interface LatencyBucket {
  bucket: Date;
  p50: number;
  p90: number;
  p99: number;
  n: number;
}

const HEADS = `
  SELECT h.id::text AS key, h.request_id, h.ts, h.source, h.caller, h.command,
         coalesce(o.assigned_tier, h.assigned_tier)::int AS tier,
         coalesce(o.decision_type, h.decision_type) AS decision,
         coalesce(o.matched_rule, h.matched_rule) AS rule,
         CASE WHEN h.phase = 'outcome' THEN h.exit_code ELSE o.exit_code END AS exit_code,
         (CASE WHEN h.phase = 'outcome' THEN h.duration_ms ELSE o.duration_ms END)::text AS duration_ms,
         coalesce(o.human_verdict, h.human_verdict) AS verdict
    FROM command_audit h
    LEFT JOIN command_audit o ON o.request_id = h.request_id AND o.phase = 'outcome' AND h.phase = 'intent'
   WHERE (h.phase = 'intent' OR NOT EXISTS (SELECT 1 FROM command_audit x WHERE x.request_id = h.request_id AND x.phase = 'intent'))`;

export class AuditReader {
  private readonly pool: pg.Pool;

  constructor(databaseUrl: string) {
    // Two connections: a console is one person's browser.
    this.pool = new pg.Pool({
      connectionString: databaseUrl,
      max: 2,
      connectionTimeoutMillis: 5000,
      idleTimeoutMillis: 30_000,
      statement_timeout: 15_000,
    });
    this.pool.on("error", () => undefined);
  }

  get db(): pg.Pool {
    return this.pool;
  }

  async timeline(f: TimelineFilter): Promise<TimelineRow[]> {
    const where: string[] = [];
    const args: unknown[] = [];
    const add = (sql: string, value: unknown) => {
      args.push(value);
      where.push(sql.replace("?", `$${args.length}`));
    };
    if (f.tier !== undefined) add("coalesce(o.assigned_tier, h.assigned_tier) = ?", f.tier);
    if (f.decision) add("coalesce(o.decision_type, h.decision_type) = ?", f.decision);
    if (f.source) add("h.source = ?", f.source);
    if (f.caller) add("h.caller = ?", f.caller);
    if (f.since) add("h.ts >= ?", f.since);
    if (f.until) add("h.ts < ?", f.until);
    if (f.before) add("h.id < ?::bigint", f.before);
    args.push(f.limit);
    const sql = `${HEADS}${where.map((w) => ` AND ${w}`).join("")} ORDER BY h.id DESC LIMIT $${args.length}`;
    return (await this.pool.query<TimelineRow>(sql, args)).rows;
  }

  /** Both rows of one request (intent first). */
  async request(requestId: string): Promise<AuditRow[]> {
    const r = await this.pool.query<AuditRow>("SELECT * FROM command_audit WHERE request_id = $1 ORDER BY phase = 'outcome', id", [
      requestId,
    ]);
    return r.rows;
  }

  /** One line per request id given (those found). */
  async requests(ids: readonly string[]): Promise<TimelineRow[]> {
    if (ids.length === 0) return [];
    return (await this.pool.query<TimelineRow>(`${HEADS} AND h.request_id = ANY($1) ORDER BY h.id DESC`, [ids])).rows;
  }

  /** Decisions per tier per bucket of `bucketS` seconds since `since` (outcome rows: one per decision). */
  async tiersOverTime(since: Date, bucketS: number): Promise<TierBucket[]> {
    const r = await this.pool.query<TierBucket>(
      `SELECT to_timestamp(floor(extract(epoch FROM ts) / $2) * $2) AS bucket, assigned_tier::int AS tier, count(*)::int AS n
         FROM command_audit WHERE phase = 'outcome' AND ts >= $1 AND decision_type <> 'hook_outcome'
        GROUP BY 1, 2 ORDER BY 1`,
      [since, bucketS],
    );
    return r.rows;
  }

  /** /exec request durations (ms): p50, p90, p99 per bucket. */
  async latencyOverTime(since: Date, bucketS: number): Promise<LatencyBucket[]> {
    const r = await this.pool.query<{ bucket: Date; q: number[]; n: number }>(
      `SELECT to_timestamp(floor(extract(epoch FROM ts) / $2) * $2) AS bucket,
              percentile_cont(ARRAY[0.5, 0.9, 0.99]) WITHIN GROUP (ORDER BY duration_ms) AS q, count(*)::int AS n
         FROM command_audit WHERE phase = 'outcome' AND source = 'http' AND duration_ms IS NOT NULL AND ts >= $1
        GROUP BY 1 ORDER BY 1`,
      [since, bucketS],
    );
    return r.rows.map((row) => ({ bucket: row.bucket, p50: row.q[0] ?? 0, p90: row.q[1] ?? 0, p99: row.q[2] ?? 0, n: row.n }));
  }

  async close(): Promise<void> {
    await this.pool.end().catch(() => undefined);
  }
}
