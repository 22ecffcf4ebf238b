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
import { type Dirent, readdirSync, realpathSync } from "node:fs";
import picomatch from "picomatch";
import { certificateOnly, forgetWithCommand } from "./host-paths.js";
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
 * Directories of other people's code and generated output: no one keeps
 * their secrets there, a package's test fixtures often hold throwaway
 * keys, and they are most of a large tree. Moving a secret into one is a
 * read of it, judged where it happens.
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
  ".next",
  ".turbo",
]);

const CERT_NAME = /\.(?:pem|crt|cer|csr)$/i;

/** A file whose content is a secret: its name says so, and (for a PEM name) it holds more than certificates. */
export function secretFile(path: string): boolean {
  return secretPath(path) && !(CERT_NAME.test(path) && certificateOnly(path));
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

let scans = new Map<string, string | null>();
forgetWithCommand(() => {
  scans = new Map();
});

/**
 * The first secret file under the tree `root` that this reading reads, a
 * reason when the tree is too large to list, or undefined.
 */
export function secretFileUnder(
  root: string,
  reading: TreeReading,
  key: string,
  holdsSecrets: (real: string) => boolean,
): string | undefined {
  const id = `${key}\0${root}`;
  let found = scans.get(id);
  if (found === undefined) {
    found = scan(root, reading, holdsSecrets) ?? null;
    scans.set(id, found);
  }
  return found ?? undefined;
}

function scan(root: string, reading: TreeReading, holdsSecrets: (real: string) => boolean): string | undefined {
  if (secretFile(root) && (reading.file?.(root.slice(root.lastIndexOf("/") + 1), "") ?? true)) return root;
  const queue: Array<[string, string]> = [[root, ""]];
  let entries = 0;
  while (queue.length > 0) {
    const [dir, rel] = queue.pop() as [string, string];
    let list: Dirent[];
    try {
      list = readdirSync(dir, { withFileTypes: true });
    } catch {
      continue; // a file, or not there
    }
    for (const e of list) {
      if (++entries > TREE_SCAN_LIMIT) return `more than ${TREE_SCAN_LIMIT} entries under ${root}, not searched for secret files`;
      if (!reading.hidden && e.name.startsWith(".")) continue;
      const path = `${dir}/${e.name}`;
      const relPath = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) {
        if (!NOT_SCANNED.has(e.name) && !reading.skipDir?.(e.name)) queue.push([path, relPath]);
      } else if (reading.file?.(e.name, relPath) ?? true) {
        if (secretFile(path)) return path;
        if (reading.opensLinks && e.isSymbolicLink()) {
          const real = realPathOf(path);
          // A link to a directory is handed over too: a program that recurses (`-exec grep -r x {} +`) reads it whole.
          if (
            real !== null &&
            (secretFile(real) || holdsSecrets(real) || (real !== root && scan(real, EVERY_FILE, holdsSecrets) !== undefined))
          )
            return `${path} → ${real}`;
        }
      }
    }
  }
  return undefined;
}

const matchers = new Map<string, (s: string) => boolean>();
/** A shell-style name pattern as a matcher (cached), or null when it cannot be compiled. */
function nameMatcher(pattern: string, nocase = false): ((s: string) => boolean) | null {
  const id = `${nocase ? "i" : ""}${pattern}`;
  let m = matchers.get(id);
  if (m === undefined) {
    try {
      m = picomatch(pattern, { dot: true, nocase });
    } catch {
      return null;
    }
    if (matchers.size > 1024) matchers.clear();
    matchers.set(id, m);
  }
  return m;
}

/**
 * Values of an option, spelled `--name=V`, `--name V` or (short) `-x V` /
 * `-xV`; null for a value computed at run time (it may be any pattern).
 */
function optionValues(args: readonly Word[], long: readonly string[], short: readonly string[] = []): Array<string | null> {
  const out: Array<string | null> = [];
  const value = (w: Word | undefined, text: string) => (w?.dynamic ? null : text);
  for (let i = 0; i < args.length; i++) {
    const w = args[i] as Word;
    const t = w.text;
    if (t === "--" && !w.dynamic) break;
    const eq = t.indexOf("=");
    if (eq > 0 && long.includes(t.slice(0, eq))) out.push(value(w, t.slice(eq + 1)));
    else if ((long.includes(t) || short.includes(t)) && args[i + 1]) {
      i++;
      out.push(value(args[i], args[i]?.text ?? ""));
    } else for (const s of short) if (t.startsWith(s) && t.length > s.length && !t.startsWith("--")) out.push(value(w, t.slice(s.length)));
  }
  return out;
}

