// A file the same command line writes from text it spells out, then runs
// (`echo 'rm -rf ~' > x.sh && sh x.sh`, `cat > Makefile <<X … X` then
// `make`): the code that runs is that text, not what is on disk when the
// line is judged. Before review 40 such a script was "a script from the
// workspace" (tier 1) whatever the text said.
import { posix } from "node:path";
import type { Context, SimpleCommand, Word } from "./types.js";

/** Filters whose program is a word of the line: what they write is made by that program, not read anywhere. */
const FILTERS = new Set(["sed", "gsed", "awk", "gawk", "mawk", "nawk", "tr", "envsubst", "m4", "perl", "jq", "yq", "rev", "base64", "xxd"]);

const STDIN_FILE = /^(?:\/dev\/stdin|\/dev\/fd\/0|\/proc\/self\/fd\/0)$/;

/** Files a command writes that index.ts wordsWritten does not name: dd's `of=`, sponge's operand. */
export function moreWritten(name: string, args: readonly Word[]): Word[] {
  if (name === "dd") return args.filter((w) => w.text.startsWith("of=")).map((w) => ({ ...w, text: w.text.slice(3) }));
  if (name === "sponge") return args.filter((w) => !w.text.startsWith("-"));
  return [];
}

/** The cheap test of a line that writes a file at all (with COMPOSE_WORD: one that may write text it spells out). */
export const WRITE_WORD = />|\b(?:tee|dd|sponge|patch|apply)\b|\/stdin\b|\/fd\/0\b/;

/** The cheap test: a line that may write text it spells out into a file. */
export const COMPOSE_WORD =
  /\b(echo|printf|cat|tee|sed|g?awk|[mn]awk|tr|envsubst|m4|perl|jq|yq|rev|base64|xxd|exec|dd|sponge|stdin|fd|patch|apply)\b|<</;

/** Shell escapes as `echo -e`, dash's echo and printf's format decode them (enough to judge the text). */
function decodeEscapes(s: string): string {
  return s
    .replace(/\\(0[0-7]{0,3}|[0-7]{1,3})/g, (_m, o: string) => String.fromCharCode(Number.parseInt(o, 8) & 255))
    .replace(/\\x([0-9a-fA-F]{1,2})/g, (_m, h: string) => String.fromCharCode(Number.parseInt(h, 16)))
    .replace(/\\u([0-9a-fA-F]{1,4})|\\U([0-9a-fA-F]{1,8})/g, (_m, u?: string, l?: string) => codePoint(u ?? l ?? "0"))
    .replace(
      /\\([nrtvfabe\\])/g,
      (_m, c: string) => ({ n: "\n", r: "\r", t: "\t", v: "\v", f: "\f", a: "\x07", b: "\b", e: "\x1b", "\\": "\\" })[c] ?? c,
    );
}

/** A code point from hex digits, as bash's `\\u`/`\\U` write it (one not valid stays as its escape's text). */
function codePoint(hex: string): string {
  const n = Number.parseInt(hex, 16);
  return n <= 0x10ffff ? String.fromCodePoint(n) : `\\U${hex}`;
}

/** One escape at the start of `s` as bash's printf reads it (`b`: in a %b argument, where `\\0NNN` and `\\c` count): the
 * text it stands for, how many characters it takes, and whether output stops there. */
function printfEscape(s: string, b: boolean): [string, number, boolean] {
  const c = s[1] ?? "";
  const simple: Record<string, string> = {
    a: "\x07",
    b: "\b",
    e: "\x1b",
    E: "\x1b",
    f: "\f",
    n: "\n",
    r: "\r",
    t: "\t",
    v: "\v",
    "\\": "\\",
    '"': '"',
    "'": "'",
    "?": "?",
  };
  if (Object.hasOwn(simple, c)) return [simple[c] as string, 2, false];
  if (b && c === "c") return ["", 2, true];
  const oct = (b ? /^\\0?([0-7]{1,3})/ : /^\\([0-7]{1,3})/).exec(s);
  if (oct) return [String.fromCharCode(Number.parseInt(oct[1] as string, 8) & 255), (oct[0] as string).length, false];
  const hex = /^\\x([0-9a-fA-F]{1,2})/.exec(s);
  if (hex) return [String.fromCharCode(Number.parseInt(hex[1] as string, 16)), (hex[0] as string).length, false];
  const uni = /^\\u([0-9a-fA-F]{1,4})|^\\U([0-9a-fA-F]{1,8})/.exec(s);
  if (uni) return [codePoint(uni[1] ?? uni[2] ?? "0"), (uni[0] as string).length, false];
  return ["\\", 1, false];
}

