// Lock holders across pid reuse: a pid alone says nothing after a reboot or
// in a new pid namespace; the stamp (start tick + boot id) tells a later
// process with the same pid from the one that wrote the lock. Both locks
// that use it (the supervisor's state-dir lock, the gateway's spool lock)
// take over a lock whose pid is alive but names another process.
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lockStateDir, StateDirInUse } from "../../cli/state-lock.js";
import { acquireSpoolLock } from "../gateway/audit/spool-files.js";
import { holderAlive, processStamp } from "./process-alive.js";

const dir = mkdtempSync(join(tmpdir(), "agent-sudo-stamp-"));
let other: ChildProcess;
let otherPid = 0;
beforeAll(() => {
  other = spawn("sleep", ["600"], { stdio: "ignore" });
  otherPid = other.pid ?? 0;
});
afterAll(() => {
  other.kill("SIGKILL");
  rmSync(dir, { recursive: true, force: true });
});

/** The stamp of `pid` with its start tick moved: the same pid, another process. */
const laterProcess = (pid: number) => {
  const [ticks = "0", boot = ""] = processStamp(pid).split(" ");
  return `${Number(ticks) + 1} ${boot}`;
};
const otherBoot = (pid: number) => `${processStamp(pid).split(" ")[0]} 00000000-0000-4000-8000-000000000000`;

describe("process stamps", () => {
  it("names a process by start tick and boot id", () => {
    expect(processStamp()).toMatch(/^\d+ [0-9a-f-]{36}$/);
    expect(processStamp(otherPid)).not.toBe("");
  });

  it("a live holder with its own stamp is alive; the same pid with another start tick or boot is not", () => {
    expect(holderAlive(otherPid, processStamp(otherPid))).toBe(true);
    expect(holderAlive(otherPid, laterProcess(otherPid))).toBe(false);
    expect(holderAlive(otherPid, otherBoot(otherPid))).toBe(false);
  });

  it("a lock without a stamp (an older file) is judged by the pid; a dead or bad pid is never alive", () => {
    expect(holderAlive(otherPid, undefined)).toBe(true);
    expect(holderAlive(otherPid, "")).toBe(true);
    expect(holderAlive(4194000, undefined)).toBe(false);
    expect(holderAlive(0, processStamp())).toBe(false);
    expect(holderAlive(Number.NaN, undefined)).toBe(false);
  });

  it("a lock with the start tick alone (the executor's older format) still tells a reused pid apart", () => {
    const ticks = processStamp(otherPid).split(" ")[0];
    expect(holderAlive(otherPid, ticks)).toBe(true);
    expect(holderAlive(otherPid, `${Number(ticks) + 1}`)).toBe(false);
  });
});

describe("locks left by a process whose pid now names another", () => {
  it("the supervisor's state-dir lock is taken over; a live holder keeps it", () => {
    const home = join(dir, "home");
    const lock = join(home, "supervisor.lock");
    const held = lockStateDir(home);
    held.release();
    writeFileSync(lock, `${otherPid} 2026-01-01T00:00:00.000Z ${processStamp(otherPid)}\n`);
    expect(() => lockStateDir(home)).toThrow(StateDirInUse);
    writeFileSync(lock, `${otherPid} 2026-01-01T00:00:00.000Z ${laterProcess(otherPid)}\n`);
    const mine = lockStateDir(home);
    expect(readFileSync(lock, "utf8")).toBe(`${process.pid} ${readFileSync(lock, "utf8").split(" ")[1]} ${processStamp()}\n`);
    mine.release();
    expect(existsSync(lock)).toBe(false);
  });

  it("the gateway's spool lock is taken over; a live holder keeps it", async () => {
    const spool = mkdtempSync(join(dir, "spool-"));
    const lock = join(spool, "spool.lock");
    writeFileSync(lock, `${otherPid} ${processStamp(otherPid)}`);
    await expect(acquireSpoolLock(spool)).rejects.toThrow(`in use by pid ${otherPid}`);
    writeFileSync(lock, `${otherPid} ${otherBoot(otherPid)}`);
    const release = await acquireSpoolLock(spool);
    expect(readFileSync(lock, "utf8")).toBe(`${process.pid} ${processStamp()}\n`);
    await expect(acquireSpoolLock(spool)).rejects.toThrow("already open in this process");
    await release();
    expect(existsSync(lock)).toBe(false);
  });
});
