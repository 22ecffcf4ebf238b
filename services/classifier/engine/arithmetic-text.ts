// The text of an arithmetic expression (`$((…))`, `(( ))`, `let`, a
// subscript, `${s:off}`): the names it reads, the names it assigns, the
// command substitutions and positional parameters whose text bash then
// evaluates in turn; and which assigned values are surely numbers.
import type { SyntaxNode as Node } from "./syntax-tree.js";
import { wordFromNode } from "./normalise.js";

/** Command substitutions that print only a number. */
export const NUMERIC_SUBSTITUTION =
  /^"?\$\((?:\s*date \+%s(?:%N)?|\s*nproc|\s*id -[ug]|\s*wc -[lcmw] < [^)]*|[^()]*\|\s*wc -[lcmw]\s*|\s*grep -c [^()|]*|\s*seq(?:\s+-?\d+){1,3}\s*|\(.*\))\)"?$/s;

export const numericText = (t: string) => /^\s*[-+]?\s*(\d+|0[xX][0-9a-fA-F]+|\d+#[0-9A-Za-z@_]+)?\s*$/.test(t);

/** The names an arithmetic expression reads, the names it assigns at its top, and what else in it is evaluated. */
export function arithmeticNames(expr: string): {
  reads: { name: string; at: number }[];
  writes: { name: string; at: number; top: boolean }[];
  substitutions: string[];
  positional: string[];
} {
  const substitutions: string[] = [];
  // Command substitutions print text that is evaluated in turn; blank them out (keeping offsets) and keep their text.
  let text = "";
  for (let i = 0; i < expr.length; i++) {
    if (expr.startsWith("$(", i) && !expr.startsWith("$((", i)) {
      let depth = 0;
      let j = i + 1;
      for (; j < expr.length; j++) {
        if (expr[j] === "(") depth++;
        else if (expr[j] === ")" && --depth === 0) break;
      }
      substitutions.push(expr.slice(i, j + 1));
      text += " ".repeat(j + 1 - i);
      i = j;
    } else if (expr[i] === "`") {
      const end = expr.indexOf("`", i + 1);
      const j = end < 0 ? expr.length - 1 : end;
      substitutions.push(expr.slice(i, j + 1));
      text += " ".repeat(j + 1 - i);
      i = j;
    } else text += expr[i];
  }
  const positional = [...text.matchAll(/\$(?:\{(?:\d+|[@*])|\d|[@*])/g)].map((m) => m[0]);
  // Based constants (16#ff, 0x1f) and lengths (${#x}) are no names.
  text = text
    .replace(/\b\d+#[0-9A-Za-z@_]+|\b0[xX][0-9a-fA-F]+/g, (m) => " ".repeat(m.length))
    .replace(/\$\{#[A-Za-z_][A-Za-z0-9_]*/g, (m) => " ".repeat(m.length));
  const reads: { name: string; at: number }[] = [];
  const writes: { name: string; at: number; top: boolean }[] = [];
  for (const m of text.matchAll(/(?<![A-Za-z0-9_#.])[A-Za-z_][A-Za-z0-9_]*/g)) {
    const at = m.index ?? 0;
    const before = text.slice(0, at);
    // `NAME =` / `NAME[i] =` (not `==`, not `+=`) only writes; at the top of the expression (or after a comma there) it surely runs.
    if (/^(\[[^\]]*\])?\s*=(?!=)/.test(text.slice(at + m[0].length)))
      writes.push({ name: m[0], at, top: /(^|,)\s*$/.test(before) && !/[?(]/.test(before) });
    else reads.push({ name: m[0], at });
  }
  return { reads, writes, substitutions: substitutions.filter((s) => !NUMERIC_SUBSTITUTION.test(s)), positional };
}

/** A value that is surely a number (or empty): a literal, `$((…))`, `$#`, `${#x}`, a counting command. */
export function numericValue(v: Node): boolean {
  const t = v.type === "string" && v.namedChildren.length === 1 && v.namedChildren[0] ? v.namedChildren[0] : v;
  if (t.type === "number") return true;
  if (t.type === "arithmetic_expansion") return true;
  if (t.type === "command_substitution") return NUMERIC_SUBSTITUTION.test(t.text);
  if (t.type === "simple_expansion" || t.type === "expansion")
    return /^\$(\{#[^}]*\}|[#?$!]|\{?(RANDOM|SRANDOM|SECONDS|LINENO|BASHPID|PPID|EPOCHSECONDS)\}?)$/.test(t.text);
  const w = wordFromNode(v);
  return !w.dynamic && numericText(w.text);
}
