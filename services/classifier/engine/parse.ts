// Shell parsing with tree-sitter-bash: load the grammar once, then split a
// command line into the simple commands it would run, wherever they sit
// (pipelines, lists, subshells, groups, loops, substitutions, heredoc
// continuations). Every `command` node in the tree becomes one part; nothing
// in the tree is skipped, so no construct can hide a command from the judge.
import { createRequire } from "node:module";
import { Language, Parser } from "web-tree-sitter";
import { copyTree, type SyntaxNode as Node } from "./syntax-tree.js";
import { codeSite } from "./code-sites.js";
import type { CodeSite } from "./code-sites.js";
import { wordFromNode } from "./normalise.js";
import { outputOf, unknownPipe } from "./pipe-input.js";
import type { Redirect, SimpleCommand, StdinSource, Word } from "./types.js";
import { mayUseVariables, valueWord, Variables } from "./variables.js";
import type { Assigned } from "./variables.js";
import { literalWord } from "./unwrap.js";

export interface ParseResult {
  commands: SimpleCommand[];
  /** True when the tree holds ERROR or MISSING nodes: the input is not well-formed shell. */
  error: boolean;
  /** Every variable the text assigns, however (variables.ts). */
  assigned: Assigned[];
  /** A place bash evaluates a value not known to be safe as code (code-sites.ts), or null. */
  site: CodeSite | null;
}

export interface BashParser {
  /** `carried`: the texts values handed to this code come from (Context.carried). */
  parse(text: string, carried?: readonly string[]): ParseResult;
}

let language: Language | null = null;

export async function loadBashParser(): Promise<BashParser> {
  if (language === null) {
    await Parser.init();
    const wasm = createRequire(import.meta.url).resolve("tree-sitter-bash/tree-sitter-bash.wasm");
    language = await Language.load(wasm);
  }
  const parser = new Parser();
  parser.setLanguage(language);
  const bash: BashParser = {
    parse(line: string, carried?: readonly string[]): ParseResult {
      // The grammar settles a pipeline of three or more stages, or a `[ … ]`, much faster when the input ends
      // its last line (the parse at end of input tries every reduction left open). Nothing else changes:
      // a trailing backslash is left alone (bash keeps it as a literal; before a newline it would join lines).
      const text = line.endsWith("\n") || line.endsWith("\\") ? line : `${line}\n`;
      const tree = parser.parse(text);
      if (tree === null) return { commands: [], error: true, assigned: [], site: null };
      let root: Node;
      let error: boolean;
      try {
        root = copyTree(tree, text);
        error = tree.rootNode.hasError;
      } finally {
        tree.delete();
      }
      const vars = mayUseVariables(text) ? new Variables(root, text) : null;
      const walker = new Walker(vars, carried !== undefined && carried.length > 0 ? carried : null);
      walker.walk(root, null);
      const result: ParseResult = {
        commands: walker.commands,
        error: error || walker.misparsed || continuationMisread(text),
        assigned: vars?.assigned ?? [],
        site: vars ? codeSite(vars) : null,
      };
      // Backticks the grammar left as text (heredoc bodies, parameter expansions) run as commands; so do
      // `$(…)` in a heredoc body, which the grammar leaves as text after a line's leading blanks.
      const heredocSubs = text.includes("<<") && text.includes("$(");
      const found = text.includes("`") || heredocSubs ? unparsedBackticks(root) : [];
      // More code than a command line can sensibly hide is not judged piece by piece: not known (a stall otherwise).
      if (found.length > MAX_UNPARSED || found.reduce((n, c) => n + (c?.length ?? 0), 0) > MAX_UNPARSED_BYTES) {
        result.error = true;
        return result;
      }
      for (const code of found) {
        if (code === null) {
          result.error = true;
          continue;
        }
        const inner = bash.parse(code, carried);
        result.commands.push(...inner.commands);
        result.assigned.push(...inner.assigned);
        result.error ||= inner.error;
        result.site ??= inner.site;
      }
      return result;
    },
  };
  return bash;
}

