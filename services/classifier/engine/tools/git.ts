// git: the commands its options and config run (-c core.pager=…, alias.x='!…',
// --upload-pack, difftool -x, rebase -x, submodule foreach, bisect run …),
// the code-bearing config it sets (git config KEY VALUE), and the files its
// output options write (-o, --output, --output-directory; -C names where it works).
import { posix } from "node:path";
import type { Analysis } from "../analyzers.js";
import { splitArgs } from "../argv.js";
import { optionValueSpec } from "../targets.js";
import type { Spec, Target } from "../targets.js";
import type { Word } from "../types.js";
import { firstOperand, joinWords, literalWord } from "../unwrap.js";
import type { Delegate, Unwrap } from "../unwrap.js";
import { sentCarry, urlsCarry } from "./http.js";
import { pullOptions, Runs, shQuote } from "./runs.js";
import type { CodeOption } from "./runs.js";
import { outside } from "./runners.js";

const GIT_GLOBAL_VALUES = new Set(["-C", "--git-dir", "--work-tree", "--namespace", "--super-prefix", "--attr-source", "--list-cmds"]);

/** Per git subcommand: options whose value is a command git runs, and whether the repository operand is appended to it. */
const GIT_CODE_OPTIONS: Record<string, CodeOption & { appendsRepo?: boolean }> = {
  "ls-remote": { longs: ["--upload-pack"], shorts: "u", appendsRepo: true },
  clone: { longs: ["--upload-pack"], shorts: "u", appendsRepo: true },
  fetch: { longs: ["--upload-pack"], appendsRepo: true },
  pull: { longs: ["--upload-pack"], appendsRepo: true },
  "fetch-pack": { longs: ["--upload-pack", "--exec"], appendsRepo: true },
  push: { longs: ["--receive-pack", "--exec"], appendsRepo: true },
  "send-pack": { longs: ["--receive-pack", "--exec"], appendsRepo: true },
  archive: { longs: ["--exec"], appendsRepo: true },
  difftool: { longs: ["--extcmd"], shorts: "x" },
  rebase: { longs: ["--exec"], shorts: "x" },
  grep: { longs: ["--open-files-in-pager"], shorts: "O", optional: true },
  "filter-branch": {
    longs: ["--env-filter", "--tree-filter", "--index-filter", "--parent-filter", "--msg-filter", "--commit-filter", "--tag-name-filter"],
  },
  "send-email": { longs: ["--sendmail-cmd", "--to-cmd", "--cc-cmd", "--header-cmd"] },
  instaweb: { longs: ["--httpd"], shorts: "d" },
};

/**
 * git options and config that run commands: `-c key=cmd` (core.sshCommand,
 * core.pager, alias.x='!cmd' …), --upload-pack/--receive-pack/--exec (run with
 * the repository appended), difftool -x, grep -O, rebase -x, submodule foreach,
 * bisect run. The code is judged, and so is the git command without it.
 */
function git(args: Word[]): Unwrap | null {
  const runs = new Runs();
  const kept: Word[] = [literalWord("git")];
  let i = 0;
  for (; i < args.length; i++) {
    const w = args[i] as Word;
    const t = w.text;
    if (!t.startsWith("-") || t === "--") break;
    if (t === "-c" || t === "--config-env" || t.startsWith("--config-env=")) {
      const pair = t.startsWith("--config-env=") ? { ...w, text: t.slice("--config-env=".length) } : args[++i];
      if (!pair) break;
      const eq = pair.text.indexOf("=");
      const key = eq < 0 ? pair.text : pair.text.slice(0, eq);
      const value = eq < 0 ? null : pair.text.slice(eq + 1);
      const runsWhat = pair.dynamic && eq < 0 ? "other" : gitConfigRuns(key, value);
      if (runsWhat === null) {
        kept.push(...(t.startsWith("--config-env=") ? [w] : [w, pair]));
        continue;
      }
      // --config-env takes the value from an environment variable: not known here.
      if (runsWhat === "shell" && value !== null && t === "-c")
        runs.add({ ...pair, text: gitConfigCommand(value) }, 2, `git -c ${key} runs a command`);
      else {
        runs.opaque.push(pair.text);
        runs.raise(2, `git config ${key} runs code`);
      }
      continue;
    }
    if (t.startsWith("--exec-path=")) {
      runs.opaque.push(t);
      runs.raise(2, "git runs its subcommands from another directory");
      continue;
    }
    kept.push(w);
    if (GIT_GLOBAL_VALUES.has(t) && args[i + 1]) kept.push(args[++i] as Word);
  }
  const sub = args[i];
  const rest = args.slice(i + 1);
  if (sub) kept.push(sub);
  const spec = sub && Object.hasOwn(GIT_CODE_OPTIONS, sub.text) ? GIT_CODE_OPTIONS[sub.text] : undefined;
  if (sub?.text === "submodule" && rest.some((w) => w.text === "foreach")) {
    const f = rest.findIndex((w) => w.text === "foreach");
    const at = firstOperand(rest, new Set(), f + 1);
    const cmd = rest.slice(at);
    kept.push(...rest.slice(0, Math.min(at, rest.length)));
    if (cmd.length) runs.add(joinWords(cmd), 0, "git runs a command in each submodule");
  } else if (sub?.text === "bisect" && rest[0]?.text === "run") {
    kept.push(rest[0]);
    if (rest.length > 1) {
      runs.inner.push(rest.slice(1));
      runs.raise(0, "git bisect runs a command at each step");
    }
  } else if (spec) {
    const { values, rest: left } = pullOptions(rest, spec);
    kept.push(...left);
    // Local transports run the program through a shell with the repository
    // path appended (`--upload-pack='rm -rf' ~`): judge it with each operand.
    const operands = left
      .filter((w) => !w.text.startsWith("-"))
      .slice(0, 4)
      .map((w) => shQuote(w.text));
    for (const v of values) {
      if (spec.appendsRepo && operands.length)
        for (const o of operands) runs.add(v, 2, `git ${sub?.text} runs a command named by an option`, o);
      else runs.add(v, 2, `git ${sub?.text} runs a command named by an option`);
    }
  } else kept.push(...rest);
  return runs.result("delegate:git", [kept]);
}

