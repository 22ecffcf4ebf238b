// Per-command cgroups (cgroup v2). The envelope server's child joins a
// fresh cgroup before it starts anything (shared/envelope/server.ts), so
// everything the command starts — even through setsid or a double fork —
// stays there; `cgroup.kill` ends all of it when the command exits or the
// timeout fires.
// Without a writable cgroup v2 hierarchy (non-root, no delegation) or
// without `cgroup.kill` (Linux before 5.14) the executor falls back to
// process-group kills and says so at start.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { processAlive } from "../shared/process-alive.js";

function cgroup2Mount(): string | undefined {
  for (const line of readFileSync("/proc/self/mountinfo", "utf8").split("\n")) {
    const [left, right] = line.split(" - ");
    if (right?.startsWith("cgroup2 ")) return left?.split(" ")[4];
  }
  return undefined;
}

function ownCgroup(): string {
  const line = readFileSync("/proc/self/cgroup", "utf8")
    .split("\n")
    .find((l) => l.startsWith("0::"));
  return line?.slice(3) ?? "/";
}

/** Command cgroups left by an executor that died: kill what is in them, remove them. */
function removeStale(home: string): void {
  for (const name of readdirSync(home)) {
    const m = /^agent-sudo-commands-(\d+)$/.exec(name);
    if (!m || processAlive(Number(m[1]))) continue;
    const parent = join(home, name);
    for (const child of readdirSync(parent, { withFileTypes: true })) {
      if (!child.isDirectory()) continue;
      try {
        writeFileSync(join(parent, child.name, "cgroup.kill"), "1");
        rmdirSync(join(parent, child.name));
      } catch {
        // still emptying; left for the next start
      }
    }
    try {
      rmdirSync(parent);
    } catch {
      // not empty yet
    }
  }
}

export class CommandCgroups {
  private counter = 0;

  private constructor(private readonly base: string) {}

  /** A parent cgroup for commands under the executor's own, or undefined. */
  static detect(): CommandCgroups | undefined {
    try {
      const mount = cgroup2Mount();
      if (!mount) return undefined;
      const home = join(mount, ownCgroup());
      removeStale(home);
      const base = join(home, `agent-sudo-commands-${process.pid}`);
      mkdirSync(base, { recursive: true });
      if (!existsSync(join(base, "cgroup.kill"))) return undefined;
      return new CommandCgroups(base);
    } catch {
      return undefined;
    }
  }

  /** A fresh cgroup; its cgroup.procs is what the command's process writes its pid to. */
  create(): { dir: string; procs: string } {
    const dir = join(this.base, `cmd-${++this.counter}`);
    mkdirSync(dir);
    return { dir, procs: join(dir, "cgroup.procs") };
  }

  /** Kills everything in the cgroup now (synchronously). */
  kill(dir: string): void {
    try {
      writeFileSync(join(dir, "cgroup.kill"), "1");
    } catch {
      // already empty or gone
    }
  }

  /**
   * Kills, then removes the cgroup once the kernel has emptied it (that
   * takes a few milliseconds after the last exit); retried for ~2 s in the
   * background so no request waits on it.
   */
  async destroy(dir: string): Promise<void> {
    for (let attempt = 0; attempt < 200; attempt++) {
      this.kill(dir);
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
