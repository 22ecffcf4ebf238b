// What a command does with shell variables, read off its syntax tree once:
// every name it assigns (plain and prefix assignments, `for`/`select`,
// read, printf -v, mapfile/readarray, declare/typeset/local/export,
// getopts, wait -p, let, (( )), $(( )), c-style for, ${x:=…}, namerefs),
// what each may hold where it is used, and the places bash evaluates a
// value as code (arithmetic, subscripts, ${s:off}, ${!x}, ${x@P}).
//
// A value counts as known at a use only when an assignment in this text
// surely ran before it in the same shell: an earlier statement of an
// enclosing list, never one behind a pipe, `&`, a prefix, an `||`/`&&`
// right-hand side or another branch. Otherwise the variable may be
// inherited from the environment, where an earlier command can have put
// anything (`a[$(…)]`, a secret's path). Every assignment of a name counts
// towards what it may hold, wherever it stands; eval, source, trap,
// namerefs and computed names make every value unknown.
import type { SyntaxNode as Node } from "./syntax-tree.js";
import { decodeAnsiC, hasConfusable, wordFromNode } from "./normalise.js";
import { arithmeticNames, NUMERIC_SUBSTITUTION, numericText, numericValue } from "./arithmetic-text.js";
import { baseName, evaluatedArgs, subscriptOf } from "./evaluated.js";
import { holds, inFunction, isArithmeticCommand, NOWHERE, statementScope } from "./statement-scope.js";
import type { Scope } from "./statement-scope.js";
import type { Word } from "./types.js";

/** A name the text assigns, for the risky-variable check. */
export interface Assigned {
  /** The name (its subscript dropped), or the text of a name computed at run time. */
  name: string;
  /** How it is assigned: "read", "printf -v", "for", "an assignment" … */
  how: string;
  /** The name itself is computed at run time (`read "$n"`, `declare "$n=1"`). */
  computed: boolean;
  /** The literal value, when it is one ("" for `NAME=`). */
  literal: string | null;
}

/** One possible value of a variable; `glob`: it is one match of this pattern (a loop over a glob, an unquoted expansion). */
export interface Value {
  text: string;
  glob: boolean;
}

/** A place bash evaluates a variable's value (or a computed text) as code. */
export interface Use {
  kind: "arith" | "indirect" | "prompt" | "substitution" | "positional";
  /** The variable, or the text evaluated (a command substitution, `$1`). */
  name: string;
  pos: number;
  node: Node;
}

interface Assignment extends Scope {
  name: string;
  numeric: boolean;
  /** Possible values; null: not known (read, a command substitution …); undefined: resolve `value` lazily. */
  values: Value[] | null | undefined;
  value: Node | null;
  /**
   * The text its value comes from, as written (`$(cat notes.md)`, `$TOKEN`,
   * a `for` loop's items, `$(read X)` for what read takes from its input),
   * or null when it carries nothing from elsewhere (arithmetic, `declare x`).
   */
  origin?: string | null;
}

/** At most this many origin texts are followed for one word (variables assigned from variables …). */
const MAX_ORIGINS = 16;

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** The key the positional parameters (`set -- …`, `$1`, `$@`) are kept under: no variable has this name. */
const POSITIONAL = "@";

/** Variables bash keeps numeric itself, whatever the environment held (unless the text unsets or redeclares them). */
const SPECIAL_NUMERIC = new Set([
  "RANDOM",
  "SRANDOM",
  "SECONDS",
  "LINENO",
  "BASHPID",
  "PPID",
  "EPOCHSECONDS",
  "OPTIND",
  "HISTCMD",
  "BASH_SUBSHELL",
  "SHLVL",
  "OPTERR",
]);

/** Associative by default: their subscripts are strings, not arithmetic. */
const ASSOCIATIVE = new Set(["BASH_ALIASES", "BASH_CMDS"]);

const MAX_VALUES = 16;

