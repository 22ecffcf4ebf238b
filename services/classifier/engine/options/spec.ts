// Option tables: what the engine knows about a tool's options, written in a
// compact getopt-like notation so a person can review a whole tool on one
// line. A tier 0–1 rule decides a command only when every option in it is
// in its tool's table (options/check.ts); an option that is not there may
// run a program, write a file or read one, so it raises the command to 2.
//
// A table lists the options whose effect is known: harmless ones (formats,
// filters, verbosity) and ones that name a path the effect analysis judges
// (`=<` a file read, `=>` a file written). Options that run code (a
// pager, a compressor, a plugin, a hook) are never listed.
//
// Notation, space-separated tokens:
//   -x          short flag (bundles like -la are split)
//   -x=         short option with a value (glued -n5 or the next word)
//   --long      long flag; --long= takes a value (--long=V or --long V)
//   …=?         the value is optional and only glued (-i.bak, --color=always)
//   …=<  …=>    the value is a file read (judged for secrets) / written (judged as a write)
//   -long=      single-dash long option (find -name, java -cp): more than one letter
//   #           numeric options are data (head -20, kill -9, seq -5 5)
//   @inert      no option of the tool runs code, writes, or reads another file:
//               a word computed at run time may stand where an option goes
//   @sub        the first operand selects a subcommand: the table "TOOL SUB"
//   @posix      options end at the first operand (later words are operands)
//   @scripts    like @sub when "TOOL SUB" has a table; otherwise the first operand
//               names the project's own script and the words after it are its arguments
//   @data       every argument is data (echo, printf, test): nothing is checked
//   @oldstyle   a first word of letters without a dash is a bundle (tar czf F, ar rcs)
//   @atfile     a word @FILE is read for more options (binutils, compilers): unknown
//   @noglue     a short option's value is only ever the next word: a longer word is an option of its own
//               (ghc's `-optc-fplugin=…` is not -o with a glued value)
//   @pluscmd    a word +CMD is an editor command (vim +'!sh'); only +N (a line) is data
//   @bsd=LETTERS  words of these letters without a dash are BSD options (ps aux)
//   @also=KEY   the options of table KEY apply too (global options); `/` for a space

export type ValueKind = "data" | "read" | "write";

export interface Opt {
  /** "none": a flag; "required": glued or the next word; "optional": glued only. */
  value: "none" | "required" | "optional";
  kind: ValueKind;
}

export interface ToolSpec {
  key: string;
  short: Map<string, Opt>;
  long: Map<string, Opt>;
  /** Single-dash long options (`-name`, `-maxdepth`). */
  single: Map<string, Opt>;
  numeric: boolean;
  inert: boolean;
  sub: boolean;
  /** Like sub, but an operand without a table is a script name: options end there. */
  scripts: boolean;
  posix: boolean;
  data: boolean;
  oldstyle: boolean;
  pluscmd: boolean;
  atfile: boolean;
  /** Short options take no glued value: `-oX` is not -o with X. */
  noglue: boolean;
  /** Letters allowed in dashless BSD bundles (ps aux); "" when the tool has none. */
  bsd: string;
  also: string[];
}

const FLAG: Opt = { value: "none", kind: "data" };

function valueOpt(suffix: string): Opt {
  if (suffix === "") return FLAG;
  if (suffix === "=") return { value: "required", kind: "data" };
  if (suffix === "=?") return { value: "optional", kind: "data" };
  if (suffix === "=<") return { value: "required", kind: "read" };
  if (suffix === "=>") return { value: "required", kind: "write" };
  if (suffix === "=?>") return { value: "optional", kind: "write" };
  throw new Error(`bad option suffix "${suffix}"`);
}

/** Parse one table line. Throws on a malformed token, naming the tool. */
export function parseSpec(key: string, text: string): ToolSpec {
  const spec: ToolSpec = {
    key,
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
  for (const token of text.split(/\s+/).filter(Boolean)) {
    if (token === "#") spec.numeric = true;
    else if (token === "@inert") spec.inert = true;
    else if (token === "@sub") spec.sub = true;
    else if (token === "@scripts") spec.scripts = true;
    else if (token === "@posix") spec.posix = true;
    else if (token === "@data") spec.data = true;
    else if (token === "@oldstyle") spec.oldstyle = true;
    else if (token === "@pluscmd") spec.pluscmd = true;
    else if (token === "@atfile") spec.atfile = true;
    else if (token === "@noglue") spec.noglue = true;
    else if (token.startsWith("@bsd=")) spec.bsd = token.slice(5);
    else if (token.startsWith("@also=")) spec.also.push(token.slice(6).replaceAll("/", " "));
    else {
      const m = /^(--?)([^=\s]+)(=[?<>]*)?$/.exec(token);
      if (!m) throw new Error(`option table ${key}: bad token "${token}"`);
      const [, dashes, name = "", suffix = ""] = m;
      const opt = valueOpt(suffix);
      if (dashes === "--") spec.long.set(`--${name}`, opt);
      else if (name.length === 1) spec.short.set(name, opt);
      else spec.single.set(`-${name}`, opt);
    }
  }
  return spec;
}

/**
 * Tables by key. A key may name several with `|`: a part without a space
 * replaces the first key's last word (`ip a|addr|address`), a part with one
 * is a key of its own (`docker ps|docker images`).
 */
export type ToolTable = Map<string, ToolSpec>;

export function defineTools(...groups: Record<string, string>[]): ToolTable {
  const table: ToolTable = new Map();
  for (const group of groups) {
    for (const [keys, text] of Object.entries(group)) {
      const parts = keys.split("|");
      const stem = (parts[0] ?? "").split(" ").slice(0, -1);
      for (const part of parts) {
        const key = part.includes(" ") ? part : [...stem, part].join(" ");
        if (table.has(key)) throw new Error(`option table ${key} defined twice`);
        table.set(key, parseSpec(key, text));
      }
    }
  }
  for (const spec of table.values()) {
    for (const a of spec.also) if (!table.has(a)) throw new Error(`option table ${spec.key}: @also=${a} is not defined`);
  }
  return table;
}
