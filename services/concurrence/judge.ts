// The concurrence's judgment: take the command apart with its own lexer,
// strip wrappers, follow every nested command (bash -c, $( ), eval, find
// -exec, heredocs fed to a shell), and judge each program by its effects on
// files, devices, services and data. The tier is the worst part's. What it
// cannot see into — inline interpreter code, text piped into a shell, a
// program named at run time — is tier 4; a program it does not know is
// tier 4 on primary (which never guesses) and tier 3 elsewhere.
import { posix } from "node:path";
import { parseArgs, type Handler } from "./args.js";
import { FILE_PROGRAMS, FILE_VALUED } from "./files.js";
import { dynamicWord, lex, LexError, literalWord, type SimpleCommand, type Word } from "./lex.js";
import { laterKind } from "./later-paths.js";
import { LIVE_PROGRAMS, LIVE_VALUED } from "./live.js";
import { judgeMention, judgeWrite, resolvePath } from "./paths.js";
import { SYSTEM_PROGRAMS, SYSTEM_VALUED } from "./system.js";
import { type Finding, type JudgeContext, finding, worst } from "./types.js";
import { LOADER_ENV, unwrap } from "./unwrap.js";

/**
 * A leading NAME=value (or NAME[N]=value, N digits) word: an assignment, not the program. A subscript naming a
 * variable (`a[x]=1`) is evaluated as arithmetic, and a value of x like `y[$(id)]` runs: not peeled.
 */
const ASSIGNS = /^[A-Za-z_][A-Za-z0-9_]*(\[[0-9]+\])?=/;
const ARITH_SUBSCRIPT = /^[A-Za-z_][A-Za-z0-9_]*\[(?![0-9]+\])[^\]]*\]\+?=/;

const MAX_DEPTH = 6;

/** Programs that only read (their redirections are judged separately). */
const READ_ONLY = new Set(
  (
    "ls cat head tail grep egrep fgrep rg wc stat file du df free uptime whoami id pwd uname ps pgrep pidof lsblk blkid findmnt lsof ss " +
    "netstat which whereis type echo printf true false test [ [[ : sleep printenv getent diff cmp md5sum sha1sum sha256sum sha512sum b2sum " +
    "base64 less more tree realpath readlink dirname basename jq yq column nl od xxd hexdump strings cut tr uniq tac rev fold fmt paste " +
    "join comm seq expr lscpu lsmem lsusb lspci lsmod last lastlog w who users groups locale systemd-analyze nproc getconf ping dig " +
    "nslookup host tracepath traceroute loginctl journalctl dmesg hostname date wait read set shopt cd pushd popd dirs hash history " +
    "git curl wget sort exit return break continue shift"
  ).split(" "),
);

const SHELLS = new Set(["sh", "bash", "dash", "zsh", "ksh", "mksh", "ash", "busybox", "fish", "tcsh", "csh"]);
const INTERPRETERS =
  /^(python[0-9.]*|pypy[0-9.]*|perl[0-9.]*|ruby[0-9.]*|node|nodejs|deno|bun|php[0-9.]*|lua[0-9.]*|luajit|Rscript|tclsh|wish|osascript|jshell|groovy|scala|pwsh|powershell|gdb|expect)$/;
const STRUCTURE = new Set(["if", "then", "else", "elif", "fi", "do", "done", "while", "until", "{", "}", "!", "]]", "coproc"]);

