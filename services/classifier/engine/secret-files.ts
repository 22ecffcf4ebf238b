// Secret files in trees that are not secret places as a whole — the
// caller's own workspace above all. A project often holds some (`.env`,
// `keys/id_rsa`, `certs/site.key`): `cat .env` is judged a secret read,
// and so must be what prints it without naming it — a recursive search or
// copy of a tree holding it (`grep -r "" .`, `find . -name '.env*' -exec
// cat {} +`, `tar -cf x.tar keys`, `grep -r x ..`) and git printing it
// from history (`git show HEAD:.env`, `git log -p -- .env`). A tree is
// listed (bounded; once per command) for the secret-named files the
// reader would read: its hidden-file defaults and the name filters it was
// given are honoured, so `rg TODO` (which skips dotfiles) and `grep -r
// --include='*.ts' x .` stay reads of code.
import { type Dirent, existsSync, readdirSync, readFileSync, realpathSync, statSync } from "node:fs";
import picomatch from "picomatch";
import { posix } from "node:path";
import { configHoldsCredential } from "./git-credentials.js";
import { type GitIndex, type Repo, readIndex, repoOf } from "./git-index.js";
import { forgetWithCommand, hiddenFromView, publicPem } from "./host-paths.js";
import { gitGlobals } from "./tools/git.js";
import { secretPath } from "./paths.js";
import type { Word } from "./types.js";

/** Which entries of a tree a recursive reader reads. */
export interface TreeReading {
  /** Reads hidden entries (rg and ag skip them unless told). */
  hidden: boolean;
  /** Reads this file (its name, its path relative to the tree); absent: every file. */
  file?: (name: string, rel: string) => boolean;
  /** Skips this directory (by name). */
  skipDir?: (name: string) => boolean;
  /**
   * Opens each file it is handed by name, following a symbolic link among
   * them (`find . -exec cat {} +`, `find -print0 | xargs -0 cat`): a link
   * under the tree is read as what it points at.
   */
  opensLinks?: boolean;
}

/** Entries listed per tree, at most: a larger tree counts as holding a secret (it cannot be shown not to). */
export const TREE_SCAN_LIMIT = 20000;

/**
 * Directories of installed packages, caches and version control, not
 * listed: they are most of a large tree, packages' test fixtures hold
 * throwaway keys, and a project's own secrets are not kept there (copying
 * one in is a read of it, judged where it happens). Build output is listed
 * (a Next.js standalone build copies .env into .next).
 */
const NOT_SCANNED = new Set([
  "node_modules",
  ".git",
  ".hg",
  ".svn",
  ".venv",
  "venv",
  "__pycache__",
  ".tox",
  ".mypy_cache",
  ".pytest_cache",
]);

const CERT_NAME = /\.(?:pem|crt|cer|csr)$/i;
/** A PEM bundle is read this far for its labels (certifi's CA bundle is ~300 KB); a larger file counts as a key. */
const PEM_READ_LIMIT = 4 * 1024 * 1024;

/** A PEM file holding only certificates, CRLs or requests — public material, no key (read up to PEM_READ_LIMIT). */
function certificatesOnly(path: string): boolean {
  let text: string;
  try {
    if (statSync(path).size > PEM_READ_LIMIT) return false;
    text = readFileSync(path, "latin1");
  } catch {
    return false;
  }
  return publicPem(text);
}

/** A file whose content is a secret: its name says so, and (for a PEM name) it holds more than certificates. */
export function secretFile(path: string): boolean {
  return secretPath(path) && !(CERT_NAME.test(path) && certificatesOnly(path));
}

/** A reading of every file, hidden ones too, links left as links. */
const EVERY_FILE: TreeReading = { hidden: true };

function realPathOf(path: string): string | null {
  try {
    return realpathSync(path);
  } catch {
    return null; // dangling: nothing to read
  }
}

