// What `git add` puts into the repository's objects without naming it: `git
// add .`, `git add -A`, `git add src`, `git add 'c*'` stage every untracked
// file git does not ignore, so an unignored `.env` or key in the tree goes
// into the objects — and a push of a feature branch (tier 1 for the hook)
// sends it on. `git add .env` was already judged a secret read (effects.ts
// gitStoresSecret); this sees the secret a directory, a glob, pathspec
// magic or the whole tree brings along.
import { posix } from "node:path";
import { type Place, resolvePlace } from "./paths.js";
import { MAX_STAGED_WALK, stagedSecret } from "./reversible.js";
import { secretFile } from "./secret-files.js";
import type { Context, Word } from "./types.js";

/** git add's options that stage nothing new (a dry run, tracked files only, hunks chosen by hand). */
const NOTHING_NEW = /^(?:-n|--dry-run|-u|--update|-p|--patch|-i|--interactive|-e|--edit|--renormalize|--refresh)$/;
/** Options with no bearing on which files are staged. */
const PLAIN = /^(?:-v|--verbose|-N|--intent-to-add|--ignore-errors|--sparse|--chmod=.*|--ignore-missing|--no-all|--ignore-removal)$/;

/**
 * A pathspec glob as git matches it: against the path from the cwd, its `*`
 * and `?` crossing `/` (so `c*` takes `conf/.env`). An unquoted glob the
 * shell expands first matches no more than this.
 */
function pathspecGlob(pattern: string): RegExp {
  let out = "";
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i] as string;
    if (c === "*") out += ".*";
    else if (c === "?") out += ".";
    else if (c === "[" && pattern.indexOf("]", i + 2) > 0) {
      const end = pattern.indexOf("]", i + 2);
      out += `[${pattern
        .slice(i + 1, end)
        .replace(/^!/, "^")
        .replace(/\\/g, "\\\\")}]`;
      i = end;
    } else out += c.replace(/[.+^${}()|\\/]/g, "\\$&");
  }
  return new RegExp(`^${out}(?:/.*)?$`, "s");
}

/**
 * The first untracked secret `git add ARGS` (the words after `add`) would
 * stage, as a reason, or null. Pathspec magic (`:/`, `:(glob)…`, `:!x`), an
 * option not known here, a pathspec read from a file, or a computed pathspec:
 * judged as adding the whole work tree.
 */
export function gitAddStagesSecret(args: readonly Word[], ctx: Context): string | null {
  const cwd = ctx.cwd;
  if (!cwd) return null;
  let all = false;
  let whole = false;
  const how = { force: false, isSecret: secretFile, budget: { left: MAX_STAGED_WALK }, walked: new Set<string>() };
  const specs: Word[] = [];
  let operands = false;
  for (const w of args) {
    if (operands || w.dynamic || !w.text.startsWith("-")) {
      specs.push(w);
      continue;
    }
    if (w.text === "--") operands = true;
    else if (NOTHING_NEW.test(w.text)) return null;
    else if (w.text === "-f" || w.text === "--force") how.force = true;
    else if (w.text === "-A" || w.text === "--all" || w.text === "--no-ignore-removal") all = true;
    else if (/^-[AfvN]+$/.test(w.text)) {
      how.force ||= w.text.includes("f");
      all ||= w.text.includes("A");
    } else if (!PLAIN.test(w.text)) whole = true;
  }
  // `git add -A` with no pathspec, and anything not read here, stage the whole work tree (from its top).
  if (whole || specs.some((w) => w.dynamic || w.text.startsWith(":")) || (specs.length === 0 && all)) {
    return stagedSecret(cwd, how, true);
  }
  for (const w of specs) {
    const star = w.text.search(/[*?[]/);
    let found: string | null;
    if (star >= 0) {
      // The tree below the glob's fixed part, each file matched by its path from the cwd.
      const cut = w.text.lastIndexOf("/", star);
      const fixed: Place = resolvePlace({ ...w, text: cut < 0 ? "." : w.text.slice(0, cut) || "/", glob: false }, ctx);
      const glob = pathspecGlob(w.text.replace(/^\.\//, "").replace(/\/+$/, ""));
      found = stagedSecret(fixed.path ?? cwd, how, fixed.path === null, (abs) => glob.test(posix.relative(cwd, abs)));
    } else {
      const p: Place = resolvePlace(w, ctx);
      found = stagedSecret(p.path ?? cwd, how, p.path === null);
    }
    if (found !== null) return found;
  }
  return null;
}
