// Editors and pagers: vim's start-up commands (-c, +CMD, --cmd, -S), less's
// initial commands (+!cmd), man's pager and browser; and the files an editor writes.
import { splitArgs } from "../argv.js";
import { asTargets } from "../targets.js";
import type { Spec } from "../targets.js";
import type { Word } from "../types.js";
import { literalWord } from "../unwrap.js";
import type { Delegate, Unwrap } from "../unwrap.js";
import { pullOptions, Runs } from "./runs.js";

/** Editors' start-up commands (`vim -c CMD`, `+CMD`, `--cmd CMD`, `-S script`): `!cmd` runs shell code, others run editor script. */
function editor(name: string, args: Word[]): Unwrap | null {
  const runs = new Runs();
  const kept: Word[] = [literalWord(name)];
  for (let i = 0; i < args.length; i++) {
    const w = args[i] as Word;
    let cmd: Word | undefined;
    if (w.text === "-c" || w.text === "--cmd") cmd = args[++i];
    else if (/^\+./.test(w.text)) cmd = { ...w, text: w.text.slice(1) };
    else if (w.text === "-S" || w.text === "-u" || w.text === "-i") {
      runs.opaque.push(args[++i]?.text ?? "");
      runs.raise(2, `${name} sources a script file`);
      continue;
    } else {
      kept.push(w);
      continue;
    }
    if (!cmd) break;
    const t = cmd.text.replace(/^\s*:+\s*/, "");
    // `+10`, `+/pattern`, `+set ft=x` open a file somewhere or set an option.
    if (!cmd.dynamic && /^(\d+|\/.*|\?.*|set?\s+[\w=,.+-]*|setl(ocal)?\s+[\w=,.+-]*|\$|syntax\s+\w+|colo(rscheme)?\s+\w+)$/.test(t))
      continue;
    const shell = /^(?:(?:r(?:ead)?|w(?:rite)?|\d*,?\d*)\s*)?!(.*)$/s.exec(t);
    if (shell) runs.add({ ...cmd, text: shell[1] ?? "" }, 2, `${name} runs a shell command on start-up`);
    else {
      runs.opaque.push(cmd.text);
      runs.raise(2, `${name} runs editor commands on start-up`);
    }
  }
  return runs.result(`delegate:${name}`, [kept]);
}

/** `less '+!cmd'`, `less '+|mcmd'`: less's initial commands run shell code. */
function less(name: string, args: Word[]): Unwrap | null {
  const runs = new Runs();
  const kept: Word[] = [literalWord(name)];
  for (const w of args) {
    const m = /^\+\+?(.*)$/s.exec(w.text);
    if (!m || (!/[!|#]/.test(m[1] ?? "") && !w.dynamic)) {
      kept.push(w);
      continue;
    }
    const shell = /!(.*)$/s.exec(m[1] ?? "")?.[1];
    if (shell !== undefined) runs.add({ ...w, text: shell }, 2, `${name} runs a shell command`);
    else {
      runs.opaque.push(w.text);
      runs.raise(2, `${name} pipes text into a command`);
    }
  }
  return runs.result(`delegate:${name}`, [kept]);
}

/** man's pager and browser: `-P CMD`/`--pager`, `-H[CMD]`/`--html[=CMD]` run CMD through a shell. */
function man(args: Word[]): Unwrap | null {
  const runs = new Runs();
  const pager = pullOptions(args, { longs: ["--pager"], shorts: "P" });
  const html = pullOptions(pager.rest, { longs: ["--html"], shorts: "H", optional: true });
  for (const v of [...pager.values, ...html.values]) runs.add(v, 2, "man runs a pager or browser command");
  return runs.result("delegate:man", [[literalWord("man"), ...html.rest]]);
}

export const editorDelegate: Delegate = (name, args) => editor(name, args);

export const pagerDelegate: Delegate = (name, args) => less(name, args);

export const manDelegate: Delegate = (_name, args) => man(args);

export const vimTargets: Spec = (a) => asTargets(splitArgs(a, new Set(["-c", "-S", "-u", "-i"])).positional, "write");

/** vi and nvim. */
export const viTargets: Spec = (a) => asTargets(splitArgs(a, new Set(["-c", "-S", "-u"])).positional, "write");

/** nano, emacs, micro, code: every operand. */
export const editorTargets: Spec = (a) => asTargets(splitArgs(a).positional, "write");