// git config keys whose value runs: as shell code (the value is a command
// line), or in another way (hooks, included config, URL rewriting, transports).
const GIT_SHELL_KEYS =
  /^(core\.(sshcommand|pager|editor|askpass|gitproxy|fsmonitor|alternaterefscommand)|sequence\.editor|gpg\.([^.]+\.)?program|gpg\.ssh\.defaultkeycommand|diff\.external|diff\..+\.(textconv|command)|(diff|merge)tool\..+\.(cmd|path)|gc\.recentobjectshook|imap\.tunnel|lfs\.extension\..+\.(clean|smudge)|merge\..+\.driver|filter\..+\.(clean|smudge|process)|pager\..+|alias\..+|credential\.(.+\.)?helper|submodule\..+\.update|sendemail\.(.+\.)?(sendmailcmd|tocmd|cccmd|headercmd)|(browser|man)\..+\.(cmd|path)|interactive\.difffilter|tar\..+\.command|trailer\..+\.(command|cmd)|uploadpack\.packobjectshook|remote\..+\.(uploadpack|receivepack)|hook\..+\.command|instaweb\.httpd)$/;
const GIT_OTHER_KEYS =
  /^(core\.hookspath|init\.templatedir|include\.|includeif\.|url\.|protocol\.|uploadpack\.|receive\.|remote\..+\.vcs|filter\.|credential\.|safe\.directory)/;

// git config keys naming a file that later, read-only git commands read and echo: blame's
// ignore-revs file (its first bad line in the error), the attributes file (`git check-attr -a`
// prints every word of a matching line as an attribute), the mailmap, the commit template, the
// excludes file (`git check-ignore -v` prints the pattern), ssh signing's allowed signers, format-patch's
// signature file (round 25: `git format-patch -1 --stdout` printed the key it named).
export const GIT_FILE_KEYS =
  /^(core\.(attributesfile|excludesfile)|blame\.ignorerevsfile|mailmap\.file|commit\.template|gpg\.ssh\.(allowedsignersfile|revocationfile)|sendemail\.aliasesfile|format\.signaturefile)$/;

/** A config value naming a file outside the workspace: absolute, in the home directory, up the tree, or computed. */
function outsideValue(w: Word): boolean {
  return w.dynamic || outside(w.text);
}

/**
 * Whether setting git config `key` to `value` makes git run something:
 * "shell" when the value is a command line (see gitConfigCommand), "other"
 * when it runs code in another way, null when it does not.
 */
export function gitConfigRuns(key: string, value: string | null): "shell" | "other" | null {
  const k = key.toLowerCase();
  const v = (value ?? "").trim();
  if (/^(pager\..+|core\.fsmonitor)$/.test(k) && value !== null && /^(true|false|yes|no|on|off|1|0)?$/i.test(v)) return null;
  if (/^(alias\..+|submodule\..+\.update)$/.test(k)) return v.startsWith("!") ? "shell" : k.startsWith("alias.") ? "other" : null;
  if (/^credential\.(.+\.)?helper$/.test(k)) return v.startsWith("!") || v.includes("/") ? "shell" : "other";
  // A branch's remote given as a URL or path (not a remote's name): the next plain `git push` goes there (round 25).
  if (/^branch\..+\.remote$/.test(k)) return value !== null && /[:/]/.test(v) ? "other" : null;
  // send-email runs an SMTP server given as an absolute path as a sendmail-like program.
  if (/^sendemail\.(.+\.)?smtpserver$/.test(k)) return value !== null && v.startsWith("/") ? "shell" : null;
  // Where git checks files out, and where a remote's objects come from (a path, an `ext::` command): a change
  // of either, not a read of it (`git config --get remote.origin.url`).
  if (/^(core\.worktree|remote\..+\.(url|pushurl))$/.test(k)) return value === null ? null : "other";
  // Where git's HTTP requests go and whom they trust (a proxy, TLS checks off, another CA, a pinned address, a cookie
  // file, extra headers): with them the next fetch hands the credential helper's token to another host.
  if (
    /^(http\.(.+\.)?|remote\..+\.)(proxy|proxysslcainfo|proxysslcert|proxysslkey|sslverify|sslcainfo|sslcapath|sslcert|sslkey|sslbackend|curloptresolve|cookiefile|extraheader|pinnedpubkey)$/.test(
      k,
    )
  )
    return value === null ? null : "other";
  if (GIT_SHELL_KEYS.test(k)) return "shell";
  return GIT_OTHER_KEYS.test(k) ? "other" : null;
}

/**
 * Sections whose keys run commands, load other config, or decide where git
 * works and what it fetches (core.fsmonitor, alias.*, filter.*.smudge,
 * include.path, url.*.insteadOf, remote.*.url …).
 */
const CODE_SECTIONS = new Set([
  "core",
  "alias",
  "filter",
  "diff",
  "difftool",
  "merge",
  "mergetool",
  "credential",
  "url",
  "include",
  "includeif",
  "remote",
  "protocol",
  "uploadpack",
  "receive",
  "gpg",
  "interactive",
  "sequence",
  "submodule",
  "pager",
  "sendemail",
  "browser",
  "man",
  "tar",
  "trailer",
  "hook",
  "instaweb",
  "init",
  "safe",
  "web",
  "gui",
  "guitool",
]);

/**
 * `git config --rename-section OLD NEW` / `git config rename-section OLD
 * NEW`: the keys of OLD become NEW's (`foo.fsmonitor` becomes
 * core.fsmonitor). The new section's name when it holds code keys (or is
 * computed), else null.
 */
function renamedToCode(args: readonly Word[]): string | null {
  const at = args.findIndex((w) => w.text === "--rename-section" || w.text === "rename-section");
  if (at < 0) return null;
  const operands = args.slice(at + 1).filter((w) => !w.text.startsWith("-"));
  const to = operands[1];
  if (!to) return operands[0]?.dynamic ? "a computed name" : null;
  if (to.dynamic) return "a computed name";
  const section = (to.text.split(".")[0] ?? "").toLowerCase();
  return CODE_SECTIONS.has(section) ? section : null;
}

