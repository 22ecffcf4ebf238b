// As root, every service but the executor drops to its own user and goes on
// reading from the checkout: code it imports later, the audit migrations
// (gateway), the policy files and their signatures (classifier,
// concurrence), PostgreSQL's binaries (its own user). A checkout those users
// cannot reach (a clone under /root, mode 0700 on Debian and Ubuntu) half
// works: commands run, but the audit never reaches the database and policy
// state is misreported. `agent-sudo start` refuses it, before touching
// anything, and says what to do.
import { statSync } from "node:fs";
import { dirname } from "node:path";

/**
 * The first reason an unprivileged user (not owner, not group) cannot use
 * `paths` — a directory needs r and x, a file r, every directory above x —
 * or undefined when it can.
 */
export function unreachableByOthers(paths: readonly string[]): string | undefined {
  for (const path of paths) {
    for (let d = dirname(path); ; d = dirname(d)) {
      const st = statSync(d);
      if ((st.mode & 0o001) === 0) return `${d} is mode ${(st.mode & 0o777).toString(8).padStart(4, "0")} (other users cannot enter it)`;
      if (d === dirname(d)) break;
    }
    const st = statSync(path);
    const need = st.isDirectory() ? 0o005 : 0o004;
    if ((st.mode & need) !== need)
      return `${path} is mode ${(st.mode & 0o777).toString(8).padStart(4, "0")} (other users cannot ${st.isDirectory() ? "list and enter" : "read"} it)`;
  }
  return undefined;
}
