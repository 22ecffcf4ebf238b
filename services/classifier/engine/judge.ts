// Judging one simple command: vetoes, wrappers and delegates (judged through
// to what they run), code arguments, the first matching rule of the policy in
// force, the host's miss behaviour, and the effect floor. The result is the
// highest tier any of these demands, with the rule that demanded it.
import { foreignProject, stdinCode } from "./stdin-code.js";
import { posix } from "node:path";
import type { TierNumber } from "../../shared/tier.js";
import type { Source } from "../verdict.js";
import { analyze, diffNames, diffPaths } from "./analyzers.js";
import { agentSteered } from "./agent-steered.js";
import { diffReadOnly, patchArgs } from "./tools/outputs.js";
import { delegate } from "./delegates.js";
import { effectFloor, exModeEditor } from "./effects.js";
import { evaluatedArgs, subscriptOf, substitutions } from "./evaluated.js";
import { guessByVerb } from "./heuristic.js";
import { interpreter } from "./interpreters.js";
import { runnerLoadsElsewhere } from "./runners.js";
import { downloadedPath, PROJECT_FILE } from "./downloaded.js";
import { composedCode, composedFile, shellText } from "./composed.js";
import { exposedServer } from "./listen.js";
import { loadsUnseen } from "./loads-unseen.js";
import { scriptFirst, subcommandFirst } from "./subcommand-first.js";
import { workspaceScript } from "./script-place.js";
import { SECRET_NAME, secretExpansion } from "./secret-names.js";
import { judgeSourced } from "./sourced.js";
import { optionFloor } from "./option-floor.js";
import { TOOLS } from "./options/index.js";
import { featureBranchPush, remoteElsewhere } from "./git-push.js";
import { gitGlobals } from "./tools/git.js";
import { firstMatch } from "./match.js";
import type { CompiledRules } from "./match.js";
import { foldConfusables, normaliseProgram, renderArgv } from "./normalise.js";
import { resolvePlace, secretPlace, sharedScratchRoot } from "./paths.js";
import { readScript, realPath } from "./host-paths.js";
import type { Veto } from "./policy.js";
import type { Context, Finding, SimpleCommand, Word } from "./types.js";
import { handedTexts, literalWord } from "./unwrap.js";
import type { Unwrap } from "./unwrap.js";
import { builtinAssigned } from "./variables.js";
import type { Assigned } from "./variables.js";
import { commandVeto, scanCode, vetoHit } from "./veto.js";
import { riskyValue } from "./risky-value.js";
import { toolVariable } from "./tool-variables.js";
import { prefixWrapper } from "./wrappers.js";

export interface Judge {
  rules: Record<Source, CompiledRules>;
  vetoes: Veto[];
  /** Ids of active rules flagged `network` (only their parts need the plain-command check). */
  /** Rules whose parts are checked for being plain commands (network, package and live-service rules). */
  plainCheckRules: ReadonlySet<string>;
  /** Rules flagged `package`: their parts run on the host only with apt's short option list (host-run.ts). */
  packageRules: ReadonlySet<string>;
  /** The sudo policy's live-service rules: their parts run on the host only when they name no caller's file (host-run.ts). */
  liveRules: ReadonlySet<string>;
  /** Parse and judge shell code found inside a command (bash -c, eval, ssh …). */
  judgeCode(code: string, ctx: Context): Finding;
  /** The same, part by part. */
  judgeCodeParts(code: string, ctx: Context): Finding[];
  /** The names a glob word expands to on this host, from `cwd` (null when that cannot be known). */
  expand: (w: Word, cwd: string) => readonly string[] | null;
}

export const find = (tier: TierNumber, rule: string, reason: string, text: string, explicit = false): Finding => ({
  tier,
  rule,
  reason,
  text,
  explicit,
});

/** The worse of two findings; on a tie the first (the rule) stands. */
export function worse(a: Finding, b: Finding | null): Finding {
  return b !== null && b.tier > a.tier ? b : a;
}

export function judgeCommand(cmd: SimpleCommand, ctx: Context, j: Judge): Finding {
  if (cmd.fn) {
    const { name, recursive, forks } = cmd.fn;
    if (recursive && forks) return find(4, "fork-bomb", `function ${name} spawns copies of itself`, cmd.source);
    if (recursive) return find(2, "recursive-function", `function ${name} calls itself`, cmd.source);
    return find(0, "function-definition", "defines a function; its body is judged where it stands", `${name}()`);
  }
  if (cmd.words.length === 0) return worse(judgeBare(cmd, ctx, j), secretCopy(cmd, ctx));
  const f = worse(worse(judgeArgv(cmd.words, cmd, ctx, j), secretInput(cmd, ctx)), secretCopy(cmd, ctx));
  // `vite --host`, `node --inspect=0.0.0.0`: a server reachable from the network serves (or runs) what it is given.
  const served = f.tier <= 1 && ctx.source === "claude" ? exposedServer(cmd, f.tier) : null;
  if (served) return worse(f, find(2, "listens-beyond-host", served, cmd.source));
  const loads = f.tier <= 1 ? loadsUnseen(cmd, ctx) : null;
  return loads ? worse(f, find(2, "loads-unseen-code", loads, cmd.source)) : f;
}

/** Names that match SECRET_NAME but hold no secret: a socket path, a desktop session's names. */
const NOT_SECRET = /^(SSH_AUTH_SOCK|XDG_SESSION_\w+|DBUS_SESSION_BUS_ADDRESS|SESSION_MANAGER|XAUTHORITY|GPG_AGENT_INFO|KEYTIMEOUT)$/;

/** The first secret-named variable a word expands, itself, through the variables it was made of, or a loop's values. */
function wordSecret(w: Word): string | null {
  for (const text of [w.text, ...(w.origins ?? []), ...(w.loopValues ?? []).map((v) => v.text)]) {
    const name = secretExpansion(text, NOT_SECRET);
    if (name !== null) return name;
  }
  return null;
}

