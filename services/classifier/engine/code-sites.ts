// Places where bash evaluates a variable's *value* as code: arithmetic
// (`$((x))`, `((x))`, `let`, `[[ x -eq 0 ]]`, subscripts, `${s:off}`)
// evaluates a value like `a[$(cmd)]` recursively and runs cmd; indirection
// (`${!x}`) does the same with the name in x; `${x@P}` expands x as a
// prompt, command substitutions included. A value written in the command
// is judged where it is written (judge.ts latentCode). A value computed at
// run time — from a command substitution, `read`, `mapfile`, another
// variable, a for-loop over globs or expansions — is not known: when such a
// variable reaches one of these places the command may run code it does
// not show, and is tier 2 at least.
import type { TierNumber } from "../../shared/tier.js";

export interface CodeSite {
  tier: TierNumber;
  rule: string;
  reason: string;
}

const NAME = "[A-Za-z_][A-Za-z0-9_]*";

/** The text bash expands: single-quoted spans (and comments) removed. */
function expandable(text: string): string {
  let out = "";
  let dq = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (c === "\\" && i + 1 < text.length) { out += c + text[++i]; continue; }
    if (c === '"') dq = !dq;
    if (c === "'" && !dq) {
      const end = text.indexOf("'", i + 1);
      out += "''";
      if (end < 0) break;
      i = end;
      continue;
    }
    out += c;
  }
  return out;
}

/** Values that can only be numbers: `$(date +%s)`, `$(nproc)`, `$(wc -l < F)`, `$((…))`. */
const NUMERIC = /^"?\$\((?:date \+%s(?:%N)?|nproc|wc -[lcmw] < [^)]*|\(.*\))\)"?$/;

/** The assignment value starting at `i`: up to unquoted blank or operator, `$(…)` and quotes kept whole. */
function valueAt(text: string, i: number): string {
  let depth = 0;
  let dq = false;
  let j = i;
  for (; j < text.length; j++) {
    const c = text[j] as string;
    if (c === "\\") { j++; continue; }
    if (c === '"') dq = !dq;
    else if (c === "(" ) depth++;
    else if (c === ")") { if (depth === 0) break; depth--; }
    else if (!dq && depth === 0 && /[\s;&|<>]/.test(c)) break;
  }
  return text.slice(i, j);
}

/** Variables this text assigns from something not written in it. */
function runtimeNames(text: string): Set<string> {
  const names = new Set<string>();
  const add = (list: string) => { for (const m of list.matchAll(new RegExp(`(?:^|\\s)(${NAME})(?=\\s|$)`, "g"))) names.add(m[1] as string); };
  // NAME=VALUE where the value holds an expansion or substitution (also after declare/local/export …).
  for (const m of text.matchAll(new RegExp(`(?:^|[\\s;&|(])(${NAME})(?:\\[[^\\]]*\\])?\\+?=`, "g"))) {
    const value = valueAt(text, (m.index ?? 0) + m[0].length);
    if (/[$`]/.test(value) && !NUMERIC.test(value)) names.add(m[1] as string);
  }
  for (const m of text.matchAll(/\bread\b([^;&|\n<>]*)/g)) add((m[1] ?? "").replace(/\s-[a-zA-Z]*[adinNptu]\s+\S+/g, " ").replace(/\s-\S+/g, " "));
  for (const m of text.matchAll(/\b(?:mapfile|readarray)\b([^;&|\n<>]*)/g)) add((m[1] ?? "").replace(/\s-[a-zA-Z]*[Ccdnosu]\s+\S+/g, " ").replace(/\s-\S+/g, " "));
  for (const m of text.matchAll(new RegExp(`\\bprintf\\s+-v\\s+(${NAME})`, "g"))) names.add(m[1] as string);
  for (const m of text.matchAll(new RegExp(`\\bgetopts\\s+\\S+\\s+(${NAME})`, "g"))) names.add(m[1] as string);
  // A for-loop over expansions or globs: a file can be named `a[$(cmd)]`.
  for (const m of text.matchAll(new RegExp(`\\bfor\\s+(${NAME})\\s+in\\s+([^;\\n]*)`, "g"))) {
    const list = m[2] ?? "";
    // `$(seq 1 10)` prints numbers only.
    if (/[$`*?[{]/.test(list) && !/^\s*\$\(seq(\s+-?[\d.]+){1,3}\)\s*$/.test(list)) names.add(m[1] as string);
  }
  return names;
}

/** Names referenced inside the arithmetic contexts of the text. */
function arithmeticNames(text: string): string[] {
  const exprs: string[] = [];
  for (const m of text.matchAll(/\$?\(\(([\s\S]*?)\)\)/g)) exprs.push(m[1] ?? "");
  for (const m of text.matchAll(/\blet\s+([^;&|\n]*)/g)) exprs.push(m[1] ?? "");
  for (const m of text.matchAll(/\[\[([^\]]*?\s-(?:eq|ne|lt|le|gt|ge)\s[^\]]*?)\]\]/g)) exprs.push(m[1] ?? "");
  for (const m of text.matchAll(new RegExp(`${NAME}\\[([^\\]]*)\\]`, "g"))) exprs.push(m[1] ?? "");
  for (const m of text.matchAll(new RegExp(`\\$\\{${NAME}:([^}]*)\\}`, "g"))) exprs.push((m[1] ?? "").replace(/^[-=?+]/, ""));
  for (const m of text.matchAll(/\b(?:declare|typeset|local)\s+-[a-zA-Z]*i[a-zA-Z]*\s+([^;&|\n]*)/g)) exprs.push(m[1] ?? "");
  return exprs.flatMap((e) => [...e.matchAll(new RegExp(`(?:^|[^A-Za-z0-9_])(${NAME})`, "g"))].map((m) => m[1] as string));
}

/** The code site a command's text reaches with a run-time value, or null. */
export function codeSite(command: string): CodeSite | null {
  // Both a value from run time and a place that evaluates it must be there.
  if (!/[$`]|\bread\b|\bmapfile\b|\breadarray\b|\bgetopts\b|\bfor\b/.test(command)) return null;
  if (!/\(\(|\blet\b|\[|\$\{|-eq|-ne|-lt|-le|-gt|-ge|declare|typeset|local/.test(command)) return null;
  const text = expandable(command);
  const runtime = runtimeNames(text);
  if (runtime.size === 0) return null;
  const indirect = [...text.matchAll(new RegExp(`\\$\\{!(${NAME})(\\[[^\\]]*\\])?\\}`, "g"))].map((m) => m[1] as string).find((n) => runtime.has(n));
  if (indirect) return { tier: 2, rule: "evaluated-code", reason: `\${!${indirect}} takes the name to expand from ${indirect}, whose value is computed at run time: bash evaluates a subscript in it, command substitutions included` };
  const prompt = [...text.matchAll(new RegExp(`\\$\\{(${NAME})(?:\\[[^\\]]*\\])?@P\\}`, "g"))].map((m) => m[1] as string).find((n) => runtime.has(n));
  if (prompt) return { tier: 2, rule: "evaluated-code", reason: `\${${prompt}@P} expands ${prompt}'s run-time value as a prompt, which runs the command substitutions in it` };
  const arith = arithmeticNames(text).find((n) => runtime.has(n));
  if (arith) return { tier: 2, rule: "evaluated-code", reason: `arithmetic over ${arith}, whose value is computed at run time: bash evaluates it as an expression, and a subscript in it runs its command substitutions` };
  return null;
}
