// Runs the REAL Claude Code client (the pinned @anthropic-ai/claude-code
// devDependency) headless, the way an agent runner would: `claude -p PROMPT
// --output-format json`, in a temporary HOME, against the Messages API
// stand-in, with only loopback reachable (netns-bridge.mjs in a fresh network
// namespace: the client can reach the stand-in and the gateway's forwarded
// port, nothing else).
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createServer, connect, type Server, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { repoRoot } from "./stack.js";
import { MessagesStandin } from "./messages-standin.js";

/** The version package.json pins; the suite checks the binary is that one. */
export const PINNED =
  (JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8")) as { devDependencies: Record<string, string> }).devDependencies[
    "@anthropic-ai/claude-code"
  ] ?? "";

const BRIDGE = join(repoRoot, "test", "support", "netns-bridge.mjs");
/** Inside the namespace: the stand-in's port and the gateway's forwarded port. */
export const STANDIN_PORT = 18950;
export const GATEWAY_PORT = 18951;

/** The client's native binary, or why the suite cannot run here. */
export function findClient(): { binary: string } | { skip: string } {
  const pkg = join(repoRoot, "node_modules", "@anthropic-ai", "claude-code");
  if (!existsSync(join(pkg, "package.json")))
    return { skip: `skipped: @anthropic-ai/claude-code is not installed (npm ci installs the pinned ${PINNED})` };
  // The postinstall copies the platform binary over bin/claude.exe; without
  // it (scripts not run) the platform package still holds the binary.
  const candidates = [
    join(pkg, "bin", "claude.exe"),
    join(repoRoot, "node_modules", "@anthropic-ai", `claude-code-linux-${process.arch}`, "claude"),
  ];
  const binary = candidates.find((c) => existsSync(c) && statSync(c).size > 1_000_000);
  if (!binary)
    return {
      skip: `skipped: no native Claude Code binary for linux-${process.arch} under node_modules/@anthropic-ai (the platform package did not install)`,
    };
  if (process.platform !== "linux") return { skip: "skipped: the client suite runs on Linux (network namespaces)" };
  for (const [tool, pkg] of [
    ["unshare", "util-linux"],
    ["perl", "perl-base"],
  ]) {
    try {
      execFileSync("sh", ["-c", `command -v ${tool}`], { stdio: "ignore" });
    } catch {
      return { skip: `skipped: ${tool} is not installed (${pkg}): the client runs in a loopback-only network namespace` };
    }
  }
  let version = "";
  try {
    version = execFileSync(binary, ["--version"], {
      encoding: "utf8",
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: tmpdir() },
      timeout: 30_000,
    });
  } catch (err) {
    return { skip: `skipped: ${binary} does not run here (${(err as Error).message.split("\n")[0]})` };
  }
  if (!version.startsWith(`${PINNED} `)) return { skip: `skipped: ${binary} is ${version.trim()}, not the pinned ${PINNED}` };
  return { binary };
}

export interface ClientRun {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
  /** performance.now() at spawn. */
  startedAt: number;
  /** The --output-format json result, when the client printed one. */
  result?: {
    result?: string;
    is_error?: boolean;
    permission_denials?: Array<{ tool_name: string; tool_input: Record<string, unknown> }>;
    num_turns?: number;
  };
}

/**
 * One temporary world for the client: a HOME (settings under ~/.claude), a
 * project directory, the stand-in, and a relay that lets `agent-sudo exec`
 * inside the namespace reach a gateway's TCP port.
 */
export class ClientWorld {
  readonly dir = mkdtempSync(join(tmpdir(), "agent-sudo-client-"));
  readonly home = join(this.dir, "home");
  readonly project = join(this.dir, "project");
  readonly scratch = join(this.dir, "scratch");
  readonly standin = new MessagesStandin();
  private readonly standinSocket = join(this.dir, "standin.sock");
  private readonly gatewaySocket = join(this.dir, "gateway-relay.sock");
  private relay?: Server;
  private gatewayPort = 0;
  private readonly relayed = new Set<Socket>();

  constructor(private readonly binary: string) {
    for (const d of [this.home, this.project, this.scratch]) mkdirSync(d, { recursive: true, mode: 0o755 });
  }