/**
 * A secret-named variable's value printed or copied where its name no longer
 * says so (hook only): `echo $DB_PASS` / `printenv DATABASE_URL` (names the
 * policy's narrower patterns miss), `x=$GH_TOKEN; echo $x`, `export T=$TOKEN;
 * printenv T`, `for t in "$TOKEN"; do echo $t; done`, `set -- $TOKEN`. Each
 * prints the secret as `echo $GH_TOKEN` (shell-print-secret, 2) would.
 */
function secretCopy(cmd: SimpleCommand, ctx: Context): Finding | null {
  if (ctx.source !== "claude") return null;
  const pairs: [string, Word][] = cmd.assigns.map((a) => [a.name, a.value]);
  const prog = cmd.words[0];
  const name = prog && !prog.dynamic ? posix.basename(prog.text) : "";
  if (["export", "declare", "typeset", "local", "readonly"].includes(name)) {
    for (const w of cmd.words.slice(1)) {
      const m = /^([A-Za-z_][A-Za-z0-9_]*)(?:\[[^\]]*\])?\+?=/.exec(w.text);
      if (m) pairs.push([m[1] as string, { ...w, text: w.text.slice(m[0].length) }]);
    }
  }
  for (const [to, value] of pairs) {
    if (SECRET_NAME.test(to)) continue;
    const from = wordSecret(value);
    if (from !== null)
      return find(
        2,
        "secret-copy",
        `copies $${from}, a variable whose name says it holds a secret, into $${to}, whose name does not`,
        cmd.source,
      );
  }
  return null;
}

/** The printing half of secretCopy, on an argv (after wrappers too: `sudo echo $DB_PASS`, `env X=1 printenv DB_PASS`). */
function secretPrint(words: readonly Word[], ctx: Context, source: string): Finding | null {
  if (ctx.source !== "claude") return null;
  const name = posix.basename(words[0]?.text ?? "");
  if (name === "echo" || name === "printf" || name === "set") {
    for (const w of words.slice(1)) {
      const from = wordSecret(w);
      if (from !== null) return find(2, "secret-print", `prints $${from}, a variable whose name says it holds a secret`, source);
    }
  }
  if (name === "printenv") {
    const named = words.slice(1).find((w) => !w.text.startsWith("-") && SECRET_NAME.test(w.text) && !NOT_SECRET.test(w.text));
    if (named) return find(2, "secret-print", `prints $${named.text}, a variable whose name says it holds a secret`, source);
  }
  // Tools that print their operands back (`expr substr "$TOKEN" 1 40`, `basename "$TOKEN"`, `realpath -m`), or
  // name them in an error (`ls "$TOKEN"`: cannot access 'ghp_…'), print the value as echo does.
  // `[ "$TOKEN" -gt 0 ]`, `test "$API_KEY" -eq 1`: the error message quotes the value ("ghp_…: integer expression expected").
  const numericTest = (name === "test" || name === "[") && words.some((w) => /^-(?:eq|ne|lt|le|gt|ge)$/.test(w.text));
  if (ECHOING.has(name) || numericTest) {
    for (const w of words.slice(1)) {
      const from = wordSecret(w);
      if (from !== null && !PATH_NAMED.test(from))
        return find(
          2,
          "secret-print",
          `${name} prints its operand back, and this one expands $${from}, a variable whose name says it holds a secret`,
          source,
        );
    }
  }
  if (DECLARERS.has(name)) {
    const opts = words.slice(1).filter((w) => /^[-+][A-Za-z]+$/.test(w.text));
    const operands = words.slice(1).filter((w) => !/^(?:[-+][A-Za-z]*|--)$/.test(w.text));
    const letters = opts.map((w) => w.text.slice(1)).join("");
    // `declare -p -x`, `declare -x -p`, `declare -pa`, `local -p`, `readonly -r`: with no names, every variable that
    // has the attributes is printed with its value, as `export -p` (shell-vars-dump, 2). Functions (-f/-F) are code, not values.
    if (operands.length === 0 && opts.length > 0 && /[^fF]/.test(letters) && !(name === "export" && /^n+$/.test(letters)))
      return find(
        2,
        "variable-dump",
        `${name} ${opts.map((w) => w.text).join(" ")} prints every variable it selects, with its value`,
        source,
      );
    // `declare -p DATABASE_URL`: the value of a secret-named variable.
    if (letters.includes("p")) {
      const named = operands.find((w) => SECRET_NAME.test(w.text) && !NOT_SECRET.test(w.text));
      if (named) return find(2, "secret-print", `prints $${named.text}, a variable whose name says it holds a secret`, source);
    }
  }
  // `git commit -m "$TOKEN"`: the value is stored in the repository's history, which a push (tier 1 for a feature branch) sends on.
  if (name === "git") {
    const sub = words.slice(1).find((w) => !w.text.startsWith("-"))?.text ?? "";
    if (GIT_RECORDS.has(sub))
      for (const w of words.slice(1)) {
        const from = wordSecret(w);
        if (from !== null)
          return find(
            2,
            "secret-record",
            `git ${sub} records $${from}, a variable whose name says it holds a secret, in the repository's history`,
            source,
          );
      }
  }
  return null;
}

/**
 * `vim -es < FILE`, `ex a.txt <<EOF … EOF`, `echo '!id' | vim -e` (review 24): the input is editor commands, and
 * `:!cmd`, `:w FILE`, `:source`, `:py3`/`:lua` run code or write elsewhere. Commands from a file or computed at run
 * time are not seen here (2); literal ones are 2 when they hold any of those.
 */
