// The concurrence's own shell lexer: deliberately small, written apart from
// the classifier's tree-sitter parser so that one parser's blind spot is not
// the other's. It splits a command line into simple commands (words and
// redirections), pulls out every nested command text ($( ), backticks,
// <( ), >( ), unquoted heredoc bodies) for separate judgment, and marks
// words whose value is only known at run time ($VAR, ${ }, $( ), $'…') as
// dynamic and words with glob or brace patterns as globs. What it cannot
// take apart (unbalanced quotes or parentheses, a redirection without a
// target) is a LexError: the judge treats that as tier 4.

export interface Word {
  text: string;
  dynamic: boolean;
  glob: boolean;
  /** Starts with an unquoted ~ (home directory expansion). */
  tilde: boolean;
}

/** A word whose text is known as written. */
export const literalWord = (text: string): Word => ({ text, dynamic: false, glob: false, tilde: false });
/** A word whose value is only known at run time. */
export const dynamicWord = (text: string): Word => ({ text, dynamic: true, glob: false, tilde: false });

export interface Redirect {
  op: string;
  target?: Word;
}

export interface SimpleCommand {
  words: Word[];
  redirects: Redirect[];
  /** Receives a pipe on stdin. */
  pipedIn: boolean;
  /** Heredoc / here-string text fed to stdin, if any. */
  stdin?: string;
}

export interface Lexed {
  commands: SimpleCommand[];
  /** Command texts that run as part of this one ($( ), ` `, <( ), >( )). */
  nested: string[];
}

export class LexError extends Error {}

const OPERATOR_CHARS = new Set([";", "&", "|", "(", ")", "\n"]);

/** What arithmetic looks like: operators, numbers and names, never two words in a row. */
const ARITHMETIC = /^(?![\s\S]*[A-Za-z_][\w]*\s+[A-Za-z_./-])[\s\w+\-*/%<>=!&|^~?:(),$[\]#]*$/;

/** Index just past the `)` that closes the `(` at `open`, skipping quotes. */
export function closeParen(text: string, open: number): number {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    const c = text[i];
    if (c === "\\") i++;
    else if (c === "'") {
      const end = text.indexOf("'", i + 1);
      if (end < 0) throw new LexError("unbalanced single quote");
      i = end;
    } else if (c === '"') {
      i = closeDouble(text, i);
    } else if (c === "(") depth++;
    else if (c === ")" && --depth === 0) return i + 1;
  }
  throw new LexError("unbalanced parenthesis");
}

function closeDouble(text: string, open: number): number {
  for (let i = open + 1; i < text.length; i++) {
    const c = text[i];
    if (c === "\\") i++;
    else if (c === "$" && text[i + 1] === "(") i = closeParen(text, i + 1) - 1;
    else if (c === '"') return i;
  }
  throw new LexError("unbalanced double quote");
}

function closeBacktick(text: string, open: number): number {
  for (let i = open + 1; i < text.length; i++) {
    if (text[i] === "\\") i++;
    else if (text[i] === "`") return i;
  }
  throw new LexError("unbalanced backtick");
}

/** Nested command texts inside text that undergoes expansion (heredoc bodies). */
function substitutionsIn(text: string, into: string[]): void {
  for (let i = 0; i < text.length; i++) {
    if (text[i] === "\\") i++;
    else if (text[i] === "$" && text[i + 1] === "(") {
      const end = closeParen(text, i + 1);
      into.push(text.slice(i + 2, end - 1));
      i = end - 1;
    } else if (text[i] === "`") {
      const end = closeBacktick(text, i);
      into.push(text.slice(i + 1, end));
      i = end;
    }
  }
}

/** A heredoc whose body starts after the next newline. */
interface PendingHeredoc {
  delim: string;
  strip: boolean;
  expand: boolean;
  cmd: SimpleCommand;
}

const emptyCommand = (pipedIn: boolean): SimpleCommand => ({ words: [], redirects: [], pipedIn });

/** One walk over a command line: the command and word being built, and what is found. */
class Lexer {
  private readonly commands: SimpleCommand[] = [];
  private readonly nested: string[] = [];
  private readonly heredocs: PendingHeredoc[] = [];
  private cmd: SimpleCommand = emptyCommand(false);
  private word: Word | undefined;
  private pendingRedirect: Redirect | undefined;
  private i = 0;

