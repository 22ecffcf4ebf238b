// One `agent-sudo start` per state dir: a second one would open the same
// executor journal (and cut the first's fresh line as a "torn tail"),
// rewrite run/supervisor.json and unlink the first stack's sockets. The lock
// is a file created exclusively, holding the supervisor's pid, when it
// started and its process stamp; a lock whose process is gone (or whose pid
// now names a later process: after a reboot, in a new pid namespace) is
// stale and taken over.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { takePidLock } from "../services/shared/pid-lock.js";

export class StateDirInUse extends Error {}

export interface StateLock {
  path: string;
  release(): void;
}

/** Takes `home`'s supervisor lock, or throws StateDirInUse naming the holder. Creates `home` if needed (0700). */
export function lockStateDir(home: string): StateLock {
  mkdirSync(home, { recursive: true, mode: 0o700 });
  const path = join(home, "supervisor.lock");
  // The release may run twice (on stop and at exit): it removes the lock only while it is still this process's.
  const release = takePidLock(path, [new Date().toISOString()], (pid, [started = "unknown"]) =>
    pid === 0
      ? new StateDirInUse(`the state dir ${home}: could not take ${path}`)
      : new StateDirInUse(
          `the state dir ${home} is in use by agent-sudo start, pid ${pid} (since ${started}); stop it first (kill ${pid}), or give this one another AGENT_SUDO_HOME. Nothing was changed.`,
        ),
  );
  return { path, release };
}
