// What `git add` puts into the repository's objects without naming it: `git
// add .`, `git add -A`, `git add src` stage every untracked file git does not
// ignore, so an unignored `.env` or key in the tree goes into the objects —
// and a push of a feature branch (tier 1 for the hook) sends it on. `git add
// .env` was already judged a secret read (effects.ts gitStoresSecret); this
// sees the secret a directory, a glob or the whole tree brings along.
import picomatch from "picomatch";
import { type Place, resolvePlace } from "./paths.js";
import { stagedSecret } from "./reversible.js";
import { secretFile } from "./secret-files.js";
import type { Context, Word } from "./types.js";

/** git add's options that stage nothing new (a dry run, tracked files only, hunks chosen by hand, names only). */
const NOTHING_NEW = /^(?:-n|--dry-run|-u|--update|-p|--patch|-i|--interactive|-e|--edit|-N|--intent-to-add|--renormalize|--refresh)$/;
/** Options with no bearing on which files are staged. */
const PLAIN =
  /^(?:-v|--verbose|-A|--all|--no-ignore-removal|--ignore-errors|--sparse|--chmod=.*|--ignore-missing|--no-all|--ignore-removal)$/;

/**
 * The first untracked secret `git add ARGS` (the words after `add`) would
 * stage, as a reason, or null. An option not known here, a pathspec read
 * from a file, or a computed pathspec: judged as adding the whole tree from
 * the cwd.
 */
export function gitAddStagesSecret(args: readonly Word[], ctx: Context): string | null {
  if (!ctx.cwd) return null;
  let force = false;
  let all = false;
  let whole = false;
  const specs: Word[] = [];
  let operands = false;
  for (const w of args) {
    if (operands || w.dynamic || !w.text.startsWith("-")) {
      specs.push(w);
      continue;
    }
    if (w.text === "--") operands = true;
    else if (NOTHING_NEW.test(w.text)) return null;
    else if (w.text === "-f" || w.text === "--force") force = true;
    else if (/^-[Afv]+$/.test(w.text)) {
      force ||= w.text.includes("f");
      all ||= w.text.includes("A");
    } else if (w.text === "-A" || w.text === "--all" || w.text === "--no-ignore-removal") all = true;
    else if (!PLAIN.test(w.text)) whole = true;
  }
  // `git add -A` with no pathspec stages the whole work tree (from its top, wherever the cwd is).
  const places: Array<{ path: string; wanted?: (rel: string) => boolean }> = [];
  if (specs.length === 0 && (all || whole)) places.push({ path: ctx.cwd });
  for (const w of specs) {
    const star = w.text.search(/[*?[]/);
    if (star >= 0 && !w.dynamic) {
      // A pathspec glob: git matches it against each path below its fixed part (its `*` crosses `/`); here every
      // file there whose name matches the glob's last part (more than git would take, never less).
      const cut = w.text.lastIndexOf("/", star);
      const fixed: Place = resolvePlace({ ...w, text: cut < 0 ? "." : w.text.slice(0, cut) || "/", glob: false }, ctx);
      const name = picomatch(w.text.slice(w.text.lastIndexOf("/") + 1), { dot: true });
      places.push({ path: fixed.path ?? ctx.cwd, wanted: (rel) => name(rel.slice(rel.lastIndexOf("/") + 1)) });
      continue;
    }
    const p: Place = resolvePlace(w, ctx);
    places.push({ path: w.dynamic || p.path === null ? ctx.cwd : p.path });
  }
  if (whole && specs.length > 0) places.push({ path: ctx.cwd });
  for (const at of places) {
    const found = stagedSecret(at.path, force, secretFile, at.wanted);
    if (found !== null) return found;
  }
  return null;
}