/** What a tree was found to hold: a secret file, a link to secrets, or a reason it may hold one (too large, not listable). */
export type Found = { kind: "file"; path: string } | { kind: "link"; path: string; real: string } | { kind: "unknown"; reason: string };

export function describeFound(f: Found): string {
  return f.kind === "file"
    ? `which holds the secret file ${f.path}`
    : f.kind === "link"
      ? `which holds a link to secrets: ${f.path} → ${f.real}`
      : `with ${f.reason}`;
}

let scans = new Map<TreeReading, Map<string, Found | null>>();
forgetWithCommand(() => {
  scans = new Map();
});

/**
 * The first secret file under the tree `root` that this reading reads (or
 * why the tree may hold one), or undefined. Scans are kept per reading for
 * the command being judged.
 */
export function secretFileUnder(root: string, reading: TreeReading, holdsSecrets: (real: string) => boolean): Found | undefined {
  let byRoot = scans.get(reading);
  if (byRoot === undefined) scans.set(reading, (byRoot = new Map()));
  let found = byRoot.get(root);
  if (found === undefined) {
    found = scan(root, reading, holdsSecrets) ?? null;
    byRoot.set(root, found);
  }
  return found ?? undefined;
}

function scan(root: string, reading: TreeReading, holdsSecrets: (real: string) => boolean): Found | undefined {
  if (secretFile(root) && (reading.file?.(root.slice(root.lastIndexOf("/") + 1), "") ?? true)) return { kind: "file", path: root };
  const queue: Array<[string, string]> = [[root, ""]];
  let entries = 0;
  while (queue.length > 0) {
    const [dir, rel] = queue.pop() as [string, string];
    let list: Dirent[];
    try {
      list = readdirSync(dir, { withFileTypes: true });
    } catch (err) {
      // A file or nothing there has no entries; a directory this process may not list may hold anything.
      const code = (err as NodeJS.ErrnoException).code;
      if (code === "ENOTDIR" || code === "ENOENT") continue;
      return { kind: "unknown", reason: `${dir}, which cannot be listed here (${code ?? "error"})` };
    }
    for (const e of list) {
      if (++entries > TREE_SCAN_LIMIT)
        return { kind: "unknown", reason: `more than ${TREE_SCAN_LIMIT} entries under ${root}, not searched for secret files` };
      if (!reading.hidden && e.name.startsWith(".")) continue;
      const path = `${dir}/${e.name}`;
      const relPath = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) {
        // A repository's own directory is not listed, but its config may hold a credential (a token in a remote URL).
        if (e.name === ".git" && configHoldsCredential(`${path}/config`)) return { kind: "file", path: `${path}/config` };
        if (!NOT_SCANNED.has(e.name) && !reading.skipDir?.(e.name)) queue.push([path, relPath]);
      } else if (reading.file?.(e.name, relPath) ?? true) {
        if (secretFile(path) || (e.name === "config" && dir.endsWith("/.git") && configHoldsCredential(path)))
          return { kind: "file", path };
        if (reading.opensLinks && e.isSymbolicLink()) {
          const real = realPathOf(path);
          // A link whose way the classifier's user may not walk (into a 0700 ~/.ssh) may lead to a key.
          if (real === null && hiddenFromView(path))
            return { kind: "unknown", reason: `${path}, a link the classifier cannot look behind here` };
          // A link to a directory is handed over too: a program that recurses (`-exec grep -r x {} +`) reads it whole.
          if (real === null) continue;
          if (secretFile(real) || holdsSecrets(real)) return { kind: "link", path, real };
          const beyond = real !== root ? scan(real, EVERY_FILE, holdsSecrets) : undefined;
          if (beyond?.kind === "unknown") return { kind: "unknown", reason: `${path} → ${real}, then ${beyond.reason}` };
          if (beyond !== undefined) return { kind: "link", path, real };
        }
      }
    }
  }
  return undefined;
}

