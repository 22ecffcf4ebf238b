// Chaos harness: a real stack (supervisor, six services, embedded
// PostgreSQL) whose executor and sandbox run the recorder stand-in shell, a
// client that tells every kind of answer apart (an HTTP status, a connection
// refused, a connection reset after the request was sent, a hang), `kill -9`
// of one service (or PostgreSQL) while idle or under load, and a
// reconciliation of what the clients were told against three independent
// records: what reached the host (the stand-in's records), the executor's
// hash-chained journal (what it verified a quorum for) and the audit rows in
// PostgreSQL.
//
// Where "what ran" is seen, per tier (the envelopes decide it):
//   tier 0     read-only: the stand-in cannot write. The executor's journal
//              `execute` entry (fsynced right before the command starts) is
//              the record that it ran.
//   tiers 1–2  the stand-in runs once in the sandbox's mirror; its record
//              reaches the host only when the executor commits the run's
//              diff (journal `commit-begin` … `commit-end`).
//   tier 3     the live envelope: the stand-in's record lands at once.
// The stand-in writes each command line to a file of its own (rec/<md5 of
// the command>), so concurrent tier-1–2 runs never diff the same path and
// never conflict at commit.
//
// Used by test/chaos/*.spec.ts (few requests) and bench/chaos/run.ts (many).
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { join } from "node:path";
import pg from "pg";
import { journalEntries, type JournalEntry } from "../support/journal.js";
import { EXECUTE_QUORUM } from "../support/quorum.js";
import { startStack, type Stack } from "../support/stack.js";
import { processAlive, startTicks } from "../../services/shared/process-alive.js";

export type Target = "executor" | "classifier" | "concurrence" | "sandbox" | "breaker" | "gateway" | "postgres";
export const TARGETS: readonly Target[] = ["executor", "classifier", "concurrence", "sandbox", "breaker", "gateway", "postgres"];

/**
 * The breaker would (rightly) disarm a stack that mixes tier-4 attempts,
 * 503s and thousands of requests a minute; the chaos runs test the kill
 * matrix, not the breaker's trip rules, so those rules are opened wide.
 */
export const CHAOS_ENV: Record<string, string> = {
  AGENT_SUDO_BREAKER_TRIP_ON_TIER4: "0",
  AGENT_SUDO_BREAKER_MAX_REQUESTS_PER_MIN: "100000",
  AGENT_SUDO_BREAKER_TIER3_FAILURES: "1000",
  AGENT_SUDO_BREAKER_MAX_FAILURE_RATIO: "1",
  AGENT_SUDO_LOG_LEVEL: "warn",
};

export type Kind = 0 | 1 | 2 | 3 | 4;
/** 20 slots: 8 tier 0, 4 tier 1, 3 tier 2, 3 tier 3, 2 tier 4. */
const MIX: readonly Kind[] = [0, 1, 0, 2, 0, 3, 1, 0, 4, 0, 1, 3, 0, 2, 1, 0, 3, 2, 0, 4];
export const kindOf = (i: number): Kind => MIX[i % MIX.length] ?? 0;

/**
 * Signers the executor must have verified (journal `signers`): tier 0 and 3
 * on Execute (EXECUTE_QUORUM); tiers 1–2 on Commit (classifier, lease, the
 * sandbox's run report, and the effect verdicts the classifier's and the
 * concurrence's keys sign: "classifier" twice).
 */
const COMMIT_QUORUM: readonly string[] = ["breaker", "classifier", "classifier", "concurrence", "sandbox"];

/** Every signer of `quorum` is in `signers`, as often as the quorum names it. */
function covers(signers: readonly string[], quorum: readonly string[]): boolean {
  const left = [...signers];
  for (const s of quorum) {
    const i = left.indexOf(s);
    if (i < 0) return false;
    left.splice(i, 1);
  }
  return true;
}

export type NetFailure = "refused" | "reset" | "hang";

export interface Outcome {
  tag: string;
  kind: Kind;
  command: string;
  /** The HTTP status, or how the connection failed without one. */
  status: number | NetFailure;
  ms: number;
  requestId?: string;
  error?: string;
  component?: string;
  detail?: string;
  /** The command's stdout, for a 200. */
  output?: string;
  /** A refusal answered without its audit record (`audited: false`). */
  unaudited?: true;
  /** When the answer (or the failure) came, ms since the epoch. */
  at?: number;
}

