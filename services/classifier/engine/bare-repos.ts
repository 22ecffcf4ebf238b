// Bare repositories by their contents, not their name: git uses a directory
// holding HEAD, objects/ and refs/ as a repository (`git -C repo …`, `cd repo
// && git log`, found walking up from a directory under it), and runs what its
// `config` and `hooks/` say (core.fsmonitor, core.pager, a pre-commit hook)
// as `.git/config` and `.git/hooks/` are run. A `NAME.git` directory is known
// by its suffix (paths.ts); any other is known here by what this host holds
// now, or because the command being judged makes it (`git init --bare repo`,
// before or after it writes `repo/config`).
import { posix } from "node:path";
import { gitfileTarget } from "./git-index.js";
import { forgetWithCommand, lstat } from "./host-paths.js";

/** Directories the command being judged makes bare repositories of; "any" when one is not known until run time. */
let made = new Set<string>();
let madeUnknown = false;
/** Directories the command being judged clones into: git writes their config itself (a clone copies none). */
let cloned = new Set<string>();
forgetWithCommand(() => {
  if (made.size !== 0) made = new Set();
  if (cloned.size !== 0) cloned = new Set();
  madeUnknown = false;
});

/** Note a directory the command clones a repository into. */
export function noteClone(dir: string): void {
  cloned.add(dir);
}

/** Whether `dir`, or a directory above it below `root`, is one the command clones into. */
export function clonedByCommand(dir: string, root: string): boolean {
  if (cloned.size === 0) return false;
  for (let d = dir; d !== root && d.startsWith(`${root}/`); d = posix.dirname(d)) if (cloned.has(d)) return true;
  return false;
}

/** Note a bare repository the command makes (null: in a directory not known until run time). */
export function noteBareRepo(dir: string | null): void {
  if (dir === null) madeUnknown = true;
  else made.add(dir);
}

/** The files of a repository directory whose content git runs or obeys: config, hooks, the pointer to another's. */
const REPO_FILE = /\/(?:config|config\.worktree|commondir|info\/attributes)$/;

/**
 * Every directory `path` is a repository file of: the part before each
 * `/hooks` in it (`src/hooks/r/hooks/x` may be r's hook or a hook of src), and
 * the part before a trailing config, config.worktree, commondir or
 * info/attributes.
 */
function repoDirs(path: string): string[] {
  const out: string[] = [];
  for (let at = path.indexOf("/hooks"); at > 0; at = path.indexOf("/hooks", at + 1)) {
    const after = path[at + 6];
    if (after === undefined || after === "/") out.push(path.slice(0, at));
  }
  const m = REPO_FILE.exec(path);
  if (m !== null && m.index > 0) out.push(path.slice(0, m.index));
  return out;
}

/** A directory git takes for a repository: HEAD (a file, or an old-style link), objects/ and refs/. */
export function isRepository(dir: string): boolean {
  const head = lstat(`${dir}/HEAD`);
  if (head === null || head === "unknown" || head.isDirectory()) return false;
  const dirLike = (p: string) => {
    const st = lstat(p);
    return st !== null && st !== "unknown" && (st.isDirectory() || st.isSymbolicLink());
  };
  return dirLike(`${dir}/objects`) && dirLike(`${dir}/refs`);
}

/** Whether `path` (absolute, normalised) is a bare repository's config, hooks or common-dir pointer. */
export function bareRepoFile(path: string): boolean {
  // Most paths written are none of these: one search each before the candidates.
  if (!path.includes("/hooks") && !/(?:config|config\.worktree|commondir|attributes)$/.test(path)) return false;
  // `.git/config` and `NAME.git/config` are persistence files by name already.
  return repoDirs(path).some((dir) => !posix.basename(dir).endsWith(".git") && (madeUnknown || made.has(dir) || isRepository(dir)));
}

/**
 * The repository inside workspace root `root` other than its own that git
 * would use working in `dir` (a directory at or below `root`): walking up
 * from `dir`, the first directory below `root` that is a repository (bare)
 * or holds a `.git` (a checkout) — unless that `.git` is a file naming a
 * git dir inside the workspace's own `.git` (a submodule, a linked
 * worktree). Its config and attributes came with it: a repository copied
 * or assembled in the workspace (`cp -r /tmp/r sub`, config written before
 * HEAD) runs what they say on `git show`, `status`, `log -p`.
 */
export function nestedRepository(dir: string, root: string): string | null {
  for (let d = dir; d !== root && d.startsWith(`${root}/`); d = posix.dirname(d)) {
    if (isRepository(d)) return d;
    const dotgit = lstat(`${d}/.git`);
    if (dotgit === null) continue;
    if (dotgit === "unknown" || !dotgit.isFile()) return d;
    const gitDir = gitfileTarget(d);
    if (gitDir === null || !gitDir.startsWith(`${root}/.git/`)) return d;
  }
  return null;
}
