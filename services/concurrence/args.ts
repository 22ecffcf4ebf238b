// Argument shapes: flags (short clusters split, long options without their
// =value) and operands. Deliberately naive about which options take a
// value unless told: the judge errs towards seeing more operands, and every
// operand that is a path is judged as one.
import type { SimpleCommand, Word } from "./lex.js";
import type { Finding, JudgeContext } from "./types.js";

export interface Args {
  words: Word[];
  flags: Set<string>;
  operands: Word[];
  /** Values of options listed as taking one, by option. */
  values: Map<string, string[]>;
  has(...flags: string[]): boolean;
  /** The first operand's text (a subcommand, usually). */
  sub: string;
}

export type Handler = (a: Args, ctx: JudgeContext, cmd: SimpleCommand) => Finding;

export function parseArgs(words: Word[], valued: readonly string[] = []): Args {
  const flags = new Set<string>();
  const operands: Word[] = [];
  const values = new Map<string, string[]>();
  const take = (flag: string, value: string | undefined) => {
    if (value === undefined) return;
    values.set(flag, [...(values.get(flag) ?? []), value]);
  };
  let endOfOptions = false;
  for (let i = 0; i < words.length; i++) {
    const w = words[i] as Word;
    const t = w.text;
    if (endOfOptions || w.dynamic || !t.startsWith("-") || t === "-") {
      operands.push(w);
      continue;
    }
    if (t === "--") {
      endOfOptions = true;
      continue;
    }
    if (t.startsWith("--")) {
      const eq = t.indexOf("=");
      const name = eq < 0 ? t : t.slice(0, eq);
      flags.add(name);
      if (eq >= 0) take(name, t.slice(eq + 1));
      else if (valued.includes(name)) take(name, words[++i]?.text);
      continue;
    }
    // A short cluster: -rf → -r -f; a valued option ends the cluster (-n5, -n 5).
    for (let j = 1; j < t.length; j++) {
      const f = `-${t[j]}`;
      flags.add(f);
      if (valued.includes(f)) {
        take(f, j + 1 < t.length ? t.slice(j + 1) : words[++i]?.text);
        break;
      }
    }
  }
  return {
    words,
    flags,
    operands,
    values,
    has: (...f) => f.some((x) => flags.has(x)),
    sub: operands[0]?.text ?? "",
  };
}