export interface Answer {
  status: number | NetFailure;
  body: Record<string, unknown>;
  detail?: string;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** POST /exec on a fresh connection; connection failures are told apart, never thrown. */
export function postExec(url: string, token: string, body: unknown, timeoutMs: number): Promise<Answer> {
  const payload = JSON.stringify(body);
  const u = new URL("/exec", url);
  return new Promise((resolve) => {
    let sent = false;
    let done = false;
    const finish = (a: Answer) => {
      if (!done) {
        done = true;
        resolve(a);
      }
    };
    const req = request(
      {
        host: u.hostname,
        port: u.port,
        path: u.pathname,
        method: "POST",
        agent: false,
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json", "content-length": Buffer.byteLength(payload) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("error", (e: NodeJS.ErrnoException) => finish({ status: "reset", body: {}, detail: `mid-answer: ${e.code ?? e.message}` }));
        res.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8");
          let parsed: Record<string, unknown>;
          try {
            parsed = JSON.parse(text) as Record<string, unknown>;
          } catch {
            parsed = { raw: text };
          }
          finish({ status: res.statusCode ?? 0, body: parsed });
        });
        res.on("aborted", () => finish({ status: "reset", body: {}, detail: "answer aborted" }));
      },
    );
    req.setTimeout(timeoutMs, () => {
      finish({ status: "hang", body: {}, detail: `no answer in ${timeoutMs} ms` });
      req.destroy();
    });
    req.on("finish", () => {
      sent = true;
    });
    req.on("error", (e: NodeJS.ErrnoException) => {
      // ECONNREFUSED: nothing listened, nothing was sent. Anything after the
      // connection opened (ECONNRESET, "socket hang up") is a reset.
      finish({ status: !sent && e.code === "ECONNREFUSED" ? "refused" : "reset", body: {}, detail: e.code ?? e.message });
    });
    req.end(payload);
  });
}

interface JournalRun {
  event: "execute" | "commit";
  command: string;
  tier: number;
  signers: string[];
  request_id: string;
}

export interface Reconciliation {
  requests: number;
  byStatus: Record<string, number>;
  /** 200 answers, and recorder lines that belong to a request we sent. */
  answered200: number;
  recorded: number;
  /**
   * The quorum check: executions (see `ChaosRig.recordedLines`) without a
   * journal entry carrying the quorum of the command's tier (`execute` for
   * tiers 0 and 3, a `commit-begin` for tiers 1–2), and journal entries of
   * ours that lack it.
   */
  withoutQuorum: string[];
  /** Executions, or journal entries, of a tier-4 command (never allowed). */
  tier4Recorded: string[];
  /** Recorder lines whose request was answered with something other than 200 (a lie: the caller was told it did not run). */
  recordedNot200: Array<{ command: string; status: string; component?: string }>;
  /** Recorder lines whose request lost its connection (gateway killed): ran, answer lost. */
  recordedAfterReset: string[];
  /** 200 answers with no recorder line, or more than one. */
  notRecordedOnce: string[];
  /** Recorder lines that match no request we sent. */
  strangers: string[];
  /** Answers that are not a result, a refusal, 429 or 503. */
  unclear: Array<{ command: string; status: string; body?: string }>;
  hangs: string[];
  resets: number;
  refusedConnections: number;
  /** Requests whose audit rows do not reconcile (by request id, else by command). */
  auditMismatch: Array<{ command: string; status: string; rows: string }>;
  /** Of those: an intent row and no outcome, ever (the gateway died in between). */
  danglingIntents: string[];
  /** Recorder lines with no audit intent at all (the intent must be durable before anything runs). */
  executedWithoutIntent: string[];
}

export interface RigOptions {
  /** Per-request client timeout: longer is a hang. */
  requestTimeoutMs?: number;
  /** Extra environment for the stack. */
  env?: Record<string, string>;
}

export class ChaosRig {
  readonly outcomes: Outcome[] = [];
  private seq = 0;

  private constructor(
    readonly stack: Stack,
    readonly dir: string,
    readonly work: string,
    readonly recordedLog: string,
    private readonly timeoutMs: number,
  ) {}

