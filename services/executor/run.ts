// Runs one command through the warm envelope server (shared/envelope/
// server.ts): in its own session and, where the host has cgroup v2, its own
// cgroup (cgroup.ts), with no stdin, the given environment, capped output
// and a timeout that kills all of it. When the command exits, the server
// kills what it left in its session and cgroup: no process outlives its
// request. A gated run is built at once and runs only once its caller
// releases it (the executor's journal entry made durable meanwhile).
import { constants } from "node:os";
import type { EnvelopeServer } from "../shared/envelope/server.js";
import type { CommandCgroups } from "./cgroup.js";

/**
 * What to start: envelope words (the envelope execs the command), or an
 * argv as it is — a wrapper around the envelope, whose setup outcome still
 * comes on fd 3 ("exec"), or one that hides it ("plain": systemd-run).
 */
export interface Launch {
  kind: "envelope" | "exec" | "plain";
  args: string[];
}

export interface RunSpec {
  server: EnvelopeServer;
  launch: Launch;
  timeoutS: number;
  env: Record<string, string>;
  stdoutCap: number;
  stderrCap: number;
  /** Per-command cgroups when the host has them; else session kills only. */
  cgroups?: CommandCgroups;
  /**
   * Built at once, run when this resolves (an envelope only): the caller's
   * journal entry is made durable meanwhile. Rejected: killed unrun.
   */
  gate?: Promise<void>;
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

/** What a run the envelope could not set up answers (with why, in setupError). */
const NOT_RUN = { exitCode: 125, stdout: Buffer.alloc(0), stderr: Buffer.alloc(0), truncated: false, signal: "" } as const;

/** The server relays at most cap + 1 bytes of a stream (program.ts `--serve`): the one past the cap says it was cut. */
function capped(chunks: Buffer[], cap: number): { bytes: Buffer; cut: boolean } {
  const all = Buffer.concat(chunks);
  return { bytes: all.subarray(0, cap), cut: all.length > cap };
}

function signalName(n: number): string {
  return Object.entries(constants.signals).find(([, v]) => v === n)?.[0] ?? `SIG${n}`;
}

export async function runCommand(spec: RunSpec): Promise<RunResult> {
  // Only the envelope program waits for a release: any other launch starts once the gate opens.
  if (spec.gate && spec.launch.kind !== "envelope") {
    await spec.gate;
    const { gate: _opened, ...rest } = spec;
    return runCommand(rest);
  }
  const started = process.hrtime.bigint();
  const cg = spec.cgroups?.create();
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  const run = spec.server.run({
    kind: spec.launch.kind,
    args: spec.launch.args,
    env: spec.env,
    ...(spec.gate ? { gated: true } : {}),
    ...(cg ? { cgroupProcs: cg.procs } : {}),
    caps: { stdout: spec.stdoutCap, stderr: spec.stderrCap },
    onStdout: (c) => out.push(c),
    onStderr: (c) => err.push(c),
  });
  let timedOut = false;
  let unreleased = false;
  let pid: number | undefined;
  const killAll = () => {
    if (pid) {
      try {
        process.kill(-pid, "SIGKILL");
      } catch {
        // ESRCH: the group is already gone
      }
    }
    if (cg) spec.cgroups?.kill(cg.dir);
  };
  void run.pid.then(
    (p) => {
      pid = p;
      if (timedOut || unreleased) killAll();
    },
    () => undefined,
  );
  const timer = setTimeout(() => {
    timedOut = true;
    killAll();
  }, spec.timeoutS * 1000);
  spec.gate?.then(
    () => run.go(),
    () => {
      unreleased = true;
      killAll();
    },
  );
  try {
    const exit = await run.done;
    const durationMs = Number((process.hrtime.bigint() - started) / 1_000_000n);
    let exitCode = exit.signal !== undefined ? 128 + exit.signal : (exit.code ?? -1);
    if (timedOut) exitCode = 124;
    if (spec.launch.kind !== "plain" && !exit.status.startsWith("ok\n")) {
      const why =
        (unreleased ? "its caller did not release it (nothing ran)" : undefined) ??
        /^error: (.*)$/m.exec(exit.status)?.[1] ??
        (timedOut ? "timed out while setting up" : `exited ${exit.code ?? `on signal ${exit.signal}`} before it was set up`);
      return { ...NOT_RUN, timedOut, durationMs, setupError: why };
    }
    const [o, e] = [capped(out, spec.stdoutCap), capped(err, spec.stderrCap)];
    return {
      exitCode,
      stdout: o.bytes,
      stderr: e.bytes,
      truncated: o.cut || e.cut,
      timedOut,
      signal: exit.signal !== undefined ? signalName(exit.signal) : "",
      durationMs,
    };
  } finally {
    clearTimeout(timer);
    // Everything in it was killed; the empty cgroup is removed off the request path.
    if (cg) void spec.cgroups?.destroy(cg.dir);
  }
}
