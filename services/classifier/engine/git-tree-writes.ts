// Where git writes its work tree from objects (checkout, switch, restore,
// reset --hard, stash pop, merge, pull, worktree add, clone …): the objects
// may hold links (mode 120000) leading anywhere, so a later write of the same
// line under that tree may go through one (round 31; linked-before.ts).
import { posix } from "node:path";
import type { Word } from "./types.js";

/** Marks a directory whose work tree's top is meant (resolved where the command runs). */
export const TOP = "\u0000top:";

/** git's options that take a value before the subcommand. */
const GIT_VALUED = /^(?:-C|-c|--git-dir|--work-tree|--namespace|--exec-path|--config-env|--super-prefix)$/;

/**
 * Where a git command writes its work tree from objects, which may hold links (mode 120000) leading anywhere
 * (round 31: `git checkout evil && echo … >> c` with c a link to .git/config on that branch): the tree's top
 * ("." relative to `git -C DIR`'s DIR or the cwd), the new worktree's or clone's directory; null when it writes none.
 */
export function gitWritesTree(args: readonly Word[]): string | null {
  let i = 0;
  let base = ".";
  while (i < args.length && (args[i] as Word).text.startsWith("-")) {
    const t = (args[i] as Word).text;
    if (t === "-C" && args[i + 1]) base = posix.join(base, (args[i + 1] as Word).text);
    i += GIT_VALUED.test(t) ? 2 : 1;
  }
  const sub = args[i]?.text ?? "";
  const rest = args.slice(i + 1).map((w) => w.text);
  const has = (...o: string[]) => rest.some((t) => o.includes(t));
  const operands = (valued: RegExp) => rest.filter((t, k) => !t.startsWith("-") && !valued.test(rest[k - 1] ?? ""));
  // The whole work tree: its top, found from where the command runs (linksMadeBefore resolves TOP).
  const top = `${TOP}${base}`;
  switch (sub) {
    case "checkout":
      // `git checkout -b NAME` (no start point) keeps the tree as it is.
      if (has("-b", "-B", "--orphan") && operands(/^(?:-b|-B|--orphan)$/).length === 0) return null;
      return has("-h", "--help") ? null : top;
    case "switch":
      if (
        has("-c", "-C", "--create", "--force-create", "--orphan") &&
        operands(/^(?:-c|-C|--create|--force-create|--orphan)$/).length === 0
      )
        return null;
      return has("-h", "--help") ? null : top;
    case "restore":
      return has("--staged", "-S") && !has("--worktree", "-W") ? null : top;
    case "reset":
      return has("--hard", "--merge", "--keep") ? top : null;
    case "stash":
      return ["pop", "apply", "branch"].includes(rest[0] ?? "") ? top : null;
    case "merge":
    case "pull":
    case "rebase":
    case "cherry-pick":
    case "revert":
    case "checkout-index":
    case "read-tree":
    case "submodule":
      return has("--abort", "--quit", "-h", "--help") ? null : top;
    case "worktree": {
      if (rest[0] !== "add") return null;
      const ops = rest.slice(1).filter((t, k, a) => !t.startsWith("-") && !/^(?:-b|-B|--reason)$/.test(a[k - 1] ?? ""));
      return ops[0] !== undefined ? posix.join(base, ops[0]) : top;
    }
    case "clone": {
      const ops = operands(
        /^(?:-b|--branch|-o|--origin|-c|--config|--depth|--reference|--separate-git-dir|-u|--upload-pack|--template|-j|--jobs|--filter|--shallow-since|--shallow-exclude|--server-option)$/,
      );
      if (ops.length >= 2) return posix.join(base, ops[1] as string);
      const src = ops[0];
      return src === undefined ? null : posix.join(base, posix.basename(src.replace(/\/+$/, "")).replace(/\.git$/, "") || ".");
    }
    default:
      return null;
  }
}