/** A pattern's matcher; null (matches every name) for a computed one. */
const patternMatcher = (g: string | null, nocase = false) => (g === null ? null : nameMatcher(g, nocase));

/** Whether a find -exec/-ok runs a program that may print the files it is given: anything not known to print none. */
function execReads(args: readonly Word[]): boolean {
  for (let i = 0; i < args.length; i++) {
    if (!/^-(exec|execdir|ok|okdir)$/.test(args[i]?.text ?? "")) continue;
    const program = args[i + 1];
    if (!program || program.dynamic || !SHOWS_NO_CONTENT.has(program.text)) return true;
  }
  return false;
}

/** What find -exec commonly runs that prints no file's content: names, sizes, types (a change it makes is judged elsewhere). */
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

/** ripgrep's common file types, as the names they match (its own definitions, `rg --type-list`, trimmed to what judging needs). */
const RG_TYPES: Readonly<Record<string, string>> = {
  py: "*.{py,pyi}",
  js: "*.{js,jsx,mjs,cjs,vue}",
  ts: "*.{ts,tsx,cts,mts}",
  rust: "*.rs",
  go: "*.go",
  c: "*.{c,h,H,cats}",
  cpp: "*.{C,cc,cpp,cxx,c++,h,hh,hpp,hxx,inl}",
  java: "*.{java,jsp,jspx,properties}",
  md: "*.{md,markdown,mdown,mdwn,mkd,mkdn,mdx,ron}",
  markdown: "*.{md,markdown,mdown,mdwn,mkd,mkdn,mdx,ron}",
  sh: "{*.{bash,bashrc,csh,cshrc,ksh,kshrc,sh,tcsh,zsh},.bash_login,.bash_logout,.bash_profile,.bashrc,.cshrc,.kshrc,.login,.logout,.profile,.tcshrc,.zlogin,.zlogout,.zprofile,.zshenv,.zshrc}",
  html: "*.{htm,html,ejs}",
  css: "*.{css,scss}",
  ruby: "{*.{gemspec,rb,rbw},.irbrc,Gemfile,config.ru}",
  php: "*.{php,php3,php4,php5,php7,php8,pht,phtml}",
};