  static async start(opts: RigOptions = {}): Promise<ChaosRig> {
    const dir = mkdtempSync("/tmp/agent-sudo-chaos-");
    chmodSync(dir, 0o755);
    const rec = join(dir, "rec");
    mkdirSync(rec, { mode: 0o755 });
    chmodSync(rec, 0o755);
    const work = join(dir, "w");
    mkdirSync(work, { mode: 0o777 });
    // The stand-in: records the command line in a file of its own and
    // executes nothing. One behaviour more: a command containing
    // "chaos-slow" then keeps its shell alive for 30 s (the shell's argv
    // holds the command, so /proc shows whether it still runs) — a test can
    // kill a service while a command is surely running, and see whether
    // that command outlives its timeout.
    const shell = join(dir, "chaos-recorder.sh");
    writeFileSync(
      shell,
      [
        "#!/bin/sh",
        "# test stand-in: records, never executes",
        `f='${rec}'/$(printf '%s' "$2" | md5sum | cut -c1-32)`,
        `printf '%s\\n' "$2" >> "$f"`,
        `case "$2" in *chaos-slow*) i=0; while [ "$i" -lt 300 ]; do sleep 0.1; i=$((i+1)); done ;; esac`,
        "echo recorded",
        "",
      ].join("\n"),
      { mode: 0o755 },
    );
    const stack = await startStack({ env: { AGENT_SUDO_SHELL: shell, ...CHAOS_ENV, ...opts.env } });
    const rig = new ChaosRig(stack, dir, work, rec, opts.requestTimeoutMs ?? 90_000);
    // Safety: destructive-looking commands go out only when the stand-in
    // answers — for the executor (tier 0) and for the mirror (tier 1, whose
    // record then reaches the host through a commit).
    const probe = await rig.send(0, "probe");
    if (probe.status !== 200 || probe.output !== "recorded\n")
      throw new Error(`chaos rig: the tier-0 probe was not answered by the stand-in (${probe.status} ${JSON.stringify(probe.output)})`);
    if (!rig.recordedLines().includes(probe.command)) throw new Error("chaos rig: the executor's journal does not show the probe");
    const probe1 = await rig.send(1, "probe");
    if (probe1.status !== 200 || probe1.output !== "recorded\n" || !rig.hostRecords().includes(probe1.command)) {
      throw new Error(
        `chaos rig: the tier-1 probe was not run by the stand-in in the mirror and committed (${probe1.status} ${JSON.stringify(probe1.output)})`,
      );
    }
    return rig;
  }

  async stop(): Promise<void> {
    await this.stack.stop();
    rmSync(this.dir, { recursive: true, force: true });
  }

  commandFor(kind: Kind, tag: string): string {
    switch (kind) {
      case 0:
        return `echo chaos-${tag}`;
      case 1:
        return `echo chaos-${tag} > ${this.work}/${tag}.t1`;
      case 2:
        return `touch ${this.work}/${tag}.t2`;
      case 3:
        return `useradd chaos_${tag}`;
      case 4:
        return `frobnicate-chaos --tag ${tag}`;
    }
  }

  /** Sends one request of a tier (or the tier-0 slow command) and records the outcome. */
  async send(kind: Kind, prefix: string, opts: { slow?: boolean; timeoutS?: number } = {}): Promise<Outcome> {
    const tag = `${prefix}x${++this.seq}`;
    const command = opts.slow ? `echo chaos-slow-${tag}` : this.commandFor(kind, tag);
    const t0 = performance.now();
    const a = await postExec(this.stack.url, this.stack.token, { command, timeout: opts.timeoutS ?? 30 }, this.timeoutMs);
    const o: Outcome = { tag, kind, command, status: a.status, ms: performance.now() - t0 };
    if (typeof a.body.request_id === "string") o.requestId = a.body.request_id;
    if (typeof a.body.error === "string") o.error = a.body.error;
    if (typeof a.body.component === "string") o.component = a.body.component;
    if (typeof a.body.output === "string") o.output = a.body.output;
    if (a.body.audited === false) o.unaudited = true;
    o.at = Date.now();
    if (a.detail) o.detail = a.detail;
    else if (
      typeof a.status === "number" &&
      a.status !== 200 &&
      a.status !== 403 &&
      a.status !== 409 &&
      a.status !== 429 &&
      a.status !== 503
    )
      o.detail = JSON.stringify(a.body).slice(0, 300);
    this.outcomes.push(o);
    return o;
  }

