// Builtins that evaluate some of their arguments. bash expands the array
// subscript of a variable NAME as arithmetic, and arithmetic runs the
// command substitutions in it — also when the name was quoted, so the
// parser saw a plain string: `test -v 'a[$(rm -rf ~)]'`, `printf -v
// 'a[$(…)]' x`, `read 'a[$(…)]'`, `unset 'a[$(…)]'`, `declare 'a[$(…)]=1'`,
// `[[ 'a[$(…)]' -eq 0 ]]`, `let 'a[$(…)]=1'`. `mapfile -C CALLBACK` runs its
// callback. And builtins that assign a variable by name (printf -v, read,
// mapfile, declare, getopts …) set PATH, IFS, BASH_ENV … for the commands
// after them, as `PATH=… cmd` would.
import type { Word } from "./types.js";

export interface Evaluated {
  /** Words bash reads as variable names (their subscripts are evaluated). */
  names: Word[];
  /** Words bash evaluates as arithmetic expressions. */
  arith: Word[];
  /** Words bash runs as commands (mapfile -C). */
  code: Word[];
  /** The names are assigned (not only tested or unset). */
  assigns: boolean;
  /** Words bash expands a second time (`compgen -W LIST`): the substitutions and expansions in their text run. */
  expanded?: Word[];
  /** Targets of namerefs (`declare -n ref=TARGET`): later assignments to ref assign TARGET. */
  refs?: Word[];
}

const NONE: Evaluated = { names: [], arith: [], code: [], assigns: false };

/** Splits option words off the front: `takes` are options that consume the next word. */
function operands(args: readonly Word[], takes: string, onOption?: (opt: string, value: Word | undefined) => void): Word[] {
  let i = 0;
  while (i < args.length) {
    const t = (args[i] as Word).text;
    if (t === "--") {
      i++;
      break;
    }
    if (!/^-[A-Za-z]/.test(t)) break;
    // Bundled flags: the first that takes a value takes the rest of the word, or the next word.
    for (let k = 1; k < t.length; k++) {
      const opt = t[k] as string;
      if (takes.includes(opt)) {
        const rest = t.slice(k + 1);
        const value = rest ? { ...(args[i] as Word), text: rest } : args[i + 1];
        onOption?.(opt, value);
        if (!rest) i++;
        break;
      }
      onOption?.(opt, undefined);
    }
    i++;
  }
  return args.slice(i);
}

/** The name part of NAME, NAME=VALUE or NAME+=VALUE. */
function nameOf(w: Word): Word {
  const m = /^([^=]*?)\+?=/.exec(w.text);
  return m ? { ...w, text: m[1] ?? "" } : w;
}

/** What `name args…` evaluates, for the builtins that do. */
export function evaluatedArgs(name: string, args: readonly Word[]): Evaluated {
  switch (name) {
    case "test":
    case "[":
    case "[[": {
      const names: Word[] = [];
      const arith: Word[] = [];
      args.forEach((w, i) => {
        const next = args[i + 1];
        if ((w.text === "-v" || w.text === "-R") && next) names.push(next);
        // Inside [[ ]] the operands of an arithmetic comparison are arithmetic expressions.
        if (name === "[[" && /^-(eq|ne|lt|le|gt|ge)$/.test(w.text)) {
          const prev = args[i - 1];
          if (prev) arith.push(prev);
          if (next) arith.push(next);
        }
      });
      return { names, arith, code: [], assigns: false };
    }
    case "printf": {
      const names: Word[] = [];
      operands(args, "v", (opt, value) => {
        if (opt === "v" && value) names.push(value);
      });
      return { ...NONE, names, assigns: true };
    }
    case "read": {
      const names: Word[] = [];
      const rest = operands(args, "adinNptu", (opt, value) => {
        if (opt === "a" && value) names.push(value);
      });
      return { ...NONE, names: [...names, ...rest], assigns: true };
    }
    case "mapfile":
    case "readarray": {
      const code: Word[] = [];
      const rest = operands(args, "Ccdnosu", (opt, value) => {
        if (opt === "C" && value) code.push(value);
      });
      return { names: rest.slice(-1), arith: [], code, assigns: true };
    }
    case "unset":
      return { ...NONE, names: operands(args, "") };
    case "declare":
    case "typeset":
    case "local":
    case "export":
    case "readonly": {
      const words = args.filter((w) => !/^[-+]/.test(w.text));
      const nameref = args.some((w) => /^-[a-zA-Z]*n/.test(w.text));
      const refs = nameref
        ? words
            .filter((w) => /^[^=]*=/.test(w.text))
            .map((w) => {
              const text = w.text.slice(w.text.indexOf("=") + 1).replace(/^(["'])(.*)\1$/s, "$2");
              return { ...w, text, dynamic: w.dynamic || /[$`]/.test(text) };
            })
        : [];
      return { ...NONE, names: words.map(nameOf), assigns: true, refs };
    }
    case "let":
      return { ...NONE, arith: [...args] };
    case "compgen":
    case "complete": {
      // -W's word list is expanded again when the words are made (round 30: `compgen -W '$(cmd)' x` runs cmd).
      const expanded: Word[] = [];
      operands(args, "AGWXPSFCVo", (opt, value) => {
        if (opt === "W" && value) expanded.push(value);
      });
      return { ...NONE, expanded };
    }
    case "getopts":
      return { ...NONE, names: args.slice(1, 2), assigns: true };
    case "wait": {
      const names: Word[] = [];
      operands(args, "p", (opt, value) => {
        if (opt === "p" && value) names.push(value);
      });
      return { ...NONE, names, assigns: true };
    }
    default:
      return NONE;
  }
}

/** Command substitutions in a literal (`$(…)`, backticks), as bash would run them when it evaluates the text. */
export function substitutions(text: string): string[] {
  return [...text.matchAll(/\$\(([^()]*(?:\([^()]*\)[^()]*)*)\)|`([^`]*)`/g)].map((m) => m[1] ?? m[2] ?? "").filter((c) => c.trim() !== "");
}

/** The subscript of NAME[SUB], or null. */
export function subscriptOf(text: string): string | null {
  const open = text.indexOf("[");
  return open > 0 && text.endsWith("]") ? text.slice(open + 1, -1) : null;
}

/** The variable NAME[SUB] names (without its subscript). */
export function baseName(text: string): string {
  const open = text.indexOf("[");
  return open > 0 ? text.slice(0, open) : text;
}
