// Work git does not hold, moved by an earlier command of the same line: the
// later command's delete or overwrite is judged against the disk as it is
// now, where nothing is at the new name yet (round 28: `mv untracked.txt
// zz.txt && rm zz.txt` lost the file at tier 1). For each command, the
// places earlier `mv`s put such work.
import { posix } from "node:path";
import { inWorkspace, resolvePlace } from "./paths.js";
import { notHeldByGit } from "./reversible.js";
import { type Nested, pastWrappers, walkLine } from "./line-walk.js";
import type { Context, SimpleCommand, Word } from "./types.js";

/** mv's options that take a value (GNU and BSD): `-t DIR`, `-S SUFFIX`. */
const VALUED = /^(?:-[a-zA-Z]*[tS]|--target-directory|--suffix)$/;

/** mv's sources and its destination directory or name (`-t DIR` names the directory). */
function operands(args: readonly Word[]): { sources: Word[]; dest: Word | undefined; intoDir: boolean } {
  const words: Word[] = [];
  let target: Word | undefined;
  for (let i = 0; i < args.length; i++) {
    const w = args[i] as Word;
    const t = w.text;
    // `-t DIR`, `-tDIR`, and -t inside a bundle (`-ft.`, `-vt DIR`: round 29): the rest of the word, or the next word.
    const bundled = /^-[a-zA-Z]*?t(.*)$/s.exec(t);
    const long = /^--target-directory=(.+)$/s.exec(t);
    if (long) target = { ...w, text: long[1] as string };
    else if (t === "--target-directory") target = args[++i];
    else if (bundled && !t.startsWith("--")) target = bundled[1] ? { ...w, text: bundled[1] } : args[++i];
    else if (VALUED.test(t)) i++;
    else if (t === "--") words.push(...args.slice(i + 1));
    else if (!t.startsWith("-") || t === "-") words.push(w);
    if (t === "--") break;
  }
  if (target !== undefined) return { sources: words, dest: target, intoDir: true };
  return { sources: words.slice(0, -1), dest: words[words.length - 1], intoDir: words.length > 2 };
}

/**
 * The argument lists of the moves a command makes: `mv …` (behind wrappers), rsync's `--remove-source-files`, and
 * find's `-exec mv … {} … ;` with {} as find's roots.
 */
function moves(all: readonly Word[]): Word[][] {
  const words = pastWrappers(all);
  const [prog, ...args] = words;
  const name = prog && !prog.dynamic ? posix.basename(prog.text) : "";
  if (name === "mv") return [args];
  // rsync's --remove-source-files moves what it copies.
  if (name === "rsync" && args.some((w) => w.text === "--remove-source-files")) return [args.filter((w) => !w.text.startsWith("-"))];
  if (name !== "find") return [];
  const start = args.findIndex((w) => /^[-(!]/.test(w.text));
  const roots = start === 0 ? [] : args.slice(0, start < 0 ? args.length : start);
  const found = roots.length > 0 ? roots.map((r) => ({ ...r, glob: true })) : [{ ...(prog as Word), text: ".", glob: true }];
  const out: Word[][] = [];
  for (let i = 0; i < args.length; i++) {
    if (!/^-(?:exec|execdir|ok|okdir)$/.test((args[i] as Word).text)) continue;
    const end = args.findIndex((w, k) => k > i && (w.text === ";" || w.text === "+"));
    const argv = args.slice(i + 1, end < 0 ? args.length : end);
    if (argv[0] && !argv[0].dynamic && posix.basename(argv[0].text) === "mv")
      out.push(argv.slice(1).flatMap((w) => (w.text === "{}" ? found : [w])));
  }
  return out;
}

/** A mark in the set of moved places: a move whose places are not known here (reachesMoved takes it for any place). */
const ANYWHERE = "*";
/** A move a command may make that moves() does not see: in code it hands a shell, eval or busybox, not read here. */
const MOVE_WORD = /\bmv\b|--remove-source-files/;

/**
 * For each command of a line, the resolved places where the `mv`s before it
 * put work git does not hold (the destination, and its entry for each source).
 * `step` follows the line's `cd`s as index.ts does; `nested` opens the code a
 * command runs (round 30: `bash -c "mv untracked.txt zz.txt"; rm zz.txt` lost
 * the file at tier 1, as did `eval "mv …"` and `busybox mv …`).
 */
export function unheldMovesBefore(
  commands: readonly SimpleCommand[],
  ctx: Context,
  step: (cmd: SimpleCommand, cwds: string[]) => string[],
  nested: Nested = () => null,
): Map<SimpleCommand, ReadonlySet<string>> {
  const out = new Map<SimpleCommand, ReadonlySet<string>>();
  const seen = new Set<string>();
  walkLine(commands, ctx.cwd, {
    step,
    nested,
    word: MOVE_WORD,
    opaque: () => seen.add(ANYWHERE),
    before: (cmd) => out.set(cmd, new Set(seen)),
    visit: (cmd, cwds) => {
      for (const args of moves(cmd.words)) {
        const { sources, dest, intoDir } = operands(args);
        for (const cwd of cwds) {
          const c = { ...ctx, cwd };
          const to = dest === undefined || dest.dynamic ? null : resolvePlace(dest, c).path;
          if (to === null) continue;
          for (const src of sources) {
            const from = resolvePlace(src, c).path;
            if (from === null || !inWorkspace(from, c) || notHeldByGit(from, "tree") === null) continue;
            seen.add(to);
            // A glob's matches land under names not known here: anything under the destination (marked by its slash).
            if (src.glob) seen.add(`${to}/`);
            else if (intoDir || !to.endsWith(posix.basename(from))) seen.add(posix.join(to, posix.basename(from)));
          }
        }
      }
    },
  });
  return out;
}

/**
 * Whether a delete or overwrite of `path` reaches what an earlier `mv` of the line put somewhere (`moved`): the
 * place itself, or for a delete (`tree`) a directory holding it.
 */
export function reachesMoved(path: string, moved: ReadonlySet<string>, tree: boolean): boolean {
  for (const m of moved) {
    if (m === ANYWHERE) return true;
    if (m === path || (m.endsWith("/") && path.startsWith(m))) return true;
    if (tree && m.startsWith(`${path}/`)) return true;
  }
  return false;
}
