// The verdict engine: loads and validates both policy files and the bash
// grammar once, then classifies synchronously. A compound command's tier is
// the maximum of its parts; input that does not parse is never tier 0–1.
// Trusts: the policy files it was given. Refuses: to load a file that does not
// parse (the error names file and line), so the service does not start.
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { join, posix } from "node:path";
import { findCredentials, redactCredentials } from "../../shared/credentials.js";
import type { TierNumber } from "../../shared/tier.js";
import type { ClassifyInput, Engine, PartVerdict, Source, Verdict, VerdictAttrs } from "../verdict.js";
import { assignmentFloor, find, judgeCommand, plainCommand, worse } from "./judge.js";
import type { Judge } from "./judge.js";
import { listInputEffect, listInputs, readsSecret } from "./effects.js";
import { stdinCode } from "./stdin-code.js";
import { CLONE_WORD } from "./downloaded.js";
import { COMPOSE_WORD, composedText, diffWrites, moreWritten, patchText, WRITE_WORD } from "./composed.js";
import { cloneMade, foreignFetch } from "./tools/git.js";
import { judgeManifest } from "./manifest-effects.js";
import type { ManifestEngine } from "./manifest-effects.js";
import { compileRules } from "./match.js";
import { loadBashParser } from "./parse.js";
import type { BashParser } from "./parse.js";
import { beginCommand, lstat, realPath, wordExpansions } from "./host-paths.js";
import { unheldMovesBefore } from "./moved-before.js";
import { linksMadeBefore } from "./linked-before.js";
import { inferHome, scratch, setStateDir, sharedScratchRoot } from "./paths.js";
import { defaultHome, type HostId } from "../../shared/config.js";
import { checkUnique, parsePolicy, PolicyError, type RuleAttrs } from "./policy.js";
import type { Context, Finding, SimpleCommand, Word } from "./types.js";
import { scanCode } from "./veto.js";
import { prefixWrapper } from "./wrappers.js";
import { interpreter } from "./interpreters.js";
import { delegate } from "./delegates.js";
import { renderArgv } from "./normalise.js";
import { liveActionPlain, packageRunPlain } from "./host-run.js";
import { noteBareRepo, noteClone } from "./bare-repos.js";
import { resolvePlace } from "./paths.js";
import { literalWord } from "./unwrap.js";
import { bareRepoMade, gitGlobals } from "./tools/git.js";
import { targetsOf } from "./writers.js";
import { urlFileName } from "./tools/http.js";

export { PolicyError };

const FILES: Record<Source, string> = { sudo: "SUDO.md", claude: "CLAUDE_CMDS.md" };
/** No live-action rules (the hook's policy has none): one empty set, not a new one per command. */
const NO_RULES: ReadonlySet<string> = new Set();
/** Longer input is refused outright: nothing that long is an ordinary command. */
export const MAX_COMMAND_BYTES = 64 * 1024;
/** Code nested deeper than this (bash -c "bash -c …") is refused as obfuscation. */
export const MAX_DEPTH = 6;

export interface EngineOptions {
  /** agent-sudo's state dir: a secret and guarded place for every source (default: AGENT_SUDO_HOME or its default). */
  stateDir?: string;
}

export async function loadEngine(policiesDir: string, options: EngineOptions = {}): Promise<Engine> {
  setStateDir(options.stateDir ?? defaultHome());
  const texts: Record<Source, Buffer> = {
    sudo: await readFile(join(policiesDir, FILES.sudo)),
    claude: await readFile(join(policiesDir, FILES.claude)),
  };
  const sudo = parsePolicy(texts.sudo.toString("utf8"), join(policiesDir, FILES.sudo));
  const claude = parsePolicy(texts.claude.toString("utf8"), join(policiesDir, FILES.claude));
  checkUnique([sudo, claude]);
  const digest = createHash("sha256");
  for (const s of ["claude", "sudo"] as const) digest.update(`${FILES[s]}\0${texts[s].length}\0`).update(texts[s]);
  const parser = await loadBashParser();
  // What each active rule grants; the network ones also tell judgeText which parts need the plain-command check.
  const attrs = new Map<string, RuleAttrs>();
  for (const r of [...sudo.rules, ...claude.rules]) if (r.state === "active") attrs.set(r.id, r.attrs);
  // The sudo surface's live actions: the only tier-3 parts that may run on the host.
  const liveRules = new Set(sudo.rules.filter((r) => r.state === "active" && r.verbClass === "live-service").map((r) => r.id));
  const judge: Judge = {
    rules: { sudo: compileRules(sudo.rules), claude: compileRules(claude.rules) },
    vetoes: [...claude.vetoes, ...sudo.vetoes],
    plainCheckRules: new Set([...[...attrs].filter(([, a]) => a.network || a.package).map(([id]) => id), ...liveRules]),
    packageRules: new Set([...attrs].filter(([, a]) => a.package).map(([id]) => id)),
    liveRules,
    judgeCode: (code, ctx) => judgeText(code, ctx, judge, parser, null),
    judgeCodeParts: (code, ctx) => {
      const parts: PartVerdict[] = [];
      const worst = judgeText(code, ctx, judge, parser, parts);
      return parts.length ? parts.map((q) => find(q.tier as TierNumber, q.rule, q.reason, q.text)) : [worst];
    },
    expand: (w, cwd) => wordExpansions(w.text, cwd),
  };
  const policyDigest = digest.digest();
  // A diff is judged as /exec runs it: the sudo policy; content that runs later as root's code from "/".
  const effects: ManifestEngine = {
    judgeCode: (code, host, laterScript) => classify({ command: code, cwd: "/", host, source: "sudo" }, judge, parser, laterScript),
    vetoes: judge.vetoes,
    pathContext: (host, cwd) => contextOf({ command: "", cwd, host, source: "sudo" }),
  };
  return {
    policyDigest,
    activeRules: (source, host) =>
      (source === "sudo" ? sudo : claude).rules
        .filter((r) => r.state === "active")
        .map((r) => {
          const tier = r.hosts[host] ?? r.tier;
          return {
            id: r.id,
            patterns: r.patterns,
            tier,
            baseTier: r.tier,
            hostOverride: tier !== r.tier,
            verbClass: r.verbClass,
            rationale: r.rationale,
            network: r.attrs.network,
            package: r.attrs.package === true,
          };
        }),
    classify: (input) => withAttrs(classify(input, judge, parser), attrs, input.source === "sudo" ? liveRules : NO_RULES),
    judgeEffects: (input) => {
      // The host as it is now: nothing the last Classify looked up (a link since swapped, a file since changed).
      beginCommand();
      const readsSecret = input.command ? secretReadBy(input.command, input.cwd, input.host, parser) : null;
      return judgeManifest(effects, input.manifest, input.contents, {
        host: input.host,
        runAs: input.runAs,
        cwd: input.cwd,
        guarded: input.guarded ?? [],
        readsSecret,
        unitRoot: input.unitRoot,
      });
    },
  };
}

