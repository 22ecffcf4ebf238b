// Files a repository's own config makes git run or obey, wherever they are:
// `core.hooksPath = .githooks` makes `.githooks/pre-commit` a hook,
// `include.path = ../tools/git.cfg` makes that file config (core.fsmonitor,
// diff textconv), `core.attributesFile` picks diff and filter drivers. Such a
// file in the workspace is no everyday file: writing it plants what the next
// `git status` or `git commit` runs (round 20; the names git uses by default
// are persistence files in paths.ts).
import { posix } from "node:path";
import { gitConfigEntries } from "./git-config-entries.js";
import { commonDir, repoOf } from "./git-index.js";
import { readScript } from "./host-paths.js";

/** Keys whose value names a file or directory git runs or reads as config, by section. */
const STEERING: Readonly<Record<string, string>> = {
  "core.hookspath": "hooks",
  "core.attributesfile": "attributes",
  "include.path": "config",
  "includeif.path": "config",
};

interface Steered {
  path: string;
  what: string;
}

/** Where a value points: `~/` in `home`, relative to `base`. */
function place(value: string, base: string, home: string | null): string | null {
  if (value === "") return null;
  if (value.startsWith("~/")) return home ? posix.join(home, value.slice(2)) : null;
  return posix.resolve(base, value);
}

/**
 * The hooks directory, included config or attributes file the repository
 * holding `path` points at that `path` is (or lies under), or null.
 */
export function gitSteered(path: string, home: string | null): Steered | null {
  const repo = repoOf(posix.dirname(path));
  if (repo === null) return null;
  const gitDir = commonDir(repo.gitDir);
  const config = readScript(posix.join(gitDir, "config"));
  if (config === null || !/hookspath|include|attributesfile/i.test(config)) return null;
  for (const e of gitConfigEntries(config)) {
    const what = STEERING[`${e.section}.${e.name}`];
    if (what === undefined) continue;
    // Included files are relative to the config file; hooksPath and attributesFile to the working tree.
    const target = place(e.value, what === "config" ? gitDir : repo.worktree, home);
    if (target === null) continue;
    if (path === target || (what === "hooks" && path.startsWith(`${target}/`))) return { path: target, what };
  }
  return null;
}