/** An odd run of backslashes (the last one escapes what follows) before a CR or an LF. */
const ESCAPED_BREAK = /(?<!\\)(?:\\\\)*\\([\r\n])/g;
/** A newline no backslash escapes (an even run of them, or none, before it). */
const UNESCAPED_NEWLINE = /(?<!\\)(?:\\\\)*\n/;
const BLANK = /[ \t\n]/;

/**
 * A line continuation the grammar reads otherwise than bash. Bash removes a
 * backslash-newline before it splits words, so `ss\⏎h -o ProxyCommand=…`
 * runs ssh and `tr\⏎uncate -s 0 f` truncates f, where the grammar reads the
 * pair as a blank between two words (`ss`, `h`). And bash reads backslash-CR
 * as an escaped CR, so the LF after it ends the command (`ls \<CR><LF>rm -rf
 * ~` runs rm), where the grammar takes `\<CR><LF>` as one continuation and
 * the second line as more arguments. Either is not parsed as bash would run
 * it: the input is not well-formed for the judge (single quotes and comments
 * are not told apart here — a continuation there is rare, and over-judged).
 */
function continuationMisread(text: string): boolean {
  if (!text.includes("\\\n") && !text.includes("\\\r")) return false;
  for (const m of text.matchAll(ESCAPED_BREAK)) {
    if (m[1] === "\r") return true;
    const before = text[m.index - 1];
    const after = text[m.index + m[0].length];
    if (before !== undefined && !BLANK.test(before) && after !== undefined && !BLANK.test(after)) return true;
  }
  return false;
}

/**
 * A simple command the grammar carried over a line break: between two of its
 * parts lies a newline no backslash continues. Bash ends the command there
 * and runs the next line on its own; tree-sitter-bash sometimes does not
 * (after a pipeline of three stages, `ls | grep x | head -30⏎touch ~/.bashrc
 * && cd s` made `touch` and `~/.bashrc` arguments of head).
 */
function joinsLines(node: Node): boolean {
  const text = node.text;
  if (!text.includes("\n")) return false;
  let from = node.startIndex;
  for (let i = 0; i <= node.childCount; i++) {
    const c = i < node.childCount ? node.child(i) : null;
    const to = c === null ? node.endIndex : c.startIndex;
    const gap = text.slice(from - node.startIndex, to - node.startIndex);
    if (UNESCAPED_NEWLINE.test(gap)) return true;
    if (c !== null) from = c.endIndex;
  }
  return false;
}

/** At most this many pieces of code the grammar left as text, and this much of it, are parsed and judged. */
const MAX_UNPARSED = 64;
const MAX_UNPARSED_BYTES = 16 * 1024;

const kids = (n: Node): Node[] => n.namedChildren.filter((c): c is Node => c !== null);

class Walker {
  readonly commands: SimpleCommand[] = [];
  /** A heredoc's body the grammar hung on a command after it (heredocSwallowed): the parse is not to be trusted. */
  misparsed = false;

  constructor(
    private readonly vars: Variables | null,
    private readonly carried: readonly string[] | null,
  ) {}

  walk(node: Node, stdin: StdinSource | null): void {
    switch (node.type) {
      case "command":
        this.command(node, [], stdin);
        return;
      case "redirected_statement":
        this.redirected(node, stdin);
        return;
      case "pipeline":
        this.pipeline(node, stdin);
        return;
      case "variable_assignment":
        if (validAssignment(node)) this.commands.push(bare(node, [], [assignment(node, (n) => this.word(n))]));
        else this.commands.push({ words: [wordFromNode(node)], assigns: [], redirects: [], stdin, source: node.text });
        this.children(node);
        return;
      case "declaration_command":
      case "unset_command":
        this.declaration(node);
        return;
      case "function_definition":
        this.functionDef(node);
        return;
      case "test_command":
        this.testCommand(node);
        return;
      case "comment":
        return;
      case "command_substitution":
        this.fileSubstitution(node);
        this.children(node);
        return;
      default:
        this.children(node);
    }
  }