/** How this recursive reader reads a tree, or null when it prints no file's content from it. */
export function treeReading(name: string, args: readonly Word[]): TreeReading | null {
  const texts = args.map((w) => w.text);
  const cluster = (letters: RegExp) => texts.some((x) => /^-[a-zA-Z.]+$/.test(x) && letters.test(x.slice(1)));
  switch (name) {
    case "grep":
    case "egrep":
    case "fgrep":
    case "zgrep": {
      // GNU grep: --include/--exclude match a file's base name; --exclude-dir a directory's.
      const include = optionValues(args, ["--include"]).map((g) => patternMatcher(g));
      const exclude = optionValues(args, ["--exclude"]).map((g) => patternMatcher(g));
      const excludeDir = optionValues(args, ["--exclude-dir"]).map((g) => patternMatcher(g));
      return {
        hidden: true,
        file: (n) => (include.length === 0 || include.some((m) => m === null || m(n))) && !exclude.some((m) => m?.(n)),
        skipDir: (n) => excludeDir.some((m) => m?.(n)),
      };
    }
    case "rg": {
      // ripgrep skips hidden entries unless --hidden, -. or -uu (-u once lifts only the ignore files).
      const hidden =
        texts.includes("--hidden") || cluster(/\./) || texts.some((x) => /^-[a-zA-Z]*u[a-zA-Z]*u/.test(x) || x === "--unrestricted");
      // --iglob and --glob-case-insensitive match regardless of case; a computed glob may match anything.
      const nocase = texts.includes("--glob-case-insensitive");
      const globs = [
        ...optionValues(args, ["--glob"], ["-g"]).map((g) => ({ g, nocase })),
        ...optionValues(args, ["--iglob"]).map((g) => ({ g, nocase: true })),
      ];
      const positive: Array<readonly [boolean, ((s: string) => boolean) | null]> = globs
        .filter(({ g }) => g === null || !g.startsWith("!"))
        .map(({ g, nocase }) => [g?.includes("/") ?? false, patternMatcher(g?.replace(/^\//, "") ?? null, nocase)] as const);
      // -t TYPE reads only that type's files (unknown types: every file).
      const types = optionValues(args, ["--type"], ["-t"]);
      const typed = types.every((t) => t !== null && RG_TYPES[t] !== undefined)
        ? types.map((t) => nameMatcher(RG_TYPES[t ?? ""] as string))
        : [];
      if (typed.length > 0) positive.push(...typed.map((m) => [false, m] as const));
      // A negated glob without a slash skips files and directories of that name (`-g '!certs'`).
      const negative = globs
        .filter(({ g }) => g?.startsWith("!") && !g.includes("/"))
        .map(({ g, nocase }) => nameMatcher((g ?? "").slice(1), nocase));
      return {
        hidden,
        file: (n, rel) =>
          (positive.length === 0 || positive.some(([slash, m]) => m === null || m(slash ? rel : n))) && !negative.some((m) => m?.(n)),
        skipDir: (n) => negative.some((m) => m?.(n)),
      };
    }
    case "ag":
      return { hidden: texts.includes("--hidden") || cluster(/u/) || texts.includes("--unrestricted") };
    case "find": {
      if (!execReads(args)) return null;
      // Only -name/-iname tests joined by "and" are followed; anything else (-o, !, -path, -regex …) reads every file.
      const complex = texts.some((x) =>
        /^(-o|-or|!|-not|\(|\)|,|-path|-ipath|-wholename|-iwholename|-regex|-iregex|-lname|-ilname)$/.test(x),
      );
      const names: Array<((s: string) => boolean) | null> = [];
      for (let i = 0; i < texts.length; i++)
        if ((texts[i] === "-name" || texts[i] === "-iname") && args[i + 1] !== undefined)
          names.push(args[i + 1]?.dynamic ? null : nameMatcher(texts[i + 1] as string, texts[i++] === "-iname"));
      // The program opens what find hands it: a link too, unless `-type f` keeps links out (find does not follow them).
      const regularOnly = texts.some((x, i) => x === "-type" && texts[i + 1] === "f");
      return { hidden: true, file: complex ? undefined : (n) => names.every((m) => m === null || m(n)), opensLinks: !regularOnly };
    }
    case "git":
      // A repository's tree is read through its history and pathspecs, judged by gitSecretPath.
      return null;
    default:
      return { hidden: true };
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

/**
 * A secret-named file git is asked to print (`git show HEAD:.env`,
 * `git cat-file -p :0:keys/id_rsa`, `git log -p -- .env`, `git blame
 * .env`): its path, or undefined. `log` counts only with a patch.
 */
export function gitSecretPath(args: readonly Word[], cwd: string): string | undefined {
  let i = 0;
  for (; i < args.length; i++) {
    const t = args[i]?.text ?? "";
    if (["-C", "-c", "--git-dir", "--work-tree", "--namespace"].includes(t)) i++;
    else if (!t.startsWith("-")) break;
  }
  const sub = args[i]?.text ?? "";
  if (!GIT_PRINTS.has(sub)) return undefined;
  const rest = args.slice(i + 1);
  if ((sub === "log" || sub === "whatchanged") && !rest.some((w) => /^(-p|-u|--patch|--full-diff|-L.*|-[a-zA-Z]*p[a-zA-Z]*)$/.test(w.text)))
    return undefined;
  // git grep's first operand is its pattern unless -e/-f gave one (`git grep -n "secrets.json"`).
  const patternGiven = rest.some((w) => /^(-[a-zA-Z]*[ef]|--regexp|--file)(=|$)/.test(w.text));
  let pattern = sub === "grep" && !patternGiven;
  let ended = false;
  for (const w of rest) {
    if (w.text === "--") ended = true;
    if ((!ended && w.text.startsWith("-")) || w.dynamic || w.text === "--") continue;
    if (pattern && !ended) {
      pattern = false;
      continue;
    }
    // REV:PATH and :N:PATH name a file of a commit or the index; other words may be paths (after `--` or not).
    const spec = /^[^:]*:(?:[0-3]:)?(.+)$/.exec(w.text)?.[1] ?? w.text;
    const path = spec.startsWith("/") ? spec : `${cwd}/${spec.replace(/^(\.\/)+/, "")}`;
    if (secretPath(path)) return w.text;
  }
  return undefined;
}
