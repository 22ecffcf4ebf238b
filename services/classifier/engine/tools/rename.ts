// Perl rename (rename, prename, file-rename, perl-rename): its expression is
// Perl code run per file unless it is a plain s/// or y/// substitution.
import type { Word } from "../types.js";
import { literalWord, unwrap } from "../unwrap.js";
import type { Delegate, Unwrap } from "../unwrap.js";

/** Perl rename: its first operand (and -e values) is a Perl expression run per file. */
function rename(name: string, args: Word[]): Unwrap | null {
  const exprs: Word[] = [];
  let i = 0;
  for (; i < args.length; i++) {
    const t = (args[i] as Word).text;
    if (t === "-e" || t === "-E") {
      if (args[i + 1]) exprs.push(args[++i] as Word);
      continue;
    }
    if (t === "--") {
      i++;
      break;
    }
    if (!t.startsWith("-")) break;
  }
  if (exprs.length === 0 && args[i]) exprs.push(args[i] as Word);
  // A plain s/// or y/// substitution only renames; anything else is Perl code.
  const plain = (w: Word) => {
    const m = /^\s*(?:s|y|tr)([^\w\s])/.exec(w.text);
    if (w.dynamic || !m) return false;
    const d = (m[1] as string).replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
    return (
      !/[`;{}]|\b(system|exec|qx|open|unlink|eval|require|do|readpipe)\b|[$@]\{/.test(w.text) &&
      !new RegExp(`${d}[a-z]*e[a-z]*\\s*$`).test(w.text)
    );
  };
  const code = exprs.filter((w) => !plain(w) && (!/^[\w.*?-]+$/.test(w.text) || w.dynamic));
  if (code.length === 0) return null;
  return unwrap(`delegate:${name}`, 2, `${name} runs a Perl expression per file`, {
    opaque: code.map((w) => w.text),
    inner: [[literalWord(name), ...args.filter((w) => !code.includes(w))]],
  });
}

export const renameDelegate: Delegate = (name, args) => rename(name, args);