  /**
   * `$(< FILE)`: bash substitutes FILE's content, as `$(cat FILE)` does — the
   * grammar gives it no command, only a redirection; judged as `cat FILE`.
   */
  private fileSubstitution(node: Node): void {
    const inner = kids(node);
    if (inner.length === 0 || !inner.every((c) => c.type === "file_redirect")) return;
    for (const c of inner) {
      const r = redirectOf(c, (n) => this.word(n));
      if (r === null) continue;
      if (r.op !== "<") {
        // Any other redirection alone in a substitution (`$(> f)`) is what it is on its own.
        this.commands.push({ ...bare(node, [r], []), source: c.text });
        continue;
      }
      this.commands.push({ words: [literalWord("cat"), r.target], assigns: [], redirects: [], stdin: null, source: node.text });
    }
  }

  private children(node: Node): void {
    for (const c of kids(node)) this.walk(c, null);
  }

  private command(node: Node, extra: Redirect[], stdin: StdinSource | null, trailing: Word[] = []): SimpleCommand {
    const words: Word[] = [];
    const assigns: SimpleCommand["assigns"] = [];
    const redirects: Redirect[] = [...extra];
    let input = stdin;
    for (let i = 0; i < node.childCount; i++) {
      const c = node.child(i);
      if (c === null || !c.isNamed) continue;
      const field = node.fieldNameForChild(i);
      // The grammar takes `--exec=sh` for an assignment; bash only takes NAME=… with NAME an identifier, and runs the rest.
      if (c.type === "variable_assignment" && words.length === 0 && validAssignment(c)) assigns.push(assignment(c, (n) => this.word(n)));
      else if (c.type === "variable_assignment") words.push(wordFromNode(c));
      else if (field === "redirect" || c.type.endsWith("_redirect")) {
        const r = redirectOf(c, (n) => this.word(n));
        if (r) redirects.push(r);
        // `find 2>/dev/null / -delete`: the grammar hangs the words after a
        // redirection's target on the redirection; they are arguments.
        words.push(...redirectArguments(c));
        if (c.type === "herestring_redirect") input = this.carrying(herestring(c));
      } else if (c.type !== "comment" && !isFdPrefix(c, node.child(i + 1) ?? following(node))) words.push(this.word(c));
    }
    words.push(...trailing);
    if (joinsLines(node)) this.misparsed = true;
    const cmd: SimpleCommand = { words, assigns, redirects, stdin: input, source: node.text, end: node.endIndex };
    this.commands.push(cmd);
    this.children(node);
    return cmd;
  }

  private redirected(node: Node, stdin: StdinSource | null): void {
    const body = node.childForFieldName("body");
    const redirects: Redirect[] = [];
    let input = stdin;
    const later: Node[] = [];
    const trailing: Word[] = [];
    for (const r of kids(node)) {
      if (body !== null && r.id === body.id) continue;
      trailing.push(...redirectArguments(r));
      if (r.type === "heredoc_redirect") {
        input = this.carrying(heredoc(r));
        if (heredocSwallowed(r)) this.misparsed = true;
        for (const inner of kids(r)) {
          if (inner.type === "file_redirect") {
            const x = redirectOf(inner, (n) => this.word(n));
            if (x) redirects.push(x);
          } else later.push(inner);
        }
      } else {
        const x = redirectOf(r, (n) => this.word(n));
        if (x) redirects.push(x);
        if (r.type === "herestring_redirect") input = this.carrying(herestring(r));
        else later.push(r);
      }
    }
    let head: SimpleCommand | null = null;
    if (body?.type === "command") head = this.command(body, redirects, input, trailing);
    else {
      // Words after a compound command's redirection: bash refuses them; judged as a command anyway.
      if (trailing.length > 0) this.commands.push({ words: trailing, assigns: [], redirects: [], stdin: null, source: node.text });
      const before = this.commands.length;
      if (body) this.walk(body, stdin);
      // `a && b <<EOF`: the heredoc feeds the last simple command written before it.
      if (input !== stdin && body) head = this.lastBefore(before, body.endIndex);
      if (head) head.stdin = input;
      if (redirects.length > 0) this.commands.push(bare(node, redirects, []));
    }
    this.continuations(later, head, input);
  }

