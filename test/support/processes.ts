// Processes as /proc shows them, for tests that check what a server started
// or left behind.
import { readdirSync, readFileSync } from "node:fs";
import { statFields } from "../../services/shared/process-alive.js";

/**
 * The pids whose parent is `pid`: every thread's children list (a child
 * forked by a thread other than the main one is listed under that thread
 * only), or a scan of /proc without CONFIG_PROC_CHILDREN (or when a thread
 * ended while they were read).
 */
export function childPids(pid: number): number[] {
  try {
    return readdirSync(`/proc/${pid}/task`).flatMap((tid) =>
      readFileSync(`/proc/${pid}/task/${tid}/children`, "utf8").trim().split(/\s+/).filter(Boolean).map(Number),
    );
  } catch {
    const out: number[] = [];
    for (const d of readdirSync("/proc")) {
      if (!/^\d+$/.test(d)) continue;
      if (Number(statFields(d)?.[1]) === pid) out.push(Number(d));
    }
    return out;
  }
}