/** A `name()` or `function name` definition: code whose later use cannot be followed. */
const FUNCTION_DEF = /(^|[\s;&|(])(function\s+[^\s()]+|[^\s;&|()<>'"]+\s*\(\s*\))\s*[{(]/;

function tableHandler(name: string): { handler?: Handler; valued: readonly string[] } {
  const alias = /^mkfs\..+$/.test(name) ? "mkfs" : /^iptables-/.test(name) ? "iptables" : name;
  // Own keys only: a program named `constructor` or `toString` is in no table (Object.prototype's are not handlers).
  const own = <T>(table: Record<string, T>): T | undefined => (Object.hasOwn(table, alias) ? table[alias] : undefined);
  const handler = own(FILE_PROGRAMS) ?? own(SYSTEM_PROGRAMS) ?? own(LIVE_PROGRAMS);
  return { handler, valued: own(FILE_VALUED) ?? own(SYSTEM_VALUED) ?? own(LIVE_VALUED) ?? [] };
}

/** Judges a whole command line. */
export function judgeText(text: string, ctx: JudgeContext): Finding {
  if (ctx.depth > MAX_DEPTH) return finding(4, "nested too deeply to judge");
  if (/--no-preserve-root/.test(text)) return finding(4, "asks rm not to protect the root filesystem");
  if (FUNCTION_DEF.test(text)) return finding(4, "defines shell functions, whose later effects cannot be followed");
  let lexed;
  try {
    lexed = lex(text);
  } catch (err) {
    if (err instanceof LexError) return finding(4, `cannot take the command apart (${err.message})`);
    throw err;
  }
  let f = finding(0, "no effect");
  const inner = { ...ctx, depth: ctx.depth + 1 };
  for (const nested of lexed.nested) f = worst(f, judgeText(nested, inner));
  let cwd = ctx.cwd;
  for (const cmd of lexed.commands) {
    const r = judgeSimple(cmd, { ...ctx, cwd });
    f = worst(f, r.finding);
    cwd = r.cwd;
  }
  return f;
}

/** Every path a word names (also after `=`, `:` and `,`, as in --file=/x or -v /a:/b). */
function pathsIn(w: Word): Word[] {
  const parts = w.text.split(/[=:,]/).filter((p) => p.startsWith("/") || (w.tilde && p.startsWith("~")));
  return parts.map((p) => ({ ...w, text: p, tilde: p.startsWith("~") }));
}

function judgeRedirects(cmd: SimpleCommand, ctx: JudgeContext): Finding {
  let f = finding(0, "");
  for (const r of cmd.redirects) {
    if (!r.target || r.op === "<<<") continue;
    const rp = resolvePath(r.target, ctx);
    f = worst(f, r.op.startsWith("<") && r.op !== "<>" ? judgeMention(rp, ctx) : judgeWrite(rp, ctx));
  }
  return f;
}

function changeDir(args: Word[], ctx: JudgeContext): string | undefined {
  const target = args.find((w) => !w.text.startsWith("-") || w.text === "-");
  if (!target) return ctx.runAs && ctx.runAs !== "root" ? `/home/${ctx.runAs}` : "/root";
  if (target.text === "-" || target.dynamic || target.glob) return undefined;
  const rp = resolvePath(target, ctx);
  return rp.dynamic ? undefined : posix.normalize(rp.path);
}

function judgeSimple(cmd: SimpleCommand, ctx: JudgeContext): { finding: Finding; cwd: string | undefined } {
  let words = cmd.words;
  while (words[0] && STRUCTURE.has(words[0].text)) words = words.slice(1);
  if (words[0] && ["for", "select", "case", "in", "esac", ";;"].includes(words[0].text))
    return { finding: finding(0, "loop header"), cwd: ctx.cwd };
  let f = judgeRedirects(cmd, ctx);
  for (const w of words) for (const p of pathsIn(w)) f = worst(f, judgeMention(resolvePath(p, ctx), ctx));
  let inner: JudgeContext = { ...ctx, depth: ctx.depth + 1 };
  let extraDynamic = false;
  // Assignments (an array element's too, `MAKE[0]=…` as dkms.conf has, with a number for subscript: any other
  // subscript is arithmetic that may run code), wrappers and structure words can alternate (sudo { A=b sudo …; }): peel until none is left.
  for (let round = 0; round < 8; round++) {
    // `a[x]=1`: the subscript is arithmetic over x's value, and `x='y[$(id)]'` runs id — code this judge cannot see.
    if (words[0] && ARITH_SUBSCRIPT.test(words[0].text))
      f = worst(f, finding(4, `${words[0].text.split("=")[0]}: an array subscript bash evaluates as arithmetic, which may run code`));
    while (words[0] && ASSIGNS.test(words[0].text)) {
      if (LOADER_ENV.test(words[0].text)) f = worst(f, finding(4, `sets ${words[0].text.split("=")[0]}, which changes what code runs`));
      f = worst(f, historyFile(words[0], ctx));
      words = words.slice(1);
    }
    const u = unwrap(words);
    if (u.finding) f = worst(f, u.finding);
    inner = { ...inner, runAs: u.runAs ?? inner.runAs };
    if (u.script !== undefined) f = worst(f, judgeText(u.script, inner));
    extraDynamic ||= u.extraDynamic;
    words = u.words;
    const before = words.length;
    while (words[0] && (STRUCTURE.has(words[0].text) || ASSIGNS.test(words[0].text))) {
      if (LOADER_ENV.test(words[0].text)) f = worst(f, finding(4, `sets ${words[0].text.split("=")[0]}, which changes what code runs`));
      words = words.slice(1);
    }
    if (words.length === before) break;
  }
  const [program, ...rest] = words;
  if (!program) return { finding: f, cwd: ctx.cwd };
  const args = extraDynamic ? [...rest, dynamicWord("{xargs}")] : rest;
  if (program.dynamic) return { finding: worst(f, finding(4, `runs a program only known at run time (${program.text})`)), cwd: ctx.cwd };
  // Later code: a program named by its path is judged by its name below, but what runs is whatever is at that path.
  const placed = program.text.includes("/") ? laterRun(program, inner) : undefined;
  if (placed) return { finding: worst(f, placed), cwd: ctx.cwd };
  const name = posix.basename(program.text);
  if (name === "cd" || name === "pushd") return { finding: f, cwd: changeDir(args, ctx) };
  return { finding: worst(f, judgeProgram(name, program, args, cmd, inner)), cwd: ctx.cwd };
}

function judgeProgram(name: string, program: Word, args: Word[], cmd: SimpleCommand, ctx: JudgeContext): Finding {
  // `busybox wget …`, `busybox sh`: the applet named first is the program.
  const applet = name === "busybox" ? args[0] : undefined;
  if (applet && !applet.dynamic && /^[a-z][a-z0-9_.-]*$/.test(applet.text) && applet.text !== "busybox")
    return judgeProgram(applet.text, applet, args.slice(1), cmd, ctx);
  if (SHELLS.has(name)) return judgeShell(name, args, cmd, ctx);
  if (name === "eval") {
    if (args.some((w) => w.dynamic)) return finding(4, "evaluates text only known at run time");
    return judgeText(args.map((w) => w.text).join(" "), ctx);
  }
  if (name === "source" || name === ".") return unknown(`${name} ${args[0]?.text ?? ""}`.trim(), ctx, args[0]);
  if (["alias", "trap", "enable"].includes(name)) return finding(4, `${name} changes what later commands mean`);
  // `complete -C CMD`: CMD runs whenever the completion is asked for.
  if (name === "complete" || name === "compgen") {
    const c = args.findIndex((w) => /^-[A-Za-z]*C$/.test(w.text));
    const command = c >= 0 ? args[c + 1] : undefined;
    if (command?.dynamic) return finding(4, `${name} -C runs a command only known at run time`);
    return command ? judgeText(command.text, ctx) : finding(0, name);
  }
  if (["export", "declare", "typeset", "readonly", "local"].includes(name)) {
    const history = args.map((w) => historyFile(w, ctx)).reduce(worst, finding(0, ""));
    if (history.tier === 4) return history;
    const loader = args.find((w) => LOADER_ENV.test(w.text));
    return loader ? finding(4, `sets ${loader.text.split("=")[0]}, which changes what code runs`) : finding(0, name);
  }
  if (INTERPRETERS.test(name)) {
    const inline = args.some((w) => /^-(c|e|E|r|p|x|-eval|-exec|-command|Command|batch)$/.test(w.text) || /^-[a-zA-Z]*[ce]$/.test(w.text));
    if (inline) return finding(4, `runs inline ${name} code, whose effects cannot be judged`);
    if (args.length === 0 || cmd.pipedIn || cmd.stdin !== undefined) return finding(4, `feeds ${name} code it cannot see`);
    if (args.every((w) => w.text.startsWith("-"))) return finding(0, `${name} ${args.map((w) => w.text).join(" ")}`);
    const script = args.find((w) => !w.text.startsWith("-"));
    return unknown(`${name} script ${script?.text ?? ""}`, ctx, script);
  }
  if (/^(g|m|n)?awk$/.test(name)) {
    const programText = args.find((w) => !w.text.startsWith("-"))?.text ?? "";
    if (args.some((w) => w.text === "-f") || /system\s*\(|\|\s*getline|print[f]?\b[^;}]*[|>]|"\s*\|/.test(programText))
      return finding(4, "awk runs commands or writes files it names itself");
    return finding(0, "awk reads");
  }
  if (name === "find") {
    let f = tableHandler("find").handler?.(parseArgs(args), ctx, cmd) ?? finding(0, "");
    const firstTest = args.findIndex((w) => /^[-!(]/.test(w.text));
    const roots = (firstTest < 0 ? args : args.slice(0, firstTest)).map((w) => resolvePath(w, ctx));
    // What -exec gets as {} is somewhere below the search roots (the shallowest one).
    const root = roots.length === 0 ? resolvePath(literalWord("."), ctx) : roots.reduce((a, b) => (a.path.length <= b.path.length ? a : b));
    const found = `${root.path === "/" ? "" : root.path}/{found}`;
    for (let i = 0; i < args.length; i++) {
      if (!/^-(exec|execdir|ok|okdir)$/.test(args[i]?.text ?? "")) continue;
      const end = args.findIndex((w, j) => j > i && (w.text === ";" || w.text === "+"));
      const words = args
        .slice(i + 1, end < 0 ? undefined : end)
        .map((w) => (w.text.includes("{}") ? { ...w, text: w.text.replace("{}", found), dynamic: true } : w));
      f = worst(f, judgeSimple({ words, redirects: [], pipedIn: false }, ctx).finding);
    }
    return f;
  }
  if (name === "curl" || name === "wget") return judgeTransfer(name, args, ctx);
  if (name === "sort") {
    const a = parseArgs(args, ["-o", "--output", "-k", "--key", "-t", "-S", "-T"]);
    const out = a.values.get("-o") ?? a.values.get("--output");
    return out ? judgeWrite(resolvePath(literalWord(out[0] ?? ""), ctx), ctx) : finding(0, "sort");
  }
  const { handler, valued } = tableHandler(name);
  if (handler) return handler(parseArgs(args, valued), ctx, cmd);
  if (name === "date" && args.some((w) => /^(-s|--set)/.test(w.text))) return finding(3, "sets the clock");
  if (name === "hostname" && args.some((w) => !w.text.startsWith("-"))) return finding(3, "renames the host");
  if (name === "dmesg" && args.some((w) => /^-(C|c|D|E|n)$|^--(clear|read-clear|console-)/.test(w.text)))
    return finding(2, "changes the kernel log");
  if (name === "journalctl" && args.some((w) => /^--(vacuum|rotate|flush|relinquish)/.test(w.text)))
    return finding(3, "rotates or deletes the journal");
  if (name === "git") return finding(1, "git");
  if (READ_ONLY.has(name)) return finding(0, `${name} reads`);
  if (/^fsck/.test(name) || name === "e2fsck" || name === "xfs_repair") return finding(3, `${name} repairs a filesystem`);
  return unknown(program.text, ctx);
}

function judgeShell(name: string, args: Word[], cmd: SimpleCommand, ctx: JudgeContext): Finding {
  const c = args.findIndex((w) => /^-[a-zA-Z]*c[a-zA-Z]*$/.test(w.text));
  if (c >= 0) {
    const script = args[c + 1];
    if (!script) return finding(4, `${name} -c without a command`);
    if (script.dynamic) return finding(4, `${name} -c runs text only known at run time`);
    return judgeText(script.text, ctx);
  }
  const operand = args.find((w) => !w.text.startsWith("-") && !w.text.startsWith("+"));
  if (operand) return unknown(`${name} script ${operand.text}`, ctx, operand);
  const here = cmd.stdin ?? cmd.redirects.find((r) => r.op === "<<<")?.target?.text;
  if (here !== undefined) return judgeText(here, ctx);
  return finding(4, cmd.pipedIn ? `pipes generated or downloaded text into ${name}` : `${name} reads commands it cannot see`);
}

function judgeTransfer(name: string, args: Word[], ctx: JudgeContext): Finding {
  const a = parseArgs(args, [
    "-o",
    "--output",
    "-O",
    "--output-document",
    "-X",
    "--request",
    "-d",
    "--data",
    "-H",
    "--header",
    "-u",
    "--user",
    "-P",
    "--directory-prefix",
  ]);
  let f = finding(1, `${name} transfers`);
  for (const out of [
    ...(a.values.get("-o") ?? []),
    ...(a.values.get("--output") ?? []),
    ...(name === "wget" ? (a.values.get("-O") ?? []) : []),
  ]) {
    f = worst(f, judgeWrite(resolvePath(literalWord(out), ctx), ctx));
  }
  const method = (a.values.get("-X") ?? a.values.get("--request") ?? [])[0]?.toUpperCase();
  if (
    (method && method !== "GET" && method !== "HEAD") ||
    a.has("-d", "--data", "--data-raw", "--data-binary", "-F", "--form", "-T", "--upload-file")
  ) {
    f = worst(f, finding(3, `${name} sends data to a live service`));
  }
  return f;
}

/** In a start-up file run later, `HISTFILE=PATH` is where the interactive shell writes its history at exit. */
function historyFile(word: Word, ctx: JudgeContext): Finding {
  const path = /^HISTFILE=(\/.*)$/.exec(word.text)?.[1];
  if (!path || !ctx.laterProgram) return finding(0, "");
  if (laterKind(path)) return finding(4, `HISTFILE=${path}: the shell writes its history where content runs later`);
  return judgeWrite(resolvePath({ ...word, text: path }, ctx), ctx);
}

/** In later code, where the program or script at `word` lies (and whether the same diff writes it), as ctx.laterProgram judges it. */
function laterRun(word: Word, ctx: JudgeContext): Finding | undefined {
  if (!ctx.laterProgram) return undefined;
  const rp = resolvePath(word, ctx);
  return ctx.laterProgram(rp.dynamic || rp.glob ? undefined : rp.path, ctx.runAs);
}

function unknown(what: string, ctx: JudgeContext, script?: Word): Finding {
  const placed = script ? laterRun(script, ctx) : undefined;
  if (placed) return placed;
  return ctx.host === "primary"
    ? finding(4, `unknown effects (${what}); on primary nothing unknown is guessed`)
    : finding(3, `unknown effects (${what}); judged live-service work`);
}
