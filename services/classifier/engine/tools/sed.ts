// sed: its command line (scripts, input files, -i, -f), what a script runs
// (e, s///e), writes (w, W, s///w) and reads (r, R); the files it writes and
// the floor its script sets.
import { posix } from "node:path";
import type { Analysis } from "../analyzers.js";
import { expandLong } from "../argv.js";
import { asTargets } from "../targets.js";
import type { Mode, Target } from "../targets.js";
import type { Word } from "../types.js";
import { literalWord } from "../unwrap.js";

const SED_LONGS = [
  "--expression",
  "--file",
  "--in-place",
  "--line-length",
  "--quiet",
  "--silent",
  "--regexp-extended",
  "--separate",
  "--sandbox",
  "--debug",
  "--posix",
  "--unbuffered",
  "--follow-symlinks",
  "--null-data",
  "--zero-terminated",
  "--binary",
  "--help",
  "--version",
];

/** sed's command line: its scripts (-e, --expression, or the first operand), its input files, -i, and -f script files. */
export function sedArgs(raw: readonly Word[]): {
  scripts: Word[];
  operands: Word[];
  inPlace: boolean;
  fromFile: boolean;
  suffix?: Word;
} {
  const args = expandLong(raw, SED_LONGS);
  const scripts: Word[] = [];
  const operands: Word[] = [];
  let inPlace = false;
  let suffix: Word | undefined;
  let fromFile = false;
  let opts = true;
  for (let i = 0; i < args.length; i++) {
    const w = args[i] as Word;
    const t = w.text;
    if (!opts || w.dynamic || t === "-" || !t.startsWith("-")) {
      operands.push(w);
      continue;
    }
    if (t === "--") {
      opts = false;
      continue;
    }
    if (t.startsWith("--")) {
      const eq = t.indexOf("=");
      const name = eq < 0 ? t : t.slice(0, eq);
      const value = eq < 0 ? undefined : { ...w, text: t.slice(eq + 1) };
      if (name === "--expression") {
        const v = value ?? args[++i];
        if (v) scripts.push(v);
      } else if (name === "--file") {
        fromFile = true;
        if (!value) i++;
      } else if (name === "--line-length" && !value) i++;
      else if (name === "--in-place") {
        inPlace = true;
        if (value?.text) suffix = value;
      }
      continue;
    }
    // A cluster of short flags; -i takes a glued suffix, -e/-f/-l a glued or separate value.
    for (let k = 1; k < t.length; k++) {
      const c = t[k];
      if (c === "i") {
        inPlace = true;
        if (t.length > k + 1) suffix = { ...w, text: t.slice(k + 1) };
        break;
      }
      if (c === "e" || c === "f" || c === "l") {
        const v = t.length > k + 1 ? { ...w, text: t.slice(k + 1) } : args[++i];
        if (c === "e" && v) scripts.push(v);
        if (c === "f") fromFile = true;
        break;
      }
    }
  }
  if (scripts.length === 0 && !fromFile && operands.length) scripts.push(operands.shift() as Word);
  return { scripts, operands, inPlace, fromFile, ...(suffix ? { suffix } : {}) };
}

/**
 * The backup `-iSUFFIX` keeps of each file: each `*` in SUFFIX is the file's name, else SUFFIX follows it; a name
 * with a `/` is a path of its own (round 25: `sed -i".git/hooks/*" -e "" pre-commit` planted a hook git then ran).
 */
function backups(suffix: Word, operands: readonly Word[]): Target[] {
  return operands.map((f) => {
    const base = posix.basename(f.text);
    const name = suffix.text.includes("*") ? suffix.text.replaceAll("*", base) : `${base}${suffix.text}`;
    const text = name.includes("/") ? name : posix.join(posix.dirname(f.text), name);
    return { word: { ...f, text, dynamic: f.dynamic || suffix.dynamic, glob: f.glob || suffix.glob }, mode: "write" as Mode };
  });
}

export interface SedEffects {
  /** Command lines the `e COMMAND` command and the s///e flag run (the replacement, for s///e). */
  exec: string[];
  /** `e` without a command: runs the pattern space, not known until run time. */
  execUnknown: boolean;
  /** Files the `w`/`W` commands and the s///w flag write. */
  writes: string[];
  /** Files the `r`/`R` commands read. */
  reads: string[];
}

/** A position in a sed script, and the ways to read on from it. */
class SedCursor {
  i = 0;
  constructor(readonly text: string) {}

  more(): boolean {
    return this.i < this.text.length;
  }

  /** The character at the cursor ("" past the end). */
  peek(): string {
    return this.text[this.i] ?? "";
  }

  next(): string | undefined {
    return this.text[this.i++];
  }

  skipWhile(re: RegExp): void {
    while (this.more() && re.test(this.peek())) this.i++;
  }

  skipUntil(re: RegExp): void {
    while (this.more() && !re.test(this.peek())) this.i++;
  }

  /** The rest of the line, trimmed; the cursor stops at the newline. */
  line(): string {
    let j = this.text.indexOf("\n", this.i);
    if (j < 0) j = this.text.length;
    const r = this.text.slice(this.i, j);
    this.i = j;
    return r.trim();
  }

