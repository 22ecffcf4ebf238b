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

export function lex(text: string): Lexed {
  const commands: SimpleCommand[] = [];
  const nested: string[] = [];
  let cmd: SimpleCommand = { words: [], redirects: [], pipedIn: false };
  let word: Word | undefined;
  let pendingRedirect: Redirect | undefined;
  const heredocs: Array<{ delim: string; strip: boolean; expand: boolean; cmd: SimpleCommand }> = [];

  const w = (): Word => (word ??= { text: "", dynamic: false, glob: false, tilde: false });
  const endWord = () => {
    if (!word) return;
    if (pendingRedirect) {
      pendingRedirect.target = word;
      cmd.redirects.push(pendingRedirect);
      pendingRedirect = undefined;
    } else cmd.words.push(word);
    word = undefined;
  };
  const endCommand = (pipeNext: boolean) => {
    endWord();
    if (pendingRedirect) throw new LexError(`redirection ${pendingRedirect.op} without a target`);
    if (cmd.words.length > 0 || cmd.redirects.length > 0 || cmd.stdin !== undefined) commands.push(cmd);
    cmd = { words: [], redirects: [], pipedIn: pipeNext };
  };

  let i = 0;
  while (i < text.length) {
    const c = text[i] as string;
    if (c === "\\") {
      if (text[i + 1] === "\n") i += 2;
      else {
        w().text += text[i + 1] ?? "";
        i += 2;
      }
      continue;
    }
    if (c === "'") {
      const end = text.indexOf("'", i + 1);
      if (end < 0) throw new LexError("unbalanced single quote");
      w().text += text.slice(i + 1, end);
      i = end + 1;
      continue;
    }
    if (c === '"') {
      const end = closeDouble(text, i);
      const inner = text.slice(i + 1, end);
      const cur = w();
      if (/\$|`/.test(inner.replace(/\\[$`]/g, ""))) {
        cur.dynamic = true;
        substitutionsIn(inner, nested);
      }
      cur.text += inner.replace(/\\(["\\$`])/g, "$1");
      i = end + 1;
      continue;
    }
    if (c === "`") {
      const end = closeBacktick(text, i);
      nested.push(text.slice(i + 1, end));
      w().dynamic = true;
      w().text += "`…`";
      i = end + 1;
      continue;
    }
    if (c === "$") {
      const next = text[i + 1];
      const cur = w();
      cur.dynamic = true;
      if (next === "(") {
        const end = closeParen(text, i + 1);
        const inner = text.slice(i + 2, end - 1);
        // $(( … )) is arithmetic — unless what is inside reads as a command (a shell may take it as one).
        if (text[i + 2] !== "(" || !ARITHMETIC.test(inner.slice(1, -1))) nested.push(inner);
        cur.text += "$(…)";
        i = end;
      } else if (next === "{") {
        const end = text.indexOf("}", i + 2);
        if (end < 0) throw new LexError("unbalanced ${");
        substitutionsIn(text.slice(i + 2, end), nested);
        cur.text += text.slice(i, end + 1);
        i = end + 1;
      } else if (next === "'") {
        const end = text.indexOf("'", i + 2);
        if (end < 0) throw new LexError("unbalanced $'");
        cur.text += text.slice(i + 2, end);
        i = end + 1;
      } else {
        const m = /^\$([A-Za-z_][A-Za-z0-9_]*|[0-9@*#?$!-])?/.exec(text.slice(i)) ?? ["$"];
        if (m[0] === "$") cur.dynamic = false;
        cur.text += m[0];
        i += m[0].length;
      }
      continue;
    }
    if (c === " " || c === "\t") {
      endWord();
      i++;
      continue;
    }
    if (c === "#" && !word) {
      while (i < text.length && text[i] !== "\n") i++;
      continue;
    }
    if ((c === "<" || c === ">") && text[i + 1] === "(") {
      const end = closeParen(text, i + 1);
      nested.push(text.slice(i + 2, end - 1));
      w().dynamic = true;
      w().text += `${c}(…)`;
      i = end;
      continue;
    }
    if (c === "<" || c === ">" || (c === "&" && text[i + 1] === ">")) {
      // An all-digit word right before is the fd number, not an argument.
      if (word && /^[0-9]+$/.test(word.text) && !word.dynamic) word = undefined;
      endWord();
      if (pendingRedirect) throw new LexError(`redirection ${pendingRedirect.op} without a target`);
      const op = /^(<<<|<<-|<<|<>|<&|<|>>|>\||>&|>|&>>|&>)/.exec(text.slice(i))?.[0] ?? c;
      i += op.length;
      if ((op === ">&" || op === "<&") && /^\s*([0-9]+|-)(?![^\s;&|<>()])/.test(text.slice(i))) {
        const m = /^\s*([0-9]+|-)/.exec(text.slice(i));
        i += m?.[0].length ?? 0;
        continue; // fd duplication: no file
      }
      if (op === "<<" || op === "<<-") {
        const m = /^\s*(['"]?)([A-Za-z0-9_.-]+)\1/.exec(text.slice(i));
        if (!m || !m[2]) throw new LexError("heredoc without a delimiter");
        heredocs.push({ delim: m[2], strip: op === "<<-", expand: m[1] === "", cmd });
        i += m[0].length;
        continue;
      }
      pendingRedirect = { op };
      continue;
    }
    if (OPERATOR_CHARS.has(c)) {
      const pipe = c === "|" && text[i + 1] !== "|";
      endCommand(pipe);
      const two = text.slice(i, i + 2);
      i += ["&&", "||", ";;", "|&"].includes(two) ? 2 : 1;
      if (c === "\n" && heredocs.length > 0) i = readHeredocs(text, i, heredocs, nested);
      continue;
    }
    const cur = w();
    if (c === "~" && cur.text === "" && !cur.dynamic) cur.tilde = true;
    if (c === "*" || c === "?" || c === "[") cur.glob = true;
    if (c === "{" && /^\{[^}\s]*(,|\.\.)[^}\s]*\}/.test(text.slice(i))) cur.glob = true;
    cur.text += c;
    i++;
  }
  endCommand(false);
  if (heredocs.length > 0) readHeredocs(text, text.length, heredocs, nested);
  return { commands, nested };
}

/** Reads the bodies of pending heredocs starting at `from`; returns where the script resumes. */
function readHeredocs(
  text: string,
  from: number,
  pending: Array<{ delim: string; strip: boolean; expand: boolean; cmd: SimpleCommand }>,
  nested: string[],
): number {
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
