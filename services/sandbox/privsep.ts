// The unprivileged side of the launcher: forks it (while still root), then
// forwards each trial over the IPC channel. If the launcher dies after it
// was ready the service cannot trial any more and says so through
// `onLost` (main.ts exits: crash, don't limp; the supervisor restarts both).
import { type ChildProcess, fork } from "node:child_process";
import type { LauncherConfig } from "./launcher/local-driver.js";
import type { LauncherReply } from "./launcher/main.js";
import type { Driver, DriverInput, DriverRun } from "./trial.js";

export interface LauncherHandle {
  driver: Driver;
  /** Set when the launcher could not open its driver. */
  unavailable?: string;
  stop(): void;
}

/** Structured clone turns Buffers into Uint8Arrays; make them Buffers again. */
function asRun(run: DriverRun): DriverRun {
  return { ...run, stdout: Buffer.from(run.stdout), stderr: Buffer.from(run.stderr) };
}

export function startLauncher(
  entry: string,
  config: LauncherConfig,
  onLost: (why: string) => void,
  readyTimeoutMs = 15_000,
): Promise<LauncherHandle> {
  // As root the launcher lives in its own mount namespace (slave: host
  // mounts and unmounts still reach it; its tmpfs and overlays never reach
  // the host, and vanish with it, whatever way it dies).
  const wrap =
    process.getuid?.() === 0 ? { execPath: "unshare", execArgv: ["--mount", "--propagation", "slave", "--", process.execPath] } : {};
  const child: ChildProcess = fork(entry, [JSON.stringify(config)], {
    serialization: "advanced",
    stdio: ["ignore", "inherit", "inherit", "ipc"],
    ...wrap,
  });
  const pending = new Map<number, { resolve: (r: DriverRun) => void; reject: (e: Error) => void }>();
  let nextId = 0;
  let ready = false;
  let stopping = false;
  let describe = "";

  const failAll = (why: string) => {
    for (const p of pending.values()) p.reject(new Error(why));
    pending.clear();
  };

  const driver: Driver = {
    name: config.driver,
    describe: () => describe,
    refuses: (host) =>
      config.driver === "overlay" && host !== config.hostId && !(host in config.overlay.mirrors)
        ? `no overlay mirror of host ${JSON.stringify(host)} here`
        : undefined,
    run(input: DriverInput): Promise<DriverRun> {
      return new Promise((resolve, reject) => {
        if (!child.connected) return reject(new Error("the sandbox launcher is gone"));
        const id = nextId++;
        pending.set(id, { resolve, reject });
        child.send({ type: "trial", id, input });
      });
    },
  };
  const stop = () => {
    stopping = true;
    if (child.connected) child.disconnect();
  };

  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("the sandbox launcher did not become ready")), readyTimeoutMs);
    child.on("message", (msg: LauncherReply) => {
      if (msg.type === "ready") {
        ready = true;
        describe = msg.describe;
        clearTimeout(timer);
        resolve({ driver, stop });
      } else if (msg.type === "fatal") {
        clearTimeout(timer);
        resolve({ driver, unavailable: msg.message, stop });
      } else if (msg.type === "result" || msg.type === "error") {
        const p = pending.get(msg.id);
        pending.delete(msg.id);
        if (msg.type === "result") p?.resolve(asRun(msg.run as DriverRun));
        else p?.reject(new Error(msg.message));
      }
    });
    child.once("exit", (code, signal) => {
      clearTimeout(timer);
      const why = `the sandbox launcher exited (${signal ?? `code ${code}`})`;
      failAll(why);
      if (!ready) reject(new Error(why));
      else if (!stopping) onLost(why);
    });
  });
}