function editorCommandsInput(words: readonly Word[], cmd: SimpleCommand): Finding | null {
  const name = posix.basename(words[0]?.text ?? "");
  if (!exModeEditor(words)) return null;
  const fromFile = cmd.redirects.find((r) => r.op === "<" || r.op === "<>" || r.op === "<&");
  if (fromFile)
    return find(
      2,
      "editor-commands",
      `${name} in Ex mode runs the editor commands in ${fromFile.target.text} (:!cmd runs shell code)`,
      renderArgv(words),
    );
  const input = cmd.stdin;
  if (input === null) return null;
  if (input.text === null || input.dynamic)
    return find(
      2,
      "editor-commands",
      `${name} in Ex mode runs editor commands from its input, not known until run time`,
      renderArgv(words),
    );
  if (
    /(^|[\n|:])\s*(?:[\d,.$%']*\s*)(?:!|r(?:ead)?\s*!|w(?:rite)?\b|sav(?:eas)?\b|up(?:date)?\b|x(?:it)?\b|wq\b|so(?:urce)?\b|ru(?:ntime)?\b|py\w*|pe(?:rl)?\b|rub(?:y)?\b|lua\b|tcl\b|mz\w*|exe(?:cute)?\b|cal(?:l)?\b|norm(?:al)?\b|term(?:inal)?\b|sh(?:ell)?\b|mak(?:e)?\b|gr(?:ep)?\b|!)/.test(
      input.text,
    )
  )
    return find(
      2,
      "editor-commands",
      `${name} in Ex mode runs editor commands from its input that run shell code, load code or write files`,
      renderArgv(words),
    );
  return null;
}

/** Programs whose output (or error) repeats an operand's text. */
const ECHOING = new Set([
  "expr",
  "basename",
  "realpath",
  "readlink",
  "yes",
  "ls",
  "stat",
  "file",
  "namei",
  "pathchk",
  "numfmt",
  "factor",
  "seq",
  "du",
  "wc",
  "id",
  "groups",
  // Values these print or quote in an error: awk's -v variables and operands, date -d, sleep, head/tail -n,
  // touch -d, cut -c, tr's sets (`tr abcdef "$TOKEN"` maps text onto the token), column's and paste's separators,
  // nl's and pr's headers, fold's and expand's widths, kill's pids, timeout's durations.
  "awk",
  "gawk",
  "mawk",
  "nawk",
  "date",
  "sleep",
  "head",
  "tail",
  "touch",
  "cut",
  "tr",
  "column",
  "paste",
  "join",
  "nl",
  "pr",
  "fold",
  "expand",
  "unexpand",
  "kill",
  "timeout",
  // Review 27: builtins that quote a bad operand in their error (`cd -- "$TOKEN"`: No such file or directory,
  // `exit "$TOKEN"`: numeric argument required, `type`/`hash`/`help`: not found), and tools that send the text to
  // the system log or to every terminal on the host (logger, wall, notify-send).
  "cd",
  "pushd",
  "exit",
  "return",
  "ulimit",
  "umask",
  "shift",
  "wait",
  "jobs",
  "fg",
  "bg",
  "disown",
  "type",
  "hash",
  "help",
  "unset",
  "logger",
  "wall",
  "notify-send",
]);
/** A secret-named variable that holds a place (`$SSH_KEY_PATH`, `$API_KEY_FILE`): printing it prints a path. */
const PATH_NAMED = /_(?:FILE|PATH|DIR|FILENAME)$/i;
/** Builtins that print variables with their values when asked (`-p`, or attributes and no names). */
const DECLARERS = new Set(["declare", "typeset", "local", "readonly", "export"]);
/** git subcommands that store text in a commit, tag, note or stash. */
const GIT_RECORDS = new Set([
  // A branch named by the value (`git checkout -b "$TOKEN"`, pushed with the branch) or an error that quotes it.
  "checkout",
  "switch",
  "commit",
  "tag",
  "notes",
  "stash",
  "commit-tree",
  "merge",
  "revert",
  "cherry-pick",
  "am",
  "mktag",
  "hash-object",
]);

/**
 * A here-string or unquoted here-document that expands a secret-named
 * variable into the command's input (`cat <<< "$TOKEN"`, `base64 <<EOF` …
 * `$GH_TOKEN`): whatever reads its input may print it, as `echo $TOKEN`
 * does, so it is judged as that is (shell-print-secret, 2) by the hook's policy.
 */
function secretInput(cmd: SimpleCommand, ctx: Context): Finding | null {
  const input = cmd.stdin;
  if (input === null || !input.dynamic || input.kind === "pipe" || input.text === null || ctx.policy !== "claude") return null;
  const name = secretExpansion(input.text);
  if (name === null) return null;
  const how = input.kind === "herestring" ? "a here-string" : "a here-document";
  return find(
    2,
    "input-secret",
    `${how} expands $${name}, a variable whose name says it holds a secret, into the command's input: printed as echo $${name} would print it`,
    cmd.source,
  );
}

function judgeBare(cmd: SimpleCommand, ctx: Context, j: Judge): Finding {
  // A list's own redirections (`true && sh -i 0</dev/tcp/…`) land here: the vetoes see them too.
  const hit = cmd.redirects.map((r) => vetoHit(j.vetoes, `${r.op} ${r.target.text}`)).find((v) => v);
  if (hit) return find(4, hit.id, hit.rationale, cmd.source);
  // A risky name (PATH, IFS …) is judged with every other assignment of the text (assignmentFloor).
  let f = find(0, "shell-variable", "sets a shell variable", cmd.source);
  for (const a of cmd.assigns) {
    if (!a.value.dynamic) f = worse(f, latentCode(a.value.text, ctx, j, cmd.source));
  }
  const e = effectFloor("", [], cmd.redirects, ctx, null);
  return e ? worse(f, find(e.tier, "effect:redirect", e.reason, cmd.source)) : f;
}

/**
 * A literal value that holds a command substitution (`x='a[$(rm -rf ~)]'`):
 * bash runs it when the value is later used in arithmetic (`$((x))`,
 * `[[ $x -eq 0 ]]`, `let`), so it is judged as the code it carries.
 */
function latentCode(value: string, ctx: Context, j: Judge, source: string): Finding | null {
  const subs = [...value.matchAll(/\$\(([^()]*(?:\([^()]*\)[^()]*)*)\)|`([^`]*)`/g)].map((m) => m[1] ?? m[2] ?? "").filter((c) => c.trim());
  if (subs.length === 0) return null;
  let f = find(2, "latent-code", "a value with a command substitution in it, run if the value is ever evaluated", source);
  for (const code of subs) f = worse(f, j.judgeCode(code, { ...ctx, depth: ctx.depth + 1 }));
  return f;
}

/**
 * Every variable the text assigns (variables.ts: plain and prefix
 * assignments, for/select, read, printf -v, mapfile, declare/local/export,
 * getopts, wait -p, let, (( )), ${x:=…}, namerefs), checked against the
 * whole risky list in this one place: PATH, IFS, BASH_ENV, GLOBIGNORE …
 * change what the commands after it run or read; a name computed at run
 * time may be any of them.
 */
export function assignmentFloor(assigned: readonly Assigned[], source: string): Finding | null {
  for (const a of assigned) {
    if (a.computed)
      return find(
        2,
        "risky-variable",
        `${a.how} assigns a variable whose name is computed at run time (it may be PATH or BASH_ENV)`,
        source,
      );
    if (riskyValue(a.name, a.literal))
      return find(2, "risky-variable", `${a.how} sets ${a.name}, which changes what later commands run`, source);
    const why = toolVariable(a.name, a.literal);
    if (why !== null) return find(2, "risky-variable", `${a.how} sets ${a.name}: ${why}`, source);
  }
  return null;
}

/**
 * What a builtin evaluates of its arguments (evaluated.ts): code in a
 * variable name's subscript or an arithmetic word runs when bash evaluates
 * it, quoted or not; the names it assigns go through assignmentFloor.
 */
function evaluatedFloor(name: string, args: Word[], ctx: Context, j: Judge, source: string): Finding | null {
  const ev = evaluatedArgs(name, args);
  let f: Finding | null = null;
  const raise = (g: Finding) => (f = f ? worse(f, g) : g);
  const judgeSubs = (code: string[], why: string) => {
    if (code.length === 0) return;
    raise(find(2, "evaluated-code", why, source));
    for (const c of code) raise(j.judgeCode(c, { ...ctx, depth: ctx.depth + 1 }));
  };
  for (const w of ev.names) {
    const sub = subscriptOf(w.text);
    if (sub !== null && w.dynamic)
      raise(find(2, "evaluated-code", `${name} evaluates the subscript of ${w.text}, computed at run time, as arithmetic`, source));
    // A name computed at run time may hold a subscript (`test -v "$x"` with x='a[$(…)]' runs it, round 30); an
    // assigned one is raised by assignmentFloor.
    else if (w.dynamic && !ev.assigns)
      raise(
        find(2, "evaluated-code", `${name} takes a variable's name from ${w.text}, whose subscript it evaluates as arithmetic`, source),
      );
    if (sub !== null)
      judgeSubs(
        substitutions(sub),
        `${name} evaluates the subscript of ${w.text} as arithmetic, which runs the command substitution in it`,
      );
  }
  const risky = assignmentFloor(builtinAssigned(name, args), source);
  if (risky) raise(risky);
  for (const r of ev.refs ?? []) {
    const sub = subscriptOf(r.text);
    if (sub !== null) judgeSubs(substitutions(sub), `${name} -n refers to ${r.text}, whose subscript bash evaluates on every use`);
  }
  for (const w of ev.arith)
    if (!w.dynamic)
      judgeSubs(substitutions(w.text), `${name} evaluates ${w.text} as arithmetic, which runs the command substitution in it`);
  for (const w of ev.expanded ?? []) {
    if (!w.dynamic && !/[$`]/.test(w.text)) continue;
    raise(find(2, "evaluated-code", `${name} expands ${w.text} again: the substitutions and expansions in it run`, source));
    if (!w.dynamic) judgeSubs(substitutions(w.text), `${name} runs the command substitutions in ${w.text}`);
  }
  for (const w of ev.code) {
    raise(find(2, "evaluated-code", `${name} runs ${w.text} as a command for every line`, source));
    if (!w.dynamic) raise(j.judgeCode(w.text, { ...ctx, depth: ctx.depth + 1 }));
  }
  return f;
}

const LIVE_NAME = /deploy|release|publish|migrat|drop|destroy|wipe|reset|purge|prod|uninstall|teardown/i;
/** A web framework's command-line script (Rails, Laravel, Django, Symfony): its tasks run with the app's secrets loaded. */
const FRAMEWORK_CLI = /^(rails|artisan|manage\.py|console)$/;
/**
 * Framework tasks that print the app's secrets (decrypted credentials, the
 * config with .env filled in, settings, a decrypted .env) or run code given
 * on the command line or standard input inside the app (tinker, runner,
 * shell, dbshell), which reads them as `cat .env` would.
 */
const SECRET_TASK =
  /^(credentials:show|encrypted:show|credentials:edit|encrypted:edit|config:show|config:cache|env:decrypt|shell_plus|print_settings|secrets:reveal|secrets:decrypt-to-local|debug:dotenv|diffsettings|tinker|runner|r|console|c|dbconsole|db|shell|dbshell|--reveal|--env-vars?(=.*)?)$/;
const LIVE_ARG = /^-{0,2}(drop|flush|reset|destroy|delete|purge|wipe|deploy|migrate|rollback|prod|production|release|publish|uninstall)$/i;

/** On primary, code whose text is not known before it runs is a miss: tier 4, never a trial. */
function primaryNeverGuesses(what: string, text: string): Finding {
  return find(
    4,
    "primary-computed-code",
    `primary never guesses: ${what} (code not known until run time); run it on server-01 or as a person`,
    text,
  );
}

/** A script "file" that is a pipe or a descriptor (`source <(…)`, `. /dev/stdin`, `/proc/self/fd/3`). */
const STREAM_SCRIPT = /^(\/dev\/(stdin|fd\/\d+)|\/proc\/(self|thread-self|\d+)\/fd\/\d+)$/;

function judgeScript(path: Word, args: readonly Word[], ctx: Context, text: string, j: Judge): Finding {
  const p = resolvePlace(path, ctx);
  const later = ctx.laterScript?.(p.glob ? null : p.path) ?? null;
  if (later) return { ...later, text };
  // `echo 'rm -rf ~' > x.sh && sh x.sh`: what runs is the text the line wrote (composed.ts, review 40).
  // `echo … > x.sh; find . -name x.sh -exec sh {} \;`: a script named at run time may be one the line writes.
  if (ctx.composed !== undefined && ctx.composed.size > 0 && (p.path === null || p.glob || path.text === "{}"))
    return find(2, "run-script", "runs a script named at run time after the same command line writes one", text);
  const composed = composedFile(p.glob ? null : p.path, ctx);
  if (composed !== undefined && p.path !== null) {
    if (composed === null) return find(2, "run-script", "runs a script the same command line writes from text computed at run time", text);
    if (!shellText(p.path, composed))
      return find(2, "run-script", "runs a script the same command line writes in another language: inline code, as `python3 -c`", text);
    // Judged without itself among the line's files: what it runs is judged by that text, not as a file it wrote.
    const others = new Map(ctx.composed);
    others.delete(p.path);
    const f = j.judgeCode(composed, { ...ctx, depth: ctx.depth + 1, composed: others });
    return worse(find(1, "run-script", "runs a script the same command line writes; its text is judged as code", text), {
      ...f,
      reason: `the script the same line writes: ${f.reason}`,
    });
  }
  if (ctx.policy === "sudo" && ctx.host === "primary" && (p.path === null || STREAM_SCRIPT.test(p.path)))
    return primaryNeverGuesses("a script whose text is computed or streamed", text);
  if (secretPlace(p)) return find(2, "run-script", "runs a secret file as code", text);
  if (downloadedPath(p.path, ctx))
    return find(2, "run-script", "runs a script the same command line downloads: code no one has seen, as `curl URL | sh`", text);
  if (args.some((w) => LIVE_ARG.test(w.text)) || LIVE_NAME.test(path.text.split("/").pop() ?? "")) {
    return find(2, "run-script", "script named or asked to deploy, migrate or destroy something", text);
  }
  if (ctx.policy === "sudo") return find(2, "run-script", "runs a script as root or another user", text);
  // The task is the first word after the script's own options (`bin/rails generate model c` is no console).
  const task = args.find((w) => w.dynamic || !w.text.startsWith("-"));
  if (
    FRAMEWORK_CLI.test(path.text.split("/").pop() ?? "") &&
    ((task !== undefined && (task.dynamic || SECRET_TASK.test(task.text))) || args.some((w) => /^--(reveal|env-vars?)(=|$)/.test(w.text)))
  )
    return find(2, "run-script", "a framework task that prints the app's secrets or runs code given to it inside the app", text);
  if (workspaceScript(p, ctx)) {
    // `echo … > utils.py && python3 app.py`: the script may load what the same line wrote beside it (review 40).
    const self = new Set([p.path]);
    const near =
      composedCode(ctx, ctx.cwd, PROJECT_FILE, self) ?? (p.path ? composedCode(ctx, posix.dirname(p.path), PROJECT_FILE, self) : null);
    if (near !== null)
      return find(
        2,
        "run-script",
        `runs a workspace script that may load ${near}, which the same command line writes from its own text`,
        text,
      );
    return find(1, "run-script", "runs a script from the workspace", text);
  }
  return find(2, "run-script", "runs a program or script outside the workspace", text);
}

function judgeArgv(words: Word[], cmd: SimpleCommand, ctx: Context, j: Judge): Finding {
  const prog = words[0] as Word;
  const source = renderArgv(words);
  if (prog.dynamic) {
    const hit = scanCode(j.vetoes, source);
    if (hit) return find(4, hit.id, `computed command name with dangerous content: ${hit.rationale}`, source);
    const e = effectFloor("", words.slice(1), cmd.redirects, ctx, null);
    if (ctx.policy === "sudo" && ctx.host === "primary") return primaryNeverGuesses("the program name is computed at run time", source);
    return worse(
      find(2, "dynamic-command", "the program name is computed at run time", source),
      e && find(e.tier, "effect", e.reason, source),
    );
  }
  let floor: Finding | null = secretPrint(words, ctx, source);
  const exInput = editorCommandsInput(words, cmd);
  if (exInput) floor = worse(floor ?? exInput, exInput);
  let name = prog.text;
  if (prog.confusable || words.some((w) => w.confusable && /^\S?[-\u2010-\u2015\u2212\uff0d]/.test(w.text))) {
    floor = find(2, "confusable", "Unicode look-alike characters in a command or flag", source);
    name = foldConfusables(name);
    const hit = commandVeto(j.vetoes, foldConfusables(source));
    if (hit) return find(4, hit.id, `look-alike characters hide: ${hit.rationale}`, source);
  }
  for (const a of cmd.assigns) {
    const latent = a.value.dynamic ? null : latentCode(a.value.text, ctx, j, source);
    if (latent) floor = worse(floor ?? latent, latent);
  }
  if (["declare", "typeset", "export", "local", "readonly", "let"].includes(prog.text)) {
    for (const w of words.slice(1)) {
      const latent = w.dynamic ? null : latentCode(w.text, ctx, j, source);
      if (latent) floor = worse(floor ?? latent, latent);
    }
  }
  const evaluated = evaluatedFloor(prog.text, words.slice(1), ctx, j, source);
  if (evaluated) floor = worse(floor ?? evaluated, evaluated);
  const program = normaliseProgram(name, ctx.remote ? "" : ctx.cwd);
  // `npm -w DIR test` is `npm test -w DIR`: judged in that order (subcommand-first.ts).
  const reordered = subcommandFirst(program.name, words.slice(1));
  const args = reordered ?? words.slice(1);
  // The rendered command with the normalised program name (the same text as `source` when the name is as written).
  const text = program.name === prog.text && reordered === null ? source : renderArgv([{ ...prog, text: program.name }, ...args]);
  if (args.length === 1 && /^--(help|version)$/.test(args[0]?.text ?? "") && program.scriptPath === null && !cmd.redirects.length) {
    return find(0, "help-flag", "a single help or version flag prints text and exits", text);
  }
  // `docker run --help`, `docker compose up --help`: never `docker run IMAGE --help`, which runs IMAGE.
  const group = args.length === 3 ? TOOLS.get(`${program.name} ${args[0]?.text ?? ""}`) : undefined;
  if (
    HELP_CLIS.has(program.name) &&
    (args.length === 2 || (group?.sub ?? false) || (group?.scripts ?? false)) &&
    args.length <= 3 &&
    /^(--help|-h)$/.test(args[args.length - 1]?.text ?? "") &&
    !cmd.redirects.length &&
    args.slice(0, -1).every((w) => !w.dynamic && /^[a-z][a-z0-9-]*$/.test(w.text))
  ) {
    return find(0, "help-flag", `${program.name} prints a subcommand's help and exits`, text);
  }
  const hit = commandVeto(j.vetoes, text) ?? cmd.redirects.map((r) => vetoHit(j.vetoes, `${r.op} ${r.target.text}`)).find((v) => v) ?? null;
  if (hit) return find(4, hit.id, hit.rationale, text);
  // The effects of the command as written (no verb class): they stand beside a script or a wrapped command's
  // verdict. A listed command's own rule gives effectFloor its verb class (judgeListed), so it is not needed there.
  const outerEffect = (): Finding | null => {
    const outer = effectFloor(program.name, args, cmd.redirects, ctx, null);
    return outer && find(outer.tier, "effect", outer.reason, text);
  };
  // `timeout 5 NAME=VALUE CMD`: the wrapper runs a program named NAME=VALUE (a path when VALUE has a slash), it sets
  // nothing; never judged lower than the assignment it looks like would be.
  if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(prog.text)) {
    const named = find(2, "assignment-as-program", "runs a program named like an assignment (NAME=VALUE): not known", text);
    floor = floor ? worse(floor, named) : named;
  }
  // A runner started by its path (`./node_modules/.bin/jest DIR`) loads code as it does by name.
  const elsewhere = runnerLoadsElsewhere(program.scriptPath === null ? program.name : posix.basename(program.scriptPath), args, ctx);
  if (elsewhere) floor = worse(floor ?? find(2, "runner-elsewhere", elsewhere, text), find(2, "runner-elsewhere", elsewhere, text));
  if (name === "\u0000script") {
    const outerF = outerEffect();
    return worse(judgeScript(args[0] as Word, args.slice(1), ctx, renderArgv(args), j), outerF);
  }
  if (name === "\u0000sourced") return judgeSourced(args[0] as Word, ctx, j, renderArgv(args));
  if (program.scriptPath !== null) {
    const outerF = outerEffect();
    // `~/x.sh`, `~root/x.sh`: a home, which resolvePlace expands from the word as written.
    const script = prog.text.startsWith("~") ? prog : { ...prog, text: program.scriptPath };
    return worse(worse(judgeScript(script, args, ctx, source, j), floor), outerF);
  }

  const unwrapped =
    prefixWrapper(program.name, args) ?? delegate(program.name, args, cmd.stdin, ctx.cwd) ?? interpreter(program.name, args, cmd.stdin);
  if (unwrapped) {
    // `python3 -m MOD` puts the cwd first on the module path: in a shared scratch root anyone may have put MOD there.
    if (unwrapped.rule === "interpreter:python-m" && sharedScratchRoot(ctx.cwd))
      return worse(
        find(2, "interpreter:python-m", `${program.name} -m imports the module from ${ctx.cwd} first, where anyone may have put one`, text),
        floor,
      );
    const outerF = outerEffect();
    // A wrapper's own options (up to the command it runs) are checked like a rule's: `ssh -F cfg`, `timeout --x`.
    const own = OWN_OPTIONS.has(program.name) ? optionFloor(program.name, args, ctx, (w) => j.expand(w, ctx.cwd)) : null;
    return worse(
      worse(worse(judgeUnwrapped(unwrapped, cmd, ctx, j, text), floor), outerF),
      own && find(own.tier, own.rule, own.reason, text),
    );
  }
  return worse(judgeListed(program.name, args, text, cmd, ctx, j), floor);
}

