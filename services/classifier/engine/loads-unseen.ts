// Tools judged as reads that run code they are pointed at (round 21):
// `ldd FILE` runs the dynamic loader on FILE, which loads FILE's own audit
// libraries (DT_AUDIT) and runs them; pydoc imports modules from the cwd
// first (`pydoc3 json` in /tmp imports a planted /tmp/json.py).
import { posix } from "node:path";
import { realPath } from "./host-paths.js";
import { inWorkspace, resolvePlace, sharedScratchRoot } from "./paths.js";
import type { Context, SimpleCommand } from "./types.js";

/** Where the host's own binaries and libraries live: what ldd loads from there is the system's. */
const SYSTEM_BINARIES = /^\/(?:usr\/(?:local\/)?(?:s?bin|lib(?:32|64|exec)?)|s?bin|lib(?:32|64)?)\//;

/** Why `cmd` (judged 0–1) runs code the line does not show, or null. */
export function loadsUnseen(cmd: SimpleCommand, ctx: Context): string | null {
  const at = cmd.words.findIndex((w) => !w.dynamic && /^(ldd|pydoc3?(?:\.\d+)?)$/.test(posix.basename(w.text)));
  if (at < 0) return null;
  const name = posix.basename((cmd.words[at] as { text: string }).text);
  if (name !== "ldd")
    return sharedScratchRoot(ctx.cwd) ? `${name} imports modules from ${ctx.cwd} first, where anyone may have put one` : null;
  for (const w of cmd.words.slice(at + 1)) {
    if (!w.dynamic && w.text.startsWith("-")) continue;
    const p = resolvePlace(w, ctx);
    if (p.path === null) return `ldd ${w.text}: the loader runs the audit libraries of a file not known until run time`;
    // By where it leads too: a link in /usr/local/bin to /tmp/x is /tmp/x.
    const real = realPath(p.path) ?? p.path;
    if (!inWorkspace(real, ctx) && !SYSTEM_BINARIES.test(real))
      return `ldd ${w.text}: the loader runs the audit libraries this file names, and it is neither the workspace's nor the system's`;
  }
  return null;
}