  /** Heredoc continuations (`cat <<EOF | sh`, `… <<EOF && x`) hang under the redirect node. */
  private continuations(nodes: Node[], head: SimpleCommand | null, input: StdinSource | null): void {
    for (const n of nodes) {
      if (n.type === "pipeline") {
        const stages = kids(n);
        let prev = head ? outputOf(head, input) : unknownPipe();
        for (const s of stages) {
          this.walk(s, prev);
          prev = unknownPipe();
        }
      } else if (n.type === "heredoc_body" || n.type === "heredoc_start" || n.type === "heredoc_end") {
        this.children(n);
      } else this.walk(n, null);
    }
  }

  private lastBefore(from: number, end: number): SimpleCommand | null {
    let best: SimpleCommand | null = null;
    for (const c of this.commands.slice(from)) {
      if (c.words.length > 0 && (c.end ?? 0) <= end && (best === null || (c.end ?? 0) >= (best.end ?? 0))) best = c;
    }
    return best;
  }

  private pipeline(node: Node, stdin: StdinSource | null): void {
    let input = stdin;
    for (const stage of kids(node)) {
      const before = this.commands.length;
      this.walk(stage, input);
      const produced = this.commands[before];
      input = produced && stage.type !== "pipeline" ? outputOf(produced, produced.stdin) : unknownPipe();
    }
  }

  /**
   * A word computed from variables whose values the command pins down
   * (`for f in src/*.ts; do … "$f"`, `f=README.md; cat "$f"`) carries the
   * literal words it may become (variables.ts); the option check and the
   * effect analysis judge those.
   */
  private word(c: Node): Word {
    const w = wordFromNode(c);
    if (this.vars === null && this.carried === null) return w;
    if (!w.dynamic) {
      // A `$X` in a literal is code for a shell the command starts (`bash -c 'curl …/$X'` after `export X=…`).
      const origins = this.vars !== null && w.text.includes("$") ? this.vars.origins(w.text) : [];
      return origins.length > 0 ? { ...w, origins } : w;
    }
    const values = this.vars?.wordValues(c);
    if (values) return { ...w, loopValues: values.map(valueWord) };
    const origins = this.originsOf(w.text);
    return origins.length > 0 ? { ...w, origins } : w;
  }

  /** What the variables `text` expands were made of: assigned in this text, or handed to this code (Context.carried). */
  private originsOf(text: string): string[] {
    const own = this.vars?.origins(text) ?? [];
    return this.carried !== null && PARAMETER.test(text) ? [...own, ...this.carried] : own;
  }

  /** An input document or string with what its variables were made of (StdinSource.origins). */
  private carrying(input: StdinSource): StdinSource {
    if (!input.dynamic || input.text === null || (this.vars === null && this.carried === null)) return input;
    const origins = this.originsOf(input.text);
    return origins.length > 0 ? { ...input, origins } : input;
  }

  private functionDef(node: Node): void {
    const name = node.childForFieldName("name")?.text ?? "";
    const body = node.childForFieldName("body");
    const calls = body ? body.descendantsOfType("command_name").some((c) => c !== null && c.text === name) : false;
    const forks = body ? /[|&]/.test(body.text) : false;
    this.commands.push({ ...bare(node, [], []), fn: { name, recursive: calls, forks } });
    this.children(node);
  }