/** Tools whose `TOOL SUB [SUB] --help` prints help and runs nothing (a script or program operand never comes first). */
const HELP_CLIS = new Set([
  "docker",
  "podman",
  "kubectl",
  "helm",
  "git",
  "gh",
  "npm",
  "pnpm",
  "cargo",
  "go",
  "rustup",
  "pip",
  "pip3",
  "uv",
  "poetry",
  "systemctl",
  "journalctl",
  "apt",
  "apt-get",
  "dpkg",
  "snap",
  "terraform",
  "tofu",
  "aws",
  "gcloud",
  "az",
  "incus",
  "lxc",
  "nmcli",
  "ip",
  "openssl",
  "conda",
  "deno",
  "gradle",
  "mvn",
  "dotnet",
  "pulumi",
  "vault",
  "consul",
  "nomad",
  "flatpak",
  "timedatectl",
  "hostnamectl",
  "loginctl",
  "resolvectl",
]);

/** Wrappers and delegates whose own options come before the command they run (@posix tables). */
const OWN_OPTIONS = new Set([
  "nice",
  "nohup",
  "builtin",
  "setsid",
  "unbuffer",
  "dbus-run-session",
  "catchsegv",
  "torsocks",
  "timeout",
  "time",
  "exec",
  "command",
  "stdbuf",
  "ionice",
  "flock",
  "strace",
  "ltrace",
  "taskset",
  "numactl",
  "xvfb-run",
  "caffeinate",
  "sg",
  "env",
  "su",
  "runuser",
  "sudo",
  "doas",
  "run0",
  "ssh",
  "xargs",
  "watch",
  "npx",
  "bunx",
  "valgrind",
  "cmake",
  "c8",
  "nyc",
  "concurrently",
]);

