// `agent-sudo audit …`: read and label the audit in PostgreSQL, check the
// executor's journal.
//
//   tail [-f] [-n N] [--json]                 newest rows; -f follows via LISTEN agent_sudo_audit
//   export [--since WHEN] [--until WHEN] [--format jsonl] [--labeled-only]   (default: everything)
//                                             one JSON line per decision (intent + outcome + gold label)
//   label REQUEST_ID approve|reject --by NAME the human verdict (the gold label)
//   verify-journal [PATH]                     check the executor journal's hash chain
//
// WHEN is an ISO date/time or a relative age: 30m, 12h, 7d.
// What it trusts: DATABASE_URL (tail/export/label). Exit codes: 0 ok,
// 1 failure (journal broken, unknown request, database error), 2 usage.
// Reading the spool is not its job: rows still in the spool (database down)
// are not shown until the shipper has drained them.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import pg from "pg";
import { verifyJournal } from "./journal-verify.js";
import { defaultHome, loadConfig } from "../services/shared/config.js";
import { labelRequest } from "../services/gateway/audit/label.js";
import { dispatch, UsageError } from "./command.js";

export interface AuditIo {
  out: (line: string) => void;
  err: (line: string) => void;
  env: NodeJS.ProcessEnv;
  /** Ends `tail -f`; the CLI uses SIGINT/SIGTERM when absent. */
  signal?: AbortSignal;
}

/** Where the executor journal lives unless a path is given. */
export function defaultJournalPath(): string {
  return join(loadConfig().stateDir, "executor", "journal.log");
}

const USAGE = `usage: agent-sudo audit tail [-f] [-n N] [--json]
       agent-sudo audit export [--since WHEN] [--until WHEN] [--format jsonl] [--labeled-only]   (default: everything)
       agent-sudo audit label REQUEST_ID approve|reject --by NAME
       agent-sudo audit verify-journal [PATH]`;

export function parseWhen(value: string, now = Date.now()): Date {
  const rel = /^(\d+)([mhd])$/.exec(value);
  if (rel) {
    const unit = { m: 60_000, h: 3_600_000, d: 86_400_000 }[rel[2] as "m" | "h" | "d"];
    return new Date(now - Number(rel[1]) * unit);
  }
  const d = new Date(value);
  if (!/^\d{4}-\d{2}-\d{2}/.test(value) || Number.isNaN(d.getTime()))
    throw new UsageError(`not a time: ${value} (ISO date/time, or 30m, 12h, 7d)`);
  return d;
}

async function connect(io: AuditIo): Promise<pg.Client> {
  // DATABASE_URL, else the embedded database `agent-sudo start` runs (its URL
  // is kept, 0600, in the state dir).
  const kept = join(io.env.AGENT_SUDO_HOME ?? defaultHome(), "database-url");
  const url = io.env.DATABASE_URL ?? (existsSync(kept) ? readFileSync(kept, "utf8").trim() : undefined);
  if (!url) throw new UsageError(`DATABASE_URL is not set and ${kept} does not exist (is the stack running?)`);
  const c = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
  c.on("error", (err) => io.err(`database connection lost: ${err.message}`));
  await c.connect();
  return c;
}

interface AuditRow {
  /** bigint: pg hands int8 over as a string. */
  id: string;
  request_id: string;
  phase: string;
  ts: Date;
  caller: string;
  assigned_tier: number | null;
  decision_type: string;
  exit_code: number | null;
  command: string;
}

function formatRow(r: AuditRow, json: boolean): string {
  if (json) return JSON.stringify(r);
  const cmd = r.command.length > 120 ? `${r.command.slice(0, 117)}...` : r.command;
  const exit = r.exit_code === null ? "" : ` exit=${r.exit_code}`;
  return `${r.ts.toISOString()}  ${r.phase.padEnd(7)}  tier=${r.assigned_tier ?? "-"}  ${r.decision_type}${exit}  ${r.caller}  ${r.request_id}  ${JSON.stringify(cmd)}`;
}

async function tail(args: string[], io: AuditIo): Promise<number> {
  const { values } = parseArgs({
    args,
    options: { follow: { type: "boolean", short: "f" }, lines: { type: "string", short: "n" }, json: { type: "boolean" } },
  });
  const n = Number(values.lines ?? 20);
  if (!Number.isInteger(n) || n < 0 || n > 100_000) throw new UsageError(`-n: not a count: ${values.lines}`);
  const c = await connect(io);
  try {
    const first = await c.query<AuditRow>("SELECT * FROM (SELECT * FROM command_audit ORDER BY id DESC LIMIT $1) t ORDER BY id", [n]);
    let last = "0";
    for (const r of first.rows) {
      io.out(formatRow(r, values.json === true));
      last = r.id;
    }
    if (!values.follow) return 0;
    if (last === "0") last = (await c.query<{ m: string }>("SELECT coalesce(max(id), 0)::text AS m FROM command_audit")).rows[0]?.m ?? "0";
    let busy = Promise.resolve();
    const fetchNew = async () => {
      const r = await c.query<AuditRow>("SELECT * FROM command_audit WHERE id > $1 ORDER BY id", [last]);
      for (const row of r.rows) {
        io.out(formatRow(row, values.json === true));
        last = row.id;
      }
    };
    c.on("notification", () => {
      busy = busy.then(fetchNew).catch((err: unknown) => io.err(`tail: ${(err as Error).message}`));
    });
    await c.query("LISTEN agent_sudo_audit");
    await fetchNew(); // rows that landed between the first read and LISTEN
    const ended = await new Promise<"stopped" | "lost">((resolve) => {
      const stop = () => resolve("stopped");
      c.once("end", () => resolve("lost"));
      if (io.signal) {
        if (io.signal.aborted) stop();
        io.signal.addEventListener("abort", stop, { once: true });
      } else {
        process.once("SIGINT", stop);
        process.once("SIGTERM", stop);
      }
    });
    await busy;
    if (ended === "lost") io.err("tail: database connection lost");
    return ended === "lost" ? 1 : 0;
  } finally {
    await c.end().catch(() => undefined);
  }
}