/** The first secret a command's simple commands read, as /exec runs it (the sudo policy's context), or null. */
function secretReadBy(command: string, cwd: string, host: HostId, parser: BashParser, depth = 0): string | null {
  if (depth > 3) return null;
  const ctx = contextOf({ command, cwd, host, source: "sudo" });
  const commands = parser.parse(command).commands;
  // Each command in every directory an earlier `cd` may have left it in (`cd / && tar czf /tmp/x.tgz etc`).
  let cwds = [ctx.cwd];
  for (const cmd of commands) {
    for (const dir of cwds) {
      const at = dir === ctx.cwd ? ctx : { ...ctx, cwd: dir };
      const found = readsSecretThrough(cmd, at, (code) => secretReadBy(code, dir, host, parser, depth + 1));
      if (found) return found;
    }
    cwds = afterCd(cmd, cwds, ctx, false).filter((d) => d !== "");
    if (cwds.length === 0) cwds = [ctx.cwd];
  }
  return null;
}

/** readsSecret of a simple command and of what a wrapper runs (`nice tar …`, `sudo -u x cat …`, `sh -c '…'`). */
function readsSecretThrough(cmd: SimpleCommand, ctx: Context, inCode: (code: string) => string | null, depth = 0): string | null {
  const own = readsSecret(cmd, ctx);
  if (own || depth > 3) return own;
  const [program, ...args] = cmd.words;
  if (!program || program.dynamic) return null;
  const name = posix.basename(program.text);
  const u = prefixWrapper(name, args) ?? interpreter(name, args, cmd.stdin);
  if (!u) return null;
  for (const argv of u.inner) {
    const found = readsSecretThrough({ ...cmd, words: argv, assigns: [], redirects: [] }, ctx, inCode, depth + 1);
    if (found) return found;
  }
  for (const code of u.code) {
    const found = inCode(code);
    if (found) return found;
  }
  return null;
}

/** A package run's or a live action's words carry nothing of the caller's choosing to the host (host-run.ts). */
function hostRunPlain(rule: string, cmd: SimpleCommand, ctx: Context, judge: Judge): boolean {
  if (judge.packageRules.has(rule) && !packageRunPlain(cmd)) return false;
  return !judge.liveRules.has(rule) || liveActionPlain(cmd, ctx.cwd);
}

