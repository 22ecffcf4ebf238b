// The audit spool: an append-only local file that every audit record reaches,
// fsynced, before the gateway lets the executor run anything.
//
// Layout of the spool directory: `seg-<10 digits>.log` segments (one record
// per line, see spool-line.ts), `cursor` (JSON {segment, offset}: everything
// before it is in PostgreSQL), `rejected.log` (lines that can never ship),
// `reserve` (set-aside room, spool-reserve.ts) and `spool.lock` (the owning pid).
//
// Space: a segment is deleted once everything in it is shipped. The active
// segment rotates when it reaches its size (small: 1 MiB by default) and also
// as soon as the shipper has shipped all of it, so shipped records leave the
// disk within a shipping round, not after megabytes more. When the file
// system is full, refusals and outcomes go into the reserve's room and
// intents are refused (503) until the reserve can be set aside again.
//
// Durability: `append` resolves only after the bytes are written and
// fdatasync'd. Concurrent appends are group-committed: all records queued
// while one write+fdatasync runs go out together in the next one. A crash
// can leave at most the last group half written; the checksum finds it at
// open and the file is truncated there (only bytes after the last newline:
// a torn write never ends in one). Those records were never acknowledged, so
// the gateway never ran their commands: nothing acknowledged is lost. A
// complete line that is damaged (disk fault, an editor), anywhere — the last
// line too — cannot be shipped: it is copied to rejected.log, logged and
// counted — that record is lost from PostgreSQL, and we say so (the
// reconciler too: spool-rejected.ts).
//
// What it trusts: the filesystem's fdatasync. How it fails: any error on the
// write path rejects with SpoolUnwritableError (the gateway answers 503 and
// executes nothing). A failed fdatasync poisons the spool until it is
// reopened, because after one the kernel may have dropped the dirty pages.
import { accessSync, constants, promises as fsp, statSync, writeSync } from "node:fs";
import type { FileHandle } from "node:fs/promises";
import { join } from "node:path";
import type { Logger } from "../../shared/log.js";
import { AuditRecordError, MAX_RECORD_BYTES, parseAuditRecord, type AuditRecord, type AuditRecordInput } from "./record.js";
import { decodeLine, encodeLine, scanLines } from "./spool-line.js";
import {
  acquireSpoolLock,
  assertWritable,
  assertWritableNow,
  countSegment,
  fsyncDir,
  listSegments,
  readCursor,
  segmentPath,
  writeCursor,
} from "./spool-files.js";
import { isNoSpace, type ReserveStats, SpoolReserve } from "./spool-reserve.js";
import { RejectedRecords, type RejectedRecordsView } from "./spool-rejected.js";

export class SpoolUnwritableError extends Error {
  override readonly name = "SpoolUnwritableError";
  readonly code = "SPOOL_UNWRITABLE";
}

export interface SpoolCursor {
  segment: number;
  offset: number;
}

export interface SpoolBatch {
  records: AuditRecord[];
  next: SpoolCursor;
  /** Checksummed lines consumed (records + lines rejected at read). */
  consumed: number;
  /** The cursor would move (records, or only rejected lines to step over). */
  moved: boolean;
  /** The spool's append generation when the read began (for waitForRecords). */
  generation: number;
}

export interface SpoolStats {
  depth: number;
  segments: number;
  rejected_total: number;
  /** Group commits (write + fdatasync) so far: appends / flushes = group size. */
  flushes: number;
  /** A segment rotates at this size (and whenever everything in it is shipped). */
  segment_bytes: number;
  reserve: ReserveStats;
  broken?: string;
}

export interface SpoolOptions {
  dir: string;
  /** Rotate to a new segment once the active one reaches this size (default 1 MiB). */
  maxSegmentBytes?: number;
  /** Room set aside for refusals and outcomes when the disk is full (default 1 MiB, at most 1/8 of the file system; 0: none). */
  reserveBytes?: number;
  logger?: Logger;
}