/** Assignments that change nothing about what a command runs or loads. */
const NEUTRAL_ASSIGNS = new Set(["DEBIAN_FRONTEND", "NEEDRESTART_MODE", "APT_LISTCHANGES_FRONTEND", "LC_ALL", "LANG", "TZ"]);

/** See PartVerdict.plain: the command is exactly what its rule matched, nothing runs through it. */
export function plainCommand(cmd: SimpleCommand, ctx: Context): boolean {
  if (cmd.fn || cmd.words.length === 0 || cmd.redirects.length > 0 || cmd.stdin !== null) return false;
  // A locale or zone by name (`TZ=Europe/Berlin`), not a file (`TZ=/tmp/tz`, `LANG=../../tmp/x`: libc loads it).
  if (
    !cmd.assigns.every(
      (a) =>
        NEUTRAL_ASSIGNS.has(a.name) &&
        !a.value.dynamic &&
        /^[A-Za-z0-9_.@:+-]*(\/[A-Za-z0-9_+-]+)?$/.test(a.value.text) &&
        !a.value.text.includes(".."),
    )
  )
    return false;
  if (cmd.words.some((w) => w.dynamic || w.confusable)) return false;
  const program = normaliseProgram((cmd.words[0] as Word).text, ctx.cwd);
  if (program.scriptPath !== null) return false;
  const args = cmd.words.slice(1);
  return (
    (prefixWrapper(program.name, args) ?? delegate(program.name, args, null, ctx.cwd) ?? interpreter(program.name, args, cmd.stdin)) ===
    null
  );
}