/** Parse `text` and judge every simple command in it; parts are appended to `parts` when given. */
function judgeText(text: string, ctx: Context, judge: Judge, parser: BashParser, parts: PartVerdict[] | null): Finding {
  if (ctx.depth > MAX_DEPTH) return find(4, "nesting-too-deep", "code nested deeper than the classifier follows", text.slice(0, 200));
  const parsed = parser.parse(text, ctx.carried);
  let worst: Finding | null = null;
  if (parsed.error) {
    const hit = scanCode(judge.vetoes, text);
    const f = hit
      ? find(4, hit.id, `unparseable input with dangerous content: ${hit.rationale}`, text.slice(0, 200))
      : find(2, "unparseable", "the shell grammar does not parse this; prove it in the sandbox", text.slice(0, 200));
    parts?.push(part(f));
    worst = f;
    // The grammar's error recovery can drop whole commands (`[ -d / ] && tee
    // /etc/sudoers.d/x`): judge each list element on its own as well.
    for (const segment of splitList(text)) {
      const g = judgeText(segment, { ...ctx, depth: ctx.depth + 1 }, judge, parser, null);
      if (g.tier > worst.tier) {
        worst = g;
        parts?.push(part(g));
      }
    }
  }
  // `cd DIR && rm -rf *`: a later command may run where an earlier cd went —
  // or, behind a subshell or a failed cd, where it started. Each is judged
  // in every directory it may run in, and the worst stands.
  let cwds = [ctx.cwd];
  // With CDPATH set, `cd etc` may go to /etc; with `shopt -s cdable_vars`, `cd x` goes where $x says.
  const cdpath = /\bCDPATH=|cdable_vars/.test(text) || parsed.assigned.some((a) => a.name === "CDPATH" || a.computed);
  // A bare repository the text makes: its config and hooks count as .git's wherever the text writes them.
  if (text.includes("--bare") || text.includes("--mirror")) noteBareRepos(parsed.commands, ctx, cdpath);
  // `curl -o x.sh URL && sh x.sh`: a script the same line downloads is code no one has seen (judgeScript).
  const fetched = FETCH_WORD.test(text) || CLONE_WORD.test(text) ? downloadsIn(parsed.commands, ctx, cdpath) : null;
  if (fetched) ctx = { ...ctx, downloaded: ctx.downloaded ? new Set([...ctx.downloaded, ...fetched]) : fetched };
  // `true && ssh HOST cat < F`: a list's or group's input redirection feeds its network senders.
  const inputs = text.includes("<") ? listInputs(parsed.commands) : null;
  // `echo … > /tmp/x.js && node -r /tmp/x.js`: a scratch file an earlier command writes is the line's own (script-place.ts).
  const made = SCRATCH_WORD.test(text) || scratch(`${ctx.cwd}/x`) ? scratchWritesBefore(parsed.commands, ctx, cdpath) : null;
  // `echo 'rm -rf ~' > x.sh && sh x.sh`: a file an earlier command writes from the line's own text runs that text (composed.ts).
  const composed =
    (parsed.commands.length > 1 && WRITE_WORD.test(text) && COMPOSE_WORD.test(text)) || ctx.composed !== undefined
      ? composedWritesBefore(parsed.commands, ctx, cdpath, parser)
      : null;
  // `mv untracked.txt zz.txt && rm zz.txt`: a later delete reaches work an earlier move put there (moved-before.ts).
  const moved =
    ctx.source === "claude" && parsed.commands.length > 1 && /\bmv\b|--remove-source-files/.test(text)
      ? unheldMovesBefore(
          parsed.commands,
          ctx,
          (cmd, cs) => afterCd(cmd, cs, ctx, cdpath),
          (cmd) => nestedCommands(cmd, ctx, parser),
        )
      : null;
  // `ln scripts/fmt.sh x && echo id > x`: a later write lands where an earlier link leads (linked-before.ts).
  const linked =
    parsed.commands.length > 1 &&
    /\b(?:ln|link|cp|mv|rsync|pax|tar|bsdtar|unzip|7za?|7zz|unrar|cpio|ar|jar|gunzip|apply|am|checkout|switch|restore|reset|stash|merge|pull|rebase|cherry-pick|revert|read-tree|checkout-index|worktree|clone|submodule)\b/.test(
      text,
    )
      ? linksMadeBefore(
          parsed.commands,
          ctx,
          (cmd, cs) => afterCd(cmd, cs, ctx, cdpath),
          (code) => parser.parse(code).commands,
        )
      : null;
  for (const cmd of parsed.commands) {
    const own = made?.get(cmd);
    const wrote = composed?.get(cmd);
    const away = moved?.get(cmd);
    const links = linked?.get(cmd);
    const c0 = own ? { ...ctx, scratchMade: own } : ctx;
    const c1 = away?.size ? { ...c0, unheldMoved: away } : c0;
    const c2 = links?.size ? { ...c1, linksMade: links } : c1;
    const c = wrote ? { ...c2, composed: wrote } : c2;
    let f = cwds.map((cwd) => judgeCommand(cmd, cwd === c.cwd ? c : { ...c, cwd }, judge)).reduce((a, b) => worse(a, b));
    const input = inputs?.get(cmd);
    const sent = input ? listInputEffect(cmd, input, ctx) : null;
    if (sent) f = worse(f, find(sent.tier, "effect", sent.reason, cmd.source));
    const [program, ...args] = cmd.words;
    const fed =
      input && program ? stdinCode(posix.basename(program.text), args, { ...cmd, redirects: [...cmd.redirects, ...input] }) : null;
    if (fed) f = worse(f, find(2, "analysis:stdin-code", fed, cmd.source));
    parts?.push({
      text: cmd.source.length > 200 ? cmd.source.slice(0, 200) + "…" : cmd.source,
      tier: f.tier,
      rule: f.rule,
      reason: f.reason,
      plain: judge.plainCheckRules.has(f.rule) && plainCommand(cmd, ctx) && hostRunPlain(f.rule, cmd, ctx, judge),
    });
    worst = worst === null ? f : worse(worst, f);
    cwds = afterCd(cmd, cwds, ctx, cdpath);
  }
  // A value not known to be safe that reaches arithmetic, `${!x}` or `${x@P}` may be code.
  const site = parsed.site;
  if (site) {
    const f = find(site.tier, site.rule, site.reason, text.slice(0, 200));
    parts?.push(part(f));
    worst = worst === null ? f : worse(worst, f);
  }
  // PATH, IFS, BASH_ENV, GLOBIGNORE … assigned in any way change what the commands after run.
  const risky = assignmentFloor(parsed.assigned, text.slice(0, 200));
  if (risky) {
    parts?.push(part(risky));
    worst = worst === null ? risky : worse(worst, risky);
  }
  return worst ?? find(0, "empty", "nothing to run", "");
}