/**
 * The command an ext:: URL runs, as shell text: git splits it into arguments
 * at unescaped spaces, `% ` is a space within one and `%%` a percent; each
 * argument holding a space is single-quoted, so `sh -c rm% -rf% ~` is
 * judged as `sh -c 'rm -rf ~'`, what git runs.
 */
function extCommand(spec: string): string {
  const words: string[] = [];
  let word = "";
  for (let i = 0; i < spec.length; i++) {
    const c = spec[i] as string;
    if (c === "%" && (spec[i + 1] === " " || spec[i + 1] === "%")) word += spec[++i];
    else if (c === " ") {
      if (word) words.push(word);
      word = "";
    } else word += c;
  }
  if (word) words.push(word);
  // Quoted only where a word holds a space or quote: the vetoes read `rm -rf ~` as they would typed.
  return words.map((w) => (/[\s'"\\]/.test(w) ? `'${w.replace(/'/g, "'\\''")}'` : w)).join(" ");
}

/** The shell code a code-bearing git config value runs (`!cmd` aliases and helpers lose their `!`). */
export function gitConfigCommand(value: string): string {
  return value.trim().replace(/^!/, "");
}

/** `git -c KEY=VALUE …` and `git config KEY VALUE` with a key whose value runs: a floor, and the code to scan. */
/** git's verbs that send their remote's URL (and refspecs) to another system. */
const GIT_URL_VERBS = new Set(["ls-remote", "fetch", "pull", "clone"]);

/**
 * `git submodule add URL` (clones at once), `git remote add NAME URL`,
 * `git remote set-url [--push|--add] NAME URL` (stored, then requested by
 * every fetch and push): the URL is sent as a fetch's is.
 */
function storesUrl(sub: string, rest: readonly Word[]): boolean {
  const verb = rest.find((w) => w.dynamic || !w.text.startsWith("-"))?.text ?? "";
  if (sub === "submodule") return verb === "add";
  if (sub === "remote") return verb === "add" || verb === "set-url";
  return false;
}

/** `git archive --remote=URL` / `--remote URL`: the archive is requested from URL. */
function archiveRemotes(rest: readonly Word[]): Word[] {
  const out: Word[] = [];
  for (let i = 0; i < rest.length; i++) {
    const w = rest[i] as Word;
    if (w.text === "--" && !w.dynamic) break;
    if (w.text.startsWith("--remote=")) out.push({ ...w, text: w.text.slice("--remote=".length) });
    else if (w.text === "--remote" && rest[i + 1]) out.push(rest[++i] as Word);
  }
  return out;
}

/**
 * A remote URL (or a refspec, or a `-c` value such as http.extraHeader) of
 * ls-remote/fetch/pull/clone, submodule add, remote add/set-url, archive --remote that carries a command's output or a
 * secret-named variable: sent to the URL's host as curl sends its URL (urlsCarry).
 */
function gitSends(args: readonly Word[]): Analysis | null {
  if (!args.some((w) => w.dynamic)) return null;
  const g = gitGlobals(args);
  const sub = args[g.sub]?.text ?? "";
  const rest = args.slice(g.sub + 1);
  let urls: Word[];
  if (GIT_URL_VERBS.has(sub)) urls = rest;
  else if (storesUrl(sub, rest)) urls = rest;
  else if (sub === "archive") urls = archiveRemotes(rest);
  else return null;
  const carried = urlsCarry(urls.filter((w) => w.dynamic));
  if (carried) return carried;
  const configs = args.slice(0, g.sub).filter((w, i) => w.dynamic && args[i - 1]?.text === "-c");
  const header = sentCarry(configs, "git's configuration for the request", false);
  return header && { ...header, rule: "analysis:url-output" };
}

export function gitAnalysis(args: readonly Word[]): Analysis | null {
  // The ext:: transport runs its URL as a command (`ext::sh -c rm% -rf% ~`; `% ` is a space, `%%` a percent)
  // wherever git takes a remote: ls-remote, fetch, clone, pull, push, submodule, remote add.
  const ext = args.find((w) => /^ext::/i.test(w.text));
  if (ext)
    return {
      tier: 2,
      rule: "analysis:git-ext-transport",
      reason: "an ext:: remote runs its URL as a command",
      kind: "floor",
      code: extCommand(ext.text.slice(5)),
    };
  const sent = gitSends(args);
  if (sent) return sent;
  const discards = gitDiscards(args);
  if (discards !== null) return { tier: 2, rule: "analysis:git-discard", reason: discards, kind: "floor" };
  for (let i = 0; i < args.length; i++) {
    const t = (args[i] as Word).text;
    const next = args[i + 1]?.text ?? "";
    const pairRuns = (pair: string) =>
      gitConfigRuns(pair.split("=")[0] ?? "", pair.includes("=") ? pair.slice(pair.indexOf("=") + 1) : null);
    if (t === "-c" && pairRuns(next)) {
      return {
        tier: 2,
        rule: "analysis:git-code-config",
        reason: "git config key that runs a command",
        kind: "floor",
        code: gitConfigCommand(next.slice(next.indexOf("=") + 1)),
      };
    }
    if (t === "config") {
      const renamed = renamedToCode(args.slice(i + 1));
      if (renamed !== null)
        return {
          tier: 2,
          rule: "analysis:git-code-config",
          reason: `git config renames a section to ${renamed}, whose keys run commands`,
          kind: "floor",
        };
      const rest = args.slice(i + 1).filter((w) => !w.text.startsWith("-"));
      const file = rest.findIndex(
        (w, j) => GIT_FILE_KEYS.test(w.text.toLowerCase()) && rest[j + 1] !== undefined && outsideValue(rest[j + 1] as Word),
      );
      if (file >= 0)
        return {
          tier: 2,
          rule: "analysis:git-file-config",
          reason: `git config points ${rest[file]?.text} at ${rest[file + 1]?.text}, a file later git commands read and print (a read of it, outside the workspace)`,
          kind: "floor",
        };
      const at = rest.findIndex((w, j) => gitConfigRuns(w.text, rest[j + 1]?.text ?? null) !== null);
      if (at >= 0) {
        const value = rest[at + 1]?.text ?? "";
        return {
          tier: 2,
          rule: "analysis:git-code-config",
          reason: "git config key that runs a command",
          kind: "floor",
          code: gitConfigCommand(value),
        };
      }
    }
    if (!t.startsWith("-") && t !== "config" && !(args[i - 1]?.text === "-c" || args[i - 1]?.text === "-C")) break;
  }
  return null;
}

/** What git writes: its output options' files, else where it works (-C, --git-dir, --work-tree, the cwd). */
export const gitTargets: Spec = (args) => {
  const made = checkoutDestination(args);
  if (made !== null) return made;
  // `git mv SRC… DEST` writes DEST (or DEST/NAME), as mv does: `git mv tpl/.envrc .envrc` plants what direnv runs.
  const g = gitGlobals(args);
  if (args[g.sub]?.text === "mv" && g.chdirs.length === 0 && g.workTree === null) {
    const ops = args.slice(g.sub + 1).filter((w) => !w.text.startsWith("-"));
    const dest = ops.at(-1);
    if (dest && ops.length >= 2)
      return [
        { word: dest, mode: "write" },
        // The sources' content moves with them: into an ignored place it would pass as regenerable (effects.ts).
        ...ops.slice(0, -1).map((src) => ({
          word: src,
          mode: "tree" as const,
          keeps: true,
          movedTo: [dest, { ...dest, text: `${dest.text.replace(/\/+$/, "")}/${src.text.replace(/\/+$/, "").split("/").pop() ?? ""}` }],
        })),
        ...ops.slice(0, -1).map((src) => ({
          word: { ...dest, text: `${dest.text.replace(/\/+$/, "")}/${src.text.replace(/\/+$/, "").split("/").pop() ?? ""}` },
          mode: "write" as const,
        })),
      ];
  }
  // Output options name a file written even by a read verb; -C/--git-dir/
  // --work-tree only say where the verb works (a write only for write verbs).
  const out = optionValueSpec(["--output", "--output-directory", "-o"], false)(args);
  if (out.length) return out;
  return optionValueSpec(["-C", "--git-dir", "--work-tree"], true)(args).map((t) => ({ ...t, implicit: true }));
};

export const gitDelegate: Delegate = (_name, args) => git(args);

/**
 * `gh repo clone REPO [DIR] [-- GITFLAGS]` runs `git clone GITFLAGS URL [DIR]` (review 27): git's flags after `--`
 * (`--template=DIR`, whose hooks run at checkout; `-c core.hooksPath=…`; `-u PROGRAM`) and the directory (`/root/x`)
 * are judged as git clone's; they were tier 1 as "fetches into the workspace".
 */
export const ghDelegate: Delegate = (_name, args) => {
  if (args[0]?.text !== "repo" || args[1]?.text !== "clone") return null;
  const rest = args.slice(2);
  const dashes = rest.findIndex((w) => w.text === "--");
  const own = dashes >= 0 ? rest.slice(0, dashes) : rest;
  const operands: Word[] = [];
  for (let i = 0; i < own.length; i++) {
    const t = (own[i] as Word).text;
    if (t === "-u" || t === "--upstream-remote-name") i++;
    else if (!t.startsWith("-") || (own[i] as Word).dynamic) operands.push(own[i] as Word);
  }
  const [repo, dir] = operands;
  if (repo === undefined) return null;
  const url = !repo.dynamic && /^[\w.-]+\/[\w.-]+$/.test(repo.text) ? { ...repo, text: `https://github.com/${repo.text}.git` } : repo;
  const gitFlags = dashes >= 0 ? rest.slice(dashes + 1) : [];
  return {
    rule: "delegate:gh-clone",
    floor: 0,
    reason: "gh repo clone runs git clone",
    inner: [[literalWord("git"), literalWord("clone"), ...gitFlags, url, ...(dir ? [dir] : [])]],
    code: [],
    opaque: [],
  };
};

/** git's global options before the subcommand: where it works and which repository it uses. */
export interface GitGlobals {
  /** The -C directories, in order (each relative to the one before). */
  chdirs: Word[];
  /** --git-dir and --work-tree (relative to the last -C directory). */
  gitDir: Word | null;
  workTree: Word | null;
  /** `git --bare …`: the working directory is the repository. */
  bare: boolean;
  /** The subcommand's index in the arguments (args.length when there is none). */
  sub: number;
}

export function gitGlobals(args: readonly Word[]): GitGlobals {
  const g: GitGlobals = { chdirs: [], gitDir: null, workTree: null, bare: false, sub: 0 };
  let i = 0;
  for (; i < args.length; i++) {
    const w = args[i] as Word;
    const t = w.text;
    if (!t.startsWith("-") || t === "--") break;
    const glued = /^--(git-dir|work-tree)=(.*)$/s.exec(t);
    const value = glued ? { ...w, text: glued[2] ?? "" } : ["-C", "--git-dir", "--work-tree"].includes(t) ? args[++i] : undefined;
    if (t === "-C" && value) g.chdirs.push(value);
    else if ((glued?.[1] ?? t.slice(2)) === "git-dir" && value) g.gitDir = value;
    else if ((glued?.[1] ?? t.slice(2)) === "work-tree" && value) g.workTree = value;
    else if (t === "--bare") g.bare = true;
    else if (GIT_GLOBAL_VALUES.has(t) || t === "-c") i++;
  }
  g.sub = i;
  return g;
}

const INIT_VALUES = new Set(["-b", "--initial-branch", "--template", "--separate-git-dir", "--object-format", "--ref-format"]);

/**
 * The bare repository `git init --bare [DIR]` (or `git --bare init`) and
 * `git clone --bare|--mirror SRC DEST` make, relative to git's last -C
 * directory: its directory word ("." for the working directory), or null
 * when the command makes none. A clone into its default directory makes
 * `NAME.git`, which the path lists know by its suffix.
 */
export function bareRepoMade(args: readonly Word[]): Word | null {
  const g = gitGlobals(args);
  const sub = args[g.sub]?.text;
  const rest = args.slice(g.sub + 1);
  if (sub === "init") {
    const a = splitArgs(rest, INIT_VALUES);
    return g.bare || a.flags.includes("--bare") ? (a.positional[0] ?? literalWord(".")) : null;
  }
  if (sub === "clone") {
    const a = splitArgs(rest, CLONE_VALUES);
    return a.flags.includes("--bare") || a.flags.includes("--mirror") ? (a.positional[1] ?? null) : null;
  }
  return null;
}

/**
 * The directory `git clone [OPTS] REPO [DIR]` (or `gh repo clone REPO [DIR]`) checks out, after git's -C
 * directories (words in order, each relative to the one before), or null: DIR, else the repository's last
 * path segment without `.git` (git's "humanish" name). Review 34: what runs from it is downloaded code.
 */
export function cloneMade(words: readonly Word[]): Word[] | null {
  const name = posix.basename(words[0]?.text ?? "");
  let chdirs: Word[] = [];
  let repo: Word | undefined;
  let dir: Word | undefined;
  if (name === "git") {
    const args = words.slice(1);
    const g = gitGlobals(args);
    // `git submodule add [OPTS] REPO [PATH]` clones REPO at once, as clone does.
    const submodule = args[g.sub]?.text === "submodule" && args[g.sub + 1]?.text === "add";
    if (args[g.sub]?.text !== "clone" && !submodule) return null;
    const a = splitArgs(args.slice(g.sub + (submodule ? 2 : 1)), submodule ? SUBMODULE_ADD_VALUES : CLONE_VALUES);
    if (a.flags.includes("--bare") || a.flags.includes("--mirror")) return null;
    chdirs = g.chdirs;
    [repo, dir] = a.positional;
  } else if (name === "gh" && words[1]?.text === "repo" && words[2]?.text === "clone") {
    [repo, dir] = words.slice(3).filter((w) => w.dynamic || !w.text.startsWith("-"));
    if (repo?.text === "--") return null;
  } else return null;
  if (dir === undefined && repo !== undefined && !repo.dynamic) {
    const human =
      repo.text
        .replace(/\/+$/, "")
        .replace(/\/?\.git$/, "")
        .replace(/\.bundle$/, "")
        .split(/[/:]/)
        .pop() ?? "";
    if (human !== "" && human !== "." && human !== "..") dir = { ...repo, text: human };
  }
  return dir === undefined ? null : [...chdirs, dir];
}

/** A repository named by URL, scp-style address or absolute path (not a remote's name, not `.`). */
const FOREIGN_REPO = /^(?:[a-z][a-z0-9+.-]*:\/\/|[^/\s:@]+@[^/\s:]+:|[a-z0-9][a-z0-9.-]*\.[a-z]{2,}:|\/)/i;

/**
 * `git fetch|pull REPO …` with REPO a URL or path rather than a configured remote, and any fetch, pull or
 * `remote update` once the line has added a remote or changed its URL (`git remote add e URL && git fetch e`): git's
 * globals' -C directories (git runs in the last), or null. What comes in (FETCH_HEAD, the merged tree) is code
 * no one has seen, as a clone's is (review 38).
 */
export function foreignFetch(words: readonly Word[], remoteAdded: boolean): { chdirs: Word[]; addsRemote: boolean } | null {
  if (posix.basename(words[0]?.text ?? "") !== "git") return null;
  const args = words.slice(1);
  const g = gitGlobals(args);
  const sub = args[g.sub]?.text;
  const rest = args.slice(g.sub + 1);
  if (sub === "remote" && (rest[0]?.text === "add" || rest[0]?.text === "set-url"))
    return rest.some((w) => w.dynamic || FOREIGN_REPO.test(w.text)) ? { chdirs: g.chdirs, addsRemote: true } : null;
  const fetches = sub === "fetch" || sub === "pull" || (sub === "remote" && rest[0]?.text === "update");
  if (!fetches) return null;
  if (remoteAdded || rest.some((w) => w.dynamic || FOREIGN_REPO.test(w.text))) return { chdirs: g.chdirs, addsRemote: false };
  return null;
}

const SUBMODULE_ADD_VALUES = new Set(["-b", "--branch", "--name", "--reference", "--depth"]);
const CLONE_VALUES = new Set([
  "--depth",
  "--branch",
  "-b",
  "-o",
  "--origin",
  "-u",
  "--upload-pack",
  "--reference",
  "--reference-if-able",
  "--separate-git-dir",
  "--filter",
  "--jobs",
  "-j",
  "--template",
  "-c",
  "--config",
  "--server-option",
  "--bundle-uri",
  "--ref-format",
  "--revision",
  "--shallow-since",
  "--shallow-exclude",
]);
const WORKTREE_VALUES = new Set(["-b", "-B", "--reason", "--expire"]);

/** A repository named by a local path (`/root/repo`, `../x`, `file:///etc/.git`), not a URL, an scp-like `host:path` or a remote's name. */
function localRepository(w: Word, bareNameIsPath: boolean): Word | null {
  const t = w.text;
  if (t.startsWith("file://")) return { ...w, text: t.slice("file://".length) || "/" };
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(t) || /^[^/]*:/.test(t)) return null;
  return w.dynamic || /^(\/|~|\.\.?(\/|$))/.test(t) || bareNameIsPath ? w : null;
}

/**
 * The trees git reads from disk rather than from what it tracks: `git grep
 * --no-index|--untracked` searches the work tree's files, ignored and
 * untracked ones too (its operands after the pattern, else "."); `git diff
 * --no-index A B` compares two paths as diff does, and so does `git diff A
 * B` when one of them (`outsideRepo`) is outside the repository.
 */
export function gitDiskTrees(args: readonly Word[], outsideRepo: (w: Word) => boolean): Word[] {
  const g = gitGlobals(args);
  const sub = args[g.sub]?.text;
  const rest = args.slice(g.sub + 1);
  const operands = rest.filter((w) => w.dynamic || !w.text.startsWith("-"));
  // `git diff A B` compares the paths on disk, as --no-index does, when one is outside the repository (or there is none).
  if (sub === "diff" && operands.length === 2 && operands.some(outsideRepo)) return operands;
  if (!rest.some((w) => /^--(no-index|untracked)$/.test(w.text))) return [];
  if (sub === "diff") return operands;
  if (sub !== "grep") return [];
  // Pathspecs after `--` are the trees; without them, the operands (an -e value among them, which only raises) and ".".
  const end = rest.findIndex((w) => w.text === "--" && !w.dynamic);
  if (end >= 0 && end < rest.length - 1) return rest.slice(end + 1);
  return [...rest.filter((w) => w.dynamic || !w.text.startsWith("-")), literalWord(".")];
}

/**
 * The local repositories git copies from (`git clone /root/repo`, `git
 * fetch ../x`, `git pull file:///etc/.git`, `git submodule add /root/r`):
 * what they hold is read into the workspace, as `cp -r` of them would. A
 * bare word is a path for clone and submodule add, a remote's name for
 * fetch and pull.
 */
export function gitLocalSources(args: readonly Word[]): Word[] {
  const g = gitGlobals(args);
  const sub = args[g.sub]?.text;
  const rest = args.slice(g.sub + 1);
  let source: Word | undefined;
  let bare = false;
  if (sub === "clone") {
    source = splitArgs(rest, CLONE_VALUES).positional[0];
    bare = true;
  } else if (sub === "fetch" || sub === "pull") {
    source = splitArgs(
      rest,
      new Set([
        "--depth",
        "--deepen",
        "--shallow-since",
        "--shallow-exclude",
        "-j",
        "--jobs",
        "--upload-pack",
        "-o",
        "--server-option",
        "--refmap",
        "--negotiation-tip",
        "-s",
        "--strategy",
        "-X",
        "--strategy-option",
      ]),
    ).positional[0];
  } else if (sub === "archive") {
    // `git archive --remote=/root/repo HEAD` writes that repository's tree.
    const remote = rest.find((w) => w.text.startsWith("--remote="));
    const i = rest.findIndex((w) => w.text === "--remote");
    source = remote ? { ...remote, text: remote.text.slice("--remote=".length) } : i >= 0 ? rest[i + 1] : undefined;
  } else if (sub === "remote" && rest[0]?.text === "add" && rest.some((w) => w.text === "-f" || w.text === "--fetch")) {
    // `git remote add -f NAME URL` fetches from URL at once.
    source = splitArgs(rest.slice(1), new Set(["-t", "-m", "--mirror"])).positional[1];
    bare = true;
  } else if (sub === "submodule" && rest[0]?.text === "add") {
    source = splitArgs(rest.slice(1), new Set(["-b", "--branch", "--name", "--reference", "--depth"])).positional[0];
    bare = true;
  }
  const local = source ? localRepository(source, bare) : null;
  return local ? [local] : [];
}

/**
 * The directory `git clone SRC DEST`, `git worktree add DEST` and `git
 * worktree move WT DEST` create and fill, like `mkdir DEST` / `cp -r x DEST`
 * (relative to -C's directory when given); null for other verbs. Without a
 * DEST, clone makes one in the directory it works in.
 */
function checkoutDestination(args: readonly Word[]): Target[] | null {
  let i = 0;
  let dir: Word | undefined;
  for (; i < args.length; i++) {
    const t = (args[i] as Word).text;
    if (!t.startsWith("-") || t === "--") break;
    if (t === "-C") dir = args[i + 1];
    if (GIT_GLOBAL_VALUES.has(t) || t === "-c") i++;
  }
  const sub = args[i]?.text;
  const rest = args.slice(i + 1);
  let dest: Word | undefined;
  if (sub === "clone") {
    const a = splitArgs(rest, CLONE_VALUES);
    if (a.positional.length < 2) return null;
    dest = a.positional[1];
  } else if (sub === "init") {
    // `git init DIR` makes DIR/.git (config, hooks) at DIR.
    dest = splitArgs(rest, INIT_VALUES).positional[0];
  } else if (sub === "worktree" && (rest[0]?.text === "add" || rest[0]?.text === "move")) {
    const a = splitArgs(rest.slice(1), WORKTREE_VALUES);
    dest = a.positional[rest[0]?.text === "add" ? 0 : 1];
  } else return null;
  if (!dest) return null;
  if (dir && !dir.dynamic && !dest.text.startsWith("/") && !dest.text.startsWith("~"))
    return [{ word: { ...dest, text: `${dir.text.replace(/\/+$/, "")}/${dest.text}` }, mode: "write" }];
  return [{ word: dest, mode: "write" }];
}

/** A subcommand's options and operands: its short letters (bundles split, up to a letter that takes a value), its long options, its operands. */
function subArgs(rest: readonly Word[], valueShorts: string, valueLongs: readonly string[]) {
  const letters = new Set<string>();
  const longs: string[] = [];
  const operands: Word[] = [];
  let pathspec = false;
  for (let i = 0; i < rest.length; i++) {
    const t = (rest[i] as Word).text;
    if (t === "--") {
      pathspec = i + 1 < rest.length;
      operands.push(...rest.slice(i + 1));
      break;
    }
    if (t.startsWith("--")) {
      longs.push(t);
      if (!t.includes("=") && valueLongs.includes(t)) i++;
    } else if (t.length > 1 && t.startsWith("-")) {
      for (const [j, c] of [...t.slice(1)].entries()) {
        letters.add(c);
        if (valueShorts.includes(c)) {
          if (j === t.length - 2) i++;
          break;
        }
      }
    } else operands.push(rest[i] as Word);
  }
  return { letters, longs, operands, pathspec };
}

/**
 * git verbs that destroy work git may not hold (uncommitted changes, a
 * branch's commits, unreachable objects): forced checkouts and switches,
 * a pathspec checked out over the working tree, forced rm/mv, forced
 * worktree removal and submodule deinit, forced branch deletes and
 * renames, gc pruning. Why, or null.
 */
/**
 * Whether setting `key` to `value` makes git drop history, lets others write the repository, or names a program
 * git-lfs runs: an expiry sooner than git's defaults (`gc.pruneExpire now`, not `never`), reflogs off, a shared
 * (group- or world-writable) repository, local tags pruned at every fetch. A value not given (`--unset`) or one
 * that keeps history (`gc.auto 0`, `core.logAllRefUpdates true`) is not (round 23: the values decide).
 */
function dropsHistory(key: string, value: string): boolean {
  const k = key.toLowerCase();
  const v = value.trim().toLowerCase();
  if (/^lfs\.(?:customtransfer\.|standalonetransferagent)/.test(k)) return true;
  if (/^(?:gc|maintenance)\..*expire/.test(k) || /^(?:gc\.)?(?:reflogexpire|pruneexpire)/.test(k)) return !/^(?:never|false)$/.test(v);
  if (k === "core.logallrefupdates") return /^(?:false|no|off|0)$/.test(v);
  if (k === "core.sharedrepository") return !/^(?:false|no|off|umask|0)$/.test(v);
  if (/^(?:fetch|remote\..+)\.prunetags$/.test(k)) return !/^(?:false|no|off|0)$/.test(v);
  // A fetch refspec into local branches or tags: the next `fetch --prune` (or remote.X.prune) deletes them.
  if (/^remote\..+\.fetch$/.test(k)) return /:(?!\s*refs\/remotes\/)/.test(v);
  return false;
}

/** Settings that choose which remote a push goes to. */
const PUSH_KEYS = /^(?:remote\.pushdefault|branch\..+\.pushremote|push\.default|remote\..+\.(?:push|mirror))$/i;

function gitDiscards(args: readonly Word[]): string | null {
  let i = 0;
  for (; i < args.length; i++) {
    const t = (args[i] as Word).text;
    if (!t.startsWith("-") || t === "--") break;
    if (GIT_GLOBAL_VALUES.has(t) || t === "-c") i++;
  }
  const sub = args[i]?.text;
  const rest = args.slice(i + 1);
  const force = (a: { letters: Set<string>; longs: string[] }) => a.letters.has("f") || a.longs.includes("--force");
  switch (sub) {
    case "checkout": {
      const a = subArgs(rest, "bB", ["--orphan", "--conflict", "--pathspec-from-file"]);
      if (force(a)) return "git checkout --force discards uncommitted changes";
      if (a.pathspec || a.operands.length >= 2 || a.longs.some((l) => l.startsWith("--pathspec-from-file")))
        return "git checkout of paths overwrites their uncommitted changes";
      // --ours/--theirs/--patch take paths; so does an operand no branch can be named (`.`, `:/`, a glob). -m, --merge and
      // --conflict also carry changes across a branch switch: their operand decides (here and in effects.ts checkoutOfPath).
      const pathsOnly = ["--ours", "--theirs", "--patch"].some((l) => a.longs.includes(l));
      if (a.operands.length > 0 && (pathsOnly || a.letters.has("p"))) return "git checkout of paths overwrites their uncommitted changes";
      // `--patch` alone offers every unstaged hunk for discarding; answers from a pipe or a file take them (round 25).
      if (a.longs.includes("--patch") || a.letters.has("p")) return "git checkout --patch discards the hunks its input says yes to";
      if (a.operands.some((w) => /^(?:\.{1,2}(?:\/.*)?|:.*|\.\/.*|.*[*?[].*)$/.test(w.text)))
        return "git checkout of paths overwrites their uncommitted changes";
      return null;
    }
    case "merge":
    case "rebase":
    case "cherry-pick":
    case "revert":
    case "am":
      // `--abort` is `git reset --merge`, `--skip` resets the conflicted paths to HEAD (round 25): conflict resolutions
      // made by hand in the work tree were never stored.
      for (const w of rest)
        if (w.text === "--abort" || w.text === "--skip")
          return `git ${sub} ${w.text} discards the work tree's uncommitted conflict resolutions`;
      return null;
    case "switch": {
      const a = subArgs(rest, "cC", ["--create", "--force-create", "--orphan", "--conflict"]);
      return force(a) || a.longs.includes("--discard-changes") ? "git switch --force discards uncommitted changes" : null;
    }
    case "rm": {
      const a = subArgs(rest, "", ["--pathspec-from-file"]);
      return force(a) && !a.longs.includes("--cached") ? "git rm --force deletes files with uncommitted changes" : null;
    }
    case "mv": {
      const a = subArgs(rest, "", []);
      return force(a) ? "git mv --force overwrites the destination" : null;
    }
    case "worktree": {
      if (rest[0]?.text !== "remove") return null;
      const a = subArgs(rest.slice(1), "", []);
      if (force(a)) return "git worktree remove --force deletes a worktree's uncommitted changes";
      // One beside the cwd stays as `rm -rf` of a workspace directory would; elsewhere (`../wt`, `~/src/wt`) it deletes
      // outside the workspace, ignored files and a detached HEAD's reflog with it (round 22).
      return a.operands.some((w) => w.dynamic || /^(?:\/|~|\$)/.test(w.text) || w.text.split("/").includes(".."))
        ? "git worktree remove deletes a directory outside the workspace, with its ignored files and its HEAD's reflog"
        : null;
    }
    case "submodule": {
      const up = rest.findIndex((w) => w.text === "update");
      if (up >= 0 && force(subArgs(rest.slice(up + 1), "", ["--reference", "--depth", "--jobs", "-j", "--filter"])))
        return "git submodule update --force checks out with --force, throwing away the submodules' uncommitted changes";
      const at = rest.findIndex((w) => w.text === "deinit");
      if (at < 0) return null;
      return force(subArgs(rest.slice(at + 1), "", [])) ? "git submodule deinit --force deletes a submodule's working tree" : null;
    }
    // The same verbs the git-discard rule names, for spellings its patterns do not reach (`git -C . reset --hard`,
    // `git restore --staged --worktree F`): the rule only matches `git VERB` with the verb first.
    case "reset": {
      const a = subArgs(rest, "", ["--pathspec-from-file"]);
      return a.longs.includes("--hard") || a.longs.includes("--merge") ? "git reset --hard/--merge discards uncommitted changes" : null;
    }
    case "clean": {
      const a = subArgs(rest, "e", ["--exclude"]);
      const dry = a.letters.has("n") || a.longs.includes("--dry-run");
      return !dry && (force(a) || a.letters.has("i") || a.longs.includes("--interactive"))
        ? "git clean deletes untracked files, which git never held"
        : null;
    }
    case "stash": {
      const verb = rest.find((w) => !w.text.startsWith("-"))?.text;
      return verb === "drop" || verb === "clear" ? `git stash ${verb} deletes stashed changes` : null;
    }
    case "restore": {
      const a = subArgs(rest, "s", ["--source", "--pathspec-from-file", "--conflict"]);
      const staged = a.letters.has("S") || a.longs.includes("--staged");
      const worktree = a.letters.has("W") || a.longs.includes("--worktree");
      return worktree || !staged ? "git restore of the work tree overwrites uncommitted changes" : null;
    }
    case "config": {
      const a = subArgs(rest, "f", ["--file", "--blob", "--type", "--default", "--comment"]);
      // `git config --blob HEAD:.pypirc --list` prints any file of the repository parsed as config (round 24: its
      // password); a submodule list is what --blob is for.
      const blob = rest.find((w, i) => w.text.startsWith("--blob=") || rest[i - 1]?.text === "--blob");
      if (blob && !/(?:^|:|\/)\.gitmodules$/.test(blob.text.replace(/^--blob=/, "")))
        return `git config --blob ${blob.text.replace(/^--blob=/, "")} prints a file of the repository's history, which may hold a secret`;
      if (a.longs.includes("--global") || a.longs.includes("--system"))
        return "git config --global/--system changes git behaviour for every repository";
      // `git config KEY VALUE`, `git config set KEY VALUE`, `--add`/`--replace-all KEY VALUE` (round 22: gc.pruneExpire
      // now, then gc, drops what reset --keep or checkout -B left only in the reflog).
      const ops = a.operands.map((w) => w.text);
      const key =
        ops[0] === "set"
          ? ops[1]
          : ops.length >= 2 && !/^(get|list|unset|remove-section|rename-section|edit)$/.test(ops[0] ?? "")
            ? ops[0]
            : undefined;
      if (key !== undefined && PUSH_KEYS.test(key)) return `git config ${key}: changes where a later push sends the repository`;
      const value = ops[0] === "set" ? ops[2] : ops[1];
      return key !== undefined && dropsHistory(key, value ?? "")
        ? `git config ${key}: changes when git drops history (gc, reflogs), who may write the repository, or what program it runs`
        : null;
    }
    case "remote": {
      // `git remote add --mirror=fetch up URL`, then `git remote prune up`: the mirror's refspec maps refs/* onto this
      // repository's own, so a prune deletes local branches and tags (round 24).
      const a = subArgs(rest, "tm", ["--track", "--master"]);
      return a.operands[0]?.text === "add" && a.longs.some((l) => l.startsWith("--mirror"))
        ? "git remote add --mirror maps the other side's refs onto this repository's own: a fetch or prune then deletes or rewrites local branches and tags"
        : null;
    }
    case "pull":
    case "fetch": {
      // `git fetch --prune . '+refs/heads/none/*:refs/heads/*'` deleted every local branch with its reflog; --prune-tags
      // deletes local tags, which keep none (round 23). Pruning remote-tracking refs alone loses nothing.
      const a = subArgs(rest, "j", [
        "--depth",
        "--deepen",
        "--shallow-since",
        "--shallow-exclude",
        "--jobs",
        "--upload-pack",
        "--refmap",
        "--negotiation-tip",
        "--server-option",
        "--filter",
        "--recurse-submodules-default",
        "--submodule-prefix",
      ]);
      if (a.letters.has("P") || a.longs.includes("--prune-tags")) return "git fetch --prune-tags deletes local tags, which keep no reflog";
      const prune = a.letters.has("p") || a.longs.includes("--prune");
      const specs = a.operands.slice(1);
      // Any destination but remote-tracking refs is local (`+refs/none/*:refs/*` deleted every branch and tag, round 24).
      const local = specs.some((w) => w.dynamic || (/:/.test(w.text) && !/:\+?refs\/remotes\//.test(w.text.replace(/^\+/, ""))));
      if (prune && local) return `git ${sub} --prune with a refspec into local branches or tags deletes those the other side lacks`;
      // A forced update of a tag (`+HEAD~1:refs/tags/v1`): the tag's old commit keeps no reflog.
      return specs.some((w) => /^\+.*:refs\/tags\//.test(w.text)) ? `git ${sub} moves a tag by force; tags keep no reflog` : null;
    }
    case "tag": {
      const a = subArgs(rest, "umF", [
        "--message",
        "--file",
        "--local-user",
        "--sort",
        "--format",
        "--contains",
        "--points-at",
        "--cleanup",
      ]);
      return a.letters.has("d") || a.longs.includes("--delete") || force(a)
        ? "git tag deletes or moves a tag, which keeps no reflog: a commit only the tag named goes at the next gc"
        : null;
    }
    case "update-index": {
      const a = subArgs(rest, "", ["--chmod"]);
      return ["--info-only", "--index-info", "--cacheinfo"].some((l) => a.longs.some((x) => x.startsWith(l)))
        ? "git update-index records object ids without storing their content: the index then claims to hold what git cannot restore"
        : null;
    }
    case "branch": {
      const a = subArgs(rest, "u", ["--set-upstream-to", "--sort", "--format", "--points-at"]);
      const destroys = ["D", "M", "C"].some((c) => a.letters.has(c)) || force(a);
      return destroys ? "git branch deletes or overwrites a branch (with its reflog) without checking it is merged" : null;
    }
    case "gc":
      return rest.some((w) => w.text.startsWith("--prune=")) ? "git gc --prune= deletes unreachable objects" : null;
    default:
      return null;
  }
}
