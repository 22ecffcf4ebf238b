// Work git does not hold, moved by an earlier command of the same line: the
// later command's delete or overwrite is judged against the disk as it is
// now, where nothing is at the new name yet (round 28: `mv untracked.txt
// zz.txt && rm zz.txt` lost the file at tier 1). For each command, the
// places earlier `mv`s put such work.
import { posix } from "node:path";
import { inWorkspace, resolvePlace } from "./paths.js";
import { notHeldByGit } from "./reversible.js";
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
    const glued = /^(?:--target-directory=|-t)(.+)$/s.exec(t);
    if (glued && !t.startsWith("--suffix")) target = { ...w, text: glued[1] as string };
    else if (t === "-t" || t === "--target-directory") target = args[++i];
    else if (VALUED.test(t)) i++;
    else if (t === "--") words.push(...args.slice(i + 1));
    else if (!t.startsWith("-") || t === "-") words.push(w);
    if (t === "--") break;
  }
  if (target !== undefined) return { sources: words, dest: target, intoDir: true };
  return { sources: words.slice(0, -1), dest: words[words.length - 1], intoDir: words.length > 2 };
}

/** The argument lists of the moves a command makes: `mv …`, and find's `-exec mv … {} … ;` with {} as find's roots. */
function moves(words: readonly Word[]): Word[][] {
  const [prog, ...args] = words;
  const name = prog && !prog.dynamic ? posix.basename(prog.text) : "";
  if (name === "mv") return [args];
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

/**
 * For each command of a line, the resolved places where the `mv`s before it
 * put work git does not hold (the destination, and its entry for each source).
 * `step` follows the line's `cd`s as index.ts does.
 */
export function unheldMovesBefore(
  commands: readonly SimpleCommand[],
  ctx: Context,
  step: (cmd: SimpleCommand, cwds: string[]) => string[],
): Map<SimpleCommand, ReadonlySet<string>> {
  const out = new Map<SimpleCommand, ReadonlySet<string>>();
  const seen = new Set<string>();
  let cwds = [ctx.cwd];
  for (const cmd of commands) {
    out.set(cmd, new Set(seen));
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
    cwds = step(cmd, cwds);
  }
  return out;
}

/**
 * Whether a delete or overwrite of `path` reaches what an earlier `mv` of the line put somewhere (`moved`): the
 * place itself, or for a delete (`tree`) a directory holding it.
 */
export function reachesMoved(path: string, moved: ReadonlySet<string>, tree: boolean): boolean {
  for (const m of moved) {
    if (m === path || (m.endsWith("/") && path.startsWith(m))) return true;
    if (tree && m.startsWith(`${path}/`)) return true;
  }
  return false;
}