/**
 * The simple commands a command runs of its own (moved-before.ts): the argv a wrapper or delegate runs, the code a
 * shell or eval runs, parsed; "opaque" when that code is computed or in another language.
 */
function nestedCommands(cmd: SimpleCommand, ctx: Context, parser: BashParser): readonly SimpleCommand[] | "opaque" | null {
  const [prog, ...args] = cmd.words;
  if (!prog) return null;
  if (prog.dynamic) return "opaque";
  const name = posix.basename(prog.text);
  const u = prefixWrapper(name, args) ?? delegate(name, args, cmd.stdin, ctx.cwd) ?? interpreter(name, args, cmd.stdin);
  if (u === null) return null;
  if (u.opaque.length > 0 || u.computed === true) return "opaque";
  const out: SimpleCommand[] = u.inner.map((words) => ({ words, assigns: [], redirects: [], stdin: cmd.stdin, source: renderArgv(words) }));
  for (const code of u.code) out.push(...parser.parse(code).commands);
  return out;
}

/** A list split at its operators, quotes ignored (a fallback for text the grammar cannot parse). */
function splitList(text: string): string[] {
  const pieces = text
    .split(/&&|\|\||;|\n|(?<![>&<])&(?![>&])|(?<![>|])\|(?![|&])/)
    .map((p) => p.trim())
    .filter(Boolean);
  return pieces.length > 1 && pieces.length <= 64 ? pieces : [];
}

/** Programs whose output is the network's (what they write is downloaded); the cheap test of a text that may hold one. */
const FETCHERS = new Set(["curl", "wget", "aria2c", "http", "https", "xh", "xhs", "httpie", "yt-dlp", "youtube-dl", "scp", "rsync"]);
const FETCH_WORD = /\b(curl|wget|aria2c|https?|xhs?|httpie|yt-dlp|youtube-dl|scp|rsync)\b/;
/** scp and rsync fetch when a source is another host's (`h:x.sh`, `u@h:x`, `rsync://h/m/x`); a local copy is not a download. */
const COPY_FETCHERS = new Set(["scp", "rsync"]);
const REMOTE = /^(?:rsync|scp):\/\/|^[^/.-][^/]*:/;

/**
 * The files `commands` download, as resolved paths, or null when none: what
 * a fetcher writes (`curl -o F`, `curl -O URL`, `wget -O F`, `curl URL > F`,
 * `aria2c -o F`, `http -d -o F`), behind a wrapper too (`timeout 30 curl …`)
 * and, once a fetcher has run, what a later command writes by redirection,
 * tee or a copy (`curl URL | tee F`, `curl URL | gunzip > F`, `(curl URL) > F`,
 * `mv F G`: a pipeline's parts are not told apart here, so any later write counts).
 * Review 31: `curl -o x.sh URL && sh x.sh` was tier 1 ("a script from the
 * workspace") while `curl URL | sh` is 2; review 20 had recorded it open.
 */
function downloadsIn(commands: readonly SimpleCommand[], ctx: Context, cdpath: boolean): Set<string> | null {
  const out = new Set<string>();
  let cwds = [ctx.cwd];
  let after = false;
  let remoteAdded = false;
  for (const cmd of commands) {
    const prog = cmd.words[0];
    const name = prog && !prog.dynamic ? posix.basename(prog.text) : "";
    const fetcher = fetcherArgv(cmd.words);
    // `git clone URL d`, `gh repo clone o/r`: the whole tree checked out is downloaded (review 34).
    const clone = name === "git" || name === "gh" ? cloneMade(cmd.words) : null;
    // `gh api repos/o/r/contents/x.sh -H 'Accept: application/vnd.github.raw' > x.sh`: the forge's bytes.
    const forge = name === "gh" && cmd.words[1]?.text === "api";
    // `git fetch URL && git checkout FETCH_HEAD -- x.sh`, `git pull URL main && make`: the repository's tree takes in
    // what another repository holds (review 38); the tree is judged as a clone's from here on.
    const pulled = name === "git" && clone === null ? foreignFetch(cmd.words, remoteAdded) : null;
    if (pulled?.addsRemote) remoteAdded = true;
    else if (pulled)
      for (const cwd of cwds) {
        let path: string | null = cwd;
        for (const w of pulled.chdirs) path = path === null ? null : resolvePlace(w, { ...ctx, cwd: path }).path;
        if (path !== null && path !== "") out.add(worktreeOf(path));
      }
    after ||= fetcher !== null || clone !== null || forge || (pulled !== null && !pulled.addsRemote);
    if (clone)
      for (const cwd of cwds) {
        let path: string | null = cwd;
        for (const w of clone) path = path === null ? null : resolvePlace(w, { ...ctx, cwd: path }).path;
        if (path !== null) {
          out.add(path);
          noteClone(path);
        }
      }
    if (after) {
      const words = wordsWritten(cmd, name, fetcher);
      for (const cwd of cwds)
        for (const w of words) {
          const p = resolvePlace(w, { ...ctx, cwd }).path;
          if (p !== null) out.add(p);
        }
    }
    cwds = afterCd(cmd, cwds, ctx, cdpath);
  }
  return out.size ? out : null;
}

