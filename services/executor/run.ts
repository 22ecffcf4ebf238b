// Runs one command: `SHELL -c COMMAND` with node:child_process (execa cost
// ~1 ms more per command and a dozen more modules in the root process), in
// its own process group and, where the host has cgroup v2, its own cgroup
// (cgroup.ts), with no stdin, a scrubbed environment, capped output and a
// timeout that kills all of it. When the shell exits, anything it left
// behind is killed too: no process outlives its request.
import { spawn } from "node:child_process";
import { constants } from "node:os";
import type { Readable } from "node:stream";
import type { CommandCgroups } from "./cgroup.js";

export interface RunSpec {
  shell: string;
  command: string;
  cwd: string;
  timeoutS: number;
  env: Record<string, string>;
  uid?: number;
  gid?: number;
  stdoutCap: number;
  stderrCap: number;
  /** Start this instead of `shell -c command` (the envelope, network wrappers); uid/gid then stay unset. */
  launch?: { file: string; args: string[] };
  /** The launch is the envelope program: fd 3 carries its setup outcome. */
  envelope?: boolean;
  /** Per-command cgroups when the host has them; else process-group kills only. */
  cgroups?: CommandCgroups;
}

export interface RunResult {
  exitCode: number;
  stdout: Buffer;
  stderr: Buffer;
  truncated: boolean;
  timedOut: boolean;
  signal: string;
  durationMs: number;
  /** The envelope failed before the command started (it did not run). */
  setupError?: string;
}

class CappedSink {
  private readonly chunks: Buffer[] = [];
  private size = 0;
  truncated = false;

  constructor(private readonly cap: number) {}

  attach(stream: Readable | null): void {
    stream?.on("data", (chunk: Buffer) => {
      const room = this.cap - this.size;
      if (room <= 0) {
        this.truncated = true;
        return;
      }
      if (chunk.length > room) this.truncated = true;
      const kept = chunk.length > room ? chunk.subarray(0, room) : chunk;
      this.chunks.push(kept);
      this.size += kept.length;
    });
  }

  bytes(): Buffer {
    return Buffer.concat(this.chunks, this.size);
  }
}

function killGroup(pid: number | undefined): void {
  if (!pid) return;
  try {
    process.kill(-pid, "SIGKILL");
  } catch {
    // ESRCH: the group is already gone
  }
}

export async function runCommand(spec: RunSpec): Promise<RunResult> {
  const started = process.hrtime.bigint();
  const cg = spec.cgroups?.create();
  const start = () =>
    spawn(spec.launch?.file ?? spec.shell, spec.launch?.args ?? ["-c", spec.command], {
      cwd: spec.cwd,
      env: spec.env,
      stdio: spec.envelope ? ["ignore", "pipe", "pipe", "pipe"] : ["ignore", "pipe", "pipe"],
      detached: true,
      ...(spec.uid !== undefined ? { uid: spec.uid, gid: spec.gid ?? spec.uid } : {}),
    });
  const child = cg && spec.cgroups ? spec.cgroups.spawnInside(cg.dir, start) : start();
  const killAll = () => {
    killGroup(child.pid);
    if (cg) spec.cgroups?.kill(cg.dir);
  };
  const out = new CappedSink(spec.stdoutCap);
  const err = new CappedSink(spec.stderrCap);
  out.attach(child.stdout);
  err.attach(child.stderr);
  const setup = new CappedSink(4096);
  setup.attach((child.stdio[3] as Readable | null | undefined) ?? null);

  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    killAll();
  }, spec.timeoutS * 1000);
  let code: number | null = null;
  let signal: NodeJS.Signals | null = null;
  child.once("exit", (c, s) => {
    code = c;
    signal = s;
    // Whatever the shell left running in its group (or cgroup) dies with it;
    // that also closes the pipes a background child would hold open.
    killAll();
  });
  const spawnError = await new Promise<Error | undefined>((resolve) => {
    child.once("error", (e) => resolve(e));
    child.once("close", () => resolve(undefined));
    // A process that escaped every kill may still hold the pipes open: once
    // the shell has exited, wait a moment for the output, then stop reading.
    child.once("exit", () =>
      setTimeout(() => {
        child.stdout?.destroy();
        child.stderr?.destroy();
        resolve(undefined);
      }, 250).unref(),
    );
  });
  clearTimeout(timer);
  killGroup(child.pid);
  // Everything in it was killed above; the empty cgroup is removed off the request path.
  if (cg) void spec.cgroups?.destroy(cg.dir);
  const durationMs = Number((process.hrtime.bigint() - started) / 1_000_000n);

  const exitSignal = signal as NodeJS.Signals | null;
  let exitCode = (code as number | null) ?? -1;
  if (exitSignal) exitCode = 128 + (constants.signals[exitSignal] ?? 0);
  if (timedOut) exitCode = 124;
  if (spawnError && spec.envelope) {
    return { exitCode: 125, stdout: Buffer.alloc(0), stderr: Buffer.alloc(0), truncated: false, timedOut, signal: "", durationMs, setupError: `${spec.launch?.file ?? spec.shell}: ${spawnError.message}` };
  }
  if (spawnError) {
    // spawn itself failed (shell missing, bad uid …)
    return { exitCode: 127, stdout: Buffer.alloc(0), stderr: Buffer.from(`${spec.shell}: ${spawnError.message}\n`), truncated: false, timedOut, signal: "", durationMs };
  }
  const status = setup.bytes().toString("utf8");
  if (spec.envelope && !status.startsWith("ok\n")) {
    const why = /^error: (.*)$/m.exec(status)?.[1] ?? (timedOut ? "timed out while setting up" : `exited ${exitCode} before it was set up`);
    return { exitCode: 125, stdout: Buffer.alloc(0), stderr: Buffer.alloc(0), truncated: false, timedOut, signal: "", durationMs, setupError: why };
  }
  return {
    exitCode,
    stdout: out.bytes(),
    stderr: err.bytes(),
    truncated: out.truncated || err.truncated,
    timedOut,
    signal: exitSignal ?? "",
    durationMs,
  };
}