export interface AppendOptions {
  /**
   * The record may go into the reserve's room when the disk is full:
   * refusals and outcomes (true), never the intent that lets a command run
   * (false, the default).
   */
  reserve?: boolean;
}

export const DEFAULT_SEGMENT_BYTES = 1024 * 1024;
export const DEFAULT_RESERVE_BYTES = 1024 * 1024;

function unwritable(dir: string, err: unknown): SpoolUnwritableError {
  const e = err as NodeJS.ErrnoException;
  return new SpoolUnwritableError(`audit spool ${dir} is not writable: ${e.code ?? ""} ${e.message}`.trim(), { cause: err });
}

interface Pending {
  line: Buffer;
  reserve: boolean;
  resolve: () => void;
  reject: (err: Error) => void;
}

export class Spool {
  private queue: Pending[] = [];
  private flushing: Promise<void> | undefined;
  /** Serialises what touches the active segment: group writes and rotations. */
  private io: Promise<unknown> = Promise.resolve();
  private waiters = new Set<() => void>();
  private broken: string | undefined;
  private closed = false;
  private rejectedTotal = 0;
  private generation = 0;
  /** Lines at or before this position were already sent to rejected.log. */
  private rejectedMark: SpoolCursor = { segment: 0, offset: 0 };

  private constructor(
    readonly dir: string,
    private readonly maxSegmentBytes: number,
    private readonly log: Logger | undefined,
    private segments: number[],
    private active: { seq: number; fh: FileHandle; size: number; ino: number },
    private cursor: SpoolCursor,
    private pending: number,
    private readonly reserve: SpoolReserve,
    private readonly rejected: RejectedRecords,
    private readonly releaseLock: () => Promise<void>,
  ) {}

  /** Room made by someone else (an operator's clean-up): the reserve is taken again without waiting for an intent. */
  private readonly reserveRetry = setInterval(() => {
    if (!this.reserve.isHeld()) void this.reserve.take();
  }, 5000).unref();

  /** Opens (creating if needed) the spool; throws SpoolUnwritableError if it cannot. */
  static async open(opts: SpoolOptions): Promise<Spool> {
    const dir = opts.dir;
    let release: () => Promise<void> = async () => {};
    try {
      await fsp.mkdir(dir, { recursive: true, mode: 0o700 });
      await assertWritable(dir);
      release = await acquireSpoolLock(dir);
      const segments = await listSegments(dir);
      if (segments.length === 0) segments.push(1);
      const saved = await readCursor(dir, opts.logger);
      const first = segments[0] ?? 1;
      let cursor: SpoolCursor = saved && segments.includes(saved.segment) ? saved : { segment: first, offset: 0 };
      const lastSeq = segments[segments.length - 1] ?? 1;
      let pending = 0;
      const rejected = await new RejectedRecords().load(dir);
      for (const seq of segments.filter((s) => s >= cursor.segment)) {
        const r = await countSegment(dir, seq, seq === cursor.segment ? cursor.offset : 0, seq === lastSeq, opts.logger);
        pending += r.valid;
        // Known now, in rejected.log once read: the reconciler must not wait for the shipper to learn of them.
        for (const d of r.damaged) rejected.note(d.raw, `segment ${seq} line ending at ${d.at}: ${d.reason}`);
      }
      const fh = await fsp.open(segmentPath(dir, lastSeq), "a+", 0o600);
      await fsyncDir(dir);
      const st = await fh.stat();
      if (cursor.segment === lastSeq && cursor.offset > st.size) {
        // Only possible if fdatasync lied before a crash; never let new
        // appends land behind the cursor, where they would not ship.
        opts.logger?.error({ cursor, size: st.size }, "audit spool cursor beyond the end of its segment; clamped");
        cursor = { segment: lastSeq, offset: st.size };
      }
      const active = { seq: lastSeq, fh, size: st.size, ino: st.ino };
      const reserve = await SpoolReserve.open(dir, opts.reserveBytes ?? DEFAULT_RESERVE_BYTES, opts.logger);
      return new Spool(
        dir,
        opts.maxSegmentBytes ?? DEFAULT_SEGMENT_BYTES,
        opts.logger,
        segments,
        active,
        cursor,
        pending,
        reserve,
        rejected,
        release,
      );
    } catch (err) {
      await release().catch(() => undefined);
      if (err instanceof SpoolUnwritableError) throw err;
      throw unwritable(dir, err);
    }
  }