/** The working tree a directory is in: the nearest directory above it (itself included) holding `.git`, or itself. */
function worktreeOf(dir: string): string {
  for (let d = dir; d.startsWith("/"); d = posix.dirname(d)) {
    const st = lstat(posix.join(d, ".git"));
    if (st !== null && st !== "unknown") return d;
    if (d === "/") break;
  }
  return dir;
}

/** A fetcher's argv, its name first, as written or behind prefix wrappers (`command curl`, `timeout 30 wget`), or null. */
function fetcherArgv(words: readonly Word[]): Word[] | null {
  let argv = [...words];
  for (let depth = 0; depth < 4; depth++) {
    const prog = argv[0];
    if (!prog || prog.dynamic) return null;
    const name = posix.basename(prog.text);
    if (FETCHERS.has(name)) return !COPY_FETCHERS.has(name) || argv.some((w) => REMOTE.test(w.text)) ? argv : null;
    const inner = prefixWrapper(name, argv.slice(1))?.inner[0];
    if (!inner) return null;
    argv = inner;
  }
  return null;
}

/**
 * The files a fetcher writes: curl's and wget's shapes (writers.ts); for the others (aria2c, httpie, xh) every
 * name they may write, read wide: `-o F`, `--out[=]F`, `--output[=]F`, `-o` glued or at the end of a bundle
 * (`-ox.sh`, `-dox.sh`; `-o=x` as both `=x` and `x`; a value is read as a word too), and each URL's last path segment, where aria2c and
 * `http -d` name the file without `-o`, in the cwd and in each `-d`/`--dir` given.
 */