  /**
   * `[ … ]` and `[[ … ]]`: one part whose words are the operators and
   * operands in order (the builtin evaluates some: `-v NAME`, arithmetic
   * operands), plus whatever runs inside them.
   */
  private testCommand(node: Node): void {
    const open = node.text.startsWith("[[") ? "[[" : node.text.startsWith("[") ? "[" : "test";
    const words: Word[] = [literalWord(open)];
    const leaves = (n: Node): void => {
      for (const c of n.children) {
        if (c === null) continue;
        if (/_expression$/.test(c.type)) leaves(c);
        else if (c.type === "test_operator" || !c.isNamed) {
          if (!["[", "]", "[[", "]]"].includes(c.text)) words.push(literalWord(c.text));
        } else words.push(wordFromNode(c));
      }
    };
    leaves(node);
    words.push(literalWord(open === "[[" ? "]]" : "]"));
    this.commands.push({ words, assigns: [], redirects: [], stdin: null, source: node.text });
    this.children(node);
  }

  private declaration(node: Node): void {
    const words: Word[] = [];
    for (const c of node.children) {
      if (c === null) continue;
      if (!c.isNamed) words.push(literalWord(c.text));
      else if (c.type === "variable_assignment" || c.type === "variable_name")
        words.push({ ...wordFromNode(c), text: c.text, glob: false });
      else words.push(wordFromNode(c));
    }
    this.commands.push({ words, assigns: [], redirects: [], stdin: null, source: node.text });
    this.children(node);
  }
}

function bare(node: Node, redirects: Redirect[], assigns: SimpleCommand["assigns"]): SimpleCommand {
  return { words: [], assigns, redirects, stdin: null, source: node.text };
}

/** NAME=… or NAME[SUB]=… with NAME an identifier: otherwise bash runs the word as a command. */
function validAssignment(node: Node): boolean {
  return /^[A-Za-z_][A-Za-z0-9_]*(\[.*\])?\+?=/s.test(node.text);
}

function assignment(node: Node, word: (n: Node) => Word): { name: string; value: Word } {
  const name = node.childForFieldName("name")?.text ?? "";
  const v = node.childForFieldName("value");
  return { name, value: v ? word(v) : literalWord("") };
}

