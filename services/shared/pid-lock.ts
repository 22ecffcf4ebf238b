// A pid lock: a file created exclusively that holds its owner's pid, the
// fields its caller records (one word each) and the owner's process stamp
// (process-alive.ts). A lock whose holder is gone, or whose pid now names a
// later process (a reboot, a new pid namespace), is stale and taken over; a
// live holder's is not. Used by the supervisor's state-dir lock and the
// executor's journal lock. Node built-ins only: the executor imports it.
import { closeSync, fsyncSync, linkSync, openSync, readFileSync, rmSync, writeSync } from "node:fs";
import { holderAlive, processStamp } from "./process-alive.js";

/**
 * Takes the lock at `path`, or throws what `held(pid, fields)` makes when a
 * live process holds it — this one included (pid 0: it changed hands under
 * us three times).
 * `fields` are recorded after the pid; the lock is fsynced before this
 * returns. Returns the release, which removes the lock only while it is
 * still this process's.
 */
export function takePidLock(path: string, fields: readonly string[], held: (pid: number, fields: string[]) => Error): () => void {
  // Written whole under a temp name, then linked into place: no other taker ever reads a lock without its pid.
  const tmp = `${path}.${process.pid}.tmp`;
  const fd = openSync(tmp, "w", 0o600);
  try {
    writeSync(fd, `${[process.pid, ...fields, processStamp()].join(" ").trim()}\n`);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  try {
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        linkSync(tmp, path);
        return () => {
          try {
            if (Number(words(readFileSync(path, "utf8"))[0]) === process.pid) rmSync(path, { force: true });
          } catch {
            // already gone
          }
        };
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      }
      let text: string;
      try {
        text = readFileSync(path, "utf8");
      } catch {
        continue; // released meanwhile
      }
      const [owner, ...rest] = words(text);
      const pid = Number(owner);
      // This process's own lock (its pid and stamp) is held too: two owners in one process would interleave.
      // The same pid with another stamp is an earlier process (a restart in a new pid namespace): stale.
      if (holderAlive(pid, rest.slice(fields.length).join(" "))) throw held(pid, rest.slice(0, fields.length));
      rmSync(path, { force: true });
    }
    throw held(0, []);
  } finally {
    rmSync(tmp, { force: true });
  }
}

/** A lock's words: the pid, the caller's fields, the stamp. */
function words(text: string): string[] {
  return text.trim().split(/\s+/);
}
