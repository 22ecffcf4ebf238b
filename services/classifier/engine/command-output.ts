// What a word carries of a command's output: the bodies of its `$(…)` and
// backquotes (and those of the variables it was assigned from), and whether
// that output may reveal a file (generators' output does not). Shared by the
// network analyses (what is sent) and the option check (what may split into
// an option).
import type { Word } from "./types.js";

/**
 * The commands whose output is put into `text` (`$(…)`, `` `…` ``, each
 * nested one too; `$((…))` is arithmetic), or null when one cannot be read.
 */
function substitutionBodies(text: string): string[] | null {
  const out: string[] = [];
  for (let i = text.indexOf("`"); i >= 0; ) {
    const end = text.indexOf("`", i + 1);
    if (end < 0) return null;
    out.push(text.slice(i + 1, end));
    i = text.indexOf("`", end + 1);
  }
  for (let i = text.indexOf("$("); i >= 0; i = text.indexOf("$(", i + 2)) {
    if (text[i + 2] === "(") continue;
    let depth = 0;
    let quote = "";
    let j = i + 1;
    for (; j < text.length; j++) {
      const c = text[j];
      if (quote !== "") {
        if (c === quote) quote = "";
      } else if (c === "'" || c === '"') quote = c;
      else if (c === "(") depth++;
      else if (c === ")" && --depth === 0) break;
    }
    if (j >= text.length) return null;
    out.push(text.slice(i + 2, j));
  }
  return out;
}

/** Programs whose output depends on their arguments only (no file, no input): a request may carry it. */
const GENERATORS = new Set(["date", "seq", "uuidgen", "echo", "printf", "expr", "basename", "dirname", "true", "false"]);

/**
 * A substitution whose output reveals no file: a generator (GENERATORS,
 * `git rev-parse|describe|symbolic-ref`, `date` without -f) piped into `tr`
 * at most. Anything else — a reader, a redirection, a filter of the
 * command's own input (`$(tr -d x)`, `$(cat)`) — may carry a file's content.
 */
function generatedOnly(body: string): boolean {
  if (/[<>]/.test(body)) return false;
  return body.split(/\|\|?|&&?|;|\n/).every((stage, i) => {
    const words = stage.trim().split(/\s+/);
    const program = words[0] ?? "";
    if (program === "") return true;
    if (i > 0 && program === "tr") return true;
    if (program === "git")
      return /^(rev-parse|describe|symbolic-ref)$/.test(words[1] ?? "") || (words[1] === "branch" && words[2] === "--show-current");
    if (program === "date") return !words.some((w) => /^(-[a-zA-Z]*f|--file)/.test(w));
    return GENERATORS.has(program);
  });
}

/**
 * The command whose output `w` puts into what is sent (`$(cat a.txt)`, a
 * backquoted reader; the whole text when a substitution cannot be read), or
 * null when it holds none or only generators' output (generatedOnly).
 */
export function commandOutput(w: Word): string | null {
  if (!w.dynamic) return null;
  for (const text of carried(w)) {
    if (!(text.includes("$(") || text.includes("`"))) continue;
    const subs = substitutionBodies(text);
    if (subs === null) return text;
    const body = subs.find((b) => !generatedOnly(b));
    if (body !== undefined) return `$(${body})`;
  }
  return null;
}

/** A word's text and what its variables were assigned from (`X=$(cat f); … $X` carries `$(cat f)`). */
export function carried(w: Word): readonly string[] {
  return w.origins ? [w.text, ...w.origins] : [w.text];
}
