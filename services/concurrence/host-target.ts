// What a link made by the run leads to on the host, when the run did not
// write it: read here (a regular file of at most 64 KiB, following the
// host's own links), so the link is judged by the content it will run.
// Review 47: a file committed at tier 3 where nothing reads content
// (`/etc/foo/p`, `/usr/share/foo/job`), then linked from /etc/cron.d, ran
// as root unread. The concurrence's own reader: the judges share no code.
import { closeSync, fstatSync, openSync, readSync, realpathSync } from "node:fs";

const MAX = 64 * 1024;

export type HostTarget =
  | { kind: "text"; text: string; path: string }
  | { kind: "binary" | "large" | "large-text" | "missing" | "directory" | "other" | "unreadable"; path: string };

/**
 * A program's bytes, as the kernel and a shell take them: an ELF object, or a NUL in the first line (bash runs a
 * file as a script unless its first line holds one), is binary. A NUL later does not stop sh (review 49: a script
 * with a NUL after `exit` was read as binary and never judged); the text is then judged with each NUL a line end.
 */
export function binaryBytes(bytes: Buffer): boolean {
  if (bytes.subarray(0, 4).equals(Buffer.from([0x7f, 0x45, 0x4c, 0x46]))) return true;
  const nl = bytes.indexOf(0x0a);
  return bytes.subarray(0, nl === -1 ? bytes.length : nl).includes(0);
}

/** A script's text as a shell reads it past a NUL: each NUL a line end. */
export function scriptText(bytes: Buffer): string {
  return bytes.toString("utf8").replaceAll("\0", "\n");
}

export function readHostTarget(path: string): HostTarget {
  let real: string;
  try {
    real = realpathSync(path);
  } catch (err) {
    return { kind: (err as NodeJS.ErrnoException).code === "ENOENT" ? "missing" : "unreadable", path };
  }
  let fd: number | null = null;
  try {
    fd = openSync(real, "r");
    const st = fstatSync(fd);
    if (st.isDirectory()) return { kind: "directory", path: real };
    if (!st.isFile()) return { kind: "other", path: real };
    // Past the size read here, a text (a script padded past it) is still told from a binary by its start.
    const size = Math.min(st.size, MAX);
    const buf = Buffer.alloc(size);
    const n = readSync(fd, buf, 0, size, 0);
    const bytes = buf.subarray(0, n);
    if (binaryBytes(bytes)) return { kind: st.size > MAX ? "large" : "binary", path: real };
    if (st.size > MAX) return { kind: "large-text", path: real };
    return { kind: "text", text: scriptText(bytes), path: real };
  } catch {
    return { kind: "unreadable", path: real };
  } finally {
    if (fd !== null) closeSync(fd);
  }
}