/** A parameter expansion (`$X`, `${X…}`, `$1`, `$@`): what a value handed to the code may reach. */
const PARAMETER = /\$(?:\{|[A-Za-z_0-9@*])/;

/** Words the grammar put on a redirection after its target (they belong to the command). */
function redirectArguments(node: Node): Word[] {
  if (node.type !== "file_redirect") return [];
  const out: Word[] = [];
  let seen = false;
  for (let i = 0; i < node.childCount; i++) {
    const c = node.child(i);
    if (c === null || !c.isNamed || node.fieldNameForChild(i) !== "destination") continue;
    if (seen) out.push(wordFromNode(c));
    seen = true;
  }
  return out;
}

/** The node right after `node` in the text: its next sibling, or its nearest ancestor's. */
function following(node: Node): Node | null {
  for (let n: Node | null = node; n !== null; n = n.parent) if (n.nextSibling) return n.nextSibling;
  return null;
}

/** `0</dev/tcp/…`: a bare number glued to the redirection after it is its file descriptor, not a word. */
function isFdPrefix(node: Node, next: Node | null): boolean {
  return next !== null && next.type.endsWith("_redirect") && /^\d+$/.test(node.text) && node.endIndex === next.startIndex;
}

function redirectOf(node: Node, word: (n: Node) => Word): Redirect | null {
  if (node.type === "herestring_redirect" || node.type === "heredoc_redirect") return null;
  let op = "";
  let target: Word | null = null;
  for (let i = 0; i < node.childCount; i++) {
    const c = node.child(i);
    if (c === null) continue;
    if (!c.isNamed) op = c.text;
    else if (node.fieldNameForChild(i) === "destination" && target === null) target = word(c);
  }
  if (target === null) return null;
  if ((op === ">&" || op === "<&") && /^(\d+|-)$/.test(target.text)) return null;
  return { op, target };
}

/**
 * Backticks the grammar left as text, which bash runs as commands: in the
 * body of an unquoted heredoc (`cat <<EOF` then a line holding `` `rm -rf
 * ~` ``) and inside a parameter expansion (`${x:-`cmd`}`, `${x/`cmd`/}`).
 * Not in single quotes, `$'…'`, comments or a quoted heredoc. A backslash
 * quotes the next character; an unclosed backtick gives null.
 */
function unparsedBackticks(root: Node): Array<string | null> {
  const out: Array<string | null> = [];
  const stack: Node[] = [root];
  while (stack.length > 0) {
    const n = stack.pop() as Node;
    if (n.type === "raw_string" || n.type === "ansi_c_string" || n.type === "comment") continue;
    if (n.type === "heredoc_redirect") {
      if (quotedHeredoc(n)) {
        stack.push(...kids(n).filter((c) => c.type !== "heredoc_body"));
        continue;
      }
    }
    // Inside backticks bash removes the backslash of `\``, `\$` and `\\` (and `\"` in double quotes) before it
    // parses the text, so `` `echo \`cmd\`` `` runs cmd, which the grammar reads as a word (round 30). The text as
    // bash reads it is judged too, both ways for `\"`.
    if (n.type === "command_substitution" && n.text.startsWith("`") && /\\[`$\\"]/.test(n.text)) {
      const body = n.text.slice(1, n.text.endsWith("`") ? -1 : undefined);
      out.push(body.replace(/\\([`$\\])/g, "$1"));
      if (body.includes('\\"')) out.push(body.replace(/\\([`$\\"])/g, "$1"));
    }
    if (n.type === "heredoc_body" || (LEAF_TEXT.has(n.type) && kids(n).length === 0)) {
      if (n.text.includes("`")) out.push(...backtickCode(n.text));
      // Those the grammar did parse are judged twice: the same verdict.
      if (n.type === "heredoc_body" && n.text.includes("$(")) out.push(...dollarParenCode(n.text));
      if (n.type !== "heredoc_body") continue;
    }
    stack.push(...kids(n));
  }
  return out;
}

/** Nodes whose text the grammar does not parse further. */
const LEAF_TEXT = new Set(["word", "regex", "extglob_pattern", "string_content"]);

function backtickCode(text: string): Array<string | null> {
  const out: Array<string | null> = [];
  let open = -1;
  for (let i = 0; i < text.length; i++) {
    if (text[i] === "\\") i++;
    else if (text[i] === "`") {
      if (open === -1) open = i;
      else {
        out.push(text.slice(open + 1, i).replace(/\\(?=[`$\\])/g, ""));
        open = -1;
      }
    }
  }
  if (open !== -1) out.push(null);
  return out;
}

/**
 * The `$(…)` substitutions in a heredoc body's text (each nested one too;
 * `$((…))` is arithmetic, whose own substitutions are found as the scan
 * goes on). A backslash quotes the next character; quotes count only inside
 * a substitution; an unclosed one gives null.
 */
function dollarParenCode(text: string): Array<string | null> {
  const out: Array<string | null> = [];
  for (let i = 0; i < text.length; i++) {
    if (text[i] === "\\") {
      i++;
      continue;
    }
    if (text[i] !== "$" || text[i + 1] !== "(" || text[i + 2] === "(") continue;
    let depth = 0;
    let quote = "";
    let j = i + 1;
    for (; j < text.length; j++) {
      const c = text[j];
      if (c === "\\" && quote !== "'") j++;
      else if (quote !== "") {
        if (c === quote) quote = "";
      } else if (c === "'" || c === '"') quote = c;
      else if (c === "(") depth++;
      else if (c === ")" && --depth === 0) break;
    }
    out.push(j < text.length ? text.slice(i + 2, j) : null);
    // The outermost only: parsing it finds the ones nested in it (pushing each again re-judged them all, roughly
    // cubic in the nesting: 200 levels took seconds).
    i = j;
  }
  return out;
}

/** Text a heredoc body expands (`$X`, `${…}`, `$(…)`, `$((…))`, `` ` ``) unless a backslash quotes it. */
const EXPANDS = /(?:^|[^\\])(?:\$[A-Za-z_{(!#@*?$0-9-]|`)/;

/** `<<'EOF'`, `<<"EOF"`, `<<\EOF`: the body is text, nothing in it is expanded. */
function quotedHeredoc(node: Node): boolean {
  return /['"\\]/.test(kids(node).find((c) => c.type === "heredoc_start")?.text ?? "");
}

function heredoc(node: Node): StdinSource {
  const body = kids(node).find((c) => c.type === "heredoc_body");
  const quoted = quotedHeredoc(node);
  // A body whose first line begins with a backslash (`bash <<'X'` then `\rm -rf ~`) is misparsed by the grammar:
  // that line becomes words of the redirect and the body node is empty (review 27: judged "nothing to run", tier 0).
  // The body is then the source text between the start line and the end marker.
  const raw = rawHeredocBody(node);
  if (raw !== null && raw !== (body?.text ?? "")) return { kind: "heredoc", text: raw, dynamic: !quoted && EXPANDS.test(raw) };
  // The grammar leaves an expansion after a line's leading blanks as text (`<<-EOF` bodies): the text says.
  const dynamic = !quoted && body !== undefined && (kids(body).some((c) => c.type !== "heredoc_content") || EXPANDS.test(body.text));
  return { kind: "heredoc", text: body?.text ?? "", dynamic };
}

/**
 * A misparsed heredoc (rawHeredocBody differs from the grammar's body) whose first body line the grammar hung on a
 * command that follows it (`cat <<'X' | bash` then `\rm -rf ~`: bash's "arguments"), not only on the redirect.
 */
function heredocSwallowed(node: Node): boolean {
  const raw = rawHeredocBody(node);
  if (raw === null || raw === (kids(node).find((c) => c.type === "heredoc_body")?.text ?? "")) return false;
  const start = kids(node).find((c) => c.type === "heredoc_start");
  const newline = start === undefined ? -1 : node.text.indexOf("\n", start.endIndex - node.startIndex);
  if (newline < 0) return false;
  return kids(node).some((c) => !HEREDOC_OWN.has(c.type) && c.endIndex > node.startIndex + newline);
}

/** A heredoc redirect's own parts (and the words a misparsed first body line becomes). */
const HEREDOC_OWN = new Set([
  "<<",
  "<<-",
  "heredoc_start",
  "heredoc_body",
  "heredoc_end",
  "file_redirect",
  "word",
  "concatenation",
  "string",
  "raw_string",
  "ansi_c_string",
  "translated_string",
  "number",
  "simple_expansion",
  "expansion",
]);

/** A heredoc's body as written: from the line after `<<WORD` to its end marker, or null when there is no end marker. */
function rawHeredocBody(node: Node): string | null {
  const start = kids(node).find((c) => c.type === "heredoc_start");
  const end = kids(node).find((c) => c.type === "heredoc_end");
  if (start === undefined || end === undefined) return null;
  const text = node.text;
  const from = text.indexOf("\n", start.endIndex - node.startIndex);
  const to = end.startIndex - node.startIndex;
  return from < 0 || from >= to ? null : text.slice(from + 1, to);
}

function herestring(node: Node): StdinSource {
  const w = kids(node)[0];
  const word = w ? wordFromNode(w) : null;
  return { kind: "herestring", text: word?.text ?? "", dynamic: word?.dynamic ?? true };
}
