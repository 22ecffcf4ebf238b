// Per-command cgroups (cgroup v2). A command's first process moves itself
// into a fresh cgroup before it execs the shell, so everything the command
// starts — even through setsid or a double fork — is in that cgroup, and
// `cgroup.kill` ends all of it when the shell exits or the timeout fires.
// Without a writable cgroup v2 hierarchy (non-root, no delegation) the
// executor falls back to process-group kills and says so at start.
import { existsSync, mkdirSync, readFileSync, rmdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

function cgroup2Mount(): string | undefined {
  for (const line of readFileSync("/proc/self/mountinfo", "utf8").split("\n")) {
    const [left, right] = line.split(" - ");
    if (right?.startsWith("cgroup2 ")) return left?.split(" ")[4];
  }
  return undefined;
}

function ownCgroup(): string {
  const line = readFileSync("/proc/self/cgroup", "utf8").split("\n").find((l) => l.startsWith("0::"));
  return line?.slice(3) ?? "/";
}

export class CommandCgroups {
  private counter = 0;

  private constructor(private readonly base: string) {}

  /** A parent cgroup for commands under the executor's own, or undefined. */
  static detect(): CommandCgroups | undefined {
    try {
      const mount = cgroup2Mount();
      if (!mount) return undefined;
      const base = join(mount, ownCgroup(), `agent-sudo-commands-${process.pid}`);
      mkdirSync(base, { recursive: true });
      if (!existsSync(join(base, "cgroup.procs"))) return undefined;
      return new CommandCgroups(base);
    } catch {
      return undefined;
    }
  }

  /** A fresh cgroup; its cgroup.procs is what the wrapper writes its pid to. */
  create(): { dir: string; procs: string } {
    const dir = join(this.base, `cmd-${++this.counter}`);
    mkdirSync(dir);
    return { dir, procs: join(dir, "cgroup.procs") };
  }

  /** Kills everything in the cgroup and removes it; waits up to ~2 s. */
  async destroy(dir: string): Promise<void> {
    for (let attempt = 0; attempt < 200; attempt++) {
      try {
        if (existsSync(join(dir, "cgroup.kill"))) writeFileSync(join(dir, "cgroup.kill"), "1");
        else for (const pid of readFileSync(join(dir, "cgroup.procs"), "utf8").split("\n").filter(Boolean)) process.kill(Number(pid), "SIGKILL");
      } catch {
        // already empty or gone
      }
      try {
        rmdirSync(dir);
        return;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === "ENOENT") return;
      }
      await new Promise((r) => setTimeout(r, 10));
    }
  }

  /** Removes the parent at shutdown (only empty cgroups can go). */
  close(): void {
    try {
      rmdirSync(this.base);
    } catch {
      // children still draining; the next start uses another name
    }
  }
}

/**
 * The argv that moves itself into `procs`, drops to uid/gid when asked,
 * then execs `shell -c command`. If the move fails, the command never runs.
 */
export function wrappedArgv(procs: string, shell: string, command: string, user?: { uid: number; gid: number }): string[] {
  const drop = user ? ["setpriv", `--reuid=${user.uid}`, `--regid=${user.gid}`, "--init-groups", "--"] : [];
  return ["/bin/sh", "-c", 'echo $$ > "$0" || exit 125; exec "$@"', procs, ...drop, shell, "-c", command];
}
