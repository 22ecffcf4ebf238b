// One `agent-sudo start` per state dir: a second one would open the same
// executor journal (and cut the first's fresh line as a "torn tail"),
// rewrite run/supervisor.json and unlink the first stack's sockets. The lock
// is a file created exclusively, holding the supervisor's pid, when it
// started and its process stamp; a lock whose process is gone (or whose pid
// now names a later process: after a reboot, in a new pid namespace) is
// stale and taken over.
import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from "node:fs";
import { join } from "node:path";
import { holderAlive, processStamp } from "../services/shared/process-alive.js";

export class StateDirInUse extends Error {}

export interface StateLock {
  path: string;
  release(): void;
}

/** Takes `home`'s supervisor lock, or throws StateDirInUse naming the holder. Creates `home` if needed (0700). */
export function lockStateDir(home: string): StateLock {
  mkdirSync(home, { recursive: true, mode: 0o700 });
  const path = join(home, "supervisor.lock");
  for (let attempt = 0; attempt < 3; attempt++) {
    let fd: number;
    try {
      fd = openSync(path, "wx", 0o600);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      let text = "";
      try {
        text = readFileSync(path, "utf8");
      } catch {
        continue; // released meanwhile
      }
      const [pidText = "", started = "unknown", ...stamp] = text.trim().split(/\s+/);
      const pid = Number(pidText);
      if (pid !== process.pid && holderAlive(pid, stamp.join(" "))) {
        throw new StateDirInUse(
          `the state dir ${home} is in use by agent-sudo start, pid ${pid} (since ${started}); stop it first (kill ${pid}), or give this one another AGENT_SUDO_HOME. Nothing was changed.`,
        );
      }
      // A lock left by a supervisor that is gone (killed, a crash, a reboot): stale.
      rmSync(path, { force: true });
      continue;
    }
    writeSync(fd, `${`${process.pid} ${new Date().toISOString()} ${processStamp()}`.trim()}\n`);
    closeSync(fd);
    let released = false;
    return {
      path,
      release() {
        if (released) return;
        released = true;
        try {
          if (readFileSync(path, "utf8").startsWith(`${process.pid} `)) rmSync(path, { force: true });
        } catch {
          // already gone
        }
      },
    };
  }
  throw new StateDirInUse(`the state dir ${home}: could not take ${path}`);
}
