// The spool's files: segment names and repair at open, the shipped cursor, the owner lock.
//
// The cursor is replaced atomically (write, fsync, rename, fsync the
// directory), so after a crash it is either the old or the new position; an
// old one only means some records are shipped twice, which the database's
// (request_id, phase) key absorbs. A damaged cursor restarts from the oldest
// segment for the same reason. The lock is a pid file: a live other process
// holding it is an error; a dead one's lock is taken over (pid reuse could in
// theory fool it — systemd runs one gateway, this is a seatbelt).
import { accessSync, constants, promises as fsp, statSync } from "node:fs";
import { join } from "node:path";
import type { Logger } from "../../shared/log.js";
import { decodeLine, scanLines } from "./spool-line.js";
import { takePidLock } from "../../shared/pid-lock.js";

const SEGMENT = /^seg-(\d{10})\.log$/;

export function segmentPath(dir: string, seq: number): string {
  return join(dir, `seg-${String(seq).padStart(10, "0")}.log`);
}

export async function listSegments(dir: string): Promise<number[]> {
  const names = await fsp.readdir(dir);
  return names
    .map((n) => SEGMENT.exec(n)?.[1])
    .filter((m): m is string => m !== undefined)
    .map(Number)
    .sort((a, b) => a - b);
}

export async function fsyncDir(dir: string): Promise<void> {
  const fh = await fsp.open(dir, "r");
  try {
    await fh.sync();
  } finally {
    await fh.close();
  }
}

export async function readCursor(dir: string, log?: Logger): Promise<{ segment: number; offset: number } | undefined> {
  let raw: string;
  try {
    raw = await fsp.readFile(join(dir, "cursor"), "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw err;
  }
  try {
    const c = JSON.parse(raw) as { segment?: unknown; offset?: unknown };
    if (Number.isSafeInteger(c.segment) && Number.isSafeInteger(c.offset) && (c.offset as number) >= 0) {
      return { segment: c.segment as number, offset: c.offset as number };
    }
  } catch {
    // fall through
  }
  log?.warn({ dir }, "audit spool cursor unreadable: replaying from the oldest segment (duplicates are ignored by the database)");
  return undefined;
}

export async function writeCursor(dir: string, cursor: { segment: number; offset: number }): Promise<void> {
  const tmp = join(dir, "cursor.tmp");
  const fh = await fsp.open(tmp, "w", 0o600);
  try {
    await fh.writeFile(JSON.stringify(cursor));
    await fh.sync();
  } finally {
    await fh.close();
  }
  await fsp.rename(tmp, join(dir, "cursor"));
  await fsyncDir(dir);
}

/** Takes the spool's pid lock (pid-lock.ts); returns its release. */
export async function acquireSpoolLock(dir: string): Promise<() => Promise<void>> {
  const release = takePidLock(join(dir, "spool.lock"), [], (pid) =>
    pid === process.pid
      ? new Error(`audit spool ${dir} is already open in this process`)
      : new Error(pid ? `audit spool ${dir} is in use by pid ${pid}` : `audit spool ${dir}: could not take the lock`),
  );
  return async () => release();
}

/**
 * The directory must be writable by this process. access(2) answers for the
 * *real* uid (and catches read-only mounts and ACLs); the mode bits are
 * checked against the *effective* ids too, which is what open(2) will use.
 */
export async function assertWritable(dir: string): Promise<void> {
  assertWritableNow(dir);
}

/**
 * The same check, synchronously: two system calls on a local directory
 * (microseconds), where each awaited one is a thread-pool round trip that
 * every append would wait on.
 */
export function assertWritableNow(dir: string): void {
  accessSync(dir, constants.W_OK | constants.X_OK);
  const euid = process.geteuid?.();
  if (euid === undefined || euid === 0) return;
  const st = statSync(dir);
  const groups = new Set([process.getegid?.(), ...(process.getgroups?.() ?? [])]);
  const bits = st.uid === euid ? (st.mode >> 6) & 3 : groups.has(st.gid) ? (st.mode >> 3) & 3 : st.mode & 3;
  if (bits !== 3) {
    const err: NodeJS.ErrnoException = new Error(`EACCES: ${dir} is not writable by uid ${euid}`);
    err.code = "EACCES";
    throw err;
  }
}

/** A complete line whose checksum (or shape) is wrong: damage, not a torn write. */
export interface DamagedLine {
  /** Offset just past the line. */
  at: number;
  raw: string;
  reason: string;
}

/** At most this many damaged lines are kept per segment scan (the rest are only counted). */
const MAX_DAMAGED_KEPT = 1000;

/**
 * Counts checksummed lines from `start` and lists the damaged ones;
 * truncates a torn tail of the last segment. Only bytes after the last
 * newline are a torn write (a group write that never completed its
 * fdatasync, so nothing in it was acknowledged). A complete line with a bad
 * checksum is damage, wherever it is — the tail too: it stays where it is
 * and goes to rejected.log when read, like any other damaged line.
 */
export async function countSegment(
  dir: string,
  seq: number,
  start: number,
  last: boolean,
  log: Logger | undefined,
): Promise<{ valid: number; size: number; damaged: DamagedLine[] }> {
  const path = segmentPath(dir, seq);
  const fh = await fsp.open(path, last ? "r+" : "r").catch(async (err: NodeJS.ErrnoException) => {
    if (err.code === "ENOENT" && last) return fsp.open(path, "w+", 0o600);
    throw err;
  });
  try {
    const size = (await fh.stat()).size;
    let valid = 0;
    const damaged: DamagedLine[] = [];
    const r = await scanLines(fh, start, size, (line, after) => {
      const d = decodeLine(line);
      if (d.ok) valid++;
      else if (damaged.length < MAX_DAMAGED_KEPT) damaged.push({ at: after, raw: line.toString("utf8"), reason: d.reason });
      return true;
    });
    if (damaged.length > 0)
      log?.error({ segment: seq, lines: damaged.length }, "audit spool: damaged lines found at open; they go to rejected.log when shipped");
    if (last && r.tail > 0) {
      log?.warn({ segment: seq, bytes: r.tail }, "audit spool: torn tail truncated");
      await fh.truncate(r.pos);
      await fh.sync();
      return { valid, size: r.pos, damaged };
    }
    return { valid, size, damaged };
  } finally {
    await fh.close();
  }
}