  /** The pid of a service (supervisor.json) or PostgreSQL's postmaster; undefined while it is down. */
  pidOf(target: Target): number | undefined {
    try {
      if (target === "postgres") {
        const pid = Number(readFileSync(join(this.stack.home, "state", "postgres", "postmaster.pid"), "utf8").split("\n")[0]);
        return pid > 0 && processAlive(pid) ? pid : undefined;
      }
      const pid = this.stack.pids()[target];
      return pid && processAlive(pid) ? pid : undefined;
    } catch {
      return undefined;
    }
  }

  kill(target: Target): { pid: number; at: number } {
    const pid = this.pidOf(target);
    if (!pid) throw new Error(`${target} is not running`);
    process.kill(pid, "SIGKILL");
    return { pid, at: performance.now() };
  }

  async databaseUrl(): Promise<string> {
    return readFileSync(join(this.stack.home, "database-url"), "utf8").trim();
  }

  private async databaseAnswers(): Promise<boolean> {
    const client = new pg.Client({ connectionString: await this.databaseUrl(), connectionTimeoutMillis: 1000 });
    client.on("error", () => undefined);
    try {
      await client.connect();
      await client.query("SELECT 1");
      return true;
    } catch {
      return false;
    } finally {
      await client.end().catch(() => undefined);
    }
  }

  /**
   * Milliseconds from `killedAt` until the target runs under a new pid and
   * the stack is healthy again (/health 200; for PostgreSQL: it answers a
   * query and the gateway's shipper is back to "ok").
   */
  async waitRestored(target: Target, oldPid: number, killedAt: number, timeoutMs = 60_000): Promise<number> {
    const deadline = killedAt + timeoutMs;
    while (performance.now() < deadline) {
      const pid = this.pidOf(target);
      if (pid && pid !== oldPid) {
        const h = await this.stack.health().catch(() => ({ status: 0, body: {} as Record<string, unknown> }));
        if (h.status === 200) {
          if (target !== "postgres") return performance.now() - killedAt;
          const shipper = (h.body.audit as { shipper?: { state?: string } } | undefined)?.shipper;
          if (shipper?.state === "ok" && (await this.databaseAnswers())) return performance.now() - killedAt;
        }
      }
      await sleep(25);
    }
    throw new Error(`${target} not restored within ${timeoutMs} ms of the kill`);
  }

  /** Idle kill: nothing in flight. Returns ms to healthy. */
  async idleKill(target: Target): Promise<number> {
    await this.stack.waitHealthy(30_000);
    const { pid, at } = this.kill(target);
    return this.waitRestored(target, pid, at);
  }

  /** One request of every tier, one after the other (after a recovery). */
  async probeEveryTier(prefix: string): Promise<Outcome[]> {
    const out: Outcome[] = [];
    for (const kind of [0, 1, 2, 3, 4] as const) out.push(await this.send(kind, prefix));
    return out;
  }

  /**
   * `clients` concurrent clients send the tier mix; the target is SIGKILLed
   * when request number `killAt` (default: a third of `requests`, at least
   * two per client, so the clients are in full flow) is about to go out.
   * The clients keep going while it is down and, once the stack is healthy
   * again, send `requests - killAt` more. A client that gets 503 or no
   * connection waits 250 ms, after 429 100 ms (a well-behaved client).
   * healthyMs is measured by a watcher while the load runs.
   */
  async loadKill(
    target: Target,
    opts: { clients: number; requests: number; prefix: string; killAt?: number },
  ): Promise<{ healthyMs: number; outcomes: Outcome[]; elapsedMs: number; inFlightAtKill: number }> {
    await this.stack.waitHealthy(30_000);
    const killAt = opts.killAt ?? Math.max(Math.floor(opts.requests / 3), 2 * opts.clients);
    const tail = Math.max(opts.requests - killAt, opts.clients);
    let next = 0;
    let inFlight = 0;
    let inFlightAtKill = 0;
    let restored: Promise<number> | undefined;
    let restoredAt: number | undefined;
    let afterRestore = 0;
    const mine: Outcome[] = [];
    const t0 = performance.now();
    const worker = async () => {
      for (;;) {
        if (restoredAt !== undefined && afterRestore >= tail) return;
        const i = next++;
        if (i === killAt) {
          inFlightAtKill = inFlight;
          const k = this.kill(target);
          restored = this.waitRestored(target, k.pid, k.at).then((ms) => {
            restoredAt = performance.now();
            return ms;
          });
          restored.catch(() => undefined);
        }
        if (restoredAt !== undefined) afterRestore++;
        inFlight++;
        const o = await this.send(kindOf(i), opts.prefix);
        inFlight--;
        mine.push(o);
        if (o.status === 429) await sleep(100);
        else if (o.status !== 200 && o.status !== 403) await sleep(250);
        // Not restored within the watcher's limit: stop rather than spin.
        if (restored && restoredAt === undefined && performance.now() - t0 > 120_000) return;
      }
    };
    await Promise.all(Array.from({ length: opts.clients }, worker));
    const elapsedMs = performance.now() - t0;
    if (!restored) throw new Error("the kill never happened");
    const healthyMs = await restored;
    return { healthyMs, outcomes: mine, elapsedMs, inFlightAtKill };
  }

