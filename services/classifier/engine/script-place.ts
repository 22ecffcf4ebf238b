// Whether a script the hook would run (`./x.sh`, `bash /tmp/t.sh`) is code
// the agent's own workspace holds. Judged by where it really is, not by how
// it is named: `./etc/profile.d/x.sh` with etc → /etc runs /etc's file. A
// scratch script (/tmp, /var/tmp, /dev/shm: anyone may write there) counts
// only when it is the workspace owner's own file, no one else may write it
// and any link to it is that owner's too — or when it is not there yet and
// either an earlier command of the same line writes it (that write is judged)
// or no one else may create it (its directory is the owner's or root's and
// not world-writable). In /tmp itself (sticky, world-writable) anyone may
// create the name between the judgement and the run (review 38).
import { posix } from "node:path";
import { danglingPath, lstat, realPath } from "./host-paths.js";
import { inWorkspace, type Place, scratch } from "./paths.js";
import type { Context } from "./types.js";

export function workspaceScript(p: Place, ctx: Context): boolean {
  if (p.path === null) return false;
  const real = realPath(p.path);
  // A script not there yet is judged where the links on its way lead (`./r/root/x.sh` with r → /).
  const far = real ?? danglingPath(p.path);
  const places = far !== null && far !== p.path ? [p.path, far] : [p.path];
  if (places.every((x) => inWorkspace(x, ctx))) return true;
  return places.every((x) => inWorkspace(x, ctx) || scratch(x)) && ownScratchFile(p.path, real, ctx);
}

function ownScratchFile(path: string, real: string | null, ctx: Context): boolean {
  const root = ctx.workspace.find((w) => inWorkspace(ctx.cwd, { ...ctx, workspace: [w] })) ?? ctx.workspace[0];
  const owner = root === undefined ? null : lstat(root);
  if (owner === null || owner === "unknown") return false;
  const st = lstat(path);
  // Not there yet: the same line makes it first, or only the owner (or root) can put it there first. A sticky
  // world-writable directory (/tmp) does not do: the sticky bit keeps others from replacing a file, not from creating one.
  if (st === null) return ctx.scratchMade?.has(path) === true || privateParent(posix.dirname(path), owner.uid);
  if (st === "unknown" || real === null) return false;
  const target = lstat(real);
  if (target === null || target === "unknown") return false;
  return [st, target].every((s) => s.uid === owner.uid && (s.isSymbolicLink() || (s.mode & 0o002n) === 0n));
}

/** The nearest existing directory above a path: the owner's or root's, and not world-writable (a `mktemp -d` directory). */
function privateParent(dir: string, uid: bigint): boolean {
  for (let d = dir; ; d = posix.dirname(d)) {
    const st = lstat(d);
    if (st === "unknown") return false;
    if (st !== null) return (st.uid === uid || st.uid === 0n) && (st.mode & 0o002n) === 0n;
    if (d === "/") return false;
  }
}