const matchers = new Map<string, (s: string) => boolean>();
/** A shell-style name pattern as a matcher (cached), or null when it cannot be compiled (it may then match anything). */
function nameMatcher(pattern: string, nocase = false, braces = false): ((s: string) => boolean) | null {
  const id = `${nocase ? "i" : ""}${braces ? "b" : ""}${pattern}`;
  let m = matchers.get(id);
  if (m === undefined) {
    try {
      // As fnmatch (grep, find) and globset (rg) read it: `[!x]` negates, a leading `!` and `!(…)`/`@(…)` are
      // literal, braces only for rg.
      m = picomatch(pattern, { dot: true, nocase, posix: true, nonegate: true, noextglob: true, nobrace: !braces });
    } catch {
      return null;
    }
    if (matchers.size > 1024) matchers.clear();
    matchers.set(id, m);
  }
  return m;
}

/** A name filter in command-line order: include (`--include`, rg's `-g GLOB`) or exclude (`--exclude`, `-g !GLOB`). */
interface NameFilter {
  include: boolean;
  /** null: a pattern computed at run time, or one that cannot be compiled — it may match any name. */
  match: ((name: string) => boolean) | null;
}

/**
 * Whether a file passes filters where the last one that matches decides
 * (GNU grep's --include/--exclude, ripgrep's globs); when none matches, it
 * passes unless `firstIncludes` (grep: the first option is --include; rg:
 * any positive glob was given). A computed filter matches every name: an
 * include that may match counts as matching, an exclude that may not does
 * not exclude.
 */
function passes(filters: readonly NameFilter[], name: string, noneMatched: boolean): boolean {
  for (let i = filters.length - 1; i >= 0; i--) {
    const f = filters[i] as NameFilter;
    if (f.match === null) {
      if (f.include) return true;
      continue;
    }
    if (f.match(name)) return f.include;
  }
  return noneMatched;
}

/** The name filters given by these options, in order: `--opt=V`, `--opt V` (and, in `shorts`, `-xV`, `-x V`). */
function filtersOf(
  args: readonly Word[],
  kinds: Readonly<Record<string, "include" | "exclude" | "glob">>,
  shorts = "",
  nocase = false,
  braces = false,
): NameFilter[] {
  const out: NameFilter[] = [];
  const add = (kind: "include" | "exclude" | "glob", w: Word | undefined, text: string, anyCase: boolean) => {
    if (w?.dynamic) return out.push({ include: kind !== "exclude", match: null });
    const negated = kind === "glob" && text.startsWith("!");
    const pattern = negated ? text.slice(1) : text;
    // A glob with a slash is matched against a path relative to where the program runs, not the name: it may match any.
    const m = pattern.includes("/") ? null : nameMatcher(pattern, anyCase, braces);
    out.push({ include: kind === "include" || (kind === "glob" && !negated), match: m === null && negated ? () => false : m });
  };
  for (let i = 0; i < args.length; i++) {
    const w = args[i] as Word;
    const t = w.text;
    if (t === "--" && !w.dynamic) break;
    const eq = t.indexOf("=");
    const long = eq > 0 ? t.slice(0, eq) : t;
    const kind = kinds[long];
    if (kind !== undefined && t.startsWith("--")) {
      const anyCase = nocase || long === "--iglob";
      if (eq > 0) add(kind, w, t.slice(eq + 1), anyCase);
      else if (args[i + 1]) add(kind, args[i + 1], args[++i]?.text ?? "", anyCase);
      continue;
    }
    // A short option, alone or last in a bundle of flags (`-g GLOB`, `-gGLOB`, `-ig GLOB`).
    const short = shorts ? new RegExp(`^-[a-zA-Z.]*?([${shorts}])(.*)$`).exec(t) : null;
    if (short && !t.startsWith("--")) {
      const k = kinds[`-${short[1]}`];
      if (k === undefined) continue;
      if (short[2]) add(k, w, short[2], nocase);
      else if (args[i + 1]) add(k, args[i + 1], args[++i]?.text ?? "", nocase);
    }
  }
  return out;
}

