// Processes as /proc shows them, for tests that check what a server started
// or left behind.
import { readdirSync, readFileSync } from "node:fs";

/** The pids whose parent is `pid`: /proc's children list, or a scan of /proc without CONFIG_PROC_CHILDREN. */
export function childPids(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    const out: number[] = [];
    for (const d of readdirSync("/proc")) {
      if (!/^\d+$/.test(d)) continue;
      try {
        const stat = readFileSync(`/proc/${d}/stat`, "utf8");
        if (Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]) === pid) out.push(Number(d));
      } catch {
        // gone meanwhile
      }
    }
    return out;
  }
}
