// Per-command cgroups: a process that leaves the process group with setsid
// still dies with its command; run-as still applies inside the cgroup.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { EnvelopeServer } from "../shared/envelope/server.js";
import { envelopeWords, readOnlySpec } from "../shared/envelope/spec.js";
import { CommandCgroups } from "./cgroup.js";
import { runCommand, type RunSpec } from "./run.js";

const cgroups = process.getuid?.() === 0 ? CommandCgroups.detect() : undefined;
const server = EnvelopeServer.start(() => undefined);
const base = { server, timeoutS: 5, env: { PATH: "/usr/bin:/bin" }, stdoutCap: 1 << 20, stderrCap: 1 << 20 };
const sh = (command: string, over: Partial<RunSpec> = {}): RunSpec => ({
  ...base,
  launch: { kind: "plain", args: ["/bin/bash", "-c", command] },
  ...over,
});

/** Live processes running `sleep MARKER` (from /proc: procps is not in a base system; a zombie has no cmdline). */
function sleepers(marker: string): number[] {
  const out: number[] = [];
  for (const d of readdirSync("/proc")) {
    if (!/^\d+$/.test(d)) continue;
    try {
      if (readFileSync(`/proc/${d}/cmdline`, "utf8") === `sleep\0${marker}\0`) out.push(Number(d));
    } catch {
      // gone
    }
  }
  return out;
}
const alive = (marker: string) => sleepers(marker).length > 0;

describe.skipIf(!cgroups)("per-command cgroups", () => {
  afterAll(() => {
    server.close();
    cgroups?.close();
  });

  it("the probe sees a sleep that runs (control)", async () => {
    const marker = String(3000 + Math.floor(Math.random() * 1000));
    const child = spawn("sleep", [marker], { stdio: "ignore" });
    try {
      for (let i = 0; i < 50 && !alive(marker); i++) await new Promise((r) => setTimeout(r, 20));
      expect(sleepers(marker)).toEqual([child.pid]);
    } finally {
      child.kill("SIGKILL");
    }
  });

  it("kills a setsid'd child when the command's shell exits", async () => {
    const marker = String(4000 + Math.floor(Math.random() * 1000));
    const res = await runCommand(sh(`setsid -f sleep ${marker}; echo started`, { cgroups }));
    expect(res.exitCode).toBe(0);
    expect(res.stdout.toString()).toBe("started\n");
    await new Promise((r) => setTimeout(r, 100));
    expect(alive(marker)).toBe(false);
  });

  it("kills a setsid'd child when the timeout fires", async () => {
    const marker = String(5000 + Math.floor(Math.random() * 1000));
    const res = await runCommand(sh(`setsid -f sleep ${marker}; sleep 30`, { timeoutS: 1, cgroups }));
    expect(res.timedOut).toBe(true);
    await new Promise((r) => setTimeout(r, 100));
    expect(alive(marker)).toBe(false);
  });

  it("a later start removes the command cgroups of an executor that died, after killing what is left in them", async () => {
    const mount = readFileSync("/proc/self/mountinfo", "utf8")
      .split("\n")
      .find((l) => l.split(" - ")[1]?.startsWith("cgroup2 "))
      ?.split(" ")[4];
    const own = /^0::(.*)$/m.exec(readFileSync("/proc/self/cgroup", "utf8"))?.[1];
    // Named after a pid that has exited, as an executor killed with its commands running leaves it.
    const stale = join(mount ?? "", own ?? "", `agent-sudo-commands-${spawnSync("true").pid}`);
    mkdirSync(join(stale, "cmd-1"), { recursive: true });
    const marker = String(9000 + Math.floor(Math.random() * 1000));
    const left = spawn("sleep", [marker], { stdio: "ignore" });
    try {
      const reaped = new Promise((r) => left.once("exit", r));
      writeFileSync(join(stale, "cmd-1", "cgroup.procs"), String(left.pid));
      expect(CommandCgroups.detect()).toBeDefined();
      await Promise.race([reaped, new Promise((r) => setTimeout(r, 2000))]);
      expect(alive(marker)).toBe(false);
      // A cgroup still emptying right after the kill is left for the next start.
      for (let i = 0; i < 50 && existsSync(stale); i++) {
        await new Promise((r) => setTimeout(r, 20));
        CommandCgroups.detect();
      }
      expect(existsSync(stale)).toBe(false);
    } finally {
      left.kill("SIGKILL");
    }
  });

  it("the command is inside its own cgroup, not the executor's", async () => {
    const res = await runCommand(sh("cat /proc/self/cgroup", { cgroups }));
    expect(res.stdout.toString()).toMatch(/^0::\/.*agent-sudo-commands-\d+\/cmd-\d+$/m);
  });

  // Tier 0 runs without a cgroup (execute.ts): its pid namespace is what ends everything it starts.
  it("tier 0's envelope, no cgroup: a setsid'd, double-forked child dies with the command, and when the timeout fires", async () => {
    const tier0 = (command: string, timeoutS = 5): RunSpec => ({
      ...base,
      timeoutS,
      launch: {
        kind: "envelope",
        args: envelopeWords(readOnlySpec({ masks: [], cwd: "/", network: false }), ["/bin/bash", "-c", command]),
      },
    });
    // Control: the command itself sees its sleep running (in its own /proc) before it exits.
    const seen = (m: string) =>
      `for i in $(seq 100); do grep -qsa "^sleep.${m}" /proc/[0-9]*/cmdline && { echo seen; break; }; sleep 0.02; done`;
    const exited = String(7000 + Math.floor(Math.random() * 1000));
    const res = await runCommand(tier0(`(setsid -f sleep ${exited} &); ${seen(exited)}`));
    expect(res.stdout.toString(), res.setupError).toBe("seen\n");
    const timed = String(8000 + Math.floor(Math.random() * 1000));
    const slow = await runCommand(tier0(`(setsid -f sleep ${timed} &); ${seen(timed)}; sleep 30`, 1));
    expect(slow.timedOut).toBe(true);
    expect(slow.stdout.toString()).toBe("seen\n");
    await new Promise((r) => setTimeout(r, 100));
    expect(alive(exited)).toBe(false);
    expect(alive(timed)).toBe(false);
  });

  it("without cgroups, a setsid'd child holding the pipes does not hang the request", async () => {
    const marker = String(6000 + Math.floor(Math.random() * 1000));
    const t0 = Date.now();
    const res = await runCommand(sh(`setsid -f sleep ${marker}; echo done`));
    expect(Date.now() - t0).toBeLessThan(3000);
    expect(res.stdout.toString()).toBe("done\n");
    // The child may or may not have won the race to setsid before the group kill.
    for (const pid of sleepers(marker)) process.kill(pid, "SIGKILL");
  });
});