/** Programs that print no file's content unless told to read a list of names from a file (`file -f F`, `wc --files0-from=F`). */
const SHOWS_NO_CONTENT = new Set([
  "ls",
  "stat",
  "wc",
  "du",
  "file",
  "echo",
  "rm",
  "chmod",
  "chown",
  "touch",
  "basename",
  "dirname",
  "realpath",
  "readlink",
  "test",
  "true",
]);
/** Options that make file, wc or du read a file of names, and print its lines in their errors (GTFOBins). */
const NAME_LIST_OPTION = /^(-[a-zA-Z]*f|--files0?-from(=|$)|--files-from(=|$))/;

/** Whether a find -exec/-ok runs a program that may print the files it is given: anything not known to print none. */
function execReads(args: readonly Word[]): boolean {
  for (let i = 0; i < args.length; i++) {
    if (!/^-(exec|execdir|ok|okdir)$/.test(args[i]?.text ?? "")) continue;
    const program = args[i + 1];
    if (!program || program.dynamic || !SHOWS_NO_CONTENT.has(program.text)) return true;
    for (let j = i + 2; j < args.length && !/^[;+]$/.test((args[j] as Word).text); j++)
      if ((args[j] as Word).dynamic || NAME_LIST_OPTION.test((args[j] as Word).text)) return true;
  }
  return false;
}

/**
 * How find hands files to its -exec programs: the -name/-iname and
 * `-type f` tests before the first action filter them when the expression
 * is a plain "and" of tests (a test after an action filters nothing for
 * it; -o, !, parentheses, -path or -regex: every file, every link).
 */
function findReading(args: readonly Word[]): TreeReading | null {
  if (!execReads(args)) return null;
  const texts = args.map((w) => w.text);
  const action = texts.findIndex((x) => /^-(exec|execdir|ok|okdir)$/.test(x));
  const before = texts.slice(0, action);
  const complex = texts.some((x) => /^(-o|-or|!|-not|\(|\)|,|-path|-ipath|-wholename|-iwholename|-regex|-iregex|-lname|-ilname)$/.test(x));
  if (complex) return { hidden: true, opensLinks: true };
  const names: Array<((s: string) => boolean) | null> = [];
  for (let i = 0; i < before.length; i++)
    if ((before[i] === "-name" || before[i] === "-iname") && args[i + 1] !== undefined)
      names.push(args[i + 1]?.dynamic ? null : nameMatcher(before[i + 1] as string, before[i++] === "-iname"));
  // The program opens what find hands it: a link too, unless `-type f` keeps links out (find does not follow them).
  const regularOnly = before.some((x, i) => x === "-type" && before[i + 1] === "f");
  return { hidden: true, file: (n) => names.every((m) => m === null || m(n)), opensLinks: !regularOnly };
}

/** git reads files on disk, not only what it tracks: `grep --no-index`/`--untracked`, `diff --no-index`. */
const GIT_ON_DISK = /^--(no-index|untracked)$/;

/**
 * How this recursive reader reads a tree, or null when it prints no file's
 * content from it. ripgrep and ag skip dotfiles by default, but an ignore
 * file's `!pattern` (one the same command may write), a glob or a type
 * brings them back, so dotfiles always count; globs (`-g`) keep their
 * order-dependent filtering.
 */
