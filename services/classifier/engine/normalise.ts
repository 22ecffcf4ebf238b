// Word normalisation: quote and backslash removal, ANSI-C string decoding,
// program-name normalisation (`/usr/bin/../bin/rm` → `rm`) and detection of
// Unicode look-alikes (dashes, fullwidth forms, zero-width characters).
import { posix } from "node:path";
import type { SyntaxNode as Node } from "./syntax-tree.js";
import type { Word } from "./types.js";

const DYNAMIC_TYPES = new Set(["simple_expansion", "expansion", "command_substitution", "process_substitution", "arithmetic_expansion"]);
const SPLIT_TYPES = new Set(["simple_expansion", "expansion", "command_substitution"]);

// Dashes, minus signs, fullwidth ASCII, zero-width and bidi controls, no-break spaces.
const CONFUSABLE =
  /[\u00a0\u00ad\u2000-\u200f\u2010-\u2015\u2028-\u202f\u2060-\u2064\u2212\u2796\ufe58\ufe63\ufeff\uff01-\uff5e\u0430\u0435\u043e\u0440\u0441\u0445\u0455\u0456\u0458\u04bb\u0501]/;

export function hasConfusable(text: string): boolean {
  return CONFUSABLE.test(text);
}

/** Map look-alikes to the ASCII a reader would take them for. */
export function foldConfusables(text: string): string {
  const cyr: Record<string, string> = {
    "\u0430": "a",
    "\u0435": "e",
    "\u043e": "o",
    "\u0440": "p",
    "\u0441": "c",
    "\u0445": "x",
    "\u0455": "s",
    "\u0456": "i",
    "\u0458": "j",
    "\u04bb": "h",
    "\u0501": "d",
  };
  let out = "";
  for (const ch of text) {
    const c = ch.codePointAt(0) ?? 0;
    if (c >= 0xff01 && c <= 0xff5e) out += String.fromCodePoint(c - 0xfee0);
    else if ((c >= 0x2010 && c <= 0x2015) || c === 0x2212 || c === 0x2796 || c === 0xfe58 || c === 0xfe63) out += "-";
    else if (c === 0xa0 || (c >= 0x2000 && c <= 0x200a) || c === 0x202f) out += " ";
    else if ((c >= 0x200b && c <= 0x200f) || (c >= 0x2028 && c <= 0x202e) || (c >= 0x2060 && c <= 0x2064) || c === 0xfeff || c === 0xad)
      out += "";
    else out += cyr[ch] ?? ch;
  }
  return out;
}

/**
 * Remove backslash escapes from an unquoted word, left to right: `\\` is a backslash before anything after it
 * (round 29: dropping backslash-newline first ate half of `\\` and the line end with it, hiding the next line).
 */
function unescapeWord(raw: string): string {
  return raw.replace(/\\(.)/gs, (_m, c: string) => (c === "\n" ? "" : c));
}