const VISITED = [
  "variable_assignment",
  "declaration_command",
  "unset_command",
  "for_statement",
  "c_style_for_statement",
  "compound_statement",
  "arithmetic_expansion",
  "expansion",
  "test_command",
];
/** A word that may name one of BUILTINS (quotes and backslashes may hide it: `'read'`, `\\let`). */
const BUILTIN_WORD =
  /\b(eval|source|trap|let|unset|declare|typeset|local|export|readonly|read|mapfile|readarray|printf|getopts|wait|test|set)\b|(^|[\s;&|(`{])[.[]\s/;

/** The builtins command() reads, and the wrappers it looks through for them. */
const BUILTINS = new Set([
  "eval",
  "source",
  ".",
  "trap",
  "let",
  "unset",
  "declare",
  "typeset",
  "local",
  "export",
  "readonly",
  "read",
  "mapfile",
  "readarray",
  "printf",
  "getopts",
  "wait",
  "test",
  "[",
  "set",
]);
const WRAPPERS = new Set([
  "nohup",
  "nice",
  "timeout",
  "env",
  "stdbuf",
  "setsid",
  "sudo",
  "doas",
  "run0",
  "ionice",
  "chrt",
  "taskset",
  "numactl",
  "unbuffer",
  "exec",
  "flock",
  "xargs",
  "watch",
  "su",
  "runuser",
  "sg",
]);

export class Variables {
  readonly assigned: Assigned[] = [];
  readonly uses: Use[] = [];
  /** Why every value is unknown (eval, source, a nameref …), or null. */
  poisoned: string | null = null;
  private readonly assignments = new Map<string, Assignment[]>();
  private readonly integer = new Set<string>();
  /**
   * What any variable may have been made of: the text of code that may assign any (`eval "X=\$(cat f)"`, a
   * trap, a mapfile callback) and what a computed name takes (`read "$n" < f`).
   */
  private readonly anyOrigins: string[] = [];
  /** Names declared with -n: their value names the variable they stand for. */
  private readonly namerefs = new Set<string>();
  private readonly associative = new Set<string>(ASSOCIATIVE);
  /** Special variables the text unsets or redeclares: no longer kept numeric by bash. */
  private readonly touched = new Set<string>();
  private resolving = 0;

  constructor(root: Node, text: string) {
    // The nodes that matter, in the order they stand (one call into the parser; a quoted heredoc holds none).
    // Commands only when a builtin that assigns or evaluates may be among them.
    const types = BUILTIN_WORD.test(text) || /[a-z]['"\\]+[a-z]/.test(text) ? [...VISITED, "command"] : VISITED;
    for (const n of root.descendantsOfType(types)) if (n !== null) this.visit(n);
    // `declare -i n; n=$x`: every assignment to an integer variable evaluates its value as arithmetic.
    for (const name of this.integer) {
      for (const a of this.assignments.get(name) ?? []) {
        a.numeric = true;
        const elements = a.value?.type === "array" ? a.value.namedChildren.filter((c): c is Node => c !== null) : a.value ? [a.value] : [];
        for (const e of elements) this.arith(wordFromNode(e).text, e, e.startIndex, null);
      }
    }
  }

  /** Whether `name` surely holds a number at `use` (never a value from the environment). */
  numericAt(name: string, use: Pick<Use, "pos" | "node">): boolean {
    if (SPECIAL_NUMERIC.has(name) && !this.touched.has(name)) return true;
    if (this.poisoned !== null) return false;
    const as = this.assignments.get(name) ?? [];
    return as.length > 0 && as.every((a) => a.numeric) && as.some((a) => this.holds(a, use));
  }

  /**
   * The texts the variables `text` expands may take their values from,
   * wherever the assignment stands (`X=$(cat f); curl …/$X` → `$(cat f)`;
   * `T=$TOKEN; … $T` → `$TOKEN`), followed through variables assigned from
   * variables; empty when none is assigned here. A word sent to another
   * system is judged by these as by its own text: a value laundered through
   * a variable carries what it was made of.
   */
  origins(text: string): string[] {
    const out: string[] = [];
    if (!text.includes("$")) return out;
    const seen = new Set<string>();
    const follow = (t: string, depth: number): void => {
      // `$X`, `${X…}`, `${!X}` (the variable X names), `$1`, `$@`, `${*}` (the positional parameters, one set here).
      for (const m of t.matchAll(/(\\?)\$(?:\{(!)?)?([A-Za-z_][A-Za-z0-9_]*|[0-9@*])/g)) {
        const name = /^[A-Za-z_]/.test(m[3] as string) ? (m[3] as string) : POSITIONAL;
        if (m[1] === "\\" || seen.has(name) || out.length >= MAX_ORIGINS) continue;
        seen.add(name);
        for (const a of this.assignments.get(name) ?? []) {
          if (a.origin === null || a.origin === undefined || out.length >= MAX_ORIGINS) continue;
          out.push(a.origin);
          // `n=GITHUB_TOKEN; … ${!n}`, `declare -n n=GITHUB_TOKEN; … $n`: the value is that of the variable n names.
          const named = m[2] === "!" || this.namerefs.has(name) ? /^["']?([A-Za-z_][A-Za-z0-9_]*)["']?$/.exec(a.origin)?.[1] : undefined;
          if (named !== undefined && out.length < MAX_ORIGINS) out.push(`$${named}`);
          if (depth < 4) follow(named !== undefined ? `$${named}` : a.origin, depth + 1);
        }
      }
    };
    follow(text, 0);
    if (this.anyOrigins.length > 0 && /\$(?:\{|[A-Za-z_0-9@*])/.test(text)) {
      for (const o of this.anyOrigins) if (out.length < MAX_ORIGINS) out.push(o);
    }
    return out;
  }

  /** Whether the text assigns `name` at all. */
  assigns(name: string): boolean {
    return this.assignments.has(name);
  }

  /** Every value `name` may hold at `use`, or null when one may come from elsewhere. */
  valuesAt(name: string, use: Pick<Use, "pos" | "node">): Value[] | null {
    if (this.poisoned !== null || this.resolving > 4) return null;
    const as = this.assignments.get(name) ?? [];
    if (!as.some((a) => this.holds(a, use))) return null;
    const out: Value[] = [];
    for (const a of as) {
      if (a.values === undefined) {
        this.resolving++;
        try {
          a.values = a.value ? this.wordValues(a.value, "assign") : [{ text: "", glob: false }];
        } finally {
          this.resolving--;
        }
      }
      if (a.values === null) return null;
      for (const v of a.values) if (!out.some((o) => o.text === v.text && o.glob === v.glob)) out.push(v);
      if (out.length > MAX_VALUES) return null;
    }
    return out;
  }

  /** The literal words an argument may become (quotes removed, split and globbed as bash would), or null when not known. */
  wordValues(node: Node, mode: "arg" | "assign" = "arg"): Value[] | null {
    const t = node.type;
    if (t === "word" || t === "number") {
      const w = wordFromNode(node);
      return [{ text: w.text, glob: mode === "arg" && w.glob }];
    }
    if (t === "raw_string") return [{ text: node.text.slice(1, -1), glob: false }];
    if (t === "ansi_c_string") return [{ text: decodeAnsiC(node.text.slice(2, -1)), glob: false }];
    if (t === "simple_expansion" || t === "expansion") {
      const m = /^\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?$/.exec(node.text);
      const values = m ? this.valuesAt(m[1] as string, { pos: node.startIndex, node }) : null;
      if (values === null || mode === "assign") return values;
      // Unquoted: split at blanks, and each piece is a pattern.
      return values.flatMap((v) =>
        v.text
          .split(/[ \t\n]+/)
          .filter((p) => p !== "")
          .map((p) => ({ text: p, glob: v.glob || /[*?[]/.test(p) })),
      );
    }
    if (t === "string")
      return this.join(
        node.namedChildren.filter((c): c is Node => c !== null),
        "quoted",
      );
    if (t === "concatenation")
      return this.join(
        node.children.filter((c): c is Node => c !== null),
        mode,
      );
    return null;
  }

  /** The values of parts joined into one word (a product, bounded). */
  private join(parts: Node[], mode: "arg" | "assign" | "quoted"): Value[] | null {
    let out: Value[] = [{ text: "", glob: false }];
    for (const p of parts) {
      let vs: Value[] | null;
      if (p.type === "string_content") vs = [{ text: p.text.replace(/\\\n/g, "").replace(/\\([$`"\\])/g, "$1"), glob: false }];
      else if (!p.isNamed) vs = [{ text: p.text, glob: false }];
      else if (mode === "quoted" && (p.type === "simple_expansion" || p.type === "expansion")) vs = this.wordValues(p, "assign");
      else {
        vs = this.wordValues(p, mode === "quoted" ? "assign" : mode);
        // An unquoted expansion inside a word that splits into several words: not followed here.
        if (
          vs !== null &&
          mode === "arg" &&
          (p.type === "simple_expansion" || p.type === "expansion") &&
          this.wordValues(p, "assign")?.some((v) => /[ \t\n]/.test(v.text))
        )
          return null;
      }
      if (vs === null) return null;
      out = out.flatMap((a) => vs.map((b) => ({ text: a.text + b.text, glob: a.glob || b.glob })));
      if (out.length > MAX_VALUES) return null;
    }
    return out;
  }

  private holds(a: Assignment, use: Pick<Use, "pos" | "node">): boolean {
    return holds(a, use.pos, use.node);
  }

  private record(name: string, how: string, a: Omit<Assignment, "name">, literal: string | null = null): void {
    this.assigned.push({ name, how, computed: false, literal });
    const list = this.assignments.get(name);
    if (list) list.push({ name, ...a });
    else this.assignments.set(name, [{ name, ...a }]);
  }

  /** An assignment whose value is not known and that holds nowhere in particular (read, printf -v …). */
  private unknown(name: string, how: string, origin: string | null = null): void {
    this.record(name, how, { numeric: false, values: null, value: null, origin, within: null, after: 0, exclude: [] });
  }

  private computedName(text: string, how: string, origin: string | null = text): void {
    this.assigned.push({ name: text, how, computed: true, literal: null });
    if (origin !== null) this.anyOrigins.push(origin);
    this.poisoned ??= `${how} assigns a variable whose name is computed at run time`;
  }

  private visit(n: Node): void {
    switch (n.type) {
      case "variable_assignment":
        this.assignment(n);
        break;
      case "declaration_command":
        this.declaration(n);
        break;
      case "unset_command":
        this.unset(n.namedChildren.filter((c): c is Node => c !== null).map(wordFromNode), "unset", n);
        break;
      case "command":
        this.command(n);
        break;
      case "for_statement":
        this.forLoop(n);
        break;
      case "c_style_for_statement":
        this.cFor(n);
        break;
      case "compound_statement":
        if (isArithmeticCommand(n)) this.arith(n.text.slice(2, -2), n, n.startIndex + 2, statementScope(n));
        break;
      case "arithmetic_expansion": {
        const body = n.text.startsWith("$((") ? n.text.slice(3, -2) : n.text.slice(2, -1);
        this.arith(body, n, n.startIndex + (n.text.startsWith("$((") ? 3 : 2), null);
        break;
      }
      case "expansion":
        this.expansion(n);
        break;
      case "test_command":
        this.test(n);
        break;
      default:
    }
  }

  private assignment(n: Node): void {
    const p = n.parent;
    if (p === null) return;
    const head = p.type === "command" ? p.childForFieldName("name") : null;
    // `make CC=gcc`: a word after the command name is an argument.
    if (head !== null && n.startIndex > head.startIndex) return;
    if (p.type === "c_style_for_statement") return; // its header is read by cFor
    const nameNode = n.childForFieldName("name");
    if (nameNode === null) return;
    const name = nameNode.type === "subscript" ? (nameNode.childForFieldName("name")?.text ?? "") : nameNode.text;
    if (!NAME.test(name)) return;
    if (nameNode.type === "subscript") this.subscript(name, nameNode.childForFieldName("index"));
    const value = n.childForFieldName("value");
    const how =
      p.type === "declaration_command" ? (p.child(0)?.text ?? "declare") : p.type === "command" ? "a prefix assignment" : "an assignment";
    const append = /^[^=]*\+=/.test(n.text);
    const scope = p.type === "command" || append || nameNode.type === "subscript" ? null : statementScope(n);
    const where = scope ?? NOWHERE;
    const integer = p.type === "declaration_command" && p.children.some((c) => c !== null && /^-[a-zA-Z]*i/.test(c.text));
    if (integer) this.integer.add(name);
    if (value === null) {
      this.record(name, how, { numeric: true, values: [{ text: "", glob: false }], value: null, ...where }, "");
      return;
    }
    const literal = wordFromNode(value);
    const numeric = value.type === "array" ? value.namedChildren.every((c) => c?.type === "number") : numericValue(value);
    const values = value.type === "array" || append ? null : undefined;
    this.record(name, how, { numeric, values, value, origin: value.text, ...where }, literal.dynamic ? null : literal.text);
  }

  private declaration(n: Node): void {
    const keyword = n.child(0)?.text ?? "declare";
    const words = n.children.slice(1).filter((c): c is Node => c !== null && c.isNamed);
    const flags = words
      .filter((c) => /^[-+][a-zA-Z]/.test(c.text))
      .map((c) => c.text)
      .join("");
    if (/^-/.test(flags) && /[pfF]/.test(flags.replace(/\+[a-zA-Z]*/g, ""))) return; // prints variables or functions
    if (/-[a-zA-Z]*n/.test(flags)) {
      this.poisoned ??= `${keyword} -n makes a reference: assigning it assigns another variable`;
      const ev = evaluatedArgs(keyword, words.map(wordFromNode));
      for (const r of ev.refs ?? []) {
        if (r.dynamic) this.computedName(r.text, `${keyword} -n`);
        else this.unknown(baseName(r.text), `${keyword} -n`);
      }
    }
    for (const c of words) {
      if (/^[-+][a-zA-Z]/.test(c.text)) continue;
      if (/-[a-zA-Z]*n/.test(flags) && (c.type === "variable_name" || c.type === "variable_assignment"))
        this.namerefs.add(c.type === "variable_name" ? c.text : (c.childForFieldName("name")?.text ?? ""));
      if (c.type === "variable_name") {
        if (/A/.test(flags)) this.associative.add(c.text);
        if (/i/.test(flags)) this.integer.add(c.text);
        // `local x` (`declare x` in a function): a new, empty variable; export/readonly, and declare outside a function, keep the value.
        if (keyword === "local" || ((keyword === "declare" || keyword === "typeset") && inFunction(n))) {
          this.record(
            c.text,
            keyword,
            { numeric: true, values: [{ text: "", glob: false }], value: null, ...(statementScope(c) ?? NOWHERE) },
            "",
          );
        }
        if (SPECIAL_NUMERIC.has(c.text)) this.touched.add(c.text);
      } else if (c.type === "variable_assignment") {
        const name = c.childForFieldName("name")?.text ?? "";
        if (/A/.test(flags)) this.associative.add(name);
        if (SPECIAL_NUMERIC.has(name)) this.touched.add(name);
      } else {
        // `export "PATH=/x"`, `declare "$n=1"`: a name in a quoted or computed word.
        const w = wordFromNode(c);
        const name = w.text.replace(/\+?=[\s\S]*$/, "");
        if (w.dynamic && /[$`]/.test(name)) this.computedName(w.text, keyword);
        else if (NAME.test(baseName(name))) {
          this.unknown(baseName(name), keyword);
          const sub = subscriptOf(name);
          if (sub !== null && !this.associative.has(baseName(name))) this.arith(sub, c, c.startIndex, null);
        }
      }
    }
  }

  private unset(words: Word[], how: string, at: Node): void {
    if (words.some((w) => w.text === "-f")) return;
    for (const w of words) {
      if (w.text.startsWith("-")) continue;
      if (w.dynamic) {
        this.computedName(w.text, how);
        continue;
      }
      const name = baseName(w.text);
      if (!NAME.test(name)) continue;
      this.touched.add(name);
      this.unknown(name, how);
      const sub = subscriptOf(w.text);
      if (sub !== null && !this.associative.has(name)) this.arith(sub, at, at.startIndex, null);
    }
  }

  private command(n: Node): void {
    const head = n.childForFieldName("name");
    if (head === null) return;
    let name = /['"\\$]/.test(head.text) ? wordFromNode(head).text : head.text;
    if (!(BUILTINS.has(name) || WRAPPERS.has(name) || /^(builtin|command|time)$/.test(name))) return;
    const args = n.childrenForFieldName("argument").filter((c): c is Node => c !== null);
    // `builtin read x`, `command printf -v x …`, `time let …` run the builtin in this shell.
    while ((name === "builtin" || name === "command" || name === "time") && args.length > 0) {
      if (name === "command" && /^-[vV]/.test(args[0]?.text ?? "")) return;
      if (name === "time" && args[0]?.text === "-p") args.shift();
      name = wordFromNode(args.shift() as Node).text;
    }
    // Behind a wrapper (`nohup let …`, `timeout 5 read …`) a builtin cannot run, but it is judged as if it did:
    // wrapping a command never lowers its verdict.
    if (WRAPPERS.has(name)) {
      const at = args.findIndex((a) => BUILTINS.has(a.text));
      if (at < 0) return;
      name = args[at]?.text ?? "";
      args.splice(0, at + 1);
    }
    const words = args.map(wordFromNode);
    switch (name) {
      case "eval":
      case "source":
      case ".":
      case "trap":
        this.poisoned ??= `${name} runs code that may assign any variable`;
        this.anyOrigins.push(n.text);
        return;
      case "set": {
        // `set -- a b`, `set a b`: the positional parameters take the words after the options (`-o NAME` takes one).
        let k = 0;
        while (k < words.length && /^[-+]/.test(words[k]?.text ?? "") && !/^(--|-)$/.test(words[k]?.text ?? ""))
          k += /^[-+]o$/.test(words[k]?.text ?? "") ? 2 : 1;
        if (/^(--|-)$/.test(words[k]?.text ?? "")) k++;
        if (k < args.length) {
          const origin = args
            .slice(k)
            .map((a) => a.text)
            .join(" ");
          const list = this.assignments.get(POSITIONAL) ?? [];
          list.push({ name: POSITIONAL, numeric: false, values: null, value: null, origin, within: null, after: 0, exclude: [] });
          this.assignments.set(POSITIONAL, list);
        }
        return;
      }
      case "let":
        for (const a of args) this.arith(wordFromNode(a).text, a, a.startIndex, statementScope(n));
        return;
      case "unset":
        this.unset(words, "unset", n);
        return;
      case "declare":
      case "typeset":
      case "local":
      case "export":
      case "readonly":
        // Reached only through `builtin`/`command`: names and values are not followed here.
        for (const w of evaluatedArgs(name, words).names) this.builtinName(w, name, args[0] ?? n);
        return;
      case "read":
      case "mapfile":
      case "readarray":
      case "printf":
      case "getopts":
      case "wait":
      case "test":
      case "[": {
        const ev = evaluatedArgs(name, words);
        if ((name === "mapfile" || name === "readarray") && ev.code.length > 0) {
          this.poisoned ??= `${name} -C runs a callback that may assign any variable`;
          this.anyOrigins.push(n.text);
        }
        // What the names take: read and mapfile their input (a file's content), printf -v its arguments.
        const origin = name === "read" || name === "mapfile" || name === "readarray" ? `$(${name})` : name === "printf" ? n.text : null;
        for (const w of ev.names) {
          if (ev.assigns) this.builtinName(w, name === "printf" ? "printf -v" : name === "wait" ? "wait -p" : name, n, origin);
          else this.subscriptWord(w, n);
        }
        if (ev.assigns && ev.names.length === 0) {
          if (name === "read") this.unknown("REPLY", "read", origin);
          if (name === "mapfile" || name === "readarray") this.unknown("MAPFILE", name, origin);
        }
        // getopts takes OPTARG from the words it parses (its own, or the positional parameters).
        if (name === "getopts") this.unknown("OPTARG", "getopts", args.length > 2 ? n.text : "$@");
        return;
      }
      default:
    }
  }

  /** A variable name a builtin assigns: computed, or a name with a subscript bash evaluates. */
  private builtinName(w: Word, how: string, at: Node, origin: string | null = null): void {
    const name = baseName(w.text);
    if (w.dynamic || /[$`]/.test(name)) {
      this.computedName(w.text, how, origin);
      return;
    }
    if (!NAME.test(name)) return;
    this.unknown(name, how, origin);
    if (SPECIAL_NUMERIC.has(name)) this.touched.add(name);
    this.subscriptWord(w, at);
  }

  private subscriptWord(w: Word, at: Node): void {
    const sub = subscriptOf(w.text);
    const name = baseName(w.text);
    if (sub !== null && !this.associative.has(name)) this.arith(sub, at, at.startIndex, null);
  }

  private subscript(name: string, index: Node | null): void {
    if (index === null || this.associative.has(name) || /^[@*]$/.test(index.text)) return;
    this.arith(index.text, index, index.startIndex, null);
  }

  private forLoop(n: Node): void {
    const variable = n.childForFieldName("variable")?.text ?? "";
    if (!NAME.test(variable)) return;
    const select = n.text.startsWith("select");
    const how = select ? "select" : "for";
    const body = n.childForFieldName("body");
    const items: Node[] = [];
    for (let i = 0; i < n.childCount; i++) if (n.fieldNameForChild(i) === "value") items.push(n.child(i) as Node);
    const where = body ? { within: body, after: body.startIndex, exclude: [] } : NOWHERE;
    if (select) this.unknown("REPLY", "select", "$(read)");
    // `for x; do` walks the positional parameters.
    if (items.length === 0) {
      this.record(variable, how, { numeric: false, values: null, value: null, origin: "$@", ...where });
      return;
    }
    let values: Value[] | null = select ? [{ text: "", glob: false }] : [];
    let numeric = !select;
    for (const item of items) {
      const w = wordFromNode(item);
      const range = item.type === "brace_expression" && /^\{-?\d+\.\.-?\d+(\.\.-?\d+)?\}$/.test(item.text);
      const seq = item.type === "command_substitution" && NUMERIC_SUBSTITUTION.test(item.text) && /\bseq\b/.test(item.text);
      if (!(range || seq || (!w.dynamic && !w.glob && numericText(w.text) && w.text.trim() !== ""))) numeric = false;
      if (w.dynamic || values === null) values = null;
      else values.push({ text: w.text, glob: w.glob });
    }
    if (values !== null && values.length > MAX_VALUES) values = null;
    const origin = select ? "$(read)" : items.map((i) => i.text).join(" ");
    this.record(variable, how, { numeric, values, value: null, origin, ...where });
  }

  private cFor(n: Node): void {
    const body = n.childForFieldName("body");
    const head = n.text.slice(0, body ? body.startIndex - n.startIndex : undefined);
    const open = head.indexOf("((");
    const close = head.lastIndexOf("))");
    if (open < 0 || close < open) return;
    const inner = head.slice(open + 2, close);
    const parts = inner.split(";");
    let offset = n.startIndex + open + 2;
    parts.forEach((part, i) => {
      const scope = i === 0 ? { within: n, after: offset + part.length, exclude: [] } : null;
      this.arith(part, n, offset, scope);
      offset += part.length + 1;
    });
  }

  private expansion(n: Node): void {
    const m = /^\$\{(!)?(#)?([A-Za-z_][A-Za-z0-9_]*|[@*]|\d+)(\[[^\]]*\])?([\s\S]*)\}$/.exec(n.text);
    if (!m) return;
    const [, bang, hash, name = "", sub, rest = ""] = m;
    if (sub && !/^\[[@*]\]$/.test(sub) && !this.associative.has(name)) this.arith(sub.slice(1, -1), n, n.startIndex, null);
    if (bang && !hash) {
      // `${!prefix*}`, `${!arr[@]}` list names or keys; anything else takes a name from the value.
      if (!/^[*@]/.test(rest) && !(sub && /^\[[@*]\]$/.test(sub))) this.uses.push({ kind: "indirect", name, pos: n.startIndex, node: n });
      return;
    }
    if (hash) return;
    if (/^@P/.test(rest)) this.uses.push({ kind: "prompt", name, pos: n.startIndex, node: n });
    // `${s:off:len}` (not `${x:-d}`, `${x:=d}` …): offset and length are arithmetic.
    if (/^:(?![-=?+])/.test(rest)) this.arith(rest.slice(1), n, n.startIndex, null);
    if (/^:?=/.test(rest) && NAME.test(name)) this.unknown(name, `\${${name}:=…}`);
  }

  private test(n: Node): void {
    const double = n.text.startsWith("[[");
    for (const e of n.descendantsOfType(["binary_expression", "unary_expression"])) {
      if (e === null) continue;
      const op = e.childForFieldName("operator")?.text ?? "";
      if (e.type === "unary_expression" && (op === "-v" || op === "-R")) {
        const operand = e.namedChildren.find((c) => c !== null && c.type !== "test_operator");
        if (operand) this.subscriptWord(wordFromNode(operand), operand);
      }
      if (double && e.type === "binary_expression" && /^-(eq|ne|lt|le|gt|ge)$/.test(op)) {
        for (const side of [e.childForFieldName("left"), e.childForFieldName("right")]) {
          if (side) this.arith(wordFromNode(side).text, side, side.startIndex, null);
        }
      }
    }
  }

  /**
   * An arithmetic expression at `pos`: its reads are uses; a top-level
   * `NAME=` assigns a number (holding from `scope` when the statement is
   * sure to have run it); one nested in it assigns a number too, surely
   * only when it runs.
   */
  private arith(expr: string, node: Node, pos: number, scope: Scope | null): void {
    const a = arithmeticNames(expr);
    for (const r of a.reads) this.uses.push({ kind: "arith", name: r.name, pos: pos + r.at, node });
    for (const s of a.substitutions) this.uses.push({ kind: "substitution", name: s, pos, node });
    for (const p of a.positional) this.uses.push({ kind: "positional", name: p, pos, node });
    for (const w of a.writes) {
      const top = w.top && scope !== null ? scope : NOWHERE;
      this.record(w.name, "arithmetic", { numeric: true, values: null, value: null, ...top });
    }
  }
}

/**
 * The names a builtin's words assign (evaluated.ts), for argv judged on its
 * own (behind a wrapper: `nohup printf -v PATH …`); the text's own commands
 * are read by Variables.
 */
export function builtinAssigned(name: string, args: readonly Word[]): Assigned[] {
  const ev = evaluatedArgs(name, args);
  const out: Assigned[] = [];
  const how = name === "printf" ? "printf -v" : name === "wait" ? "wait -p" : name;
  // `declare -p NAME`, `export -p`, `typeset -f NAME`: print, assign nothing (a `NAME=value` word still counts).
  const prints =
    ["declare", "typeset", "local", "export", "readonly"].includes(name) && args.some((a) => !a.dynamic && /^-[a-zA-Z]*[pfF]/.test(a.text));
  if (ev.assigns) {
    for (const w of ev.names) {
      if (prints && !args.some((a) => a.text.startsWith(`${w.text}=`) || a.text.startsWith(`${w.text}+=`) || a.dynamic)) continue;
      const base = baseName(w.text);
      const eq = args.find((a) => a !== w && a.text.startsWith(`${w.text}=`) && !a.dynamic);
      const literal = eq ? eq.text.slice(w.text.length + 1).replace(/^(["'])(.*)\1$/s, "$2") : null;
      out.push({ name: base, how, computed: w.dynamic || /[$`]/.test(base), literal });
    }
  }
  for (const r of ev.refs ?? []) out.push({ name: baseName(r.text), how: `${name} -n`, computed: r.dynamic, literal: null });
  return out;
}

/** A Value as the word it stands for. */
export function valueWord(v: Value): Word {
  return { text: v.text, dynamic: false, glob: v.glob, confusable: hasConfusable(v.text) };
}

/**
 * Quick test: a text that assigns nothing and has no place that evaluates a
 * value needs no tree walk (`--opt=x` assigns nothing; `$x` alone is not
 * known either way). Quotes or a backslash may hide a builtin's name.
 */
export function mayUseVariables(text: string): boolean {
  return (
    /\(\(|\$\[|(^|[\s;&|({])[A-Za-z_][A-Za-z0-9_]*(\[[^\]]*\])?\+?=|\s-(eq|ne|lt|le|gt|ge|v|R)\b|[A-Za-z0-9_]\[|\$\{[^}]*[:!@=]|\b(for|select)\b|[a-z]['"\\]+[a-z]/.test(
      text,
    ) || BUILTIN_WORD.test(text)
  );
}