const EXPORT_SQL = `
  SELECT p.request_id, to_jsonb(i) AS intent, to_jsonb(o) AS outcome
    FROM (SELECT request_id, min(id) AS k, min(ts) AS t FROM command_audit GROUP BY request_id) p
    LEFT JOIN command_audit i ON i.request_id = p.request_id AND i.phase = 'intent'
    LEFT JOIN command_audit o ON o.request_id = p.request_id AND o.phase = 'outcome'
   WHERE p.t >= $1 AND p.t < $2
     AND (NOT $3 OR coalesce(o.human_verdict, i.human_verdict) IS NOT NULL)
   ORDER BY p.k`;

type Row = Record<string, unknown>;

/** One training record: the decision as classified, what happened, the gold label. */
export function exportRecord(intent: Row | null, outcome: Row | null): Row {
  const a = intent ?? outcome ?? {};
  const pick = (k: string) => outcome?.[k] ?? intent?.[k] ?? null;
  return {
    request_id: a.request_id,
    ts: a.ts,
    host: a.host,
    caller: a.caller,
    source: a.source,
    command: a.command,
    cwd: a.cwd,
    run_as: a.run_as,
    assigned_tier: pick("assigned_tier"),
    decision_type: pick("decision_type"),
    matched_rule: pick("matched_rule"),
    policy_digest: pick("policy_digest"),
    exit_code: outcome?.exit_code ?? null,
    rollback_taken: outcome?.rollback_taken ?? null,
    verify_passed: outcome?.verify_passed ?? null,
    duration_ms: outcome?.duration_ms ?? null,
    training_signal: pick("training_signal"),
    human_verdict: pick("human_verdict"),
    human_verdict_by: pick("human_verdict_by"),
    human_verdict_at: pick("human_verdict_at"),
    has_outcome: outcome !== null,
    evidence: { intent: intent?.evidence ?? null, outcome: outcome?.evidence ?? null },
  };
}

async function exportJsonl(args: string[], io: AuditIo): Promise<number> {
  const { values } = parseArgs({
    args,
    options: { since: { type: "string" }, until: { type: "string" }, format: { type: "string" }, "labeled-only": { type: "boolean" } },
  });
  // Without --since: everything (the training export); --since 7d etc. narrows it.
  if ((values.format ?? "jsonl") !== "jsonl") throw new UsageError("export writes --format jsonl (the only format)");
  const since = values.since ? parseWhen(values.since) : new Date(0);
  const until = values.until ? parseWhen(values.until) : new Date("9999-12-31T00:00:00Z");
  const c = await connect(io);
  try {
    await c.query("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY");
    await c.query(`DECLARE audit_export NO SCROLL CURSOR FOR ${EXPORT_SQL}`, [since, until, values["labeled-only"] === true]);
    for (;;) {
      const r = await c.query<{ intent: Row | null; outcome: Row | null }>("FETCH 1000 FROM audit_export");
      for (const row of r.rows) io.out(JSON.stringify(exportRecord(row.intent, row.outcome)));
      if (r.rows.length < 1000) break;
    }
    await c.query("COMMIT");
    return 0;
  } finally {
    await c.end().catch(() => undefined);
  }
}

async function label(args: string[], io: AuditIo): Promise<number> {
  const { values, positionals } = parseArgs({ args, allowPositionals: true, options: { by: { type: "string" } } });
  const [requestId, verdict, ...extra] = positionals;
  if (!requestId || (verdict !== "approve" && verdict !== "reject") || extra.length > 0)
    throw new UsageError("label REQUEST_ID approve|reject --by NAME");
  const by = values.by?.trim();
  if (!by || by.length > 255) throw new UsageError("label needs --by NAME (who gives the verdict)");
  const c = await connect(io);
  try {
    const rows = await labelRequest(c, requestId, verdict, by);
    if (rows === 0) {
      io.err(`no audit rows for request ${requestId} (still in the spool, or unknown)`);
      return 1;
    }
    io.out(`${requestId}: ${verdict} by ${by} (${rows} rows)`);
    return 0;
  } finally {
    await c.end().catch(() => undefined);
  }
}

function verify(args: string[], io: AuditIo): number {
  if (args.length > 1) throw new UsageError("verify-journal [PATH]");
  const path = args[0] ?? defaultJournalPath();
  const v = verifyJournal(path);
  if (v.ok) {
    io.out(`${path}: ok, ${v.entries} entries, chain intact`);
    return 0;
  }
  io.err(`${path}: BROKEN at entry ${v.brokenAt}: ${v.reason}`);
  return 1;
}

export async function auditCommand(argv: string[], io: Partial<AuditIo> = {}): Promise<number> {
  const full: AuditIo = {
    out: io.out ?? ((l) => process.stdout.write(l + "\n")),
    err: io.err ?? ((l) => process.stderr.write(l + "\n")),
    env: io.env ?? process.env,
    ...(io.signal ? { signal: io.signal } : {}),
  };
  return dispatch(
    "audit",
    USAGE,
    {
      tail: (a) => tail(a, full),
      export: (a) => exportJsonl(a, full),
      label: (a) => label(a, full),
      "verify-journal": (a) => verify(a, full),
    },
    argv,
    full,
  );
}
