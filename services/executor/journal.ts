// The executor's own journal: append-only, hash-chained, fsynced per entry.
//
// Line n (1-based) is `<sha256 hex of J> <J>\n`, J = {"seq":n,"ts":…,"prev":…,"entry":…}
// where prev is the hash of line n-1 (64 zeros for line 1). Changing any
// byte of a line breaks its own hash (reported at that line); rewriting a
// line *with* a fresh hash breaks the next line's prev (reported there).
// What it cannot see alone: the newest entries cut off the end (the audit
// holds every request the journal should). Node built-ins only: the executor carries no dependencies.
// How it fails: append throws (the executor must then refuse to run the
// command); a torn last line left by a crash is cut at open and the cut is
// itself journaled. One writer per file: open it once per process, and one
// process per file (main.ts takes `<journal>.lock` first).
import { createHash } from "node:crypto";
import { closeSync, existsSync, fstatSync, fsync, fsyncSync, ftruncateSync, openSync, readSync, writeSync } from "node:fs";
import { dirname } from "node:path";
import { syncDir } from "./safe-fs.js";

/** Line 1's prev, and every line's shape (verified by cli/journal-verify.ts). */
export const GENESIS = "0".repeat(64);
export const LINE = /^([0-9a-f]{64}) (.*)$/s;

export interface Journal {
  append(entry: object): void;
  /** Appends without waiting for the disk; fsynced within `ms` or by the next append. */
  appendSoon(entry: object, ms?: number): void;
  close(): void;
}

export const sha256 = (s: string): string => createHash("sha256").update(s).digest("hex");

/** The last complete line of the file and the offset just past it. */
function readTail(fd: number): { last: string | undefined; end: number } {
  const size = fstatSync(fd).size;
  for (let window = 64 * 1024; ; window *= 4) {
    const start = Math.max(0, size - window);
    const buf = Buffer.alloc(size - start);
    readSync(fd, buf, 0, buf.length, start);
    const endNl = buf.lastIndexOf(0x0a);
    const prevNl = endNl <= 0 ? -1 : buf.lastIndexOf(0x0a, endNl - 1);
    if (start > 0 && prevNl === -1) continue; // the last line is longer than the window
    return { last: endNl === -1 ? undefined : buf.subarray(prevNl + 1, endNl).toString("utf8"), end: start + endNl + 1 };
  }
}

export function openJournal(path: string): Journal {
  const created = !existsSync(path);
  const fd = openSync(path, created ? "w+" : "r+", 0o600);
  // A new journal's name is durable before any entry in it counts.
  if (created) syncDir(dirname(path));
  const tail = readTail(fd);
  const last = tail.last;
  let end = tail.end;
  let seq = 0;
  let hash = GENESIS;
  if (last !== undefined) {
    const at = end - Buffer.byteLength(last, "utf8") - 1;
    const damaged = (why: string) =>
      new Error(
        `journal ${path}: the last complete entry (at byte offset ${at}) ${why}; the executor does not start on a journal it cannot continue. Inspect it with \`agent-sudo audit verify-journal ${path}\`; keep the file as evidence and move it aside to start a new chain.`,
      );
    const m = LINE.exec(last);
    if (!m) throw damaged("is not a journal line");
    let parsed: { seq?: unknown };
    try {
      parsed = JSON.parse(m[2] ?? "") as { seq?: unknown };
    } catch {
      throw damaged("is not JSON");
    }
    if (sha256(m[2] ?? "") !== m[1]) throw damaged("does not match its hash (altered)");
    if (typeof parsed.seq !== "number") throw damaged("has no sequence number");
    seq = parsed.seq;
    hash = m[1] ?? GENESIS;
  }
  const size = fstatSync(fd).size;
  let syncTimer: NodeJS.Timeout | undefined;
  let closed = false;
  const write = (entry: object, sync = true) => {
    const json = JSON.stringify({ seq: seq + 1, ts: new Date().toISOString(), prev: hash, entry });
    const h = sha256(json);
    const line = Buffer.from(`${h} ${json}\n`);
    writeSync(fd, line, 0, line.length, end);
    if (sync) {
      fsyncSync(fd);
      clearTimeout(syncTimer);
      syncTimer = undefined;
    }
    end += line.length;
    seq += 1;
    hash = h;
  };
  if (size > end) {
    const torn = Buffer.alloc(size - end);
    readSync(fd, torn, 0, torn.length, end);
    ftruncateSync(fd, end);
    write({ journal: "torn-tail-cut", bytes: torn.length, sha256: createHash("sha256").update(torn).digest("hex") });
  }
  return {
    append: (entry) => write(entry),
    appendSoon: (entry, ms = 200) => {
      write(entry, false);
      // Off the event loop: a deferred flush need not stall the commands in flight (~ms per fsync here).
      syncTimer ??= setTimeout(() => {
        syncTimer = undefined;
        fsync(fd, (err) => {
          // As before, when this was synchronous: uncaught, so the service logs it and exits (crash, don't limp).
          if (err && !closed) throw new Error(`journal ${path}: deferred fsync failed: ${err.message}`);
        });
      }, ms);
    },
    close: () => {
      closed = true;
      clearTimeout(syncTimer);
      fsyncSync(fd);
      closeSync(fd);
    },
  };
}

/**
 * Visits entries from the newest back (each `entry` object and its time in
 * ms) until `visit` returns false or the file's start. Torn or foreign lines
 * are skipped; reads 1 MiB at a time.
 */
export function scanBack(path: string, visit: (entry: Record<string, unknown>, ts: number) => boolean): void {
  if (!existsSync(path)) return;
  const fd = openSync(path, "r");
  try {
    let end = fstatSync(fd).size;
    let carry = Buffer.alloc(0);
    while (end > 0) {
      const start = Math.max(0, end - (1 << 20));
      const buf = Buffer.alloc(end - start);
      readSync(fd, buf, 0, buf.length, start);
      const lines = Buffer.concat([buf, carry]).toString("utf8").split("\n");
      carry = start > 0 ? Buffer.from(lines.shift() ?? "", "utf8") : Buffer.alloc(0);
      for (let i = lines.length - 1; i >= 0; i--) {
        const line = lines[i] ?? "";
        let parsed: { ts?: string; entry?: Record<string, unknown> };
        try {
          parsed = JSON.parse(line.slice(line.indexOf(" ") + 1)) as typeof parsed;
        } catch {
          continue;
        }
        if (parsed.entry && !visit(parsed.entry, Date.parse(parsed.ts ?? "") || 0)) return;
      }
      end = start;
    }
  } finally {
    closeSync(fd);
  }
}

/**
 * Commits begun since the executor last started that never ended (a crash
 * mid-commit): their undo records put the host back. The caller journals
 * "executor-start" once they are handled, which bounds the next scan.
 */
export function unfinishedCommits(path: string): { requestId: string; undoId: string }[] {
  const ended = new Set<string>();
  const open: { requestId: string; undoId: string }[] = [];
  scanBack(path, (e) => {
    if (e.event === "executor-start") return false;
    if (typeof e.undo_id !== "string") return true;
    if (e.event === "commit-end" || e.event === "commit-failed" || e.event === "commit-recovered") ended.add(e.undo_id);
    else if (e.event === "commit-begin" && !ended.has(e.undo_id)) open.push({ requestId: String(e.request_id), undoId: e.undo_id });
    return true;
  });
  return open;
}
