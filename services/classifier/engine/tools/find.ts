// find and fd: the commands they run per match (find -exec/-ok, fd -x/-X),
// and what find writes or deletes itself (-delete, -fprint, -fls).
import { cwdWord } from "../targets.js";
import type { Mode, Target } from "../targets.js";
import type { Word } from "../types.js";
import { literalWord, unwrap } from "../unwrap.js";
import type { Delegate, Unwrap } from "../unwrap.js";

/**
 * find's starting points: the words after its leading options (`-H`, `-L`,
 * `-P`, `-D DEBUGOPTS`, `-O LEVEL`) and before the first test or action
 * ([] when it names none: it starts at `.`). `find -L / -delete` starts at `/`.
 */
export function findStarts(args: readonly Word[]): Word[] {
  let i = 0;
  while (i < args.length && !args[i]?.dynamic && /^-([HLP]+|D|O\d*)$/.test(args[i]?.text ?? "")) i += args[i]?.text === "-D" ? 2 : 1;
  const starts: Word[] = [];
  for (const w of args.slice(i)) {
    if (/^[-!(]/.test(w.text)) break;
    starts.push(w);
  }
  return starts;
}

/** find follows symbolic links (`-L`, alone or among -H/-P, or `-follow`): what it finds may be anywhere a link points. */
export function findFollowsLinks(args: readonly Word[]): boolean {
  return args.some((w) => /^-[HPL]*L[HPL]*$|^-follow$/.test(w.text));
}

function find(args: Word[]): Unwrap | null {
  const roots = findStarts(args);
  const starts = roots.length ? roots : [literalWord(".")];
  const inner: Word[][] = [];
  for (let i = 0; i < args.length; i++) {
    const action = (args[i] as Word).text;
    if (!/^-(exec|execdir|ok|okdir)$/.test(action)) continue;
    let j = i + 1;
    const cmd: Word[] = [];
    while (j < args.length && !/^[;+]$/.test((args[j] as Word).text)) cmd.push(args[j++] as Word);
    // -execdir runs the command in the directory of each match (somewhere under a root), with {} as `./NAME`:
    // judged as `env -C ROOT CMD ./{}` (git there reads that directory's repository).
    const inDir = action.endsWith("dir");
    for (const root of starts) {
      const base = inDir ? "." : root.text.replace(/\/+$/, "");
      const argv = cmd.map((w) => (w.text.includes("{}") ? { ...w, text: w.text.replaceAll("{}", `${base}/{}`), glob: true } : w));
      inner.push(inDir ? [literalWord("env"), literalWord("-C"), root, literalWord("--"), ...argv] : argv);
    }
    i = j;
  }
  return inner.length ? unwrap("delegate:find-exec", 0, "find runs a command per match", { inner }) : null;
}

const FD_VALUES = new Set([
  "-e",
  "--extension",
  "-t",
  "--type",
  "-E",
  "--exclude",
  "-d",
  "--max-depth",
  "--min-depth",
  "--exact-depth",
  "-S",
  "--size",
  "--changed-within",
  "--changed-before",
  "-o",
  "--owner",
  "-j",
  "--threads",
  "--max-results",
  "--base-directory",
  "--path-separator",
  "--search-path",
  "-c",
  "--color",
  "--ignore-file",
  "--format",
  "--batch-size",
]);

/** `fd -x CMD …` / `-X` / `--exec` / `--exec-batch`: fd runs CMD per match (up to a `;`), with `{}` the match. */
function fd(args: Word[]): Unwrap | null {
  const inner: Word[][] = [];
  const kept: Word[] = [literalWord("fd")];
  for (let i = 0; i < args.length; i++) {
    const w = args[i] as Word;
    if (FD_VALUES.has(w.text)) {
      kept.push(w, ...args.slice(i + 1, i + 2));
      i++;
      continue;
    }
    if (!/^(-x|-X|--exec|--exec-batch)$/.test(w.text)) {
      kept.push(w);
      continue;
    }
    const cmd: Word[] = [];
    let j = i + 1;
    while (j < args.length && (args[j] as Word).text !== ";") cmd.push(args[j++] as Word);
    const hasSlot = cmd.some((c) => /\{[/.]*\}|\{\/\.\}/.test(c.text) || c.text.includes("{}"));
    // Each match is a path under the search root (the operand after the pattern, else the cwd), like find's `{}`.
    const root = (
      args.filter((a, k) => k < i && !a.text.startsWith("-") && !FD_VALUES.has(args[k - 1]?.text ?? ""))[1]?.text ?? "."
    ).replace(/\/+$/, "");
    const match: Word = { ...literalWord(`${root}/{}`), glob: true };
    const argv = cmd.map((c) =>
      /\{[^}\s]*\}/.test(c.text) ? { ...c, text: c.text.replace(/\{[^}\s]*\}/g, `${root}/{}`), glob: true } : c,
    );
    if (argv.length) inner.push(hasSlot ? argv : [...argv, match]);
    i = j;
  }
  if (inner.length === 0) return null;
  return unwrap("delegate:fd-exec", 2, "fd runs a command per match", { inner: [...inner, kept] });
}

export function findTargets(args: readonly Word[]): Target[] {
  const out: Target[] = [];
  const roots = findStarts(args);
  for (let i = 0; i < args.length; i++) {
    const w = args[i] as Word;
    if (/^-fprint[f0]?$|^-fls$/.test(w.text) && args[i + 1]) out.push({ word: args[i + 1] as Word, mode: "write" });
  }
  if (args.some((w) => w.text === "-delete")) {
    // find evaluates left to right: only a test before the first -delete filters it, and
    // a match-everything test (`-name '*'`, `-regex '.*'`) filters nothing.
    const del = args.findIndex((w) => w.text === "-delete");
    const filtered = args
      .slice(0, del)
      .some(
        (w, k, a) =>
          /^-(i?name|i?path|type|mtime|mmin|atime|amin|ctime|cmin|newer|size|empty|user|group|perm|regex|iregex|wholename|iwholename|links|inum|samefile)$/.test(
            w.text,
          ) && !/^(\*|\.\*|\.?\/?\*\*?)$/.test(a[k + 1]?.text ?? ""),
      );
    // -H and -L (or -follow) follow a starting point that is a link (`find -H link -delete` with link → ..):
    // judged as `link/` is, where the link leads.
    const lead = roots[0] ? args.slice(0, args.indexOf(roots[0])) : args;
    const follows = findFollowsLinks(args) || lead.some((w) => /^-[HPL]*H[HPL]*$/.test(w.text));
    const starts = (roots.length ? roots : [cwdWord()]).map((r) =>
      follows && !r.text.endsWith("/") && r.text !== "." ? { ...r, text: `${r.text}/` } : r,
    );
    // -L / -follow: every link below a start is followed, and what it leads to deleted too (round 25).
    const below = findFollowsLinks(args) ? { followsLinks: true } : {};
    if (filtered)
      out.push(
        ...starts.map((r) => ({ word: { ...r, text: `${r.text.replace(/\/+$/, "")}/{}`, glob: true }, mode: "delete" as Mode, ...below })),
      );
    else out.push(...starts.map((r) => ({ word: r, mode: "tree" as Mode, ...below })));
  }
  return out;
}

export const findDelegate: Delegate = (_name, args) => find(args);

export const fdDelegate: Delegate = (_name, args) => fd(args);