  /**
   * Validates, spools and fsyncs one record. Resolves once it is durable.
   * Rejects with AuditRecordError (a bug in the caller) or SpoolUnwritableError.
   */
  append(input: AuditRecordInput, opts: AppendOptions = {}): Promise<void> {
    if (this.closed) return Promise.reject(new SpoolUnwritableError("audit spool is closed"));
    let line: Buffer;
    try {
      const json = JSON.stringify(parseAuditRecord(input));
      if (Buffer.byteLength(json) > MAX_RECORD_BYTES) throw new AuditRecordError(`audit record over ${MAX_RECORD_BYTES} bytes`);
      line = encodeLine(json);
    } catch (err) {
      return Promise.reject(err as Error);
    }
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ line, reserve: opts.reserve === true, resolve, reject });
      this.flushing ??= this.flush();
    });
  }

  /** Records durable in the spool and not yet shipped. */
  depth(): number {
    return this.pending;
  }

  stats(): SpoolStats {
    const s: SpoolStats = {
      depth: this.pending,
      segments: this.segments.length,
      rejected_total: this.rejectedTotal,
      flushes: this.generation,
      segment_bytes: this.maxSegmentBytes,
      reserve: this.reserve.stats(),
    };
    if (this.broken) s.broken = this.broken;
    return s;
  }

  private async flush(): Promise<void> {
    while (this.queue.length > 0) {
      const group = this.queue.splice(0);
      await this.exclusive(() => this.writeWithReserve(group));
    }
    this.flushing = undefined;
  }

  /** Runs `fn` when no other group write or rotation is running. */
  private exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.io.then(fn, fn);
    this.io = run.catch(() => undefined);
    return run;
  }

  /**
   * Writes a group. Intents need the reserve held (taken again first if it
   * is not); on a full disk the reserve is released and the group's
   * refusals and outcomes are written into its room, its intents refused.
   */
  private async writeWithReserve(group: Pending[]): Promise<void> {
    let writable = group;
    if (group.some((p) => !p.reserve) && !(await this.reserve.take())) {
      this.fail(
        group.filter((p) => !p.reserve),
        this.noRoom(),
      );
      writable = group.filter((p) => p.reserve);
    }
    if (writable.length === 0) return;
    try {
      await this.writeGroup(Buffer.concat(writable.map((p) => p.line)));
      this.written(writable);
    } catch (err) {
      if (!isNoSpace(err) || !writable.some((p) => p.reserve) || !(await this.reserve.release())) {
        this.fail(writable, err);
        return;
      }
      this.fail(
        writable.filter((p) => !p.reserve),
        this.noRoom(),
      );
      const kept = writable.filter((p) => p.reserve);
      try {
        await this.writeGroup(Buffer.concat(kept.map((p) => p.line)));
        this.written(kept);
      } catch (again) {
        this.fail(kept, again);
      }
    }
  }

  private noRoom(): SpoolUnwritableError {
    return new SpoolUnwritableError(
      `audit spool ${this.dir}: ENOSPC: no room to set its reserve (${this.reserve.bytes} bytes) aside: intents are refused until there is (refusals and outcomes still use the reserve)`,
    );
  }

  private written(group: Pending[]): void {
    this.pending += group.length;
    this.generation++;
    for (const p of group) p.resolve();
    this.wake();
  }

  private fail(group: Pending[], err: unknown): void {
    if (group.length === 0) return;
    const e = err instanceof SpoolUnwritableError ? err : unwritable(this.dir, err);
    this.log?.error({ err: e.message, records: group.length }, "audit spool append failed");
    for (const p of group) p.reject(e);
  }

  private async writeGroup(buf: Buffer): Promise<void> {
    if (this.broken) throw new SpoolUnwritableError(`audit spool is broken until reopened: ${this.broken}`);
    // The open descriptor would keep working after a chmod or an unlink;
    // check the path so an operator's "make it unwritable" is honoured and a
    // deleted segment is not written into the void.
    // Synchronous: microseconds each, where an awaited call is a thread-pool round trip on every append.
    assertWritableNow(this.dir);
    const st = statSync(segmentPath(this.dir, this.active.seq));
    if (st.ino !== this.active.ino) throw new Error(`active segment ${this.active.seq} was replaced or removed`);
    accessSync(segmentPath(this.dir, this.active.seq), constants.W_OK);
    if (this.active.size >= this.maxSegmentBytes) await this.rotate();
    const { fh, size } = this.active;
    try {
      // Into the page cache, synchronously (microseconds for a group): the fdatasync below is the one wait.
      let done = 0;
      while (done < buf.length) done += writeSync(fh.fd, buf, done, buf.length - done, null);
    } catch (err) {
      // Take back a partial group so the next group does not follow garbage.
      await fh.truncate(size).catch((e: unknown) => {
        this.broken = `truncate after failed write: ${(e as Error).message}`;
      });
      throw err;
    }
    try {
      await fh.datasync();
    } catch (err) {
      this.broken = `fdatasync failed: ${(err as Error).message}`;
      throw err;
    }
    this.active.size = size + buf.length;
  }

  private async rotate(): Promise<void> {
    const seq = this.active.seq + 1;
    const fh = await fsp.open(segmentPath(this.dir, seq), "a+", 0o600);
    await fsyncDir(this.dir);
    const st = await fh.stat();
    await this.active.fh.close();
    this.active = { seq, fh, size: st.size, ino: st.ino };
    this.segments.push(seq);
  }

  /** Reads up to `max` records after the shipped cursor; only fsynced bytes. */
  async readBatch(max: number): Promise<SpoolBatch> {
    const records: AuditRecord[] = [];
    const generation = this.generation;
    let consumed = 0;
    let cur: SpoolCursor = { ...this.cursor };
    for (;;) {
      // The active segment's durable size, taken before reading: bytes past it
      // may be a group still being written. Our own read handle, because an
      // append may rotate (and close) the active segment meanwhile.
      const isActive = cur.segment === this.active.seq;
      const activeEnd = this.active.size;
      const fh = await fsp.open(segmentPath(this.dir, cur.segment), "r");
      try {
        const end = isActive ? activeEnd : (await fh.stat()).size;
        const bad: { at: number; reason: string; raw: string }[] = [];
        const r = await scanLines(fh, cur.offset, end, (line, after) => {
          const d = decodeLine(line);
          if (d.ok) {
            consumed++;
            try {
              records.push(parseAuditRecord(JSON.parse(d.json)));
            } catch (err) {
              bad.push({ at: after, reason: (err as Error).message, raw: d.json });
            }
          } else {
            bad.push({ at: after, reason: d.reason, raw: line.toString("utf8") });
          }
          return records.length < max;
        });
        for (const b of bad) await this.rejectOnce({ segment: cur.segment, offset: b.at }, b.raw, b.reason);
        cur = { segment: cur.segment, offset: r.pos + (isActive ? 0 : r.tail) };
        if (r.tail > 0 && !isActive) await this.rejectOnce(cur, "(torn tail)", `${r.tail} bytes without newline`);
        if (records.length >= max || isActive || cur.offset < end) break;
      } finally {
        await fh.close();
      }
      const next = this.segments.find((s) => s > cur.segment);
      if (next === undefined) break;
      cur = { segment: next, offset: 0 };
    }
    const moved = cur.segment !== this.cursor.segment || cur.offset !== this.cursor.offset;
    return { records, next: cur, consumed, moved, generation };
  }

  /**
   * Marks a batch shipped: cursor written and fsynced, fully shipped segments
   * removed — the active one too, by rotating, when all of it is shipped.
   */
  async commit(batch: SpoolBatch): Promise<void> {
    await this.writeCursor(batch.next);
    this.cursor = { ...batch.next };
    try {
      await this.rotateShipped();
      const done = this.segments.filter((s) => s < this.cursor.segment);
      if (done.length > 0) {
        for (const s of done) await fsp.rm(segmentPath(this.dir, s), { force: true });
        await fsyncDir(this.dir);
        this.segments = this.segments.filter((s) => s >= this.cursor.segment);
      }
      // Room again: set the reserve aside before the next intent needs it.
      if (!this.reserve.isHeld() && done.length > 0) await this.reserve.take(true);
    } finally {
      // Last, so "depth 0" means the clean-up after the shipment is done too.
      this.pending = Math.max(0, this.pending - batch.consumed);
    }
  }

  /** The cursor, fsynced; on a full disk the reserve's room is used (moving the cursor is what frees space). */
  private async writeCursor(next: SpoolCursor): Promise<void> {
    try {
      await writeCursor(this.dir, next);
    } catch (err) {
      if (!isNoSpace(err) || !(await this.reserve.release())) throw err;
      await writeCursor(this.dir, next);
    }
  }

  /** Everything in the active segment is shipped: start a new one, so the shipped one can go. */
  private async rotateShipped(): Promise<void> {
    const allShipped = () =>
      !this.closed && this.cursor.segment === this.active.seq && this.cursor.offset >= this.active.size && this.active.size > 0;
    if (!allShipped()) return;
    try {
      const rotated = await this.exclusive(async () => {
        if (!allShipped()) return false;
        await this.rotate();
        return true;
      });
      if (!rotated) return;
      // Appends may already be in the new segment: they start at its offset 0.
      const next = { segment: this.active.seq, offset: 0 };
      await this.writeCursor(next);
      this.cursor = next;
    } catch (err) {
      this.log?.warn({ err: (err as Error).message }, "audit spool: could not rotate a shipped segment (it is freed later)");
    }
  }

  /** Resolves once an append after `generation` is durable, at close, or after `ms`. */
  waitForRecords(ms: number, generation: number): Promise<void> {
    if (this.closed || this.generation !== generation) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(t);
        this.waiters.delete(done);
        resolve();
      };
      const t = setTimeout(done, ms);
      this.waiters.add(done);
    });
  }

  private wake(): void {
    for (const w of [...this.waiters]) w();
  }

  /** A batch may be read again after a failed shipment: reject each line once. */
  private async rejectOnce(at: SpoolCursor, raw: string, reason: string): Promise<void> {
    const m = this.rejectedMark;
    if (at.segment < m.segment || (at.segment === m.segment && at.offset <= m.offset)) return;
    this.rejectedMark = { ...at };
    await this.reject(raw, `segment ${at.segment} line ending at ${at.offset}: ${reason}`);
  }

  /** Requests that lost a record (damaged in the spool, or refused by PostgreSQL): for the reconciler. */
  rejectedRecords(): RejectedRecordsView {
    return this.rejected;
  }

  /** Lines that can never ship go to rejected.log (fsynced) and are counted. */
  async reject(raw: string, reason: string): Promise<void> {
    this.rejectedTotal++;
    this.rejected.note(raw, reason);
    this.log?.error({ reason }, "audit spool line rejected: it will not reach PostgreSQL");
    const entry = JSON.stringify({ at: new Date().toISOString(), reason, raw }) + "\n";
    const fh = await fsp.open(join(this.dir, "rejected.log"), "a", 0o600);
    try {
      await fh.write(entry);
      await fh.datasync();
    } finally {
      await fh.close();
    }
  }

  /** Waits for queued appends, then closes. Later appends reject. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true; // new appends reject; queued ones are still written
    clearInterval(this.reserveRetry);
    while (this.flushing) await this.flushing;
    await this.io;
    this.wake();
    await this.active.fh.close();
    await this.releaseLock();
  }
}

export async function openSpool(opts: SpoolOptions): Promise<Spool> {
  return Spool.open(opts);
}
