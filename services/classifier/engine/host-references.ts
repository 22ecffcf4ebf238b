// What root's later code names on this host without the diff writing it: a
// script it runs or sources (a cron line's `/opt/foo/job.sh`, a unit's
// `ExecStart=/etc/foo/run`, profile.d's `. /etc/foo/x.sh`) or a unit's
// EnvironmentFile= outside the judged environment files. Review 47: such a
// file, committed earlier at tier 3 as "a system path" and then named from a
// judged place, ran as root unread. Its text is read here (host-target.ts)
// and judged as root's code; the trees packages own and the judged places
// are judged as such already, and a file not there yet when it is written.
import { posix } from "node:path";
import { hostTarget } from "./host-target.js";
import { type ContentJudge, environmentFileMarks, joined, type Mark, mark } from "./runs-later-content.js";
import { runsLater } from "./runs-later.js";
import { loaderSettings, unlistedMarks } from "./unlisted-content.js";
import { PACKAGED } from "./packaged.js";

// Where it was defined first; others import it from here.
export { PACKAGED };

/** How deep scripts that run scripts are followed. */
const DEPTH = 3;

/**
 * A script on the host that root's later code runs or sources, outside the packaged trees and every judged place:
 * its text judged as root's code by `judgeAt(depth + 1)`, a tier 4 there refused; a script too large to read, refused.
 * Binaries and names not there are left as they were (null).
 */
export function hostScript(path: string, depth: number, judgeAt: (depth: number) => ContentJudge): Mark | null {
  if (depth >= DEPTH || PACKAGED.test(path) || runsLater(path)) return null;
  const host = hostTarget(path);
  // Review 49: a script padded past the 64 KiB read here (and passed by the gateway) ran unjudged.
  if (host.kind === "large-text" && !PACKAGED.test(host.path) && !runsLater(host.path))
    return mark(4, `runs ${path}, a script on this host too large to judge here`);
  if (host.kind !== "text" || PACKAGED.test(host.path) || runsLater(host.path)) return null;
  const found = unlistedMarks(host.path, host.text, 0o755, judgeAt(depth + 1));
  const worst = found.find((m) => m.tier === 4);
  return worst ? mark(4, `runs ${path}, a script on this host no judge read as code: ${worst.text}`) : null;
}

/**
 * Services' environment files judged when written: /etc/default (useradd's holds account defaults, read as such),
 * RHEL's /etc/sysconfig, OpenRC's /etc/conf.d, and any `*.env` under /etc.
 */
export const DEFAULT_ENV_FILE = /^\/etc\/((default|sysconfig|conf\.d)\/(?!useradd$)[^/]+|.+\.env)$/;

/**
 * A unit's EnvironmentFile= outside the packaged trees and the judged environment files (`/etc/foo/env`, `/srv/app/env`):
 * what the host holds there, judged as an environment file. A place users write is refused by the unit's reader.
 */
export function hostEnvironmentFiles(unit: string): Mark[] {
  const out: Mark[] = [];
  for (const line of joined(unit)) {
    const file = /^\s*EnvironmentFile\s*=\s*-?(\S+)\s*$/.exec(line)?.[1];
    if (!file?.startsWith("/") || file.includes("%") || PACKAGED.test(file) || DEFAULT_ENV_FILE.test(posix.normalize(file))) continue;
    const host = hostTarget(file);
    if (host.kind === "missing") continue;
    if (host.kind !== "text") {
      out.push(mark(4, `EnvironmentFile=${file}: ${host.kind} on this host, not an environment file the judge can read`));
      continue;
    }
    const found = [...environmentFileMarks(host.text), ...loaderSettings(host.text)].filter((m) => m.tier === 4);
    out.push(...found.map((m) => mark(4, `EnvironmentFile=${file} on this host: ${m.text}`)));
  }
  return out;
}
