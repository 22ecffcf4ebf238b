// A deliberately small shell word splitter for the sandbox's own checks
// (live-service detection, static path checks). The classifier parses with a
// real grammar; this only has to see simple commands and their words, and
// errs towards seeing more commands (every `(`, `$(`, backtick and operator
// starts a new one). Quotes are removed; expansions are left as text.

export interface SimpleCommand {
  words: string[];
  /** Targets of output redirections (`>`, `>>`, `&>`, `>|`, `N>`). */
  writes: string[];
}

const SEPARATORS = new Set([";", "&", "|", "\n", "(", ")", "`"]);

export function simpleCommands(text: string): SimpleCommand[] {
  const out: SimpleCommand[] = [];
  let cur: SimpleCommand = { words: [], writes: [] };
  let word = "";
  let inWord = false;
  let redirect = false;
  const endWord = () => {
    if (!inWord) return;
    if (redirect) {
      cur.writes.push(word);
      redirect = false;
    } else cur.words.push(word);
    word = "";
    inWord = false;
  };
  const endCommand = () => {
    endWord();
    if (cur.words.length > 0 || cur.writes.length > 0) out.push(cur);
    cur = { words: [], writes: [] };
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (c === "'" || c === '"') {
      const close = text.indexOf(c, i + 1);
      const end = close === -1 ? text.length : close;
      word += text.slice(i + 1, end);
      inWord = true;
      i = end;
    } else if (c === "\\" && i + 1 < text.length) {
      word += text[i + 1];
      inWord = true;
      i++;
    } else if (c === ">") {
      // `2>`, `&>`: the descriptor is not a word of the command.
      if (/^\d+$/.test(word)) {
        word = "";
        inWord = false;
      } else endWord();
      while (text[i + 1] === ">" || text[i + 1] === "|") i++;
      if (text[i + 1] === "&") {
        // `>&2`: duplication, not a file.
        i++;
        while (i + 1 < text.length && /[0-9-]/.test(text[i + 1] as string)) i++;
      } else redirect = true;
    } else if (c === "$" && text[i + 1] === "(") {
      endCommand();
      i++;
    } else if (SEPARATORS.has(c)) {
      endCommand();
    } else if (c === " " || c === "\t") {
      endWord();
    } else if (c === "#" && !inWord) {
      const nl = text.indexOf("\n", i);
      i = nl === -1 ? text.length : nl - 1;
    } else {
      word += c;
      inWord = true;
    }
  }
  endCommand();
  return out;
}

const PREFIXES: Record<string, RegExp | undefined> = {
  // prefix command → which of its own options take a value
  sudo: /^-(u|g|C|D|h|p|r|t|U)$/,
  env: /^-(u|C|S)$/,
  nice: /^-n$/,
  ionice: /^-(c|n|p)$/,
  nohup: undefined,
  exec: undefined,
  command: undefined,
  stdbuf: undefined,
  time: undefined,
  chrt: undefined,
  timeout: /^-(s|k)$/,
};

/** The words of the command that actually runs, past `sudo`, `env X=1`, `timeout 5` and the like. */
export function effectiveWords(words: readonly string[]): string[] {
  let w = [...words];
  for (;;) {
    while (w[0] !== undefined && /^[A-Za-z_][A-Za-z0-9_]*=/.test(w[0])) w = w.slice(1);
    const name = basename(w[0] ?? "");
    if (!(name in PREFIXES)) return w;
    const valued = PREFIXES[name];
    w = w.slice(1);
    while (w[0] !== undefined && w[0].startsWith("-")) {
      const opt = w[0];
      w = w.slice(1);
      if (opt === "--") break;
      if (valued?.test(opt)) w = w.slice(1);
    }
    if (name === "timeout" && w[0] !== undefined && /^[0-9.]+[smhd]?$/.test(w[0])) w = w.slice(1);
    if (name === "chrt" && w[0] !== undefined && /^\d+$/.test(w[0])) w = w.slice(1);
  }
}

export function basename(word: string): string {
  const i = word.lastIndexOf("/");
  return i === -1 ? word : word.slice(i + 1);
}
