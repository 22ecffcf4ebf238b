// A push the hook may allow (tier 1): a feature branch to a remote this
// repository has configured. The remote keeps history, and without force a
// push that would drop commits is refused by it, so the push adds without
// destroying. Not this: force (`-f`, `--force*`, `+ref`), deletes, mirrors,
// --all/--tags, refspecs with a colon (`x:main` pushes to main), pushes to
// the default branch (main, master … or what the remote's HEAD names here),
// a bare `git push` (its target is not on the command line), a URL or path
// as the remote, a remote this repository does not have, or a repository
// whose config gives a push URL or rewrites URLs.
import { posix } from "node:path";
import { gitConfigEntries } from "./git-config-entries.js";
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
  // A push URL, or a URL rewrite, sends the push somewhere `git remote -v`'s first line does not show (round 23).
  // A push refspec or mirror setting maps the branch somewhere else (`push = +refs/heads/feat:refs/heads/main`, round 24).
  if (
    gitConfigEntries(config).some(
      (e) => (e.section === "remote" && /^(?:pushurl|push|mirror)$/.test(e.name)) || /^(?:push)?insteadof$/.test(e.name),
    )
  )
    return false;
  return remoteHead(dir, remote) !== branch;
}

/** Forges where a push needs the pusher's own write access: a repository there is no open drop box. */
const FORGES =
  /^(?:github\.com|gitlab\.com|bitbucket\.org|codeberg\.org|git\.sr\.ht|gitea\.com|dev\.azure\.com|ssh\.dev\.azure\.com|[\w-]+\.visualstudio\.com|vs-ssh\.visualstudio\.com)$/i;

/** The host a git URL names (`https://h/…`, `ssh://u@h:22/…`, `u@h:path`), lower-cased; null for a local path or none. */
export function gitUrlHost(url: string): string | null {
  const m = /^[a-z][a-z0-9+.-]*:\/\/(?:[^/@]*@)?(\[[^\]]*\]|[^/:?#]*)/i.exec(url) ?? /^(?:[^/@:]*@)?([^/:]+):(?!\/\/)/.exec(url);
  return m ? (m[1] as string).toLowerCase() : null;
}

/**
 * Why `git remote add|set-url NAME URL` (args after `remote`) makes a remote a later tier-1 push would reach
 * another host, or null: the URL's host is a public forge (a push there needs the user's own write access) or
 * a host this repository's remotes already use. Round 23: `git remote set-url --add --push origin URL`, then
 * `git push origin feature-x`, delivered the repository to the agent's host.
 */
export function remoteElsewhere(rest: readonly Word[], cwd: string): string | null {
  const verb = rest.find((w) => !w.text.startsWith("-"));
  if (verb === undefined || !/^(?:add|set-url)$/.test(verb.text)) return null;
  // Operands after the verb, option values left out (`add -t main -m x NAME URL`: -t, -m and --track take one).
  const ops: Word[] = [];
  const after = rest.slice(rest.indexOf(verb) + 1);
  for (let i = 0; i < after.length; i++) {
    const t = (after[i] as Word).text;
    if (/^(?:-t|-m|--track|--master)$/.test(t)) i++;
    else if (!t.startsWith("-")) ops.push(after[i] as Word);
  }
  // `add NAME URL`, `set-url NAME NEWURL [OLDURL]`: the second operand is the URL.
  const url = ops[1];
  if (url === undefined) return null;
  const host = url.dynamic ? null : gitUrlHost(url.text);
  if (host !== null && FORGES.test(host)) return null;
  const dir = cwd ? (repoOf(cwd)?.gitDir ?? null) : null;
  const config = dir === null ? null : readScript(posix.join(dir, "config"));
  const known = new Set(
    gitConfigEntries(config ?? "")
      .filter((e) => e.section === "remote" && (e.name === "url" || e.name === "pushurl"))
      .map((e) => gitUrlHost(e.value))
      .filter((h): h is string => h !== null),
  );
  if (host !== null && known.has(host)) return null;
  return `git remote ${verb.text} points a remote at ${host ?? url.text}, a host no remote here uses: a later push (tier 1 to a configured remote) would send the repository there`;
}
