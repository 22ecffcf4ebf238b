// The shape every unwrapper returns: what a wrapper or delegating command
// (sudo, env, timeout, xargs, find -exec, bash -c, ssh …) runs next, and the
// lowest tier the wrapper itself implies.
import type { TierNumber } from "../../shared/tier.js";
import type { Source } from "../verdict.js";
import type { StdinSource, Word } from "./types.js";

export interface Unwrap {
  rule: string;
  floor: TierNumber;
  reason: string;
  /** Argument vectors to judge next (the wrapped command). */
  inner: Word[][];
  /** Shell code to parse and judge (bash -c, eval, ssh host 'cmd', heredoc fed to sh). */
  code: string[];
  /** Code in another language, or code only known at run time: scanned by the vetoes. */
  opaque: string[];
  /** The policy the wrapped command answers to (sudo → SUDO.md). */
  policy?: Source;
  /** The wrapped command runs elsewhere (ssh, container): workspace paths do not apply. */
  remote?: boolean;
  /** The wrapped command runs in this directory (`env -C DIR`, `sudo -D DIR`); a dynamic one is not known. */
  chdir?: Word;
  /** Code that exists only at run time (piped into an interpreter, read from a descriptor): primary never guesses. */
  computed?: boolean;
  /** The texts of values handed to the code or command run next (its arguments, variables set for it): Context.carried. */
  carried?: string[];
}

/** What a delegating program runs from its arguments (tools/index.ts names one per program), or null. */
/** `cwd`: where the command runs, when known (a package manager runs a script of the package.json there or a program). */
export type Delegate = (name: string, args: Word[], stdin: StdinSource | null, cwd?: string) => Unwrap | null;

export function unwrap(rule: string, floor: TierNumber, reason: string, parts: Partial<Unwrap> = {}): Unwrap {
  return { rule, floor, reason, inner: [], code: [], opaque: [], ...parts };
}

/** Index of the first operand after options; `values` lists options that take a separate value. */
export function firstOperand(args: readonly Word[], values: ReadonlySet<string>, from = 0): number {
  let i = from;
  while (i < args.length) {
    const t = (args[i] as Word).text;
    if ((args[i] as Word).dynamic) return i;
    if (t === "--") return i + 1;
    if (!t.startsWith("-") || t === "-") return i;
    i += values.has(t) ? 2 : 1;
  }
  return i;
}

export const literalWord = (text: string): Word => ({ text, dynamic: false, glob: false, confusable: false });
export const dynamicWord = (text: string): Word => ({ text, dynamic: true, glob: false, confusable: false });

/**
 * The texts the values of `words` come from, for code they are handed to
 * (Context.carried): a computed word's text and origins, a literal's origins
 * (`'…$X'` after `export X=…`), xargs's input for its items.
 */
export function handedTexts(words: readonly Word[]): string[] {
  const out: string[] = [];
  for (const w of words) {
    if (w.stdinItem === true) out.push("$(xargs input)");
    else if (w.dynamic) out.push(w.text);
    if (w.origins) out.push(...w.origins);
  }
  return out;
}

export function joinWords(words: readonly Word[]): { text: string; dynamic: boolean } {
  // A glob's matches are file names, spliced into the code as written (`eval src/*`, `watch ls src/*`: round 30).
  return { text: words.map((w) => w.text).join(" "), dynamic: words.some((w) => w.dynamic || w.glob) };
}
