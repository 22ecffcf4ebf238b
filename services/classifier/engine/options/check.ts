// Checking a command's options against its tool's table (options/spec.ts).
// Words are read the way getopt_long reads them: short bundles split, a
// value glued or in the next word, long options only by their full name
// (an abbreviation getopt would accept is not on the list: unknown), GNU
// permutation (options after operands) unless the table says @posix, `--`
// ends the options. A word computed at run time (`$X`, `"$@"`) that can
// start with a dash may be any option; so may a glob that matches a name
// starting with a dash.
import { commandOutput } from "../command-output.js";
import type { Word } from "../types.js";
import type { Opt, ToolSpec, ToolTable } from "./spec.js";

export interface OptionVerdict {
  /** The first word that is not a known option (or subcommand), with why; null when all are known. */
  unknown: { word: string; why: string } | null;
  /** Values of options that name files the tool reads / writes. */
  reads: Word[];
  writes: Word[];
  /** Every word taken as an option's value (of any kind), as far as the check read. */
  values: Word[];
}

/** How a glob word expands here, when it can be known (null: it cannot). */
export type Expand = (w: Word) => readonly string[] | null;

const NO_OPTIONS: Omit<ToolSpec, "key"> = {
  short: new Map(),
  long: new Map(),
  single: new Map(),
  numeric: false,
  inert: false,
  sub: false,
  scripts: false,
  posix: false,
  data: false,
  oldstyle: false,
  pluscmd: false,
  atfile: false,
  noglue: false,
  bsd: "",
  also: [],
};

/** An option of `spec`, or of the tables it names with @also (`pick` chooses short, long or single-dash ones). */
export function lookup(table: ToolTable, spec: ToolSpec, pick: (s: ToolSpec) => Map<string, Opt>, name: string, seen = 0): Opt | undefined {
  const own = pick(spec).get(name);
  if (own !== undefined || seen > 4) return own;
  for (const key of spec.also) {
    const parent = table.get(key);
    const hit = parent && lookup(table, parent, pick, name, seen + 1);
    if (hit) return hit;
  }
  return undefined;
}

