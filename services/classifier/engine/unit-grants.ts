// Unit settings that hand root away without running a command the judge reads (review 50): a mount laid over a
// place whose files root runs or trusts (`Where=/etc/sudoers.d` with another directory's rules), and the emergency and
// rescue units made to start something other than sulogin (`ExecStart=-/bin/sh` is a root shell on the console with
// no password asked). The concurrence refused both; the classifier read only where the mount came from.
import { posix } from "node:path";
import { criticalFile, secretPath } from "./paths.js";
import { type Mark, mark } from "./runs-later-content.js";
import { holdsRunsLater, runsLater } from "./runs-later.js";

/** The units whose shell is sulogin's (and their drop-ins). */
const CONSOLE_UNIT = /\/(?:emergency|rescue)\.service(?:\.d\/[^/]+\.conf)?$/;

/** The marks of one `key=value` line of the unit (or drop-in) at `path`. */
export function unitGrantMarks(path: string, key: string, value: string): Mark[] {
  if (key === "Where" && value.startsWith("/")) {
    const where = posix.normalize(value);
    if (runsLater(where) || runsLater(`${where}/x`) || holdsRunsLater(where) || criticalFile(where) || secretPath(where))
      return [mark(4, `Where=${value}: a mount over what root runs, trusts or keeps secret — its files would be the mount's`)];
  }
  if (CONSOLE_UNIT.test(path) && /^Exec/.test(key) && value !== "" && !/\bsulogin\b|systemd-sulogin-shell/.test(value))
    return [mark(4, `${key}=${value}: the emergency or rescue unit starts something other than sulogin — a root console with no password`)];
  return [];
}
