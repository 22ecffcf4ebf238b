// The order a line's commands take effect in, for passes that carry what an
// earlier command did to a later one (moved-before.ts; linked-before.ts walks its own way, following links into find -exec and xargs too): a
// command's substitutions run before it (the parser lists them after it:
// `x=$(mv a b) rm b`), and the code a shell, eval, wrapper or delegate runs
// is opened (round 30: `bash -c "mv untracked.txt zz.txt"; rm zz.txt`).
import { posix } from "node:path";
import type { SimpleCommand, Word } from "./types.js";

/** Wrappers that run the command after them (`env mv …`, `timeout 5 ln …`; round 29). */
const WRAPPERS = /^(env|command|builtin|nice|nohup|timeout|stdbuf|ionice|chrt|taskset|setsid|time|sudo|doas)$/;

/** The words from the program a wrapper runs: past wrappers, their options and operands (a duration, `-n` values, env's assignments). */
export function pastWrappers(all: readonly Word[]): readonly Word[] {
  let words = all;
  while (words[0] && !words[0].dynamic && WRAPPERS.test(posix.basename(words[0].text))) {
    let i = 1;
    while (words[i] && (/^-/.test(words[i]!.text) || /^\d+(\.\d+)?[smhd]?$/.test(words[i]!.text) || /^\w+=/.test(words[i]!.text))) i++;
    words = words.slice(i);
  }
  return words;
}

/**
 * What a command runs of its own: the simple commands of the code or argv it hands a shell, eval, a wrapper or a
 * delegate (`bash -c "mv a b"`, `eval "mv a b"`, `busybox mv a b`, `find -exec sh -c 'mv {} z' ;`), "opaque" when
 * that code is not known here, null when it runs none.
 */
export type Nested = (cmd: SimpleCommand) => readonly SimpleCommand[] | "opaque" | null;

export interface Walk {
  /** Follows the line's `cd`s, as index.ts does. */
  step: (cmd: SimpleCommand, cwds: string[]) => string[];
  nested: Nested;
  /** Code that may do what the pass looks for: only such a command's inner code is opened. */
  word: RegExp;
  /** What one command (at any depth) does, in the cwds it may run in. */
  visit: (cmd: SimpleCommand, cwds: readonly string[]) => void;
  /** Inner code that may do it and cannot be read here. */
  opaque: () => void;
  /** Called before each of the line's own commands, with what the earlier ones did already visited. */
  before: (cmd: SimpleCommand) => void;
}

/** Visits a line's commands in the order they take effect, from `cwd`. */
export function walkLine(commands: readonly SimpleCommand[], cwd: string, w: Walk): void {
  const visit = (cmd: SimpleCommand, cwds: readonly string[], depth: number): void => {
    w.visit(cmd, cwds);
    if (!w.word.test(cmd.source)) return;
    const inner = depth < 4 ? w.nested(cmd) : "opaque";
    if (inner === null) return;
    if (inner === "opaque") {
      w.opaque();
      return;
    }
    // The inner code's own cds hold inside it only.
    let here = [...cwds];
    for (const c of inner) {
      visit(c, here, depth + 1);
      here = w.step(c, here);
    }
  };
  let cwds = [cwd];
  for (let i = 0; i < commands.length; i++) {
    const cmd = commands[i] as SimpleCommand;
    for (let k = i + 1; k < commands.length && cmd.source.includes((commands[k] as SimpleCommand).source || "\u0000"); k++)
      visit(commands[k] as SimpleCommand, cwds, 0);
    w.before(cmd);
    visit(cmd, cwds, 0);
    cwds = w.step(cmd, cwds);
  }
}