export function treeReading(name: string, args: readonly Word[]): TreeReading | null {
  switch (name) {
    case "grep":
    case "egrep":
    case "fgrep":
    case "zgrep": {
      // GNU grep: --include/--exclude match a file's base name, the last matching one wins; --exclude-dir a directory's.
      const filters = filtersOf(args, { "--include": "include", "--exclude": "exclude" });
      const firstIncludes = filters[0]?.include === true;
      const excludeDir = filtersOf(args, { "--exclude-dir": "exclude" });
      return {
        hidden: true,
        file: (n) => passes(filters, n, !firstIncludes),
        skipDir: (n) => excludeDir.some((f) => f.match?.(n) === true),
      };
    }
    case "rg": {
      // Overrides (-g/--glob, --iglob) win over ignore files and types: the last matching glob decides; with a positive
      // glob given, a file no glob matches is skipped. A directory a negated glob matches is skipped whole.
      const globs = filtersOf(
        args,
        { "--glob": "glob", "--iglob": "glob", "-g": "glob" },
        "g",
        args.some((w) => w.text === "--glob-case-insensitive"),
        true,
      );
      const anyPositive = globs.some((f) => f.include);
      return {
        hidden: true,
        file: (n) => passes(globs, n, !anyPositive),
        skipDir: (n) => globs.some((f) => !f.include && f.match?.(n) === true) && !globs.some((f) => f.include && f.match?.(n) !== false),
      };
    }
    case "find":
      return findReading(args);
    case "git":
      // A repository's history and index are judged by gitSecretPath; the work tree only when git reads it from disk
      // (grep --no-index/--untracked; diff --no-index, or of two paths one of which is outside the repository).
      return args.some((w) => GIT_ON_DISK.test(w.text)) || args[gitGlobals(args).sub]?.text === "diff" ? EVERY_FILE : null;
    default:
      return EVERY_FILE;
  }
}

/** git subcommands that print a file's content from the work tree, the index or history. */
const GIT_PRINTS = new Set([
  "show",
  "cat-file",
  "blame",
  "annotate",
  "diff",
  "grep",
  "log",
  "whatchanged",
  "format-patch",
  "archive",
  "difftool",
  "range-diff",
]);

/** git log/whatchanged options that print a patch (-p, -u, -U3, --cc, --binary, -W, --patch-with-stat …). */
export const GIT_PATCH =
  /^(-p|-u|-U\d*|--unified(=.*)?|--patch|--patch-with-stat|--patch-with-raw|--full-diff|--binary|--cc|-c|--combined-all-paths|--remerge-diff|--dd|-m|--diff-merges(=.*)?|-W|--function-context|--word-diff(=.*)?|--color-words(=.*)?|--ext-diff|--textconv|-L.*|-[a-zA-Z]*[pu][a-zA-Z]*)$/;

/** The secret-named files a repository's index tracks (kept per parsed index), or null when its index cannot be read. */
const trackedCache = new WeakMap<GitIndex, string[]>();
function trackedSecrets(repo: Repo): string[] | null {
  const index = readIndex(repo);
  if (index === null) return existsSync(posix.join(repo.gitDir, "index")) ? null : [];
  let secrets = trackedCache.get(index);
  if (secrets === undefined) {
    secrets = [...index.entries.keys()].filter((rel) => secretPath(`${repo.worktree}/${rel}`));
    trackedCache.set(index, secrets);
  }
  return secrets;
}

