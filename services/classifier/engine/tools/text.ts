// Text tools with an option that runs a program: rg --pre, sort
// --compress-program, split --filter; and the files sort and split write.
import { splitArgs } from "../argv.js";
import { asTargets, optionValueSpec } from "../targets.js";
import type { Spec } from "../targets.js";
import type { Word } from "../types.js";
import { dynamicWord, literalWord } from "../unwrap.js";
import type { Delegate, Unwrap } from "../unwrap.js";
import { pullOptions, Runs } from "./runs.js";

/** `rg --pre CMD`: ripgrep runs CMD on every file it searches (the path appended). */
function rg(args: Word[]): Unwrap | null {
  const { values, rest } = pullOptions(args, { longs: ["--pre"], not: ["--pre-glob"] });
  if (values.length === 0) return null;
  const runs = new Runs();
  for (const v of values) {
    if (v.text === "") continue;
    runs.inner.push([v, dynamicWord("$FILE")]);
    runs.raise(2, "ripgrep runs a preprocessor command on every file");
  }
  return runs.result("delegate:rg", [[literalWord("rg"), ...rest]]);
}

/** `sort --compress-program=PROG`: sort runs PROG (and `PROG -d`) to compress its temporary files. */
function sortCompress(args: Word[]): Unwrap | null {
  const { values, rest } = pullOptions(args, { longs: ["--compress-program"] });
  if (values.length === 0) return null;
  const runs = new Runs();
  for (const v of values) {
    if (v.text === "") continue;
    runs.inner.push([v], [v, literalWord("-d")]);
    runs.raise(2, "sort runs a compression program on its temporary files");
  }
  return runs.result("delegate:sort", [[literalWord("sort"), ...rest]]);
}

/** `split --filter=CMD`: each piece is written through CMD (a shell command, $FILE set). */
function split(args: Word[]): Unwrap | null {
  const { values, rest } = pullOptions(args, { longs: ["--filter"] });
  if (values.length === 0) return null;
  const runs = new Runs();
  for (const v of values) runs.add(v, 2, "split pipes each piece through a shell command");
  return runs.result("delegate:split", [[literalWord("split"), ...rest]]);
}

export const rgDelegate: Delegate = (_name, args) => rg(args);

export const sortDelegate: Delegate = (_name, args) => sortCompress(args);

export const splitDelegate: Delegate = (_name, args) => split(args);

export const sortTargets: Spec = optionValueSpec(["-o", "--output"], false);

// split writes PREFIXaa, PREFIXab … next to the prefix (the operand after the input).
export const splitTargets: Spec = (a) =>
  asTargets(splitArgs(a, new Set(["-b", "-l", "-n", "-C", "-a", "--additional-suffix", "--filter", "-t"])).positional.slice(1, 2), "write");
