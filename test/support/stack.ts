// Starts a real agent-sudo stack (the supervisor and six processes) in a
// temp state dir on a free loopback port, for end-to-end tests.
import { type ChildProcess, spawn } from "node:child_process";
import { chmodSync, cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { freePort } from "../../cli/ports.js";
export { freePort };

/** The repository root, whether this file runs from test/ or dist/test/. */
function findRepoRoot(from: string): string {
  for (let dir = from; dir !== dirname(dir); dir = dirname(dir)) {
    if (existsSync(join(dir, "package.json")) && existsSync(join(dir, "services"))) return dir;
  }
  throw new Error(`no repository root above ${from}`);
}

export const repoRoot = findRepoRoot(import.meta.dirname);
export const cliMain = join(repoRoot, "dist", "cli", "main.js");

export interface Stack {
  home: string;
  url: string;
  port: number;
  token: string;
  /** The environment the CLI needs to talk to this stack (its home and the settings it was started with). */
  cliEnv: NodeJS.ProcessEnv;
  output: () => string;
  /** Live pids by service, from run/supervisor.json. */
  pids(): Record<string, number | null>;
  exec(body: unknown, token?: string): Promise<{ status: number; body: Record<string, unknown> }>;
  health(): Promise<{ status: number; body: Record<string, unknown> }>;
  waitHealthy(timeoutMs?: number): Promise<number>;
  stop(): Promise<void>;
}

/**
 * A stand-in shell for tests that send commands which must never run for
 * real: it records the command line it was given and executes nothing.
 */
export function recorderShell(dir: string): { shell: string; log: string } {
  const log = join(dir, "recorded.log");
  const shell = join(dir, "recorder.sh");
  writeFileSync(log, "", { mode: 0o666 });
  chmodSync(log, 0o666);
  writeFileSync(shell, `#!/bin/sh\n# test stand-in: records, never executes\nprintf '%s\\n' "$2" >> '${log}'\necho recorded\n`, {
    mode: 0o755,
  });
  return { shell, log };
}

/**
 * A copy of the repository's policies (without signatures) in a temp dir the
 * service users can read, with `insert` put before the first `## Rules`
 * heading of each named file (so the inserted rules are tried first).
 */
export function copyPolicies(prefix: string, insert: Partial<Record<"SUDO.md" | "CLAUDE_CMDS.md", string>> = {}): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  cpSync(join(repoRoot, "policies"), dir, { recursive: true, filter: (src) => !src.endsWith(".sig") });
  chmodSync(dir, 0o755); // readable by the services' users, as /opt/agent-sudo/policies is
  for (const [name, text] of Object.entries(insert)) {
    const file = join(dir, name);
    const body = readFileSync(file, "utf8");
    const at = body.indexOf("## Rules");
    writeFileSync(file, body.slice(0, at) + text + body.slice(at));
  }
  return dir;
}

export interface StackOptions {
  env?: Record<string, string>;
  home?: string;
}

export async function startStack(opts: StackOptions = {}): Promise<Stack> {
  const home = opts.home ?? mkdtempSync(join(tmpdir(), "agent-sudo-test-"));
  const port = await freePort();
  const token = `test-token-${Math.random().toString(36).slice(2)}-0123456789`;
  let out = "";
  const child: ChildProcess = spawn(process.execPath, [cliMain, "start"], {
    env: { ...process.env, AGENT_SUDO_HOME: home, AGENT_SUDO_PORT: String(port), AGENT_SUDO_DEV_TOKEN: token, ...opts.env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const url = `http://127.0.0.1:${port}`;
  const ready = new Promise<void>((resolveReady, reject) => {
    // A loaded machine (two cores shared) can take well over 30 s; a start
    // that never gets ready is stopped, not left running behind the test.
    const timer = setTimeout(() => {
      child.kill("SIGTERM");
      setTimeout(() => child.kill("SIGKILL"), 10_000).unref();
      reject(new Error(`stack not ready in 90 s:\n${out}`));
    }, 90_000);
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes(`ready ${url}`)) {
        clearTimeout(timer);
        resolveReady();
      }
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", onData);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`supervisor exited with ${code}:\n${out}`));
    });
  });
  await ready.catch(async (err: unknown) => {
    // A stack that never got ready leaves nothing behind: its home holds keys and tokens.
    if (child.exitCode === null && child.signalCode === null) await new Promise((r) => child.once("exit", r));
    if (!opts.home) rmSync(home, { recursive: true, force: true });
    throw err;
  });

  const request = async (method: string, path: string, body?: unknown, auth?: string) => {
    const res = await fetch(`${url}${path}`, {
      method,
      headers: auth === undefined ? {} : { authorization: `Bearer ${auth}`, "content-type": "application/json" },
      ...(body === undefined ? {} : { body: typeof body === "string" ? body : JSON.stringify(body) }),
    });
    const text = await res.text();
    let parsed: Record<string, unknown> = {};
    try {
      parsed = JSON.parse(text) as Record<string, unknown>;
    } catch {
      parsed = { raw: text };
    }
    return { status: res.status, body: parsed };
  };

  const stack: Stack = {
    home,
    url,
    port,
    token,
    cliEnv: { ...process.env, AGENT_SUDO_HOME: home, ...opts.env },
    output: () => out,
    pids() {
      const status = JSON.parse(readFileSync(join(home, "run", "supervisor.json"), "utf8")) as {
        services: Record<string, { pid: number | null }>;
      };
      return Object.fromEntries(Object.entries(status.services).map(([k, v]) => [k, v.pid]));
    },
    exec: (body, tok = token) => request("POST", "/exec", body, tok),
    health: () => request("GET", "/health"),
    async waitHealthy(timeoutMs = 10_000) {
      const t0 = Date.now();
      while (Date.now() - t0 < timeoutMs) {
        const h = await stack.health().catch(() => ({ status: 0, body: {} }));
        if (h.status === 200) return Date.now() - t0;
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error("stack did not become healthy");
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((r) => child.once("exit", r));
        child.kill("SIGTERM");
        await exited;
      }
      if (!opts.home) rmSync(home, { recursive: true, force: true });
    },
  };
  return stack;
}
