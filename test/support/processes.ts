// Processes as /proc shows them, for tests that check what a server started
// or left behind.
import { readdirSync, readFileSync } from "node:fs";
import { statFields } from "../../services/shared/process-alive.js";

/** The pids whose parent is `pid`: /proc's children list, or a scan of /proc without CONFIG_PROC_CHILDREN. */
export function childPids(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    const out: number[] = [];
    for (const d of readdirSync("/proc")) {
      if (!/^\d+$/.test(d)) continue;
      if (Number(statFields(d)?.[1]) === pid) out.push(Number(d));
    }
    return out;
  }
}