function fetchedFiles(argv: readonly Word[]): Word[] {
  const name = posix.basename(argv[0]?.text ?? "");
  const args = argv.slice(1);
  if (COPY_FETCHERS.has(name)) return copiedTo(args);
  const shaped = targetsOf(name, args);
  if (shaped) return shaped.filter((t) => t.mode === "write" && !t.implicit).map((t) => t.word);
  const out: Word[] = [];
  const dirs = ["."];
  const named: Word[] = [];
  for (let i = 0; i < args.length; i++) {
    const w = args[i] as Word;
    const long = /^--(out|output|dir)(?:=(.*))?$/s.exec(w.text);
    const short = long ? null : /^-[A-Za-z]*([od])(.*)$/s.exec(w.text);
    const kind = long ? (long[1] === "dir" ? "d" : "o") : short?.[1];
    const glued = long ? long[2] : short?.[2] || undefined;
    // A value is also read as a word of its own (never skipped): `http -d -o F` is --download, then -o F.
    const value = kind ? (glued !== undefined ? { ...w, text: glued } : args[i + 1]) : undefined;
    if (!value) {
      if (/:\/\//.test(w.text)) named.push(w);
      continue;
    }
    const values = value.text.startsWith("=") ? [value, { ...value, text: value.text.slice(1) }] : [value];
    if (kind === "d") dirs.push(...values.map((v) => v.text));
    out.push(...values);
  }
  for (const u of named) {
    const file = urlFileName(u.text);
    if (file !== "") for (const d of dirs) out.push({ ...u, text: `${d.replace(/\/+$/, "")}/${file}` });
  }
  return out;
}

/** The names `cmd` writes: a fetcher's output, tee's files, output redirections, a copy's destination. */
function wordsWritten(cmd: SimpleCommand, name: string, fetcher: readonly Word[] | null): Word[] {
  return [
    ...(fetcher ? fetchedFiles(fetcher) : []),
    ...(name === "tee" ? cmd.words.slice(1).filter((w) => !w.text.startsWith("-")) : []),
    ...cmd.redirects.filter((r) => /^(>|>>|>\||&>|&>>)$/.test(r.op)).map((r) => r.target),
    ...(COPIERS.has(name) ? copiedTo(cmd.words.slice(1)) : []),
  ];
}

/** Programs that give a file another name or place (`curl -o a URL && mv a b.sh && sh b.sh`). */
const COPIERS = new Set(["cp", "mv", "ln", "install"]);

/** The names a copy or move may write, once a fetcher has run: its last operand, and that directory's entry for each source. */
function copiedTo(args: readonly Word[]): Word[] {
  const operands = args.filter((w) => !w.text.startsWith("-"));
  const dest = operands[operands.length - 1];
  if (operands.length < 2 || dest === undefined) return [];
  const dir = dest.text.replace(/\/+$/, "");
  // A remote source (`h:x.sh`) lands under its name without the host; both names are kept.
  const names = operands
    .slice(0, -1)
    .flatMap((src) => [...new Set([src.text, src.text.replace(/^[^/]*:/, "")])].map((t) => posix.basename(t)));
  return [dest, ...names.map((name) => ({ ...dest, text: `${dir}/${name}` }))];
}

/**
 * For each command, the files the commands before it write from text the line spells out (composed.ts
 * composedText), as resolved paths with that text (null: it expands something), with those of an enclosing line.
 * A copy or move of such a file carries its text; any other write of the name drops it. Only commands after one
 * that composes a file get an entry.
 */
function composedWritesBefore(
  commands: readonly SimpleCommand[],
  ctx: Context,
  cdpath: boolean,
  parser: BashParser,
  seen = new Map<string, string | null>(ctx.composed ?? []),
  depth = 0,
): Map<SimpleCommand, ReadonlyMap<string, string | null>> {
  const out = new Map<SimpleCommand, ReadonlyMap<string, string | null>>();
  let cwds = [ctx.cwd];
  let previous: string | null | undefined;
  for (const [i, own] of commands.entries()) {
    if (seen.size > 0) out.set(own, new Map(seen));
    // What the last command writes runs after the line (nested code's writes are there for the line around it).
    if (depth === 0 && i === commands.length - 1) break;
    // `sh -c "echo … > x.sh"; sh x.sh`, `eval "…"`: what code run here writes is there for the commands after it.
    if (depth < 3 && own.words[0] !== undefined && !own.words[0].dynamic) {
      const u = interpreter(posix.basename(own.words[0].text), own.words.slice(1), own.stdin);
      for (const code of u?.code ?? [])
        if (COMPOSE_WORD.test(code))
          for (const cwd of cwds) composedWritesBefore(parser.parse(code).commands, { ...ctx, cwd }, cdpath, parser, seen, depth + 1);
    }
    // `a && patch -p1 < x.diff && …`: the grammar hands the redirection over as a command of its own, after patch.
    const next = commands[i + 1];
    const cmd =
      next !== undefined && next.words.length === 0 && own.words.length > 0
        ? { ...own, redirects: [...own.redirects, ...next.redirects] }
        : own;
    const prog = cmd.words[0];
    const name = prog && !prog.dynamic ? posix.basename(prog.text) : "";
    // `a && echo 'rm -rf ~' >> x.sh && …`: the grammar hands the redirection over as a command of its own, after echo's.
    const text = cmd.words.length === 0 ? previous : composedText(cmd);
    previous = text;
    // Nothing composed yet and this command composes nothing: its writes change nothing here.
    if (text === undefined && seen.size === 0 && name !== "patch" && name !== "git") {
      cwds = afterCd(cmd, cwds, ctx, cdpath);
      continue;
    }
    const words = [
      ...wordsWritten(cmd, name, fetcherArgv(cmd.words)),
      ...moreWritten(name, cmd.words.slice(1)),
      // `echo … >& x.sh`: with a name, not a descriptor, `>&` is `&>`.
      ...cmd.redirects.filter((r) => r.op === ">&" && !/^(\d+|-)$/.test(r.target.text)).map((r) => r.target),
    ];
    // `git apply <<X … +++ b/x.sh … X && sh x.sh`: the files a diff spelled out on the line creates hold its added lines.
    const diff =
      name === "patch" || name === "git" ? patchText(cmd, name, seen, (w) => (w.dynamic ? null : resolvePlace(w, ctx).path)) : undefined;
    if (typeof diff === "string")
      for (const cwd of cwds)
        for (const [file, added] of diffWrites(diff)) {
          const p = resolvePlace(literalWord(file), { ...ctx, cwd }).path;
          if (p !== null) seen.set(p, added);
        }
    if (words.length > 0) {
      for (const cwd of cwds) {
        const c = { ...ctx, cwd };
        // `cp x.sh y.sh`, `mv x.sh bin/`: the copy holds the composed text (the first composed source's).
        let carried: string | null | undefined;
        if (COPIERS.has(name))
          for (const w of cmd.words.slice(1)) {
            const p = w.dynamic || w.text.startsWith("-") ? null : resolvePlace(w, c).path;
            if (p !== null && seen.has(p)) {
              carried = seen.get(p);
              break;
            }
          }
        const value = text !== undefined ? text : carried;
        for (const w of words) {
          const p = w.dynamic ? null : resolvePlace(w, c).path;
          if (p === null) continue;
          if (value === undefined) seen.delete(p);
          // `>>` adds to what is there: the text added runs with the rest (the workspace's, or composed before).
          else if (cmd.redirects.some((r) => r.target === w && /^&?>>$/.test(r.op)) && seen.has(p)) {
            const before = seen.get(p);
            seen.set(p, before === null || value === null ? null : `${before}\n${value}`);
          } else seen.set(p, value);
        }
      }
    }
    cwds = afterCd(cmd, cwds, ctx, cdpath);
  }
  return out;
}

const SCRATCH_WORD = /\/(?:tmp|var\/tmp|dev\/shm)\b/;

/**
 * For each command, the scratch files (/tmp, /var/tmp, /dev/shm) the commands before it write, as resolved paths
 * (with those of an enclosing line): by redirection, tee, a fetcher's output or a copy's destination. Only these
 * count as the line's own when not there yet; any other name in /tmp may be planted first by another user.
 */
function scratchWritesBefore(commands: readonly SimpleCommand[], ctx: Context, cdpath: boolean): Map<SimpleCommand, Set<string>> {
  const out = new Map<SimpleCommand, Set<string>>();
  const seen = new Set<string>(ctx.scratchMade ?? []);
  let cwds = [ctx.cwd];
  for (const cmd of commands) {
    out.set(cmd, new Set(seen));
    const prog = cmd.words[0];
    const name = prog && !prog.dynamic ? posix.basename(prog.text) : "";
    const words = wordsWritten(cmd, name, fetcherArgv(cmd.words));
    for (const cwd of cwds)
      for (const w of words) {
        if (w.dynamic) continue;
        const p = resolvePlace(w, { ...ctx, cwd }).path;
        if (p !== null && scratch(p)) seen.add(p);
      }
    cwds = afterCd(cmd, cwds, ctx, cdpath);
  }
  return out;
}

/** Every bare repository `commands` make (bare-repos.ts), in each directory its git may run in. */
function noteBareRepos(commands: readonly SimpleCommand[], ctx: Context, cdpath: boolean): void {
  let cwds = [ctx.cwd];
  for (const cmd of commands) {
    const words = cmd.words;
    const at = words.findIndex((w) => !w.dynamic && (w.text === "git" || w.text.endsWith("/git")));
    const dir = at >= 0 ? bareRepoMade(words.slice(at + 1)) : null;
    if (dir !== null) {
      const g = gitGlobals(words.slice(at + 1));
      // A clone (`--bare`, `--mirror`) makes a fresh repository whose config git writes; `init --bare` keeps one there.
      const clones = words[at + 1 + g.sub]?.text === "clone";
      for (const cwd of cwds) {
        let path: string | null = cwd;
        for (const w of [...g.chdirs, dir]) path = resolvePlace(w, { ...ctx, cwd: path ?? "" }).path;
        noteBareRepo(path);
        if (clones && path !== null) noteClone(path);
      }
    }
    cwds = afterCd(cmd, cwds, ctx, cdpath);
  }
}

const MAX_CWDS = 4;

/** The directories later commands may run in after `cmd` ("" = not known). */
function afterCd(cmd: SimpleCommand, cwds: string[], ctx: Context, cdpath: boolean): string[] {
  let words = cmd.words;
  while (words[0] && ["builtin", "command"].includes(words[0].text)) words = words.slice(1);
  const name = words[0];
  // `eval "cd /"`: the directory may change in a way not followed here.
  if (name?.text === "eval" && words.slice(1).some((w) => /\b(cd|pushd)\b/.test(w.text))) return [...new Set([...cwds, ""])];
  if (!name || name.dynamic || !["cd", "pushd", "popd"].includes(name.text)) return cwds;
  const args = words.slice(1);
  const dashdash = args.findIndex((w) => w.text === "--");
  const target = dashdash >= 0 ? args[dashdash + 1] : args.find((w) => !/^-[LPe@]+$/.test(w.text));
  let next: string[];
  if (name.text === "popd" || target?.dynamic || target?.glob || target?.text === "-" || /[{*?[]/.test(target?.text ?? "")) next = [""];
  else if (cdpath && target && !target.text.startsWith("/") && !target.text.startsWith(".")) next = [""];
  else if (!target) next = [ctx.home ?? ""];
  else if (/^~(\/|$)/.test(target.text)) next = [ctx.home ? posix.join(ctx.home, target.text.slice(1)) : ""];
  // `~+` is $PWD: relative to each directory the shell may be in.
  else if (/^~\+(\/|$)/.test(target.text)) next = cwds.map((c) => (c ? posix.resolve(c, `.${target.text.slice(2)}`) : ""));
  // `~-` ($OLDPWD), `~N`, `~+N`, `~-N` (the directory stack): not known here.
  else if (/^~[-+0-9]/.test(target.text)) next = [""];
  // `pushd +N` / `pushd -N` rotate the directory stack: the shell may land in any directory it holds.
  else if (name.text === "pushd" && /^[-+][0-9]+$/.test(target.text)) next = [""];
  else if (/^~[a-z_][a-z0-9_-]*(\/|$)/.test(target.text))
    next = [target.text.replace(/^~([a-z_][a-z0-9_-]*)/, (_m, u: string) => (u === "root" ? "/root" : `/home/${u}`))];
  else if (target.text.startsWith("/")) next = [posix.normalize(target.text)];
  else {
    next = cwds.map((c) => (c ? posix.resolve(c, target.text) : ""));
    // `cd -P cron/..`, or any cd after `set -P` / `set -o physical` (review 24): `..` taken after the links before it
    // lands where the link leads (cron → /etc/cron.d: /etc), not back in the workspace. Both directories count.
    if (target.text.split("/").includes(".."))
      for (const c of cwds) if (c) next.push(realPath(`${c}/${target.text}`, true) ?? posix.resolve(c, target.text));
  }
  const all = [...new Set([...cwds, ...next])];
  return all.length > MAX_CWDS ? [...new Set([ctx.cwd, ""])] : all;
}

function part(f: Finding): PartVerdict {
  return { text: f.text, tier: f.tier, rule: f.rule, reason: f.reason };
}

function contextOf(input: ClassifyInput): Context {
  const cwd = input.cwd.startsWith("/") ? posix.normalize(input.cwd).replace(/(.)\/+$/, "$1") : "";
  const roots = (input.workspaceRoots ?? []).filter((r) => r.startsWith("/")).map((r) => posix.normalize(r).replace(/(.)\/+$/, "$1"));
  // The root, and a world-writable scratch root (/tmp, /var/tmp, /dev/shm), is no workspace: anyone may have put a file there,
  // and "a script from the workspace" would run theirs (review 34). Its files are judged as scratch files are.
  const workspace = [...(cwd ? [cwd] : []), ...roots].filter((r) => r !== "/" && !sharedScratchRoot(r));
  return { host: input.host, source: input.source, policy: input.source, cwd, workspace, home: inferHome(cwd), depth: 0, remote: false };
}

/** A verdict of tier 4 for the whole command, before or instead of judging its parts. */
function refuseWhole(command: string, rule: string, reason: string): Verdict {
  return { tier: 4, rule, reason, explicit: false, parts: [{ text: command.slice(0, 200), tier: 4, rule, reason }] };
}

function classify(input: ClassifyInput, judge: Judge, parser: BashParser, laterScript?: Context["laterScript"]): Verdict {
  beginCommand();
  const command = input.command;
  if (Buffer.byteLength(command, "utf8") > MAX_COMMAND_BYTES) {
    return refuseWhole(command, "too-long", `command longer than ${MAX_COMMAND_BYTES} bytes`);
  }
  if (command.includes("\0")) return refuseWhole(command, "nul-byte", "NUL byte in the command");
  const parts: PartVerdict[] = [];
  let worst: Finding;
  try {
    worst = judgeText(command, laterScript ? { ...contextOf(input), laterScript } : contextOf(input), judge, parser, parts);
  } catch (err) {
    // `$($($(…)))` thousands deep exhausts the stack in the grammar's walk: refused as too deep, not an error.
    if (!(err instanceof RangeError)) throw err;
    return refuseWhole(command, "nesting-too-deep", "code nested deeper than the classifier can follow");
  }
  // The hook's fast path never takes a credential literal: it belongs in env_secrets (and out of the audit).
  const creds = input.source === "claude" ? findCredentials(command) : [];
  if (creds.length > 0) {
    const kinds = [...new Set(creds.map((c) => c.kind))].join(", ");
    const f = find(
      2,
      "inline-credential",
      `the command line carries a credential literal (${kinds}): pass it by reference with /exec's env_secrets and use $NAME in the command`,
      redactCredentials(command).slice(0, 200),
    );
    parts.push(part(f));
    worst = worse(worst, f);
  }
  const top = parts.filter((p) => p.tier === worst.tier);
  const explicit = worst.explicit && top.length > 0 && top.every((p) => p.tier === worst.tier && isExplicitPart(p, worst));
  return { tier: worst.tier as TierNumber, rule: worst.rule, reason: worst.reason, explicit, parts };
}

/**
 * What the rules behind the parts grant. Network only when every part was
 * decided by a rule flagged `network` (a part raised by the effect analysis
 * or a heuristic names no such rule, so the whole command gets none); plain
 * assignments (tier 0 "shell-variable" parts) are neutral. And every such
 * part must be plain (judge.ts plainCommand): a rule can win a tie against
 * code its command runs (`sh -c 'apt-get install x; ./y'`), so a wrapper,
 * interpreter, redirection or steering assignment never gets network.
 *
 * A live action the same way: a tier-3 command runs on the host only when
 * each tier-3 part is a plain command decided by a `live-service` rule and
 * no other part changes anything (tier 1–3). A tier 3 raised by the effect
 * analysis (`git diff --output=/etc/cron.d/x`, a delete through a path it
 * cannot see) is not a live action: it runs in the mirror and its diff is
 * judged like any other. A live action beside such parts is "mixed".
 */
/** A server's check of its own configuration, exactly (no other file named). */
const CONFIG_TEST = /^(?:nginx -[tT]|apache2?ctl (?:-t|configtest)|sshd -t|visudo -c)$/;

function withAttrs(v: Verdict, attrs: ReadonlyMap<string, RuleAttrs>, liveRules: ReadonlySet<string>): Verdict {
  // A plain assignment (`DEBIAN_FRONTEND=noninteractive apt-get …`) is its own part and grants nothing itself.
  const deciding = v.parts.filter((p) => p.rule !== "shell-variable");
  const found = deciding.map((p) => attrs.get(p.rule));
  const every = (flag: "network" | "package") =>
    v.tier < 4 && found.length > 0 && deciding.every((p, i) => p.plain === true && found[i]?.[flag] === true);
  const unique = (xs: (string | undefined)[]) => [...new Set(xs.filter((x): x is string => x !== undefined))];
  const live = (p: PartVerdict) => p.tier === 3 && p.plain === true && liveRules.has(p.rule);
  const liveParts = v.tier === 3 ? deciding.filter(live) : [];
  // Every other part would run on the host with it, outside any envelope (a read misjudged as one too): none may ride along.
  // (A configuration test before a reload, `nginx -t && systemctl reload nginx`, is the one companion kept.)
  const others = v.tier === 3 ? deciding.filter((p) => !live(p) && !(p.tier === 0 && CONFIG_TEST.test(p.text))) : [];
  const writers = others.filter((p) => p.tier >= 1);
  const liveMixed =
    liveParts.length > 0 && others.length > 0
      ? writers.length > 0
        ? `a live action (${liveParts[0]?.text ?? ""}) in one command with parts that change files (${writers[0]?.text ?? ""}): changes reach the host only as a judged diff, so send them as two requests — first the change, then the live action`
        : `a live action (${liveParts[0]?.text ?? ""}) in one command with other parts (${others[0]?.text ?? ""}): a live action runs on the host alone, so send the other parts as their own request`
      : "";
  const out: VerdictAttrs = {
    network: every("network"),
    packageRun: v.tier === 2 && every("package"),
    liveAction: liveParts.length > 0 && others.length === 0,
    liveMixed,
    verify: unique(found.map((a) => a?.verify)),
    redeploy: unique(found.map((a) => a?.redeploy)),
  };
  // Written out, not spread: the same fields in the same order, at less cost.
  return { tier: v.tier, rule: v.rule, reason: v.reason, explicit: v.explicit, parts: v.parts, attrs: out };
}

function isExplicitPart(p: PartVerdict, worst: Finding): boolean {
  return p.rule === worst.rule;
}
