// The file a link made by a run leads to on this host, when the run did not
// write it: read (a regular file of at most 64 KiB, through the host's own
// links) so the link is judged by what it will run. Review 47: a file
// committed at tier 3 where no judge reads content, then linked from
// /etc/cron.d, ran as root unread. The classifier's own reader: the judges
// share no code.
import { closeSync, fstatSync, openSync, readSync, realpathSync } from "node:fs";

const MAX = 64 * 1024;

export type HostTarget =
  | { kind: "text"; text: string; path: string }
  | { kind: "binary" | "large" | "large-text" | "missing" | "directory" | "other" | "unreadable"; path: string };

/**
 * Whether bytes are a program the kernel loads rather than a script: ELF, or a NUL in the first line (bash refuses
 * only such a file as binary). Review 49: a NUL after `exit` made a script "binary" here, and it ran unread.
 */
export function binaryBytes(bytes: Buffer): boolean {
  if (bytes.length >= 4 && bytes.readUInt32BE(0) === 0x7f454c46) return true;
  const nl = bytes.indexOf(0x0a);
  return bytes.subarray(0, nl === -1 ? bytes.length : nl).includes(0);
}

/** A script's text as sh reads it: a NUL ends a line, and bytes that are not UTF-8 stay as the shell skips them. */
export function scriptText(bytes: Buffer): string {
  return bytes.toString("utf8").replaceAll("\0", "\n");
}

export function hostTarget(path: string): HostTarget {
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
    // A file past what is read here is still told a script or a binary by its start (review 49: padded past 64 KiB).
    const size = Math.min(st.size, MAX);
    const buf = Buffer.alloc(size);
    const bytes = buf.subarray(0, readSync(fd, buf, 0, size, 0));
    if (binaryBytes(bytes)) return { kind: st.size > MAX ? "large" : "binary", path: real };
    if (st.size > MAX) return { kind: "large-text", path: real };
    return { kind: "text", text: scriptText(bytes), path: real };
  } catch {
    return { kind: "unreadable", path: real };
  } finally {
    if (fd !== null) closeSync(fd);
  }
}
