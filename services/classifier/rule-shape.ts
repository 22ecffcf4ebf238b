// Rule shapes: an audited command, normalised the way the classifier's engine
// matches it, turned into one glob in the policy's pattern syntax — the
// pattern a proposed rule would carry.
//
// The generalisation is deliberately narrow. In this engine `*` crosses `/`
// and spaces (picomatch, bash mode, no FNM_PATHNAME), so `systemctl status *`
// would also match `systemctl status x; anything` once normalised and
// `cat /var/log/*` would match `cat /var/log/x /etc/shadow`. A shape therefore
// keeps every word literal — program, subcommand, flags, paths, unit names —
// and only turns *variable tokens* into character-class globs that can match
// neither a space, a `/` nor a `.`:
//
//   a run of ≥ 2 digits              → [0-9]+([0-9])        (pids, ports, dates, build numbers)
//   a run of 7–64 hex digits with at
//   least one digit and one a–f      → +([0-9a-f])          (git commits, container ids, digests)
//   a UUID (whole word)              → +([0-9a-fA-F-])
//   mktemp names `tmp.XXXXXX…`        → tmp.+([A-Za-z0-9])
//
// Everything else is escaped literally. Never produced, and refused by
// checkShape wherever a pattern comes from: a bare `*`/`?`/`[…]`, any glob in
// the program name, and programs the engine judges *through* (sudo, env,
// timeout, bash -c, xargs, find -exec …), whose rules would never decide.
// Commands that cannot be shaped (compound, redirected, with expansions or
// unquoted globs, a script at a path) yield a reason instead of a pattern.
import { delegate } from "./engine/delegates.js";
import { interpreter } from "./engine/interpreters.js";
import { normaliseProgram, renderArgv } from "./engine/normalise.js";
import { loadBashParser } from "./engine/parse.js";
import type { Word } from "./engine/types.js";
import { literalWord } from "./engine/unwrap.js";
import { prefixWrapper } from "./engine/wrappers.js";
import type { Source } from "./verdict.js";

export const DIGITS = "[0-9]+([0-9])";
export const HEX = "+([0-9a-f])";
export const UUID = "+([0-9a-fA-F-])";
export const MKTEMP = "tmp.+([A-Za-z0-9])";
/** The only globs a shape may contain. */
const CLASS_TOKENS = [DIGITS, HEX, UUID, MKTEMP] as const;

export interface Shape {
  /** The glob, in the policy's pattern syntax. */
  pattern: string;
  /** Which policy file judges the command: sudo → SUDO.md, claude → CLAUDE_CMDS.md. */
  policy: Source;
  /** The normalised command the pattern was made from (what the rules are matched against). */
  example: string;
  program: string;
}

export type ShapeResult = ({ ok: true } & Shape) | { ok: false; reason: string };

const GLOB_SPECIALS = /[\\*?[\](){}!+@|]/g;
const UUID_WORD = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
/** Variable tokens inside a word, bounded by anything but letters and digits. */
const TOKEN = /(?<![A-Za-z0-9])(?:tmp\.[A-Za-z0-9]{6,}|[0-9a-f]{7,64}|[0-9]{2,})(?![A-Za-z0-9])/g;

function escapeLiteral(text: string): string {
  return text.replace(GLOB_SPECIALS, (c) => `\\${c}`);
}

function generaliseToken(token: string): string {
  if (token.startsWith("tmp.")) return MKTEMP;
  if (/^[0-9]+$/.test(token)) return DIGITS;
  // Hex only with both a letter and a digit: plain words ("deadbeef", "facade") stay literal.
  if (/[a-f]/.test(token) && /[0-9]/.test(token)) return HEX;
  return escapeLiteral(token);
}

/** One argument word as a pattern fragment. */
export function shapeWord(word: string): string {
  if (UUID_WORD.test(word)) return UUID;
  let out = "";
  let last = 0;
  for (const m of word.matchAll(TOKEN)) {
    out += escapeLiteral(word.slice(last, m.index)) + generaliseToken(m[0]);
    last = m.index + m[0].length;
  }
  return out + escapeLiteral(word.slice(last));
}