/** Inside double quotes a backslash escapes only `$`, `` ` ``, `"`, `\\` and a line end (which it removes). */
function unescapeDouble(raw: string): string {
  return raw.replace(/\\([$`"\\\n])/g, (_m, c: string) => (c === "\n" ? "" : c));
}

const ANSI: Record<string, string> = {
  n: "\n",
  t: "\t",
  r: "\r",
  a: "\x07",
  b: "\b",
  e: "\x1b",
  E: "\x1b",
  f: "\f",
  v: "\v",
  "\\": "\\",
  "'": "'",
  '"': '"',
  "?": "?",
};

/** Decode the body of a $'…' string. */
export function decodeAnsiC(body: string): string {
  return body.replace(/\\(x[0-9a-fA-F]{1,2}|u[0-9a-fA-F]{1,4}|U[0-9a-fA-F]{1,8}|[0-7]{1,3}|c.|.)/gs, (_m, esc: string) => {
    const head = esc[0] ?? "";
    if (head === "x" || head === "u" || head === "U") return String.fromCodePoint(parseInt(esc.slice(1), 16) % 0x110000);
    if (/^[0-7]/.test(esc)) return String.fromCharCode(parseInt(esc, 8) & 0xff);
    if (head === "c") return String.fromCharCode((esc.charCodeAt(1) || 0) & 0x1f);
    return ANSI[esc] ?? esc;
  });
}

function merge(parts: Word[]): Word {
  const word: Word = {
    text: parts.map((p) => p.text).join(""),
    dynamic: parts.some((p) => p.dynamic),
    glob: parts.some((p) => p.glob),
    confusable: parts.some((p) => p.confusable),
  };
  if (parts.some((p) => p.splits === true)) word.splits = true;
  return word;
}

function literal(text: string, glob = false): Word {
  return { text, dynamic: false, glob, confusable: hasConfusable(text) };
}

/**
 * A double-quoted word: the literal text between its expansions is taken from the source, not from the parser's
 * `string_content` nodes, which leave out line ends (round 28: `bash -c "echo hi<NL>touch x"` was judged as
 * `echo hitouch x`, tier 0, and a `#` on the first line hid every line after it).
 */
function fromString(node: Node): Word {
  const parts: Word[] = [];
  const text = node.text;
  let at = text.startsWith('"') ? 1 : 0;
  const literalUpTo = (end: number) => {
    if (end > at) parts.push(literal(unescapeDouble(text.slice(at, end))));
  };
  for (const child of node.namedChildren) {
    if (child === null || child.type === "string_content") continue;
    literalUpTo(child.startIndex - node.startIndex);
    // Inside double quotes an expansion is one word: nothing splits.
    parts.push({ ...wordFromNode(child), splits: false });
    at = child.endIndex - node.startIndex;
  }
  literalUpTo(text.length > at && text.endsWith('"') ? text.length - 1 : text.length);
  return parts.length === 0 ? literal("") : merge(parts);
}

/** Build a Word from any argument-position node. */
export function wordFromNode(node: Node): Word {
  const t = node.type;
  if (t === "word" || t === "number" || t === "$") {
    const raw = node.text;
    return literal(unescapeWord(raw), /(^|[^\\])[*?[{]/.test(raw));
  }
  if (t === "raw_string") return literal(node.text.slice(1, -1));
  if (t === "ansi_c_string") return literal(decodeAnsiC(node.text.slice(2, -1)));
  if (t === "string" || t === "translated_string")
    return t === "string" ? fromString(node) : merge(node.namedChildren.filter((c): c is Node => c !== null).map(wordFromNode));
  if (t === "concatenation" || t === "command_name") {
    const kids = node.children.filter((c): c is Node => c !== null);
    return merge(kids.map((k) => (k.isNamed || k.type === "$" ? wordFromNode(k) : literal(k.text))));
  }
  if (DYNAMIC_TYPES.has(t)) {
    const word: Word = { text: node.text, dynamic: true, glob: false, confusable: hasConfusable(node.text) };
    // Unquoted, a variable's or a command's output is split into words (arithmetic and `<(…)` give one word).
    if (SPLIT_TYPES.has(t)) word.splits = true;
    return word;
  }
  // brace_expression, extglob, regex … keep the text, treat as a glob.
  return { text: node.text, dynamic: false, glob: true, confusable: hasConfusable(node.text) };
}

const SYSTEM_BIN = /^\/(usr\/)?(local\/)?s?bin\/[^/]+$|^\/usr\/lib(exec)?\/[^/]+$/;

export interface Program {
  /** Normalised name used for rule matching. */
  name: string;
  /** Set when the program is an executable at a non-system path (a script). */
  scriptPath: string | null;
}

/** `/usr/bin/../bin/rm` → rm; `./build.sh` → a script at a path. */
export function normaliseProgram(text: string, cwd: string): Program {
  const folded = text;
  if (!folded.includes("/")) return { name: folded, scriptPath: null };
  const abs = folded.startsWith("/") ? posix.normalize(folded) : cwd ? posix.resolve(cwd, folded) : posix.normalize(folded);
  if (abs.startsWith("/") && SYSTEM_BIN.test(abs)) return { name: posix.basename(abs), scriptPath: null };
  return { name: abs, scriptPath: abs };
}

/** Render argv as the normalised simple command the rules match against. */
export function renderArgv(words: readonly Word[]): string {
  // A loop, and no replace() for the usual word without a control character: this runs several times per command.
  let out = "";
  for (let i = 0; i < words.length; i++) {
    const text = (words[i] as Word).text;
    const shown = CONTROL.test(text) ? text.replace(CONTROLS, (c) => (c === "\n" ? "\\n" : c === "\t" ? "\\t" : "\\r")) : text;
    out = i === 0 ? shown : `${out} ${shown}`;
  }
  return out;
}

const CONTROL = /[\n\r\t]/;
const CONTROLS = /[\n\r\t]/g;