function judgeUnwrapped(u: Unwrap, cmd: SimpleCommand, ctx: Context, j: Judge, text: string): Finding {
  let f = find(u.floor, u.rule, u.reason, text);
  const handed = handedBy(u, cmd);
  const inner: Context = {
    ...ctx,
    policy: u.policy ?? ctx.policy,
    remote: ctx.remote || (u.remote ?? false),
    ...(u.chdir ? { cwd: chdirOf(u.chdir, ctx) } : {}),
    ...(handed.length > 0 ? { carried: [...(ctx.carried ?? []), ...handed].slice(0, MAX_CARRIED) } : {}),
  };
  // A wrapper that switches policy (sudo → SUDO.md) never lowers the tier the
  // outer policy would give the same command: both judge, the worse stands.
  const contexts = inner.policy === ctx.policy ? [inner] : [inner, { ...inner, policy: ctx.policy }];
  for (const argv of u.inner) {
    if (argv.length === 0) continue;
    const sub: SimpleCommand = { words: argv, assigns: [], redirects: [], stdin: cmd.stdin, source: renderArgv(argv) };
    f = deeper(
      f,
      contexts.map((c) => judgeArgv(argv, sub, c, j)).reduce((a, b) => worse(a, b)),
    );
  }
  for (const code of u.code)
    f = deeper(
      f,
      contexts.map((c) => j.judgeCode(code, { ...c, depth: ctx.depth + 1 })).reduce((a, b) => worse(a, b)),
    );
  for (const code of u.opaque) {
    const hit = scanCode(j.vetoes, code);
    if (hit) f = worse(f, find(4, hit.id, `code contains: ${hit.rationale}`, text));
  }
  // Primary never guesses: code the classifier cannot read (computed at run time, piped in, or in another language).
  if (ctx.policy === "sudo" && ctx.host === "primary" && (u.opaque.length > 0 || u.computed === true))
    f = worse(f, primaryNeverGuesses(u.reason, text));
  return f;
}

