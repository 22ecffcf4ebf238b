// The audit shipper: drains the spool into PostgreSQL's command_audit.
//
// Loop: read a batch after the spool's cursor → one INSERT … SELECT FROM
// jsonb_to_recordset($1) ON CONFLICT (request_id, phase) DO NOTHING → advance
// the cursor (fsynced). A crash between the INSERT's commit and the cursor
// write re-sends that batch at restart; the unique key drops the repeats, so
// rows are never duplicated. Failure (PostgreSQL down, network) → the batch
// stays in the spool and is retried with capped exponential backoff; the
// gateway keeps serving, the spool grows. Migrations run on every new
// connection (a no-op when current), so the shipper also brings up a fresh
// database. A batch refused for its *data* (SQLSTATE class 22/23) is split
// and retried row by row; a row PostgreSQL will never accept goes to the
// spool's rejected.log (counted, logged: that row is lost from the table).
//
// What it trusts: the spool's records (validated again on read) and the
// DATABASE_URL it was given. Health: {depth, state, last_error?, shipped_total}.
import pg from "pg";
import type { Logger } from "../../shared/log.js";
import { migrate } from "./migrate.js";
import type { AuditRecord } from "./record.js";
import type { Spool, SpoolBatch } from "./spool.js";

export type ShipperState = "ok" | "retrying" | "down";

export interface ShipperHealth {
  depth: number;
  state: ShipperState;
  last_error?: string;
  shipped_total: number;
  rejected_total: number;
}

export interface ShipperOptions {
  spool: Spool;
  databaseUrl: string;
  logger?: Logger;
  batchSize?: number;
  /**
   * When a read finds a batch that is not full, wait this long and read again
   * before shipping, so records accumulate: one PostgreSQL commit (and cursor fsync) per
   * batch instead of per request, which keeps the database's WAL flushes
   * from slowing the request path's own fsyncs. Default 250 ms.
   */
  lingerMs?: number;
  /** Backoff after a failure: starts here, doubles, capped at maxBackoffMs. */
  minBackoffMs?: number;
  maxBackoffMs?: number;
  /** Failing continuously for this long turns "retrying" into "down". */
  downAfterMs?: number;
}

const COLUMNS = `request_id text, phase text, ts timestamptz, host text, caller text, source text, command text,
  cwd text, run_as text, assigned_tier smallint, decision_type text, matched_rule text, evidence jsonb,
  exit_code integer, rollback_taken boolean, verify_passed boolean, duration_ms bigint, policy_digest text,
  training_signal text`;
const NAMES = COLUMNS.split(",")
  .map((c) => c.trim().split(/\s+/)[0])
  .join(", ");
const INSERT_SQL = `INSERT INTO command_audit (${NAMES})
  SELECT ${NAMES} FROM jsonb_to_recordset($1::jsonb) AS r(${COLUMNS})
  ON CONFLICT (request_id, phase) DO NOTHING`;

/** PostgreSQL text and jsonb cannot hold U+0000; it becomes U+FFFD. */
function stripNul(value: unknown): unknown {
  if (typeof value === "string") return value.replaceAll("\u0000", "\uFFFD");
  if (Array.isArray(value)) return value.map(stripNul);
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [stripNul(k) as string, stripNul(v)]));
  }
  return value;
}

function payload(records: AuditRecord[]): string {
  const json = JSON.stringify(records);
  return json.includes("\\u0000") ? JSON.stringify(stripNul(records)) : json;
}