  constructor(private readonly text: string) {}

  run(): Lexed {
    while (this.i < this.text.length) this.step(this.text[this.i] as string);
    this.endCommand(false);
    if (this.heredocs.length > 0) readHeredocs(this.text, this.text.length, this.heredocs, this.nested);
    return { commands: this.commands, nested: this.nested };
  }

  /** The word being built, started if there is none. */
  private w(): Word {
    this.word ??= literalWord("");
    return this.word;
  }

  private endWord(): void {
    if (!this.word) return;
    if (this.pendingRedirect) {
      this.pendingRedirect.target = this.word;
      this.cmd.redirects.push(this.pendingRedirect);
      this.pendingRedirect = undefined;
    } else this.cmd.words.push(this.word);
    this.word = undefined;
  }

  private endCommand(pipeNext: boolean): void {
    this.endWord();
    if (this.pendingRedirect) throw new LexError(`redirection ${this.pendingRedirect.op} without a target`);
    if (this.cmd.words.length > 0 || this.cmd.redirects.length > 0 || this.cmd.stdin !== undefined) this.commands.push(this.cmd);
    this.cmd = emptyCommand(pipeNext);
  }

  /** Reads what starts at the character `c` under the cursor. */
  private step(c: string): void {
    const next = this.text[this.i + 1];
    if (c === "\\") this.escaped();
    else if (c === "'") this.singleQuoted();
    else if (c === '"') this.doubleQuoted();
    else if (c === "`") this.backticked();
    else if (c === "$") this.dollar(next);
    else if (c === " " || c === "\t") {
      this.endWord();
      this.i++;
    } else if (c === "#" && !this.word) this.comment();
    else if ((c === "<" || c === ">") && next === "(") this.processSubstitution(c);
    else if (c === "<" || c === ">" || (c === "&" && next === ">")) this.redirection(c);
    else if (OPERATOR_CHARS.has(c)) this.operator(c);
    else this.plain(c);
  }

  private escaped(): void {
    if (this.text[this.i + 1] === "\n") this.i += 2;
    else {
      this.w().text += this.text[this.i + 1] ?? "";
      this.i += 2;
    }
  }

  private singleQuoted(): void {
    const end = this.text.indexOf("'", this.i + 1);
    if (end < 0) throw new LexError("unbalanced single quote");
    this.w().text += this.text.slice(this.i + 1, end);
    this.i = end + 1;
  }