/** Whether a computed or glob word can begin with a dash when the shell expands it. */
function mayBeOption(w: Word, expand: Expand): boolean {
  if (w.noDash === true) return false;
  if (w.loopValues) return w.loopValues.some((v) => v.text.startsWith("-") || mayBeOption(v, expand));
  // Unquoted mid-word, a command's output (`HEAD$(cat f)`, `x$X` after `X=$(cat f)`) is split into words, and one
  // may begin with a dash (`--output=…`): a file's content, not known here, may be anything (generators' output not).
  if (w.dynamic) return /^[$`]/.test(w.text) || w.text.startsWith("-") || (w.splits === true && commandOutput(w) !== null);
  // A glob or brace word begins with its literal prefix (`src/*`, `./*`) unless it starts with a pattern.
  if (!w.glob || !/^[*?[{@!+]/.test(w.text)) return false;
  const names = expand(w);
  return names === null || names.some((n) => n.startsWith("-"));
}

class Walk {
  reads: Word[] = [];
  writes: Word[] = [];
  values: Word[] = [];
  constructor(
    private readonly table: ToolTable,
    public spec: ToolSpec,
  ) {}

  take(opt: Opt, value: Word | undefined): void {
    if (value !== undefined) this.values.push(value);
    if (value === undefined || opt.kind === "data") return;
    (opt.kind === "read" ? this.reads : this.writes).push(value);
  }

  opt(pick: (s: ToolSpec) => Map<string, Opt>, name: string): Opt | undefined {
    return lookup(this.table, this.spec, pick, name);
  }
}

/**
 * Check `args` of `program` against the table. Returns the first unknown
 * word, or null when every option is known; with the files option values
 * name, for the effect analysis.
 */
export function checkOptions(table: ToolTable, program: string, given: readonly Word[], expand: Expand): OptionVerdict {
  const start = table.get(program) ?? { key: program, ...NO_OPTIONS };
  const args = start.oldstyle ? oldStyle(start, given) : given;
  const walk = new Walk(table, start);
  const verdict = (unknown: OptionVerdict["unknown"]): OptionVerdict => ({
    unknown,
    reads: walk.reads,
    writes: walk.writes,
    values: walk.values,
  });
  const tool = () => walk.spec.key;
  let options = true;
  let chosen = !start.sub && !start.scripts;
  for (let i = 0; i < args.length; i++) {
    const w = args[i] as Word;
    const t = w.text;
    if (walk.spec.data) break;
    if (!options) continue;
    if (t === "--" && !w.dynamic) {
      options = false;
      continue;
    }
    if (mayBeOption(w, expand)) {
      if (walk.spec.inert) continue;
      return verdict({ word: t, why: `${t} may expand to an option of ${tool()}, some of which run programs or write files` });
    }
    if (walk.spec.atfile && t.startsWith("@")) return verdict({ word: t, why: `${t} reads more options for ${tool()} from a file` });
    if (walk.spec.pluscmd && /^\+(?!\d*$)/.test(t)) return verdict({ word: t, why: `${t} runs an editor command` });
    if (walk.spec.bsd && /^[A-Za-z]+$/.test(t) && !w.dynamic) {
      const bad = [...t].find((c) => !walk.spec.bsd.includes(c));
      if (bad !== undefined) return verdict({ word: t, why: `BSD option ${bad} (in ${t}) is not on ${tool()}'s list of known options` });
      continue;
    }
    if (w.dynamic || !t.startsWith("-") || t === "-") {
      if (!chosen) {
        const next = w.dynamic ? undefined : table.get(`${walk.spec.key} ${t}`);
        if (!next && walk.spec.scripts && !w.dynamic) {
          options = false;
          continue;
        }
        if (!next) return verdict({ word: t, why: `${tool()} ${t} is not a subcommand with known options` });
        walk.spec = next;
        chosen = !next.sub && !next.scripts;
      } else if (walk.spec.posix) options = false;
      continue;
    }
    if (walk.spec.numeric && /^-\d+$/.test(t)) continue;
    const bad = t.startsWith("--") ? long(walk, args, i) : short(walk, args, i);
    if (typeof bad === "string") return verdict({ word: t, why: bad });
    i = bad;
  }
  return verdict(null);
}

/** `tar czf F src` → `tar -c -z -f F src`: each letter that takes a value takes the next word. */
function oldStyle(spec: ToolSpec, args: readonly Word[]): readonly Word[] {
  const first = args[0];
  if (!first || first.dynamic || !/^[A-Za-z]+$/.test(first.text)) return args;
  const rest = args.slice(1);
  const out: Word[] = [];
  for (const c of first.text) {
    out.push({ ...first, text: `-${c}` });
    const opt = spec.short.get(c);
    if (opt && opt.value !== "none" && rest.length > 0) out.push(rest.shift() as Word);
  }
  return [...out, ...rest];
}

/** A long option at args[i]: the index of the last word it used, or why it is unknown. */
function long(walk: Walk, args: readonly Word[], i: number): number | string {
  const w = args[i] as Word;
  const eq = w.text.indexOf("=");
  const name = eq < 0 ? w.text : w.text.slice(0, eq);
  if ((name === "--help" || name === "--version") && eq < 0) return i;
  const opt = walk.opt((s) => s.long, name);
  if (!opt) return `${name} is not on ${walk.spec.key}'s list of known options: it may run a program, write or read a file`;
  if (opt.value === "none") return eq < 0 ? i : `${name} takes no value`;
  if (eq >= 0) {
    walk.take(opt, { ...w, text: w.text.slice(eq + 1) });
    return i;
  }
  if (opt.value === "optional") return i;
  walk.take(opt, args[i + 1]);
  return i + 1;
}

/** A short bundle (or a single-dash long option) at args[i]. */
function short(walk: Walk, args: readonly Word[], i: number): number | string {
  const w = args[i] as Word;
  const t = w.text;
  const eq = t.indexOf("=");
  const single = walk.opt((s) => s.single, eq < 0 ? t : t.slice(0, eq));
  if (single) {
    if (single.value === "none") return eq < 0 ? i : `${t} takes no value`;
    if (eq >= 0) {
      walk.take(single, { ...w, text: t.slice(eq + 1) });
      return i;
    }
    if (single.value === "optional") return i;
    walk.take(single, args[i + 1]);
    return i + 1;
  }
  for (let k = 1; k < t.length; k++) {
    const c = t[k] as string;
    const opt = walk.opt((s) => s.short, c);
    if (!opt) return `-${c} (in ${t}) is not on ${walk.spec.key}'s list of known options: it may run a program, write or read a file`;
    if (opt.value === "none") continue;
    const glued = t.slice(k + 1);
    if (glued !== "" && walk.spec.noglue)
      return `${t} is not on ${walk.spec.key}'s list of known options (-${c} takes its value as the next word)`;
    if (glued !== "") {
      walk.take(opt, { ...w, text: glued });
      // Go's flag and pflag read `-o=FILE` as `-o FILE`; getopt as a file named `=FILE`: both are judged (round 25).
      if (glued.startsWith("=") && glued.length > 1) walk.take(opt, { ...w, text: glued.slice(1) });
      return i;
    }
    if (opt.value === "optional") return i;
    walk.take(opt, args[i + 1]);
    return i + 1;
  }
  return i;
}