/** At most this many texts are carried into code (Context.carried). */
const MAX_CARRIED = 32;

/**
 * The texts of values a wrapper or shell hands what it runs: its own
 * (`env X=…`, Unwrap.carried), the command's prefix assignments
 * (`X=$(cat f) sh -c …`) and, when it runs code, its words (`sh -c CODE
 * ARGS…`: the arguments and the variables in the code, `watch curl …/$X`).
 */
function handedBy(u: Unwrap, cmd: SimpleCommand): string[] {
  const out = [...(u.carried ?? [])];
  for (const a of cmd.assigns) if (a.value.dynamic) out.push(a.value.text, ...(a.value.origins ?? []));
  if (u.code.length > 0) out.push(...handedTexts(cmd.words.slice(1)));
  return out;
}

/** The directory `env -C DIR` / `sudo -D DIR` runs in ("" when not known). */
function chdirOf(dir: Word, ctx: Context): string {
  if (dir.dynamic || dir.glob || dir.text.startsWith("~")) return "";
  if (dir.text.startsWith("/")) return posix.normalize(dir.text);
  return ctx.cwd ? posix.resolve(ctx.cwd, dir.text) : "";
}

/** Like worse(), but on a tie the wrapped command's finding names the verdict. */
function deeper(wrapper: Finding, wrapped: Finding): Finding {
  return wrapped.tier >= wrapper.tier ? wrapped : wrapper;
}

/**
 * The diff files patch (`-i FILE`, `< FILE`, `patch ORIG FILE`) and `git
 * apply`/`git am` (their operands, or `< FILE`) read, read here: their names
 * are judged as a piped diff's are (analyzers.ts diffNames). A file not there
 * is left to the rule (it may be made first: `curl -o x.diff …`); one there
 * that cannot be read here (larger than 64 KiB, not text) is tier 2.
 */
function diffFiles(name: string, args: readonly Word[], cmd: SimpleCommand, ctx: Context, text: string): Finding | null {
  if (ctx.remote || !ctx.cwd) return null;
  const input = cmd.redirects.filter((r) => r.op === "<").map((r) => r.target);
  let files: Word[] = [];
  if (name === "patch") {
    const p = patchArgs(args);
    const named = p.opts
      .filter(([o]) => o === "-i" || o === "--input")
      .map(([, v]) => v)
      .filter((v): v is Word => v != null);
    files = named.length ? named : p.operands[1] ? [p.operands[1]] : input;
  } else if (name === "git" && (args[0]?.text === "apply" || args[0]?.text === "am")) {
    const ops = args.slice(1).filter((w) => !w.text.startsWith("-"));
    files = ops.length ? ops : input;
  }
  const stdin = files.length === 0 && cmd.stdin?.text != null && !cmd.stdin.dynamic ? cmd.stdin.text : null;
  if (stdin !== null) return steeredInDiff(stdin, ctx, "standard input", text, args);
  for (const f of files) {
    if (f.dynamic || f.text === "-") continue;
    const place = resolvePlace(f, ctx);
    if (place.path === null || place.glob || realPath(place.path) === null) continue;
    const body = readScript(place.path);
    if (body === null)
      return find(
        2,
        "analysis:patch-input",
        `${name} applies the diff in ${f.text}, which cannot be read here: the names in it decide what it writes`,
        text,
      );
    const a = diffNames(body);
    if (a) return find(a.tier, a.rule, `${a.reason} (in ${f.text})`, text);
    const steered = steeredInDiff(body, ctx, f.text, text, args);
    if (steered) return steered;
  }
  return null;
}

