// Runs the real hook/agent-sudo-hook (and the CLI modules) as child
// processes, the way Claude Code and a user would.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { createServer, type Server, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { cliMain, repoRoot } from "../support/stack.js";

export const HOOK = join(repoRoot, "hook", "agent-sudo-hook");
export { cliMain };

export interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  ms: number;
}

export function runProcess(
  file: string,
  args: string[],
  opts: { stdin?: Buffer | string; env?: NodeJS.ProcessEnv; cwd?: string } = {},
): Promise<Run> {
  const t0 = performance.now();
  return new Promise((resolveRun, reject) => {
    const child = spawn(file, args, { env: opts.env ?? process.env, cwd: opts.cwd, stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c: Buffer) => (stdout += c.toString()));
    child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
    child.once("error", reject);
    child.once("close", (code, signal) => resolveRun({ code, signal, stdout, stderr, ms: performance.now() - t0 }));
    // The hook may answer (and exit) before reading all of a large input.
    child.stdin.on("error", () => {});
    child.stdin.end(opts.stdin ?? "");
  });
}

/**
 * How the hook talks to the gateway: perl-base where it is installed, else
 * curl. Each runs the hook with a PATH that holds that one program alone, so
 * the client named is what runs whatever else the machine has.
 */
export type HookClient = "curl" | "perl";

const only = new Map<HookClient, string>();
/** A PATH for the hook that selects `client` (the machine's PATH when none is named). */
export function hookPath(client: HookClient | undefined): string {
  const path = process.env.PATH ?? "/usr/bin:/bin";
  if (client === undefined) return path;
  let dir = only.get(client);
  if (!dir) {
    const program = path
      .split(":")
      .map((d) => join(d, client))
      .find((f) => existsSync(f));
    if (!program) throw new Error(`${client} is not installed`);
    dir = mkdtempSync(join(tmpdir(), `agent-sudo-hook-${client}-only-`));
    symlinkSync(program, join(dir, client));
    only.set(client, dir);
  }
  return dir;
}

/** Removes the dirs hookPath made (a test file that names a client calls it in its afterAll). */
export function removeHookPaths(): void {
  for (const dir of only.values()) rmSync(dir, { recursive: true, force: true });
  only.clear();
}

/** The hook with a clean environment: only PATH (the client's), HOME and what the test sets. */
export function runHook(stdin: Buffer | string, env: Record<string, string>, args: string[] = [], client?: HookClient): Promise<Run> {
  return runProcess(HOOK, args, { stdin, env: { PATH: hookPath(client), HOME: process.env.HOME ?? "/root", ...env } });
}

/** Calls an exported CLI function from dist/cli/<module>.js in its own node process. */
export function runCli(
  module: string,
  fn: string,
  args: string[],
  opts: { env?: NodeJS.ProcessEnv; cwd?: string; stdin?: string } = {},
): Promise<Run> {
  const file = join(repoRoot, "dist", "cli", `${module}.js`);
  const script = "const [f, fn, ...a] = process.argv.slice(1); const m = await import(f); process.exit(await m[fn](a));";
  return runProcess(process.execPath, ["--input-type=module", "-e", script, file, fn, ...args], opts);
}

export function preToolUse(command: string, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({
    session_id: "test-session",
    transcript_path: "/tmp/transcript.jsonl",
    // A project directory: /tmp itself is no one's workspace (git there may read a planted .git/config).
    cwd: "/home/dev/project",
    permission_mode: "default",
    hook_event_name: "PreToolUse",
    tool_name: "Bash",
    tool_input: { command, description: "test" },
    tool_use_id: "toolu_test",
    ...extra,
  });
}

export interface PreToolUseAnswer {
  decision: string;
  reason: string;
}

/** Parses a PreToolUse answer and checks it is exactly Claude Code's schema. */
export function decisionOf(stdout: string): PreToolUseAnswer {
  const parsed = JSON.parse(stdout) as { hookSpecificOutput: Record<string, string> };
  if (Object.keys(parsed).join() !== "hookSpecificOutput") throw new Error(`extra top-level keys: ${stdout}`);
  const out = parsed.hookSpecificOutput;
  if (Object.keys(out).sort().join() !== "hookEventName,permissionDecision,permissionDecisionReason")
    throw new Error(`unexpected keys: ${stdout}`);
  if (out.hookEventName !== "PreToolUse") throw new Error(`wrong event: ${stdout}`);
  return { decision: out.permissionDecision ?? "", reason: out.permissionDecisionReason ?? "" };
}

/** A stand-in gateway on a Unix socket that answers with raw bytes (or never). */
export async function fakeGateway(path: string, response: string | null): Promise<{ server: Server; close: () => Promise<void> }> {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => {});
    socket.once("data", () => {
      if (response !== null) socket.end(response);
    });
  });
  await new Promise<void>((resolveListen) => server.listen(path, resolveListen));
  const close = () =>
    new Promise<void>((resolveClose) => {
      for (const s of sockets) s.destroy();
      server.close(() => resolveClose());
    });
  return { server, close };
}

export function httpResponse(status: number, body: string): string {
  return `HTTP/1.1 ${status} X\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`;
}
