// The audit spool: an append-only local file that every audit record reaches,
// fsynced, before the gateway lets the executor run anything.
//
// Layout of the spool directory: `seg-<10 digits>.log` segments (one record
// per line, see spool-line.ts), `cursor` (JSON {segment, offset}: everything
// before it is in PostgreSQL), `rejected.log` (lines that can never ship), and
// `spool.lock` (the owning pid).
//
// Durability: `append` resolves only after the bytes are written and
// fdatasync'd. Concurrent appends are group-committed: all records queued
// while one write+fdatasync runs go out together in the next one. A crash
// can leave at most the last group half written; the checksum finds it at
// open and the file is truncated there. Those records were never
// acknowledged, so the gateway never ran their commands: nothing acknowledged
// is lost. A line damaged *inside* the file (disk fault, an editor) cannot be
// shipped: it is copied to rejected.log, logged and counted — that record is
// lost from PostgreSQL, and we say so.
//
// What it trusts: the filesystem's fdatasync. How it fails: any error on the
// write path rejects with SpoolUnwritableError (the gateway answers 503 and
// executes nothing). A failed fdatasync poisons the spool until it is
// reopened, because after one the kernel may have dropped the dirty pages.
import { constants, promises as fsp } from "node:fs";
import type { FileHandle } from "node:fs/promises";
import { join } from "node:path";
import type { Logger } from "../../shared/log.js";
import { AuditRecordError, MAX_RECORD_BYTES, parseAuditRecord, type AuditRecord, type AuditRecordInput } from "./record.js";
import { decodeLine, encodeLine, scanLines } from "./spool-line.js";
import { acquireSpoolLock, assertWritable, countSegment, fsyncDir, listSegments, readCursor, segmentPath, writeCursor } from "./spool-files.js";

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
  broken?: string;
}

export interface SpoolOptions {
  dir: string;
  /** Rotate to a new segment once the active one reaches this size. */
  maxSegmentBytes?: number;
  logger?: Logger;
}

function unwritable(dir: string, err: unknown): SpoolUnwritableError {
  const e = err as NodeJS.ErrnoException;
  return new SpoolUnwritableError(`audit spool ${dir} is not writable: ${e.code ?? ""} ${e.message}`.trim(), { cause: err });
}

interface Pending {
  line: Buffer;
  resolve: () => void;
  reject: (err: Error) => void;
}

export class Spool {
  private queue: Pending[] = [];
  private flushing: Promise<void> | undefined;
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
    private readonly releaseLock: () => Promise<void>,
  ) {}

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
      for (const seq of segments.filter((s) => s >= cursor.segment)) {
        const r = await countSegment(dir, seq, seq === cursor.segment ? cursor.offset : 0, seq === lastSeq, opts.logger);
        pending += r.valid;
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
      return new Spool(dir, opts.maxSegmentBytes ?? 64 * 1024 * 1024, opts.logger, segments, active, cursor, pending, release);
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
  append(input: AuditRecordInput): Promise<void> {
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
      this.queue.push({ line, resolve, reject });
      this.flushing ??= this.flush();
    });
  }

  /** Records durable in the spool and not yet shipped. */
  depth(): number {
    return this.pending;
  }

  stats(): SpoolStats {
    const s: SpoolStats = { depth: this.pending, segments: this.segments.length, rejected_total: this.rejectedTotal, flushes: this.generation };
    if (this.broken) s.broken = this.broken;
    return s;
  }

  private async flush(): Promise<void> {
    while (this.queue.length > 0) {
      const group = this.queue.splice(0);
      try {
        await this.writeGroup(Buffer.concat(group.map((p) => p.line)));
        this.pending += group.length;
        this.generation++;
        for (const p of group) p.resolve();
        this.wake();
      } catch (err) {
        const e = err instanceof SpoolUnwritableError ? err : unwritable(this.dir, err);
        this.log?.error({ err: e.message, records: group.length }, "audit spool append failed");
        for (const p of group) p.reject(e);
      }
    }
    this.flushing = undefined;
  }

  private async writeGroup(buf: Buffer): Promise<void> {
    if (this.broken) throw new SpoolUnwritableError(`audit spool is broken until reopened: ${this.broken}`);
    // The open descriptor would keep working after a chmod or an unlink;
    // check the path so an operator's "make it unwritable" is honoured and a
    // deleted segment is not written into the void.
    await assertWritable(this.dir);
    const st = await fsp.stat(segmentPath(this.dir, this.active.seq));
    if (st.ino !== this.active.ino) throw new Error(`active segment ${this.active.seq} was replaced or removed`);
    await fsp.access(segmentPath(this.dir, this.active.seq), constants.W_OK);
    if (this.active.size >= this.maxSegmentBytes) await this.rotate();
    const { fh, size } = this.active;
    try {
      let done = 0;
      while (done < buf.length) {
        const { bytesWritten } = await fh.write(buf, done, buf.length - done, null);
        done += bytesWritten;
      }
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

  /** Marks a batch shipped: cursor written and fsynced, fully shipped segments removed. */
  async commit(batch: SpoolBatch): Promise<void> {
    await writeCursor(this.dir, batch.next);
    this.cursor = { ...batch.next };
    this.pending = Math.max(0, this.pending - batch.consumed);
    const done = this.segments.filter((s) => s < this.cursor.segment);
    if (done.length > 0) {
      for (const s of done) await fsp.rm(segmentPath(this.dir, s), { force: true });
      await fsyncDir(this.dir);
      this.segments = this.segments.filter((s) => s >= this.cursor.segment);
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

  /** Lines that can never ship go to rejected.log (fsynced) and are counted. */
  async reject(raw: string, reason: string): Promise<void> {
    this.rejectedTotal++;
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
    while (this.flushing) await this.flushing;
    this.wake();
    await this.active.fh.close();
    await this.releaseLock();
  }
}

export async function openSpool(opts: SpoolOptions): Promise<Spool> {
  return Spool.open(opts);
}
