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
  | { kind: "binary" | "large" | "missing" | "directory" | "other" | "unreadable"; path: string };

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
    if (st.size > MAX) return { kind: "large", path: real };
    const buf = Buffer.alloc(st.size);
    const n = readSync(fd, buf, 0, st.size, 0);
    const bytes = buf.subarray(0, n);
    return bytes.includes(0) ? { kind: "binary", path: real } : { kind: "text", text: bytes.toString("utf8"), path: real };
  } catch {
    return { kind: "unreadable", path: real };
  } finally {
    if (fd !== null) closeSync(fd);
  }
}
