// bench/hook: what the Claude Code hook costs per Bash command.
// Spawns the real hook/agent-sudo-hook N times (default 500), one after the
// other, with a realistic PreToolUse JSON for `git status` on stdin, against a
// real stack; the time is from spawn to the decision read and the process
// gone. Goal: median ≤ 15 ms, p95 ≤ 25 ms. For scale it also times a bare
// `sh -c true` and `curl --version` spawn, the floor the hook is built on,
// and the gateway's own share (the same request sent from this process).
// Run: npx tsc -p tsconfig.json && node dist/bench/hook/run.js [N]
import { spawn } from "node:child_process";
import { request } from "node:http";
import { join } from "node:path";
import { repoRoot, startStack } from "../../test/support/stack.js";
import { median, pct } from "../stats.js";

const N = Number(process.argv[2] ?? 500);

const HOOK = join(repoRoot, "hook", "agent-sudo-hook");

const EVENT = JSON.stringify({
  session_id: "4f1c2b9e-7a3d-4e55-9c1a-2b8d6e0f3a71",
  transcript_path: "/root/.claude/projects/-work-main/4f1c2b9e-7a3d-4e55-9c1a-2b8d6e0f3a71.jsonl",
  cwd: "/work/main",
  permission_mode: "default",
  hook_event_name: "PreToolUse",
  tool_name: "Bash",
  tool_input: { command: "git status", description: "Show working tree status" },
  tool_use_id: "toolu_01ABCDEFGHJKLMNPQRSTUVWX",
});

function timed(
  file: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  stdin?: string,
): Promise<{ ms: number; stdout: string; code: number | null }> {
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { env, stdio: [stdin === undefined ? "ignore" : "pipe", "pipe", "ignore"] });
    let stdout = "";
    child.stdout?.on("data", (c: Buffer) => (stdout += c.toString()));
    child.once("error", reject);
    child.once("close", (code) => resolve({ ms: performance.now() - t0, stdout, code }));
    child.stdin?.on("error", () => {});
    child.stdin?.end(stdin);
  });
}

/** One POST /v1/hook over the socket from this process: the gateway's share, no spawn. */
function direct(socketPath: string): Promise<number> {
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    const req = request(
      {
        socketPath,
        method: "POST",
        path: "/v1/hook",
        headers: { "content-type": "application/json", "content-length": Buffer.byteLength(EVENT) },
      },
      (res) => {
        res.resume();
        res.on("end", () => resolve(performance.now() - t0));
      },
    );
    req.on("error", reject);
    req.end(EVENT);
  });
}

function line(name: string, xs: number[]): string {
  return `  ${name.padEnd(22)} median ${median(xs).toFixed(2)} ms  p95 ${pct(xs, 95).toFixed(2)} ms  p99 ${pct(xs, 99).toFixed(2)} ms  max ${Math.max(...xs).toFixed(2)} ms`;
}

const stack = await startStack();
const stop = () => void stack.stop().then(() => process.exit(130));
process.once("SIGINT", stop);
process.once("SIGTERM", stop);
try {
  const env = {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: process.env.HOME ?? "/root",
    AGENT_SUDO_HOOK_SOCKET: join(stack.home, "run", "hook.sock"),
  };
  for (let i = 0; i < 20; i++) await timed(HOOK, [], env, EVENT); // warm up
  const hook: number[] = [];
  for (let i = 0; i < N; i++) {
    const run = await timed(HOOK, [], env, EVENT);
    if (run.code !== 0 || !run.stdout.includes('"permissionDecision":"allow"'))
      throw new Error(`run ${i}: exit ${String(run.code)}, ${run.stdout}`);
    hook.push(run.ms);
  }
  const gateway: number[] = [];
  for (let i = 0; i < Math.min(N, 200); i++) gateway.push(await direct(env.AGENT_SUDO_HOOK_SOCKET));
  const sh: number[] = [];
  const curl: number[] = [];
  for (let i = 0; i < Math.min(N, 200); i++) {
    sh.push((await timed("/bin/sh", ["-c", "true"], env)).ms);
    curl.push((await timed("curl", ["-q", "--version"], env)).ms);
  }
  const ok = median(hook) <= 15 && pct(hook, 95) <= 25;
  console.log(`hook: ${N} sequential PreToolUse (git status → allow) through hook/agent-sudo-hook`);
  console.log(line("agent-sudo-hook", hook));
  console.log(line("gateway only (no spawn)", gateway));
  console.log(line("floor: sh -c true", sh));
  console.log(line("floor: curl --version", curl));
  console.log(`  goal median ≤ 15 ms, p95 ≤ 25 ms: ${ok ? "met" : "NOT met"}`);
} finally {
  await stack.stop();
}