/** Split a pattern into words on unescaped spaces. */
function patternWords(pattern: string): string[] {
  const words: string[] = [];
  let cur = "";
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i] as string;
    if (ch === "\\" && i + 1 < pattern.length) {
      cur += ch + (pattern[++i] as string);
    } else if (ch === " ") {
      words.push(cur);
      cur = "";
    } else cur += ch;
  }
  words.push(cur);
  return words;
}

function unescapeGlob(text: string): string {
  return text.replace(/\\(.)/g, "$1");
}

/** Why the engine would never let a rule for this argv decide (it judges what it runs), or null. */
function judgedThrough(words: readonly string[]): string | null {
  const [name, ...rest] = words.map(literalWord);
  if (!name) return "empty command";
  const args = rest as Word[];
  const u = prefixWrapper(name.text, args) ?? delegate(name.text, args) ?? interpreter(name.text, args, null);
  return u ? `${name.text} is judged through to what it runs (${u.rule}); a rule for it would never decide` : null;
}

/**
 * Why `pattern` may not become a rule, or null when it may. Used on every
 * pattern that reaches a policy file, whoever wrote the proposal.
 */
export function checkShape(pattern: string): string | null {
  if (pattern.trim() === "" || pattern !== pattern.trim() || /\s\s/.test(pattern)) return "empty or badly spaced pattern";
  if (/[`\n\r\t]/.test(pattern)) return "backticks and control characters cannot appear in a pattern";
  if (pattern.length > 1024) return "pattern longer than 1024 characters";
  const words = patternWords(pattern);
  const program = words[0] ?? "";
  if (/[*?[\](){}!+@|]/.test(program.replace(/\\./g, ""))) return `the program name ${JSON.stringify(program)} must be a plain literal`;
  let rest = pattern;
  for (const token of CLASS_TOKENS) rest = rest.split(token).join("");
  rest = rest.replace(/\\./g, "");
  if (/[*?[\](){}!+@|]/.test(rest))
    return "only literal words and the digit/hex/uuid/mktemp classes are allowed (a `*` here would cross spaces and slashes)";
  return judgedThrough(words.map((w) => unescapeGlob(w)));
}

let parserPromise: ReturnType<typeof loadBashParser> | null = null;

export interface ShapeInput {
  command: string;
  /** The policy the command was judged by (http/cli callers: sudo; the hook: claude). */
  source: Source;
  cwd: string;
}

/** The rule shape of one audited command, or why it has none. */
export async function ruleShape(input: ShapeInput): Promise<ShapeResult> {
  parserPromise ??= loadBashParser();
  const parsed = (await parserPromise).parse(input.command);
  if (parsed.error) return { ok: false, reason: "the shell grammar does not parse it" };
  if (parsed.commands.length !== 1)
    return { ok: false, reason: `${parsed.commands.length} simple commands: only a single simple command gets a shape` };
  const cmd = parsed.commands[0]!;
  if (cmd.fn || cmd.assigns.length > 0 || cmd.redirects.length > 0 || cmd.stdin !== null) {
    return { ok: false, reason: "function definitions, variable assignments, redirections and heredocs are not shaped" };
  }
  let words = cmd.words;
  let policy = input.source;
  if (words[0]?.text === "sudo" && words.length > 1 && !words[1]!.text.startsWith("-")) {
    words = words.slice(1);
    policy = "sudo";
  }
  if (words.length === 0) return { ok: false, reason: "no program" };
  if (words.some((w) => w.dynamic || w.glob || w.confusable))
    return { ok: false, reason: "expansions, unquoted globs or look-alike characters: the command run is not the command written" };
  if (words.some((w) => /[`\n\r\t]/.test(w.text) || w.text === ""))
    return { ok: false, reason: "backticks, control characters or empty words cannot be matched by a pattern" };
  const program = normaliseProgram(words[0]!.text, input.cwd);
  if (program.scriptPath !== null)
    return { ok: false, reason: `${program.scriptPath} is a script at a path; scripts are judged by where they live, not by rules` };
  const argv = [program.name, ...words.slice(1).map((w) => w.text)];
  const pattern = [escapeLiteral(program.name), ...argv.slice(1).map(shapeWord)].join(" ");
  const refused = checkShape(pattern);
  if (refused) return { ok: false, reason: refused };
  return { ok: true, pattern, policy, example: renderArgv(argv.map(literalWord)), program: program.name };
}