  /** Waits until the audit spool is empty and the shipper is "ok". */
  async drained(timeoutMs = 90_000): Promise<void> {
    const t0 = Date.now();
    while (Date.now() - t0 < timeoutMs) {
      const h = await this.stack.health().catch(() => undefined);
      const audit = h?.body.audit as { spool?: { depth?: number }; shipper?: { state?: string }; reconciled?: boolean } | undefined;
      // reconciled: a restarted gateway has closed the intents its predecessor left open.
      if (h?.status === 200 && audit?.spool?.depth === 0 && audit.shipper?.state === "ok" && audit.reconciled === true) return;
      await sleep(100);
    }
    throw new Error("the audit spool did not drain");
  }

  /** What reached the host: the stand-in's records (tier 3 at once, tiers 1–2 once committed). */
  hostRecords(): string[] {
    const out: string[] = [];
    for (const name of readdirSync(this.recordedLog).sort()) {
      for (const line of readFileSync(join(this.recordedLog, name), "utf8").split("\n")) if (line) out.push(line);
    }
    return out;
  }

  /**
   * Every execution, one line per run: the host's records (tiers 1–3) and
   * the journal's tier-0 `execute` entries (tier 0 cannot write a record)
   * whose command started (not an envelope that failed to build).
   */
  recordedLines(): string[] {
    const entries = this.journal();
    const notRun = new Set(entries.filter((e) => e.event === "outcome" && e.not_run !== undefined).map((e) => e.request_id));
    const tier0 = entries
      .filter((e) => e.event === "execute" && e.tier === 0 && typeof e.command === "string" && !notRun.has(e.request_id))
      .map((e) => e.command as string);
    return [...this.hostRecords(), ...tier0];
  }

  /** Live processes running `command` (the stand-in's shell carries it in its argv). */
  runningPids(command: string): number[] {
    const out: number[] = [];
    for (const name of readdirSync("/proc")) {
      if (!/^\d+$/.test(name)) continue;
      try {
        const argv = readFileSync(`/proc/${name}/cmdline`, "utf8").split("\0");
        if (argv.includes(command) && argv.some((a) => a.endsWith("chaos-recorder.sh"))) out.push(Number(name));
      } catch {
        // gone meanwhile
      }
    }
    return out;
  }

  /**
   * What a process still running `command` is doing, for a failure message:
   * its state and where it waits, its parent and pid namespace, how long it
   * has run, and what the executor's journal says of the request.
   */
  describeRunning(command: string): string {
    const ticks = 100; // USER_HZ on Linux
    const uptime = Number(readFileSync("/proc/uptime", "utf8").split(" ")[0]);
    const lines = this.runningPids(command).map((pid) => {
      try {
        const status = readFileSync(`/proc/${pid}/status`, "utf8");
        const field = (name: string) => new RegExp(`^${name}:\\s*(.*)$`, "m").exec(status)?.[1] ?? "?";
        const started = Number(startTicks(pid));
        const wchan = readFileSync(`/proc/${pid}/wchan`, "utf8");
        const ns = readlinkSync(`/proc/${pid}/ns/pid`);
        return `pid ${pid} state ${field("State")} wchan ${wchan || "-"} ppid ${field("PPid")} nspid ${field("NSpid")} ${ns} running ${(uptime - started / ticks).toFixed(1)} s`;
      } catch (err) {
        return `pid ${pid}: ${(err as Error).message}`;
      }
    });
    const journal = this.journal();
    const ids = new Set(journal.filter((e) => e.command === command).map((e) => e.request_id));
    const entries = journal.filter((e) => ids.has(e.request_id));
    return [...lines, ...entries.map((e) => JSON.stringify(e))].join("\n");
  }