  async start(): Promise<void> {
    await this.standin.listen(this.standinSocket);
    this.relay = createServer((inbound) => {
      const outbound = connect(this.gatewayPort, "127.0.0.1");
      this.relayed.add(inbound);
      inbound.pipe(outbound);
      outbound.pipe(inbound);
      const done = () => {
        inbound.destroy();
        outbound.destroy();
        this.relayed.delete(inbound);
      };
      for (const s of [inbound, outbound]) {
        s.on("error", done);
        s.on("close", done);
      }
    });
    await new Promise<void>((resolve) => this.relay?.listen(this.gatewaySocket, resolve));
  }

  /** The gateway `agent-sudo exec` reaches as http://127.0.0.1:GATEWAY_PORT inside the namespace. */
  relayGateway(port: number): void {
    this.gatewayPort = port;
  }

  async close(): Promise<void> {
    for (const s of this.relayed) s.destroy();
    await new Promise<void>((resolve) => (this.relay ? this.relay.close(() => resolve()) : resolve()));
    await this.standin.close();
    rmSync(this.dir, { recursive: true, force: true });
  }

  /** The environment the client starts with (and passes on to its Bash tool). */
  env(extra: Record<string, string> = {}): Record<string, string> {
    return {
      PATH: `${join(repoRoot, "bin")}:${process.env.PATH ?? "/usr/local/bin:/usr/bin:/bin"}`,
      HOME: this.home,
      USER: "root",
      SHELL: "/bin/bash",
      LANG: "C.UTF-8",
      TMPDIR: this.scratch,
      ANTHROPIC_BASE_URL: `http://127.0.0.1:${STANDIN_PORT}`,
      ANTHROPIC_API_KEY: "sk-ant-standin-not-a-key",
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
      DISABLE_AUTOUPDATER: "1",
      AGENT_SUDO_URL: `http://127.0.0.1:${GATEWAY_PORT}`,
      // The sh hook's limit (default 1 s), raised so a busy shared test machine
      // does not turn an answer into the fail-closed deny; a case about that
      // limit sets it back.
      AGENT_SUDO_HOOK_TIMEOUT: "3",
      ...extra,
    };
  }

  /** Writes the caller token `agent-sudo exec` reads; returns the env var pointing at it. */
  tokenFile(token: string): Record<string, string> {
    const file = join(this.dir, "token");
    writeFileSync(file, `${token}\n`, { mode: 0o600 });
    return { AGENT_SUDO_TOKEN_FILE: file };
  }

  /** `claude -p PROMPT --output-format json ARGS`, in the project dir, inside the loopback-only namespace. */
  run(prompt: string, opts: { args?: string[]; env?: Record<string, string>; cwd?: string; timeoutMs?: number } = {}): Promise<ClientRun> {
    const root = process.getuid?.() === 0;
    const argv = [
      ...(root ? [] : ["--user", "--map-root-user"]),
      "--net",
      "--",
      process.execPath,
      BRIDGE,
      `${STANDIN_PORT}=${this.standinSocket}`,
      `${GATEWAY_PORT}=${this.gatewaySocket}`,
      "--",
      this.binary,
      "-p",
      prompt,
      "--output-format",
      "json",
      ...(opts.args ?? []),
    ];
    const t0 = performance.now();
    return new Promise((resolve, reject) => {
      const child = spawn("unshare", argv, {
        cwd: opts.cwd ?? this.project,
        env: this.env(opts.env),
        stdio: ["ignore", "pipe", "pipe"],
        detached: true,
      });
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (c: Buffer) => (stdout += c.toString()));
      child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
      const limit = setTimeout(() => {
        stderr += `\n[test] client killed after ${opts.timeoutMs ?? 60_000} ms`;
        try {
          process.kill(-(child.pid ?? 0), "SIGKILL");
        } catch {
          // already gone
        }
      }, opts.timeoutMs ?? 60_000);
      child.once("error", (err) => {
        clearTimeout(limit);
        reject(err);
      });
      child.once("close", (code) => {
        clearTimeout(limit);
        let result: ClientRun["result"];
        try {
          result = JSON.parse(stdout.trim().split("\n").at(-1) ?? "") as ClientRun["result"];
        } catch {
          result = undefined;
        }
        resolve({ code, stdout, stderr, ms: performance.now() - t0, startedAt: t0, ...(result ? { result } : {}) });
      });
    });
  }
}
