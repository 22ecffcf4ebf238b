// Whether a pid names a live process: signal 0 probes without signalling.
// EPERM means it exists but belongs to someone else — alive.
//
// A pid written to a lock file outlives its process: after a crash and a
// reboot (or in a new pid namespace) the same small pid names some other
// process, and a lock checked by pid alone is never stale again. So locks
// also record a stamp — the process's start time (clock ticks since boot,
// /proc/PID/stat) and the kernel's boot id — and a holder is alive only
// when a process with that pid runs now *and* started then, in this boot.
import { readFileSync } from "node:fs";

export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

function bootId(): string | undefined {
  try {
    return readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim() || undefined;
  } catch {
    return undefined;
  }
}

/**
 * The fields of /proc/PID/stat after the command name, from field 3 on
 * ([0] state, [1] ppid, [2] pgrp … [19] starttime), or undefined when the
 * process is gone. The name is cut at its last ")": it may hold spaces and
 * parentheses itself.
 */
export function statFields(pid: number | string): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  } catch {
    return undefined;
  }
}

/** A process's start time in clock ticks since boot (field 22 of /proc/PID/stat), or undefined. */
export function startTicks(pid: number): string | undefined {
  const ticks = statFields(pid)?.[19];
  return ticks && /^\d+$/.test(ticks) ? ticks : undefined;
}

/** The stamp of a process (default: this one): "START_TICKS BOOT_ID", or "" where /proc cannot say. */
export function processStamp(pid: number = process.pid): string {
  const ticks = startTicks(pid);
  const boot = bootId();
  return ticks && boot ? `${ticks} ${boot}` : "";
}

/**
 * Whether the process a lock names still holds it: `pid` is alive and, when
 * the lock carries a stamp (processStamp), it is the same process — started
 * at that tick in this boot. A lock without a stamp (older files) is judged
 * by the pid alone; one with the ticks alone, by pid and ticks.
 */
export function holderAlive(pid: number, stamp: string | undefined): boolean {
  if (!Number.isInteger(pid) || pid <= 0 || !processAlive(pid)) return false;
  const [ticks, boot] = (stamp ?? "").trim().split(/\s+/);
  if (!ticks) return true;
  // An older lock holds the start ticks alone (no boot id): they still tell a reused pid apart.
  const nowBoot = bootId();
  if (boot && nowBoot !== undefined && boot !== nowBoot) return false;
  const nowTicks = startTicks(pid);
  return nowTicks === undefined || nowTicks === ticks;
}
