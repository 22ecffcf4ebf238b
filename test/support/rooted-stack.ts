// A whole agent-sudo stack started INSIDE a throwaway root (throwaway-root.ts):
// for tests whose commands have real effects on "the host" — tiers 1–2
// commit diffs as root, attacks aim at /etc/passwd — the host the stack sees
// is the throwaway root, so a bug in the code under test fails an assertion
// instead of changing this machine. Callers reach the gateway through a
// forwarded loopback port; files are read and written inside with `sh`.
import { randomBytes } from "node:crypto";
import { request } from "node:http";
import { join } from "node:path";
import { cliMain } from "./stack.js";
import { startThrowawayRoot, type ExecResult, type Forward, type ThrowawayRoot } from "./throwaway-root.js";

export interface RootedStack {
  root: ThrowawayRoot;
  /** The stack's state dir, inside the root. */
  home: string;
  url: string;
  token: string;
  exec(body: Record<string, unknown>): Promise<{ status: number; body: Record<string, unknown> }>;
  /** `sh -c script` as root inside the root (not through agent-sudo). */
  sh(script: string, opts?: { cwd?: string; timeoutMs?: number }): Promise<ExecResult>;
  /** `agent-sudo ARGS` inside the root against this stack. */
  cli(args: string[]): Promise<ExecResult>;
  /** Live pids by service, inside the root's pid namespace (run/supervisor.json). */
  pids(): Promise<Record<string, number | null>>;
  health(): Promise<{ status: number; body: Record<string, unknown> }>;
  waitHealthy(timeoutMs?: number): Promise<number>;
  /** A file's content inside the root. */
  read(path: string): Promise<string>;
  output(): string;
  stop(): Promise<void>;
}

export interface RootedStackOptions {
  env?: Record<string, string>;
  readyTimeoutMs?: number;
}

const PORT = 18084;

export async function startRootedStack(opts: RootedStackOptions = {}): Promise<RootedStack> {
  const root = await startThrowawayRoot({ tmpfsSize: "4g" });
  const home = `/tmp/agent-sudo-rooted-${randomBytes(4).toString("hex")}`;
  const token = `rooted-${randomBytes(16).toString("hex")}`;
  const env: Record<string, string> = { AGENT_SUDO_HOME: home, AGENT_SUDO_PORT: String(PORT), AGENT_SUDO_DEV_TOKEN: token, ...opts.env };
  let out = "";
  let forward: Forward | undefined;
  try {
    const child = root.spawn(["/usr/bin/env", ...Object.entries(env).map(([k, v]) => `${k}=${v}`), process.execPath, cliMain, "start"]);
    child.stdout?.on("data", (c: Buffer) => (out += c.toString()));
    child.stderr?.on("data", (c: Buffer) => (out += c.toString()));
    const t0 = Date.now();
    const limit = opts.readyTimeoutMs ?? 60_000;
    while (!out.includes(`ready http://127.0.0.1:${PORT}`)) {
      if (child.exitCode !== null) throw new Error(`the stack inside the throwaway root exited ${child.exitCode}:\n${out}`);
      if (Date.now() - t0 > limit) throw new Error(`the stack inside the throwaway root was not ready in ${limit} ms:\n${out}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    forward = await root.forward(PORT);
  } catch (err) {
    await root.close();
    throw err;
  }
  const url = forward.url;
  const fwd = forward;
  const health = async () => {
    const res = await fetch(`${url}/health`);
    return { status: res.status, body: (await res.json().catch(() => ({}))) as Record<string, unknown> };
  };
  return {
    root,
    home,
    url,
    token,
    async exec(body) {
      // A connection of its own per request: a kept-alive one the gateway closes after 5 s idle (keepAliveTimeout)
      // just as the next request is written fails that request ("other side closed"); attack cases wait that long
      // between their first step and their command while the host is snapshotted.
      const { status, text } = await postOnce(`${url}/exec`, token, JSON.stringify(body));
      try {
        return { status, body: JSON.parse(text) as Record<string, unknown> };
      } catch {
        return { status, body: { raw: text } };
      }
    },
    sh: (script, o = {}) => root.exec(["/bin/sh", "-c", script], { cwd: o.cwd ?? "/", timeoutMs: o.timeoutMs ?? 60_000 }),
    cli: (args) =>
      root.exec(
        [
          "/usr/bin/env",
          `AGENT_SUDO_HOME=${home}`,
          ...Object.entries(opts.env ?? {}).map(([k, v]) => `${k}=${v}`),
          process.execPath,
          cliMain,
          ...args,
        ],
        { timeoutMs: 60_000 },
      ),
    async pids() {
      const r = await root.exec(["/bin/cat", join(home, "run", "supervisor.json")]);
      const status = JSON.parse(r.stdout) as { services: Record<string, { pid: number | null }> };
      return Object.fromEntries(Object.entries(status.services).map(([k, v]) => [k, v.pid]));
    },
    health,
    async waitHealthy(timeoutMs = 10_000) {
      const t0 = Date.now();
      while (Date.now() - t0 < timeoutMs) {
        const h = await health().catch(() => ({ status: 0, body: {} }));
        if (h.status === 200) return Date.now() - t0;
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error("the stack inside the throwaway root did not become healthy");
    },
    read: (path) => root.readFile(path),
    output: () => out,
    async stop() {
      await fwd.close().catch(() => undefined);
      await root.close();
    },
  };
}

/** POST on a fresh connection (no keep-alive agent), answered as status and text. */
function postOnce(url: string, token: string, body: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: "POST",
        agent: false,
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json", "content-length": Buffer.byteLength(body) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString("utf8") }));
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}