  /** Resolves once `command` is running (a process shows it), or throws. */
  async waitRunning(command: string, timeoutMs = 20_000): Promise<void> {
    const t0 = Date.now();
    while (this.runningPids(command).length === 0) {
      if (Date.now() - t0 > timeoutMs) throw new Error(`${command} never started`);
      await sleep(5);
    }
  }

  private journal(): JournalEntry[] {
    return journalEntries(this.stack.home);
  }

  /** The executor's `execute` and `commit-begin` entries. */
  journalRuns(): JournalRun[] {
    const out: JournalRun[] = [];
    for (const e of this.journal()) {
      if ((e.event === "execute" || e.event === "commit-begin") && typeof e.command === "string") {
        out.push({
          event: e.event === "execute" ? "execute" : "commit",
          command: e.command,
          tier: Number(e.tier),
          signers: e.signers ?? [],
          request_id: String(e.request_id),
        });
      }
    }
    return out;
  }

  async auditRows(): Promise<Array<{ request_id: string; phase: string; decision_type: string; command: string }>> {
    const client = new pg.Client({ connectionString: await this.databaseUrl() });
    await client.connect();
    try {
      return (await client.query("SELECT request_id, phase, decision_type, command FROM command_audit WHERE source = 'http'")).rows;
    } finally {
      await client.end();
    }
  }