  private doubleQuoted(): void {
    const end = closeDouble(this.text, this.i);
    const inner = this.text.slice(this.i + 1, end);
    const cur = this.w();
    if (/\$|`/.test(inner.replace(/\\[$`]/g, ""))) {
      cur.dynamic = true;
      substitutionsIn(inner, this.nested);
    }
    // A backslash-newline is removed (a line continuation), as bash does inside double quotes.
    cur.text += inner.replace(/\\(["\\$`\n])/g, (_m, c: string) => (c === "\n" ? "" : c));
    this.i = end + 1;
  }

  private backticked(): void {
    const end = closeBacktick(this.text, this.i);
    this.nested.push(this.text.slice(this.i + 1, end));
    this.w().dynamic = true;
    this.w().text += "`…`";
    this.i = end + 1;
  }

  /** `$( )`, `$(( ))`, `${ }`, `$'…'`, `$NAME` or a lone `$`. */
  private dollar(next: string | undefined): void {
    const cur = this.w();
    const before = cur.dynamic;
    cur.dynamic = true;
    if (next === "(") this.commandSubstitution(cur);
    else if (next === "{") {
      const end = this.text.indexOf("}", this.i + 2);
      if (end < 0) throw new LexError("unbalanced ${");
      substitutionsIn(this.text.slice(this.i + 2, end), this.nested);
      cur.text += this.text.slice(this.i, end + 1);
      this.i = end + 1;
    } else if (next === "'") {
      const end = this.text.indexOf("'", this.i + 2);
      if (end < 0) throw new LexError("unbalanced $'");
      cur.text += this.text.slice(this.i + 2, end);
      this.i = end + 1;
    } else {
      const m = /^\$([A-Za-z_][A-Za-z0-9_]*|[0-9@*#?$!-])?/.exec(this.text.slice(this.i)) ?? ["$"];
      // A lone `$` is literal text: the word stays what it was (`"$X"$` is still computed).
      if (m[0] === "$") cur.dynamic = before;
      cur.text += m[0];
      this.i += m[0].length;
    }
  }

  private commandSubstitution(cur: Word): void {
    const end = closeParen(this.text, this.i + 1);
    const inner = this.text.slice(this.i + 2, end - 1);
    // $(( … )) is arithmetic — unless what is inside reads as a command (a shell may take it as one).
    if (this.text[this.i + 2] !== "(" || !ARITHMETIC.test(inner.slice(1, -1))) this.nested.push(inner);
    cur.text += "$(…)";
    this.i = end;
  }

  private comment(): void {
    while (this.i < this.text.length && this.text[this.i] !== "\n") this.i++;
  }

  private processSubstitution(c: string): void {
    const end = closeParen(this.text, this.i + 1);
    this.nested.push(this.text.slice(this.i + 2, end - 1));
    this.w().dynamic = true;
    this.w().text += `${c}(…)`;
    this.i = end;
  }

  private redirection(c: string): void {
    // An all-digit word right before is the fd number, not an argument.
    if (this.word && /^[0-9]+$/.test(this.word.text) && !this.word.dynamic) this.word = undefined;
    this.endWord();
    if (this.pendingRedirect) throw new LexError(`redirection ${this.pendingRedirect.op} without a target`);
    const op = /^(<<<|<<-|<<|<>|<&|<|>>|>\||>&|>|&>>|&>)/.exec(this.text.slice(this.i))?.[0] ?? c;
    this.i += op.length;
    const rest = this.text.slice(this.i);
    if ((op === ">&" || op === "<&") && /^\s*([0-9]+|-)(?![^\s;&|<>()])/.test(rest)) {
      const m = /^\s*([0-9]+|-)/.exec(rest);
      this.i += m?.[0].length ?? 0; // fd duplication: no file
    } else if (op === "<<" || op === "<<-") this.heredoc(op, rest);
    else this.pendingRedirect = { op };
  }

  private heredoc(op: string, rest: string): void {
    const m = /^\s*(['"]?)([A-Za-z0-9_.-]+)\1/.exec(rest);
    if (!m || !m[2]) throw new LexError("heredoc without a delimiter");
    this.heredocs.push({ delim: m[2], strip: op === "<<-", expand: m[1] === "", cmd: this.cmd });
    this.i += m[0].length;
  }

  private operator(c: string): void {
    const pipe = c === "|" && this.text[this.i + 1] !== "|";
    this.endCommand(pipe);
    const two = this.text.slice(this.i, this.i + 2);
    this.i += ["&&", "||", ";;", "|&"].includes(two) ? 2 : 1;
    if (c === "\n" && this.heredocs.length > 0) this.i = readHeredocs(this.text, this.i, this.heredocs, this.nested);
  }

  private plain(c: string): void {
    const cur = this.w();
    if (c === "~" && cur.text === "" && !cur.dynamic) cur.tilde = true;
    if (c === "*" || c === "?" || c === "[") cur.glob = true;
    if (c === "{" && /^\{[^}\s]*(,|\.\.)[^}\s]*\}/.test(this.text.slice(this.i))) cur.glob = true;
    cur.text += c;
    this.i++;
  }
}

export function lex(text: string): Lexed {
  return new Lexer(text).run();
}

/** Reads the bodies of pending heredocs starting at `from`; returns where the script resumes. */
function readHeredocs(text: string, from: number, pending: PendingHeredoc[], nested: string[]): number {
  let i = from;
  while (pending.length > 0) {
    const doc = pending.shift();
    if (!doc) break;
    const lines: string[] = [];
    for (;;) {
      if (i >= text.length) break;
      const nl = text.indexOf("\n", i);
      const line = text.slice(i, nl < 0 ? text.length : nl);
      i = nl < 0 ? text.length : nl + 1;
      if ((doc.strip ? line.replace(/^\t+/, "") : line) === doc.delim) break;
      lines.push(line);
    }
    const body = lines.join("\n");
    if (doc.expand) substitutionsIn(body, nested);
    doc.cmd.stdin = (doc.cmd.stdin ?? "") + body;
  }
  return i;
}