  /** Text up to the delimiter `d` (backslash pairs kept), the cursor past it. */
  until(d: string): string {
    let r = "";
    while (this.more() && this.peek() !== d) {
      if (this.peek() === "\\" && this.i + 1 < this.text.length) {
        r += this.text.slice(this.i, this.i + 2);
        this.i += 2;
      } else r += this.text[this.i++];
    }
    this.i++;
    return r;
  }

  /** One address: `/re/I`, `\cREc`, or a line number, `$`, `first~step`, `+N`. */
  address(): void {
    const c = this.peek();
    if (c !== "/" && c !== "\\") {
      this.skipWhile(/[\d$~+]/);
      return;
    }
    if (c === "\\") this.i++;
    const d = c === "\\" ? this.peek() : "/";
    this.i++;
    this.until(d);
    this.skipWhile(/[IM]/);
  }

  /** An address range (`A`, `A,B`) and any `!` after it. */
  addresses(): void {
    this.address();
    this.skipWhile(/[ \t]/);
    if (this.peek() === ",") {
      this.i++;
      this.skipWhile(/[ \t]/);
      this.address();
    }
    this.skipWhile(/[ \t]/);
    while (this.peek() === "!") {
      this.i++;
      this.skipWhile(/[ \t]/);
    }
  }
}

/** `s/RE/REPL/FLAGS`: the e flag runs the replacement, the w flag writes the file named after it. */
function substitute(s: SedCursor, out: SedEffects): void {
  const d = s.next() ?? "/";
  s.until(d);
  const repl = s.until(d);
  while (s.more() && /[gpiImMe0-9w]/.test(s.peek())) {
    const f = s.next();
    if (f === "e") out.exec.push(repl.replace(/\\(.)/gs, "$1"));
    if (f === "w") {
      out.writes.push(s.line());
      return;
    }
  }
}

/** One sed command, the cursor just past its letter. */
function command(s: SedCursor, cmd: string | undefined, out: SedEffects): void {
  switch (cmd) {
    case "s":
      substitute(s, out);
      return;
    case "y": {
      const d = s.next() ?? "/";
      s.until(d);
      s.until(d);
      return;
    }
    case "e": {
      const c = s.line();
      if (c) out.exec.push(c);
      else out.execUnknown = true;
      return;
    }
    case "w":
    case "W":
      out.writes.push(s.line());
      return;
    case "r":
    case "R":
      out.reads.push(s.line());
      return;
    case "a":
    case "i":
    case "c":
      s.line();
      return;
    case ":":
    case "b":
    case "t":
    case "T":
    case "v":
    case "q":
    case "Q":
    case "l":
    case "L":
      s.skipUntil(/[;\n}]/);
      return;
  }
}

/** Walk a sed script's commands, finding what runs, is written and is read. */
export function sedScript(text: string): SedEffects {
  const out: SedEffects = { exec: [], execUnknown: false, writes: [], reads: [] };
  const s = new SedCursor(text);
  while (s.more()) {
    s.skipWhile(/[\s;{}]/);
    if (!s.more()) break;
    if (s.peek() === "#") {
      s.line();
      continue;
    }
    s.addresses();
    command(s, s.next(), out);
  }
  return out;
}

export function sedTargets(args: readonly Word[]): Target[] {
  const a = sedArgs(args);
  const written = a.scripts.filter((w) => !w.dynamic).flatMap((w) => sedScript(w.text).writes);
  const files = written
    .filter((f) => f !== "" && !/^\/dev\/std(out|err)$/.test(f))
    .map((f) => ({ word: literalWord(f), mode: "write" as Mode }));
  const kept = a.inPlace && a.suffix ? backups(a.suffix, a.operands) : [];
  return [...(a.inPlace ? asTargets(a.operands, "write") : []), ...kept, ...files];
}

export function sedAnalysis(args: readonly Word[]): Analysis | null {
  const a = sedArgs(args);
  if (a.fromFile) return { tier: 2, rule: "analysis:sed-file", reason: "sed script from a file", kind: "floor" };
  const code = a.scripts.map((w) => w.text).join("\n");
  // A glob's first match is the script: a file's name (`sed 1?* f` with a file `1e touch x`, round 30).
  if (a.scripts.some((w) => w.dynamic || w.glob))
    return { tier: 2, rule: "analysis:sed-exec", reason: "sed script not known until run time", kind: "floor", code };
  const found = a.scripts.map((w) => sedScript(w.text));
  // `e CMD` and s///e run shell commands; w/W write and r/R read files (their targets are judged by the effect analysis).
  const exec = found.flatMap((f) => f.exec);
  if (exec.length || found.some((f) => f.execUnknown))
    return {
      tier: 2,
      rule: "analysis:sed-exec",
      reason: "sed script that runs shell commands",
      kind: "floor",
      code: [code, ...exec].join("\n"),
    };
  if (found.some((f) => f.writes.length || f.reads.length))
    return { tier: 2, rule: "analysis:sed-exec", reason: "sed script that can run commands or write files", kind: "floor", code };
  return null;
}