  /** Reconciles every outcome so far (call after `drained`). */
  async reconcile(): Promise<Reconciliation> {
    const outcomes = this.outcomes;
    const byCommand = new Map(outcomes.map((o) => [o.command, o]));
    const recorded = this.recordedLines();
    const journal = this.journalRuns();
    const rows = await this.auditRows();
    const rowsById = new Map<string, typeof rows>();
    const rowsByCommand = new Map<string, typeof rows>();
    for (const r of rows) {
      rowsById.set(r.request_id, [...(rowsById.get(r.request_id) ?? []), r]);
      rowsByCommand.set(r.command, [...(rowsByCommand.get(r.command) ?? []), r]);
    }
    const st = (o: Outcome) => String(o.status);
    const rec: Reconciliation = {
      requests: outcomes.length,
      byStatus: {},
      answered200: 0,
      recorded: 0,
      withoutQuorum: [],
      tier4Recorded: [],
      recordedNot200: [],
      recordedAfterReset: [],
      notRecordedOnce: [],
      strangers: [],
      unclear: [],
      hangs: [],
      resets: 0,
      refusedConnections: 0,
      auditMismatch: [],
      danglingIntents: [],
      executedWithoutIntent: [],
    };
    const recordedCount = new Map<string, number>();
    for (const line of recorded) recordedCount.set(line, (recordedCount.get(line) ?? 0) + 1);

    for (const line of recorded) {
      const o = byCommand.get(line);
      if (!o) {
        rec.strangers.push(line);
        continue;
      }
      rec.recorded++;
      if (o.kind === 4) rec.tier4Recorded.push(line);
      if (!vouches(journal, line, o.kind)) rec.withoutQuorum.push(line);
      if (!(rowsByCommand.get(line) ?? []).some((r) => r.phase === "intent")) rec.executedWithoutIntent.push(line);
      if (o.status === "reset" || (o.status === 502 && o.error === "outcome_unknown")) rec.recordedAfterReset.push(line);
      else if (o.status !== 200)
        rec.recordedNot200.push({ command: line, status: st(o), ...(o.component ? { component: o.component } : {}) });
    }

    // The journal on its own: no entry of ours without its quorum, none for tier 4.
    for (const j of journal) {
      const o = byCommand.get(j.command);
      if (!o) continue;
      if (o.kind === 4) rec.tier4Recorded.push(`journal ${j.event}: ${j.command}`);
      else if (!vouches([j], j.command, o.kind))
        rec.withoutQuorum.push(`journal ${j.event} tier ${j.tier} [${j.signers.join(",")}]: ${j.command}`);
    }

    for (const o of outcomes) {
      rec.byStatus[st(o)] = (rec.byStatus[st(o)] ?? 0) + 1;
      if (o.status === "hang") rec.hangs.push(o.command);
      if (o.status === "reset") rec.resets++;
      if (o.status === "refused") rec.refusedConnections++;
      if (o.status === 200) {
        rec.answered200++;
        if (recordedCount.get(o.command) !== 1) rec.notRecordedOnce.push(o.command);
      }
      const clear =
        o.status === 200 ||
        o.status === "refused" ||
        o.status === "reset" ||
        (o.status === 403 && o.error === "refused") ||
        (o.status === 409 && o.error === "conflict") ||
        (o.status === 429 && o.error === "busy") ||
        (o.status === 503 && o.error === "unavailable") ||
        (o.status === 502 && o.error === "outcome_unknown");
      if (!clear && o.status !== "hang") rec.unclear.push({ command: o.command, status: st(o), ...(o.detail ? { body: o.detail } : {}) });

      // The audit: by request id when the answer carried one, else by the
      // (unique) command. Executed → intent + executed/verify_failed
      // outcome; anything else → intent + a non-executed outcome. A lost
      // answer (reset, refused, hang) → that, or no rows at all.
      const mine = o.requestId ? (rowsById.get(o.requestId) ?? []) : (rowsByCommand.get(o.command) ?? []);
      const phases = mine
        .map((r) => r.phase)
        .sort()
        .join(",");
      const outcome = mine.find((r) => r.phase === "outcome")?.decision_type;
      const ran = recordedCount.has(o.command);
      let ok: boolean;
      // A lost answer: no rows, or intent + an outcome that says what happened —
      // or "outcome_unknown" when the gateway died in between (the executor
      // journal then holds whether it ran; the reconcile checks quorum there).
      if (typeof o.status !== "number")
        ok =
          mine.length === 0 ||
          (phases === "intent,outcome" &&
            (outcome === "outcome_unknown" || (outcome === "executed" || outcome === "verify_failed") === ran));
      else if (o.status === 200) ok = phases === "intent,outcome" && (outcome === "executed" || outcome === "verify_failed");
      else if (!o.requestId) ok = mine.length === 0 || (phases === "intent,outcome" && outcome !== "executed");
      else ok = phases === "intent,outcome" && outcome !== "executed" && outcome !== "verify_failed";
      if (!ok)
        rec.auditMismatch.push({
          command: o.command,
          status: st(o),
          rows: mine.map((r) => `${r.phase}:${r.decision_type}`).join(",") || "none",
        });
      if (phases === "intent") rec.danglingIntents.push(o.command);
    }
    return rec;
  }
}

/**
 * A journal entry carrying the quorum of the command's tier: tiers 0 and 3
 * `execute` at that tier; tiers 1–2 a `commit-begin` (its tier is the final
 * one: the worst of the prediction and both effect verdicts, at most 3).
 */
function vouches(journal: readonly JournalRun[], command: string, kind: Kind): boolean {
  return journal.some((j) => {
    if (j.command !== command) return false;
    if (kind === 0 || kind === 3) return j.event === "execute" && j.tier === kind && covers(j.signers, EXECUTE_QUORUM[kind]);
    if (kind === 1 || kind === 2) return j.event === "commit" && j.tier >= kind && j.tier <= 3 && covers(j.signers, COMMIT_QUORUM);
    return false;
  });
}

/** One line per figure, for the test log and the bench. */
export function summarize(target: Target, phase: string, healthyMs: number, outcomes: readonly Outcome[]): string {
  const counts: Record<string, number> = {};
  for (const o of outcomes) counts[String(o.status)] = (counts[String(o.status)] ?? 0) + 1;
  const parts = Object.entries(counts)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([k, v]) => `${k}×${v}`)
    .join(" ");
  return `chaos ${target.padEnd(11)} ${phase.padEnd(4)} healthy after ${Math.round(healthyMs)} ms${outcomes.length ? `; ${outcomes.length} requests: ${parts}` : ""}`;
}