/** Whether the pathspec `spec` (relative to the work tree) covers the tracked path `t`: itself, a directory above it, a glob matching it. */
function covers(spec: string, t: string): boolean {
  if (spec === "" || spec === "." || t === spec || t.startsWith(`${spec}/`)) return true;
  if (!/[*?[]/.test(spec)) return false;
  // git's pathspec wildcards (fnmatch without FNM_PATHNAME) cross slashes: `conf*` matches `config/.env`.
  try {
    const re = spec
      .replace(/[.+^${}()|\\]/g, "\\$&")
      .replaceAll("*", ".*")
      .replaceAll("?", ".")
      .replaceAll("[!", "[^")
      .replaceAll("[\\^", "[^");
    return new RegExp(`^${re}(/|$)`).test(t);
  } catch {
    return true; // a bracket expression that does not compile: it may match
  }
}

/**
 * A secret file git is asked to print (`git show HEAD:.env`, `git
 * cat-file -p :0:keys/id_rsa`, `git log -p -- .env`, `git blame .env`, a
 * pathspec that covers one the index tracks, or no pathspec in a
 * repository that tracks one): what names it, or undefined. `log` counts
 * only with a patch. A word computed at run time may name any.
 */
export function gitSecretPath(args: readonly Word[], where: string): string | undefined {
  const g = gitGlobals(args);
  const i = g.sub;
  // git works where its last -C says (relative to the one before); a computed one may be any repository.
  let cwd = where;
  for (const c of g.chdirs) {
    if (c.dynamic) return `${c.text} (a repository not known until run time: it may track a secret file)`;
    cwd = posix.resolve(cwd || "/", c.text);
  }
  const sub = args[i]?.text ?? "";
  if (!GIT_PRINTS.has(sub)) return undefined;
  const rest = args.slice(i + 1);
  if ((sub === "log" || sub === "whatchanged") && !rest.some((w) => GIT_PATCH.test(w.text))) return undefined;
  // git grep's first operand is its pattern unless -e/-f gave one (`git grep -n "secrets.json"`).
  const patternGiven = rest.some((w) => /^(-[a-zA-Z]*[ef]|--regexp(=|$)|--file(=|$))/.test(w.text));
  let pattern = sub === "grep" && !patternGiven;
  let ended = false;
  let whole = false;
  const paths: string[] = [];
  for (const w of rest) {
    if (w.text === "--" && !w.dynamic) {
      ended = true;
      continue;
    }
    // `-L1,5:.env`, `-L:fn:.env` (glued): log prints that file's lines (round 25).
    const lines = ended || w.dynamic ? null : /^-L.*:(.+)$/s.exec(w.text);
    if (lines?.[1]) {
      const path = posix.normalize(lines[1].startsWith("/") ? lines[1] : `${cwd}/${lines[1]}`);
      if (secretPath(path)) return `${w.text}, a secret file`;
      paths.push(path);
      continue;
    }
    // Objects by id, or every object (`git cat-file -p 2760eb7`, `--batch-all-objects`): a secret file's blob among them.
    const sizeOrType = rest.some((r) => /^-[tse]$/.test(r.text));
    if (
      sub === "cat-file" &&
      !ended &&
      !sizeOrType &&
      (w.text === "--batch-all-objects" || (!w.dynamic && /^[0-9a-f]{4,64}$/i.test(w.text)))
    )
      return `${w.text} (an object by its id: it may be a secret file's content)`;
    if (!ended && w.text.startsWith("-") && !w.dynamic) continue;
    if (pattern && !ended) {
      pattern = false;
      continue;
    }
    const texts = w.loopValues?.map((v) => v.text) ?? (w.dynamic ? null : [w.text]);
    if (texts === null) return `${w.text} (not known until run time: it may name a secret file)`;
    for (const text of texts) {
      // Pathspec magic (`:/`, `:!x`, `:^x`, `:(top)`, `:(exclude)x`, `:(icase)…`) may cover any tracked file.
      if (/^:[/!^(]/.test(text)) {
        whole = true;
        continue;
      }
      // REV:PATH and :N:PATH name a file of a commit or the index; other words may be paths (after `--` or not).
      const rev = /^[^:]*:(?:[0-3]:)?(.*)$/.exec(text);
      const spec = rev ? (rev[1] as string) : text;
      const path = posix.normalize(spec.startsWith("/") ? spec : `${cwd}/${spec}`);
      if (secretPath(path)) return `${text}, a secret file`;
      if (ended || rev || existsSync(path)) paths.push(path);
    }
  }
  // What the index tracks: a pathspec covering a tracked secret, or none (the whole repository: its history and files).
  const repo = repoOf(cwd);
  if (repo === null) return undefined;
  const tracked = trackedSecrets(repo);
  if (tracked === null) return `the repository at ${repo.worktree}, whose index cannot be read here (it may track a secret file)`;
  const specs = paths.map((p) => posix.relative(repo.worktree, p));
  const hit = tracked.find((t) => whole || specs.length === 0 || specs.some((spec) => !spec.startsWith("..") && covers(spec, t)));
  return hit === undefined ? undefined : `${hit}, a secret file the repository tracks`;
}
