// The supervisor behind `npm start` / `agent-sudo start`: plays systemd's
// part on a machine without it. Starts the six services in order, restarts a
// crashed one with backoff until its start limit (like Restart=on-failure
// with StartLimitBurst), stops them all on SIGINT/SIGTERM, and prints where
// the stack listens once /health says every service is up.
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { closeSync, openSync, renameSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { request as requestTls } from "node:https";
import { join } from "node:path";
import { type Config, SERVICES, type ServiceName } from "../services/shared/config.js";
import { isRoot } from "../services/shared/privilege.js";

const ENTRY: Record<ServiceName, string> = {
  executor: "services/executor/main.js",
  classifier: "services/classifier/main.js",
  concurrence: "services/concurrence/main.js",
  sandbox: "services/sandbox/main.js",
  breaker: "services/breaker/main.js",
  gateway: "services/gateway/main.js",
};

// A small young generation keeps each service's memory flat under load
// (V8's default semi-space grows to 16 MB × 3 per process).
const NODE_FLAGS = ["--enable-source-maps", "--max-semi-space-size=2"];

const START_LIMIT_BURST = 5;
const START_LIMIT_INTERVAL_MS = 30_000;
const BACKOFF_MS = [100, 300, 1000, 2000, 3000];

function withoutDatabaseUrl(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const { DATABASE_URL: _omit, ...rest } = env;
  return rest;
}

interface Unit {
  name: ServiceName;
  child?: ChildProcess;
  starts: number[];
  failed: boolean;
}

export class Supervisor {
  private readonly units: Unit[] = SERVICES.map((name) => ({ name, starts: [], failed: false }));
  private stopping = false;
  /** Names this stack: its gateway echoes it in /health, so another stack answering on the same port is never taken for ours. */
  readonly instance = randomBytes(8).toString("hex");

  constructor(
    private readonly config: Config,
    private readonly distDir: string,
    private readonly say: (line: string) => void,
    /** Environment only one service gets (the gateway's DATABASE_URL). */
    private readonly serviceEnv: Partial<Record<ServiceName, Record<string, string>>> = {},
  ) {}

  start(): void {
    for (const unit of this.units) this.spawn(unit);
  }

  private spawn(unit: Unit): void {
    const now = Date.now();
    unit.starts = unit.starts.filter((t) => now - t < START_LIMIT_INTERVAL_MS);
    if (unit.starts.length >= START_LIMIT_BURST) {
      unit.failed = true;
      this.say(
        `${unit.name} restarted ${START_LIMIT_BURST} times in ${START_LIMIT_INTERVAL_MS / 1000} s; start limit hit, leaving it down (see ${this.logPath(unit)})`,
      );
      return;
    }
    unit.starts.push(now);
    const log = openSync(this.logPath(unit), "a", 0o600);
    const [command, ...args] = this.commandLine(unit.name);
    const child = spawn(command as string, args, {
      env: {
        ...withoutDatabaseUrl(process.env),
        AGENT_SUDO_HOME: this.config.home,
        AGENT_SUDO_SUPERVISOR_FD: "3",
        AGENT_SUDO_INSTANCE: this.instance,
        ...this.networkEnv(unit.name),
        ...this.serviceEnv[unit.name],
      },
      // fd 3: a pipe only this process writes to; when it dies, the service sees it close and exits too.
      stdio: ["ignore", log, log, "pipe"],
    });
    closeSync(log);
    unit.child = child;
    child.once("exit", (code, signal) => this.exited(unit, child, code, signal));
    this.writeStatus();
  }

  /** The executor's way back to the network `network` rules may use: this supervisor's own namespace. */
  private networkEnv(name: ServiceName): Record<string, string> {
    return name === "executor" && !process.env.AGENT_SUDO_HOST_NETNS ? { AGENT_SUDO_HOST_NETNS: `/proc/${process.pid}/ns/net` } : {};
  }

  /** node + entry; the executor wrapped in `unshare --net` when it should have no network. */
  private commandLine(name: ServiceName): string[] {
    const node = [process.execPath, ...NODE_FLAGS, join(this.distDir, ENTRY[name])];
    if (name === "executor" && this.config.executor.private_network && isRoot()) return ["unshare", "--net", "--", ...node];
    return node;
  }

  private exited(unit: Unit, child: ChildProcess, code: number | null, signal: NodeJS.Signals | null): void {
    if (unit.child !== child) return;
    unit.child = undefined;
    this.writeStatus();
    if (this.stopping) return;
    const delay = BACKOFF_MS[Math.min(unit.starts.length - 1, BACKOFF_MS.length - 1)] ?? 3000;
    this.say(`${unit.name} exited (${signal ?? `code ${code}`}); restarting in ${delay} ms`);
    setTimeout(() => {
      if (!this.stopping) this.spawn(unit);
    }, delay);
  }

  private logPath(unit: Unit): string {
    return join(this.config.logsDir, `${unit.name}.log`);
  }

  /** run/supervisor.json: the live pids, for `agent-sudo status` and tests. Written aside and renamed
   *  into place, so a reader never sees it truncated (a restart rewrites it while others read). */
  private writeStatus(): void {
    const services = Object.fromEntries(
      this.units.map((u) => [u.name, { pid: u.child?.pid ?? null, failed: u.failed, starts: u.starts.length }]),
    );
    const path = join(this.config.runDir, "supervisor.json");
    writeFileSync(`${path}.tmp`, `${JSON.stringify({ pid: process.pid, services }, null, 2)}\n`, { mode: 0o644 });
    renameSync(`${path}.tmp`, path);
  }

  async waitHealthy(timeoutMs: number): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline && !this.stopping) {
      if (await this.healthy()) return true;
      await new Promise((r) => setTimeout(r, 100));
    }
    return false;
  }

  healthy(): Promise<boolean> {
    const host = ["0.0.0.0", "::"].includes(this.config.http.bind) ? "127.0.0.1" : this.config.http.bind;
    const tls = Boolean(this.config.http.tls_cert);
    return new Promise((resolve) => {
      const req = (tls ? requestTls : request)(
        { host, port: this.config.http.port, path: "/health", timeout: 2000, rejectUnauthorized: false },
        (res) => {
          let body = "";
          res.on("data", (c: Buffer) => (body += c.toString()));
          res.on("end", () => {
            try {
              const parsed = JSON.parse(body) as { instance?: unknown; services?: Record<string, string> };
              // Another stack's gateway on this port (ours could not bind it) is not ours being healthy.
              if (parsed.instance !== this.instance) return resolve(false);
              if (res.statusCode === 200) return resolve(true);
              // Every service running, one of them refusing on purpose (an untrusted policy under verify_enforce): up, and says so.
              const services = Object.values(parsed.services ?? {});
              resolve(services.length > 0 && services.every((s) => s === "up" || s === "refusing") && services.includes("refusing"));
            } catch {
              resolve(false);
            }
          });
        },
      );
      req.on("error", () => resolve(false));
      req.on("timeout", () => req.destroy());
      req.end();
    });
  }

  async stop(): Promise<void> {
    this.stopping = true;
    const alive = this.units.map((u) => u.child).filter((c): c is ChildProcess => c !== undefined && c.exitCode === null);
    const exits = alive.map((c) => new Promise<void>((resolve) => c.once("exit", () => resolve())));
    // Stop the front door first, the executor last.
    for (const child of [...alive].reverse()) child.kill("SIGTERM");
    const timer = setTimeout(() => {
      for (const c of alive) c.kill("SIGKILL");
    }, 5000);
    await Promise.all(exits);
    clearTimeout(timer);
    this.writeStatus();
  }
}