/** Text with escapes read once, left to right (`b`: as %b reads its argument); `stop` when a `\\c` ends all output. */
function printfDecode(s: string, b: boolean): { text: string; stop: boolean } {
  let text = "";
  for (let i = 0; i < s.length; ) {
    if (s[i] !== "\\") {
      text += s[i];
      i++;
      continue;
    }
    const [t, n, stop] = printfEscape(s.slice(i), b);
    if (stop) return { text, stop: true };
    text += t;
    i += n;
  }
  return { text, stop: false };
}

/**
 * What bash's printf writes for a format and its arguments (round 31: `%.3s`, `%*s`, `%c`, `\\u002b` and a format used
 * again for the arguments left over wrote `+++ b/.git/config` that no reading above held): flags, width and precision
 * (`*` from an argument), %s/%b/%q/%c and numbers; null when it is too long to follow.
 */
export function printfOutput(format: string, values: readonly string[]): string | null {
  let out = "";
  let k = 0;
  const next = (): string => values[k++] ?? "";
  for (let pass = 0; pass < 64; pass++) {
    const before = k;
    for (let i = 0; i < format.length; ) {
      const ch = format[i] as string;
      if (ch === "\\") {
        const [t, n] = printfEscape(format.slice(i), false);
        out += t;
        i += n;
        continue;
      }
      if (ch !== "%") {
        out += ch;
        i++;
        continue;
      }
      const m = /^%([-+ #0']*)(\*|\d*)(?:\.(\*|\d*))?(?:\(([^)]*)\))?([a-zA-Z%])/.exec(format.slice(i));
      if (!m) {
        out += ch;
        i++;
        continue;
      }
      i += (m[0] as string).length;
      const conv = m[5] as string;
      if (conv === "%") {
        out += "%";
        continue;
      }
      const width = m[2] === "*" ? Number.parseInt(next(), 10) || 0 : Number.parseInt(m[2] || "0", 10);
      const precision = m[3] === undefined ? undefined : m[3] === "*" ? Number.parseInt(next(), 10) || 0 : Number.parseInt(m[3] || "0", 10);
      let text: string;
      if (conv === "b") {
        const d = printfDecode(next(), true);
        text = d.text;
        if (d.stop) return out + text;
      } else if (conv === "c") text = next().slice(0, 1);
      else if (conv === "s" || conv === "q" || conv === "T") text = next();
      else {
        const v = next();
        const n = Number(/^['"]/.test(v) ? (v.codePointAt(1) ?? 0) : Number.parseFloat(v) || 0);
        text = /[diu]/.test(conv) ? String(Math.trunc(n)) : /[oxX]/.test(conv) ? Math.trunc(n).toString(conv === "o" ? 8 : 16) : String(n);
      }
      if (precision !== undefined && /[sbqc]/.test(conv)) text = text.slice(0, precision);
      if (text.length < Math.abs(width)) text = m[1]?.includes("-") || width < 0 ? text.padEnd(Math.abs(width)) : text.padStart(width);
      out += text;
      if (out.length > 1 << 20) return null;
    }
    // The format is used again while arguments are left, if it took any.
    if (k >= values.length || k === before) break;
  }
  return out;
}

/**
 * The text `cmd` writes to its output, when the line spells it out: echo's and printf's words, cat's or tee's
 * heredoc, here-string or piped echo. undefined when `cmd` is no such writer; null when the text expands something.
 * echo's text is given both as written and with escapes decoded (bash's echo keeps `\n`, dash's decodes it), and
 * printf's arguments each also on their own line: the judged text holds every command either shell may run.
 */
export function composedText(cmd: SimpleCommand): string | null | undefined {
  const [prog, ...args] = cmd.words;
  if (!prog || prog.dynamic) return undefined;
  const name = posix.basename(prog.text);
  if (name === "echo") {
    let i = 0;
    while (i < args.length && /^-[neE]+$/.test((args[i] as Word).text)) i++;
    const rest = args.slice(i);
    if (rest.some((w) => w.dynamic)) return null;
    const raw = rest.map((w) => w.text).join(" ");
    return raw.includes("\\") ? `${raw}\n${decodeEscapes(raw)}` : raw;
  }
  if (name === "printf") {
    let rest = args;
    if (rest[0]?.text === "--") rest = rest.slice(1);
    if (rest[0]?.text === "-v") return undefined; // printf -v NAME writes a variable, not its output
    if (rest.some((w) => w.dynamic)) return null;
    const [format, ...values] = rest.map((w) => w.text);
    if (format === undefined) return "";
    let k = 0;
    const filled = format.replace(/%[-+ #0-9.]*([sbcdiouxXeEfgGq%])/g, (_m, c: string) => (c === "%" ? "%" : (values[k++] ?? "")));
    const exact = printfOutput(format, values);
    // Too long to follow (`%1048577s…`): text not known here.
    if (exact === null) return null;
    return [decodeEscapes(filled), ...values, ...values.map(decodeEscapes), exact].join("\n");
  }
  // `sed 's/.*/rm -rf ~/' a.txt > x.sh`: a filter whose program is on the line writes text no one has read.
  if (FILTERS.has(name)) return null;
  // `exec 3> x.sh; echo … >&3`: what later commands write through the descriptor is not followed here.
  if (name === "exec" && args.length === 0) return null;
  // `echo … | dd of=x.sh`, `| sponge x.sh`, `| cp /dev/stdin x.sh`, `| install /dev/stdin x.sh`: stdin's text.
  const fromStdin =
    (name === "dd" && args.every((w) => !w.text.startsWith("if=") || STDIN_FILE.test(w.text.slice(3)))) ||
    name === "sponge" ||
    ((name === "cp" || name === "install") && args.some((w) => STDIN_FILE.test(w.text)));
  if (name === "cat" || name === "tee" || fromStdin) {
    const stdin = cmd.stdin;
    if (stdin === null || stdin === undefined) return undefined;
    // `cat FILE > x.sh` copies a file; only text on the line counts here.
    if (name === "cat" && args.some((w) => w.dynamic || (w.text !== "-" && !w.text.startsWith("-")))) return undefined;
    // `cat scripts/ok.sh | tee /tmp/x.sh`: a pipe from a program (no literal text) copies what it reads.
    if (stdin.kind === "pipe" && stdin.text === null) return undefined;
    if (stdin.dynamic || stdin.text === null) return null;
    // A piped echo's or printf's words as written: escapes decoded too, as in echo's own case.
    return stdin.kind === "pipe" && stdin.text.includes("\\") ? `${stdin.text}\n${decodeEscapes(stdin.text)}` : stdin.text;
  }
  return undefined;
}

/**
 * The files a unified diff creates or changes, with the lines it adds (`git apply <<X`, `patch -p1 < x.diff` where
 * the line spells the diff out): each `+++` name as written and without its first component (`b/x.sh` → `x.sh`).
 */
export function diffWrites(diff: string): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  let names: string[] = [];
  let added: string[] = [];
  const flush = () => {
    for (const n of names) out.push([n, added.join("\n")]);
  };
  for (const line of diff.split("\n")) {
    const m = /^\+\+\+ (\S+)/.exec(line);
    if (m) {
      flush();
      const n = m[1] as string;
      names = n === "/dev/null" ? [] : [...new Set([n, n.replace(/^[^/]*\//, "")])];
      added = [];
    } else if (line.startsWith("+")) added.push(line.slice(1));
  }
  flush();
  return out;
}

/** The diff text `patch` or `git apply` reads, when the line spells it out (stdin) or wrote it (a composed file). */
export function patchText(
  cmd: SimpleCommand,
  name: string,
  ctxComposed: ReadonlyMap<string, string | null>,
  resolve: (w: Word) => string | null,
): string | null | undefined {
  const args = cmd.words.slice(1);
  let rest: readonly Word[];
  if (name === "patch") rest = args;
  else if (name === "git" && args.some((w) => w.text === "apply")) rest = args.slice(args.findIndex((w) => w.text === "apply") + 1);
  else return undefined;
  // `patch -i x.diff`, `git apply x.diff`: a diff file the line wrote.
  const files = rest.filter((w, i) => !w.text.startsWith("-") && (name === "git" || rest[i - 1]?.text === "-i"));
  const redirected = cmd.redirects.filter((r) => r.op === "<").map((r) => r.target);
  for (const w of [
    ...files,
    ...redirected,
    ...rest.filter((w) => /^(-i.|--input=)/.test(w.text)).map((w) => ({ ...w, text: w.text.replace(/^(-i|--input=)/, "") })),
  ]) {
    const p = resolve(w);
    if (p !== null && ctxComposed.has(p)) return ctxComposed.get(p) ?? null;
  }
  if (files.length > 0 || redirected.length > 0) return undefined;
  const stdin = cmd.stdin;
  if (stdin === null || stdin === undefined || stdin.text === null) return undefined;
  return stdin.dynamic ? null : stdin.text;
}

/** Shells whose script text the classifier judges as shell code (`sh x.sh`, `./x.sh` with no other interpreter named). */
const SHELL_SCRIPT = /^#!\s*(?:\S*\/)?(?:env\s+(?:-\S+\s+)*)?(?:ba|da|k|mk|z|a)?sh\b/;
const OTHER_SHEBANG = /^#!/;
const SHELL_NAME = /(?:^|\/)[^/.]+$|\.(?:sh|bash|zsh|ksh|dash)$/;

/** Whether `text`, written to `path`, runs as shell code when `path` is run. */
export function shellText(path: string, text: string): boolean {
  if (SHELL_SCRIPT.test(text)) return true;
  if (OTHER_SHEBANG.test(text)) return false;
  return SHELL_NAME.test(path);
}

/** The text a composed file holds (see Context.composed); undefined when the line does not write it so. */
export function composedFile(path: string | null, ctx: Context): string | null | undefined {
  if (path === null || ctx.composed === undefined) return undefined;
  return ctx.composed.get(path);
}

/** Files whose text is code a program may load without being named: sources, modules, and what lies in bin or module dirs. */
const CODE_FILE =
  /\.(?:py|pyw|pth|js|mjs|cjs|jsx|ts|mts|cts|tsx|vue|svelte|rb|go|rs|sh|bash|zsh|pl|pm|php|lua|java|kt|kts|scala|groovy|gradle|c|cc|cpp|cxx|h|hpp|mk|cmake|ex|exs|swift|[Rr]|jl|dart|cs|fs|ps1)$/;
const CODE_DIR = /\/(?:node_modules|\.venv|venv|\.?bin|site-packages|\.git|\.husky|\.cargo|\.config)\//;

/**
 * A file the same line writes from its own text under `dir` that a program started there may load unnamed:
 * a project file (downloaded.ts PROJECT_FILE: a Makefile, package.json, conftest.py, pytest.ini …), a source or
 * module file (`cat > tests/test_x.py <<X … X` then `pytest`), or anything in a bin or module directory
 * (`echo … > node_modules/.bin/vitest && npm test`). `except` (the script being run, judged by its text) is skipped.
 */
export function composedCode(
  ctx: Context,
  dir: string,
  projectFile: RegExp,
  except: ReadonlySet<string | null> = new Set(),
): string | null {
  if (ctx.composed === undefined || dir === "") return null;
  const prefix = dir === "/" ? "/" : `${dir}/`;
  for (const p of ctx.composed.keys()) {
    if (except.has(p) || !p.startsWith(prefix)) continue;
    const base = posix.basename(p);
    if (projectFile.test(base) || CODE_FILE.test(base) || CODE_DIR.test(`/${p.slice(prefix.length)}`)) return p;
  }
  return null;
}

/**
 * Project, source and module files a runner may load from its working directory unasked, written by the same
 * line from its own text: `printf 'all:\n\tid\n' > Makefile && make`, `echo '[pytest]…' > pytest.ini && pytest`.
 */
export function composedProject(name: string, ctx: Context, projectFile: RegExp, named: ReadonlySet<string | null>): string | null {
  const p = composedCode(ctx, ctx.cwd, projectFile, named);
  return p === null
    ? null
    : `${name} may load ${posix.relative(ctx.cwd, p)} from ${ctx.cwd}, which the same command line writes from its own text: code judged nowhere`;
}