/** A diff that rewrites a script the workspace's agent or editor settings run (agent-steered.ts), as a write of it would be judged. */
function steeredInDiff(body: string, ctx: Context, from: string, text: string, args: readonly Word[]): Finding | null {
  if (ctx.policy !== "claude" || !ctx.cwd) return null;
  // `git apply --check`/`--stat`, `patch --dry-run`: nothing is written.
  const words = args.map((w) => w.text);
  if (words.includes("--dry-run") || diffReadOnly(words)) return null;
  for (const n of diffPaths(body)) {
    if (n === "/dev/null") continue;
    // `patch -p1` and `git apply` drop the first component (`b/x.sh`); `patch` alone may not.
    for (const rel of new Set([n, n.replace(/^[^/]*\//, "")])) {
      if (agentSteered(posix.resolve(ctx.cwd, rel), ctx.workspace, ctx.home ?? null))
        return find(
          3,
          "analysis:patch-input",
          `the diff (in ${from}) rewrites ${rel}: a script the workspace's agent or editor settings run on their own`,
          text,
        );
    }
  }
  return null;
}

function judgeListed(name: string, args: Word[], text: string, cmd: SimpleCommand, ctx: Context, j: Judge): Finding {
  const fed = stdinCode(name, args, cmd);
  let f = judgeListedRule(name, args, text, cmd, ctx, j);
  if (fed !== null) f = worse(f, find(2, "analysis:stdin-code", fed, text));
  const foreign = f.tier <= 1 && ctx.policy === "claude" ? foreignProject(f.rule, name, args, ctx) : null;
  if (foreign !== null) f = worse(f, find(2, "analysis:foreign-project", foreign, text));
  if (name !== "patch" && name !== "git") return f;
  const g = worse(f, diffFiles(name, args, cmd, ctx, text));
  const sub = name === "git" ? gitGlobals(args) : null;
  const moved =
    sub !== null && args[sub.sub]?.text === "remote" && ctx.policy === "claude" && !ctx.remote
      ? remoteElsewhere(args.slice(sub.sub + 1), ctx.cwd)
      : null;
  return moved === null ? g : worse(g, find(2, "git-remote-elsewhere", moved, text));
}

function judgeListedRule(name: string, args: Word[], text: string, cmd: SimpleCommand, ctx: Context, j: Judge): Finding {
  const analysis = analyze(name, args, cmd.stdin, ctx.host);
  // From the hook, a feature branch pushed to a configured remote is reversible (git-push.ts).
  if (name === "git" && args[0]?.text === "push" && ctx.policy === "claude" && !ctx.remote && featureBranchPush(args.slice(1), ctx.cwd)) {
    const e = effectFloor(name, args, cmd.redirects, ctx, "read");
    return worse(
      find(
        1,
        "git-push-feature",
        "pushes a feature branch to a configured remote, which keeps its history (no force, not the default branch)",
        text,
        true,
      ),
      e && find(e.tier, "effect:git-push-feature", e.reason, text),
    );
  }
  // `npm run -s deploy` meets the rules as `npm run deploy -s` (subcommand-first.ts).
  const scriptNamed = scriptFirst(name, args);
  const matched = scriptNamed === null ? text : renderArgv([literalWord(name), ...scriptNamed]);
  const { hit, proposed } = firstMatch(j.rules[ctx.policy], matched, ctx.host);
  let base: Finding;
  if (analysis?.kind === "decide") base = find(analysis.tier, analysis.rule, analysis.reason, text);
  else if (hit) base = find(hit.tier, hit.rule.id, hit.rule.rationale, text, true);
  else base = miss(args, text, ctx, name, proposed?.id ?? null);
  // `*` after a read verb is not "any option": a verdict of 0–1 that left words open stands only for known options.
  // Checked on the rule's own verdict, before an analysis floor raises it: a floor of 2 (`awk … ENVIRON`) must not
  // hide an option that writes (`--profile=/etc/ld.so.preload`, tier 4).
  const open = analysis?.kind === "decide" || (hit ? hit.open : base.rule === "miss:heuristic");
  if (base.tier <= 1 && open) {
    const o = optionFloor(name, args, ctx, (w) => j.expand(w, ctx.cwd));
    if (o) base = worse(base, find(o.tier, o.rule, o.reason, text));
  }
  if (analysis?.kind === "floor") base = worse(base, find(analysis.tier, analysis.rule, analysis.reason, text));
  if (analysis?.code !== undefined) {
    const v = scanCode(j.vetoes, analysis.code);
    if (v) base = worse(base, find(4, v.id, `code contains: ${v.rationale}`, text));
  }
  const verbClass = analysis?.kind === "decide" ? null : (hit?.rule.verbClass ?? null);
  const e = effectFloor(name, args, cmd.redirects, ctx, verbClass);
  return worse(base, e && find(e.tier, `effect:${hit?.rule.id ?? "miss"}`, e.reason, text));
}

function miss(args: Word[], text: string, ctx: Context, name: string, proposed: string | null): Finding {
  const note = proposed ? ` (proposed rule ${proposed} matches but does not decide)` : "";
  const file = ctx.policy === "sudo" ? "SUDO.md" : "CLAUDE_CMDS.md";
  if (ctx.host === "primary") return find(4, "miss:primary", `no active rule in ${file} matches; primary never guesses${note}`, text);
  const g = guessByVerb([literalWord(name), ...args]);
  return find(g.tier, "miss:heuristic", `${g.reason}${note}`, text);
}
