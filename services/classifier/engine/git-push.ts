// A push the hook may allow (tier 1): a feature branch to a remote this
// repository has configured. The remote keeps history, and without force a
// push that would drop commits is refused by it, so the push adds without
// destroying. Not this: force (`-f`, `--force*`, `+ref`), deletes, mirrors,
// --all/--tags, refspecs with a colon (`x:main` pushes to main), pushes to
// the default branch (main, master … or what the remote's HEAD names here),
// a bare `git push` (its target is not on the command line), a URL or path
// as the remote, or a remote this repository does not have.
import { posix } from "node:path";
import { repoOf } from "./git-index.js";
import { readScript } from "./host-paths.js";
import type { Word } from "./types.js";

const DEFAULT_BRANCHES = new Set([
  "main",
  "master",
  "trunk",
  "develop",
  "development",
  "dev",
  "production",
  "prod",
  "release",
  "stable",
  "live",
  "gh-pages",
]);
const SAFE_FLAGS = new Set([
  "-u",
  "--set-upstream",
  "-q",
  "--quiet",
  "-v",
  "--verbose",
  "--no-verify",
  "--porcelain",
  "--progress",
  "--no-progress",
  "-n",
  "--dry-run",
]);
const BRANCH = /^(?!-)(?!.*\.\.)(?!.*\/\/)[A-Za-z0-9._/-]+$/;

/** Branch names the remote treats as its default, from this host's copy of refs/remotes/REMOTE/HEAD. */
function remoteHead(dir: string, remote: string): string | null {
  const head = readScript(posix.join(dir, "refs", "remotes", remote, "HEAD"));
  const m = head === null ? null : new RegExp(`^ref: refs/remotes/${remote.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}/(\\S+)`).exec(head);
  return m ? (m[1] as string) : null;
}

/** Whether `git push ARGS` (after `push`) is a feature-branch push to a configured remote of the repository at `cwd`. */
export function featureBranchPush(args: readonly Word[], cwd: string): boolean {
  if (!cwd || args.some((w) => w.dynamic || w.glob)) return false;
  const flags = args.filter((w) => w.text.startsWith("-"));
  const operands = args.filter((w) => !w.text.startsWith("-"));
  if (!flags.every((f) => SAFE_FLAGS.has(f.text)) || operands.length !== 2) return false;
  const [remote, branch] = operands.map((w) => w.text) as [string, string];
  if (!/^[A-Za-z0-9._-]+$/.test(remote) || !BRANCH.test(branch) || DEFAULT_BRANCHES.has(branch) || branch === "HEAD") return false;
  const dir = repoOf(cwd)?.gitDir ?? null;
  const config = dir === null ? null : readScript(posix.join(dir, "config"));
  if (dir === null || config === null || !config.includes(`[remote "${remote}"]`)) return false;
  return remoteHead(dir, remote) !== branch;
}