function isDataError(err: unknown): boolean {
  const code = (err as { code?: unknown }).code;
  return typeof code === "string" && (code.startsWith("22") || code.startsWith("23"));
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export class Shipper {
  private client: pg.Client | undefined;
  private stopped = false;
  private loop: Promise<void> | undefined;
  private shippedTotal = 0;
  private failingSince: number | undefined;
  /** Failures heard so far: a success clears only failures older than its own start. */
  private failures = 0;
  private lastError: string | undefined;
  private wakeBackoff: (() => void) | undefined;
  private stopSignal!: () => void;
  private readonly stopping = new Promise<void>((r) => (this.stopSignal = r));

  constructor(private readonly opts: ShipperOptions) {}

  start(): this {
    this.loop ??= this.run();
    return this;
  }

  health(): ShipperHealth {
    const h: ShipperHealth = {
      depth: this.opts.spool.depth(),
      state: this.state(),
      shipped_total: this.shippedTotal,
      rejected_total: this.opts.spool.stats().rejected_total,
    };
    if (this.lastError !== undefined) h.last_error = this.lastError;
    return h;
  }

  private state(): ShipperState {
    if (this.failingSince === undefined) return "ok";
    return Date.now() - this.failingSince >= (this.opts.downAfterMs ?? 30_000) ? "down" : "retrying";
  }

  /** Resolves when the spool is empty (or rejects after `timeoutMs`). */
  async drained(timeoutMs: number): Promise<void> {
    const end = Date.now() + timeoutMs;
    while (this.opts.spool.depth() > 0) {
      if (Date.now() > end) throw new Error(`audit spool not drained after ${timeoutMs} ms (depth ${this.opts.spool.depth()})`);
      await sleep(20);
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.stopSignal();
    this.wakeBackoff?.();
    await this.loop;
    await this.dropClient();
  }

  private async run(): Promise<void> {
    const size = this.opts.batchSize ?? 500;
    let backoff = this.opts.minBackoffMs ?? 100;
    let lingered = false;
    while (!this.stopped) {
      let batch: SpoolBatch;
      try {
        batch = await this.opts.spool.readBatch(size);
      } catch (err) {
        this.failed(err, "reading the spool");
        await this.pause(backoff);
        backoff = Math.min(backoff * 2, this.opts.maxBackoffMs ?? 5_000);
        continue;
      }
      if (batch.records.length === 0) {
        if (batch.moved) await this.commitEmpty(batch);
        else if (!this.client && !(await this.reconnectIdle())) {
          await this.pause(backoff);
          backoff = Math.min(backoff * 2, this.opts.maxBackoffMs ?? 5_000);
        } else await Promise.race([this.opts.spool.waitForRecords(1_000, batch.generation), this.stopping]);
        continue;
      }
      // A partial batch waits a moment for company before it is shipped.
      if (batch.records.length < size && !lingered) {
        lingered = true;
        await this.pause(this.opts.lingerMs ?? 250);
        continue;
      }
      lingered = false;
      const failuresBefore = this.failures;
      try {
        await this.ship(batch.records);
        await this.opts.spool.commit(batch);
        this.shippedTotal += batch.records.length;
        // A failure heard while the cursor was written (the connection lost
        // after the INSERT's answer) is newer than this success: it stands.
        if (this.failures === failuresBefore) this.recovered();
        backoff = this.opts.minBackoffMs ?? 100;
      } catch (err) {
        this.failed(err, "shipping a batch");
        await this.dropClient();
        await this.pause(backoff);
        backoff = Math.min(backoff * 2, this.opts.maxBackoffMs ?? 5_000);
      }
    }
  }

  /** Idle and disconnected: reconnect anyway, so /health tells the truth. */
  private async reconnectIdle(): Promise<boolean> {
    const failuresBefore = this.failures;
    try {
      await this.connect();
      if (this.failures === failuresBefore) this.recovered();
      return true;
    } catch (err) {
      this.failed(err, "connecting");
      return false;
    }
  }

  private recovered(): void {
    if (this.failingSince !== undefined) this.opts.logger?.info({ depth: this.opts.spool.depth() }, "audit shipper recovered");
    this.failingSince = undefined;
    this.lastError = undefined;
  }

  /** A batch of only rejected/garbage lines still moves the cursor on. */
  private async commitEmpty(batch: SpoolBatch): Promise<void> {
    await this.opts.spool.commit(batch).catch((err: unknown) => this.failed(err, "moving the spool cursor"));
  }

  private failed(err: unknown, what: string): void {
    this.failures++;
    this.failingSince ??= Date.now();
    this.lastError = `${what}: ${(err as Error).message}`;
    this.opts.logger?.warn({ err: this.lastError, depth: this.opts.spool.depth(), state: this.state() }, "audit shipper retrying");
  }

  private pause(ms: number): Promise<void> {
    const jittered = ms / 2 + Math.random() * (ms / 2);
    return new Promise((resolve) => {
      const t = setTimeout(done, jittered);
      function done() {
        clearTimeout(t);
        resolve();
      }
      this.wakeBackoff = done;
    });
  }

  private async connect(): Promise<pg.Client> {
    if (this.client) return this.client;
    const c = new pg.Client({ connectionString: this.opts.databaseUrl, connectionTimeoutMillis: 5_000, query_timeout: 30_000 });
    // Without a listener, a server that dies under an idle client crashes the process.
    c.on("error", (err) => {
      if (this.client !== c) return;
      this.client = undefined;
      this.failed(err, "connection lost");
      c.end().catch(() => undefined);
    });
    try {
      await c.connect();
      const applied = await migrate(c);
      if (applied.length > 0) this.opts.logger?.info({ applied }, "audit migrations applied");
    } catch (err) {
      await c.end().catch(() => undefined);
      throw err;
    }
    this.client = c;
    return c;
  }

  private async dropClient(): Promise<void> {
    const c = this.client;
    this.client = undefined;
    await c?.end().catch(() => undefined);
  }

  private async ship(records: AuditRecord[]): Promise<void> {
    const c = await this.connect();
    try {
      await c.query(INSERT_SQL, [payload(records)]);
    } catch (err) {
      if (!isDataError(err)) throw err;
      // Find the row(s) PostgreSQL refuses; ship the rest.
      for (const r of records) {
        try {
          await c.query(INSERT_SQL, [payload([r])]);
        } catch (rowErr) {
          if (!isDataError(rowErr)) throw rowErr;
          await this.opts.spool.reject(JSON.stringify(r), `refused by PostgreSQL: ${(rowErr as Error).message}`);
        }
      }
    }
  }
}

export function startShipper(opts: ShipperOptions): Shipper {
  return new Shipper(opts).start();
}
