// What "reversible" means for the hook (tier 1, no envelope): a delete or
// overwrite inside the workspace is undone from git, so it stays tier 1 only
// when git holds what it destroys — the file is tracked and unchanged from
// the index (stat data as git compares it, else its blob id), a directory
// holds nothing else — or nothing is there yet, or git ignores the path
// (build output, caches: regenerable by definition). Uncommitted or
// untracked content, no repository, an index that cannot be read, or a tree
// too large to look through here: not tier 1 for the hook.
import { lstatSync, readdirSync, readFileSync, readlinkSync } from "node:fs";
import type { BigIntStats, Dirent } from "node:fs";
import { posix } from "node:path";
import picomatch from "picomatch";
import { blobId, readIndex, repoOf } from "./git-index.js";
import type { GitIndex, Repo } from "./git-index.js";
import { forgetWithCommand, lstat, readScript, realParent } from "./host-paths.js";
import { secretFile } from "./secret-files.js";

// Looked up once per command (a glob's matches share them; lstats are
// host-paths.ts's): the repository of a directory and its ignore files. Forgotten before the next
// command, so what it changed is seen. Compiled ignore patterns are pure
// functions of their text: kept across commands.
let repos = new Map<string, Repo | null>();
let ignoreSets = new Map<string, Ignores>();
/** Each repository's index (one stat of it per command), and each answer (a glob's name and real path are often one file). */
let indexes = new Map<string, GitIndex | null>();
let answers = new Map<string, string | null>();
// Replaced, not cleared (host-paths.ts beginCommand says why).
forgetWithCommand(() => {
  if (repos.size !== 0) repos = new Map();
  if (ignoreSets.size !== 0) ignoreSets = new Map();
  if (indexes.size !== 0) indexes = new Map();
  if (answers.size !== 0) answers = new Map();
});
const compiled = new Map<string, (path: string) => boolean>();

/**
 * Kept across commands by the file's identity (device, inode, size, mtime,
 * ctime — any write or utime changes the ctime): a changed file is read again.
 */
function identity(st: BigIntStats): string {
  return `${st.dev}:${st.ino}:${st.size}:${st.mtimeNs}:${st.ctimeNs}`;
}
const blobIds = new Map<string, string>();
const ignoreFiles = new Map<string, Pattern[]>();
function remember<T>(cache: Map<string, T>, key: string, value: T): T {
  if (cache.size > 4096) cache.clear();
  cache.set(key, value);
  return value;
}

/** A directory with more entries than this is not looked through. */
const MAX_WALK = 2000;
/** Files larger than this are not hashed when their stat data differs from the index. */
const MAX_HASH = 1024 * 1024;

/** Why destroying `path` (a file or, for "tree", a directory) cannot be undone from git; null when it can. */
export function notHeldByGit(path: string, mode: "write" | "delete" | "tree"): string | null {
  const key = `${mode}\0${path}`;
  let why = answers.get(key);
  if (why === undefined) {
    why = notHeld(path, mode);
    answers.set(key, why);
  }
  return why;
}

/**
 * Whether content moved to `path` would count as regenerable there: a
 * repository's (held) ignore rules match it — so a later delete of it is
 * not checked against git (`mv mod.txt build.log &&
 * rm build.log`, `mv lib dist/`, `mv x /tmp/x`; round 22).
 */
export function regenerablePlace(path: string): boolean {
  const real = realParent(path) ?? path;
  // Outside a repository nothing is held by git anyway: a delete there is judged as not held (the caller judges
  // places outside the workspace).
  const repo = repoAt(posix.dirname(real));
  if (repo === null) return false;
  const rel = posix.relative(repo.worktree, real);
  if (rel === "" || rel.startsWith("..")) return false;
  const index = indexOf(repo);
  if (index === null) return false;
  const st = lstat(real);
  const isDir = st !== null && st !== "unknown" && st.isDirectory();
  const ignores = ignoresOf(repo, index);
  return ignores.ignored(rel, isDir) || (st === null && ignores.ignored(rel, true));
}

/**
 * Whether `path` lies in a git directory not named `.git` (a bare repository, `proj/.bare` of the bare-plus-worktrees
 * layout, a `--separate-git-dir`): an ancestor holding HEAD, objects/ and refs/ (round 23: a rebase todo written into
 * `.bare/worktrees/main/rebase-merge/` ran on `git rebase --continue`).
 */
export function insideGitDir(path: string): boolean {
  for (let d = posix.dirname(path), n = 0; d !== "/" && n < 16; d = posix.dirname(d), n++) {
    const head = lstat(`${d}/HEAD`);
    if (head === null || head === "unknown" || !head.isFile()) continue;
    const objects = lstat(`${d}/objects`);
    const refs = lstat(`${d}/refs`);
    if (objects !== null && objects !== "unknown" && objects.isDirectory() && refs !== null && refs !== "unknown" && refs.isDirectory())
      return true;
  }
  return false;
}

/** The repository of directory `dir`, once per command. */
function repoAt(dir: string): Repo | null {
  let repo = repos.get(dir);
  if (repo === undefined) {
    repo = repoOf(dir);
    repos.set(dir, repo);
  }
  return repo;
}

/**
 * A repository's ignore files, once per command: with `held`, only those git
 * holds unchanged (what is regenerable); without, every one, as git reads them.
 */
function ignoresOf(repo: Repo, held: GitIndex | null): Ignores {
  const key = held === null ? `all\0${repo.gitDir}` : repo.gitDir;
  let ignores = ignoreSets.get(key);
  if (ignores === undefined) {
    ignores = new Ignores(repo, held);
    ignoreSets.set(key, ignores);
  }
  return ignores;
}

/** A repository's index (null: cannot be read), once per command. */
function indexOf(repo: Repo): GitIndex | null {
  let index = indexes.get(repo.gitDir);
  if (index === undefined) {
    index = readIndex(repo);
    indexes.set(repo.gitDir, index);
  }
  return index;
}

function notHeld(path: string, mode: "write" | "delete" | "tree"): string | null {
  // The same file as `path` (the kernel follows the links before its last part), by the lookups realPath made.
  const real = realParent(path) ?? path;
  const st = lstat(real);
  if (st === "unknown") return "the classifier cannot look at it here, so whether git holds it is not known";
  // A new file in a repository's own directory is not "nothing there yet": a hand-made rebase todo runs its `exec`
  // lines on the next `git rebase --continue`, a `.git/shallow` makes gc drop the history below it (round 22).
  if (/(?:^|\/)\.git(?:\/|$)/.test(real) || insideGitDir(real)) return "the repository itself, not content git keeps";
  if (st === null) return null;
  if (mode === "write" && st.isDirectory()) return null;
  const dir = posix.dirname(real);
  const repo = repoAt(dir);
  if (repo === null) return "not in a git repository here, so nothing can restore what it replaces or deletes";
  const rel = posix.relative(repo.worktree, real);
  if (rel === "" || rel.startsWith("..") || rel === ".git" || rel.startsWith(".git/"))
    return "the repository itself, not content git keeps";
  const index = indexOf(repo);
  if (index === null) return "the repository's index cannot be read here, so what git holds is not known";
  // git never ignores a tracked file: the index is asked first (a force-added, modified `keep.log` under `*.log`).
  const tracked = !st.isDirectory() && index.entries.has(rel);
  const ignores = ignoresOf(repo, index);
  if (!tracked && ignores.ignored(rel, st.isDirectory())) return keptDespiteIgnored(rel, real, st);
  if (!st.isDirectory())
    return held(rel, real, index, repo)
      ? null
      : `${rel} has changes git does not hold (untracked or modified): deleting or overwriting it cannot be undone`;
  const bad = walk(rel, real, index, repo, ignores, { left: MAX_WALK });
  return bad === null ? null : bad;
}

function held(rel: string, abs: string, index: GitIndex, repo: Repo): boolean {
  const e = index.entries.get(rel);
  if (!e || e.incomplete) return false;
  const st = lstat(abs);
  if (st === "unknown") return false;
  if (st === null) return true;
  try {
    if (st.isSymbolicLink()) return blobId(Buffer.from(readlinkSync(abs)), repo.hash) === e.oid;
    if (!st.isFile()) return false;
  } catch {
    return false;
  }
  const sameStat =
    Number(st.size) === e.size &&
    Number(st.mtimeNs / 1_000_000_000n) === e.mtimeSec &&
    Number(st.mtimeNs % 1_000_000_000n) === e.mtimeNsec &&
    Number(st.ino & 0xffffffffn) === e.ino;
  // As git: matching stat data means unchanged, unless the file is as new as the index ("racy").
  if (sameStat && st.mtimeNs < index.mtimeNs) return true;
  if (st.size > BigInt(MAX_HASH)) return false;
  const key = `${abs}\0${repo.hash}\0${identity(st)}`;
  let oid = blobIds.get(key);
  if (oid === undefined) {
    try {
      oid = remember(blobIds, key, blobId(readFileSync(abs), repo.hash));
    } catch {
      return false;
    }
  }
  return oid === e.oid;
}

function walk(rel: string, abs: string, index: GitIndex, repo: Repo, ignores: Ignores, budget: { left: number }): string | null {
  let names: string[];
  try {
    names = readdirSync(abs);
  } catch {
    return `${rel} cannot be read here, so what git holds of it is not known`;
  }
  for (const name of names) {
    if (--budget.left < 0) return `${rel} holds more than ${MAX_WALK} entries: too many to check against git here`;
    const r = `${rel}/${name}`;
    const a = `${abs}/${name}`;
    if (name === ".git") return `${r} is a repository of its own`;
    const st = lstat(a);
    if (st === "unknown") return `${r} cannot be looked at here, so whether git holds it is not known`;
    if (st === null) continue;
    if (!(st.isFile() && index.entries.has(r)) && ignores.ignored(r, st.isDirectory())) {
      const kept = keptDespiteIgnored(r, a, st);
      if (kept !== null) return kept;
      continue;
    }
    if (st.isDirectory()) {
      const bad = walk(r, a, index, repo, ignores, budget);
      if (bad !== null) return bad;
    } else if (!held(r, a, index, repo)) return `${r} has changes git does not hold (untracked or modified): deleting it cannot be undone`;
  }
  return null;
}

/** What projects keep out of git on purpose because it is not regenerable: infrastructure state, databases, local settings. */
const STATE_NAME = /\.(tfstate|tfstate\.backup|sqlite3?|db|kdbx)$|^(settings|config)\.local(\.[a-z]+)?$|^\.?terraform\.tfstate/;
/** Directories projects ignore to keep data or secrets out of git, not because they are rebuilt. */
const KEPT_DIR = /^\.?(secrets?|private|data|db|database|backups?)$/;
/** Children of an ignored directory looked at for a repository of their own, at most (node_modules has hundreds). */
const NESTED_LOOK = 5000;

/**
 * An ignored path git still cannot give back (round 25): a secret or a project's state (`rm .env`, `rm
 * terraform.tfstate`), a directory holding a repository or linked worktree of its own (`.worktrees/feat`, a clone
 * in `vendor/` with unpushed commits). Not caught: an ignore rule the agent wrote and staged or committed before the
 * delete (`echo src/new.js >> .gitignore; git add .gitignore; rm src/new.js`) — telling it from the user's own
 * rules needs HEAD's tree, which is not read here; a file's birth time against the ignore file's change time
 * refused every build output older than any .gitignore edit, pull or checkout.
 */
function keptDespiteIgnored(rel: string, abs: string, st: BigIntStats): string | null {
  if (secretFile(abs) || STATE_NAME.test(posix.basename(abs)) || (st.isDirectory() && KEPT_DIR.test(posix.basename(abs))))
    return `${rel} is ignored, but it holds what projects keep out of git on purpose (secrets, state): git cannot restore it`;
  if (!st.isDirectory()) return null;
  let entries: Dirent[];
  try {
    entries = readdirSync(abs, { withFileTypes: true });
  } catch {
    return `${rel} cannot be read here, so whether it holds a repository of its own is not known`;
  }
  if (entries.some((e) => e.name === ".git")) return `${rel} is a repository of its own`;
  const kept = entries.find((e) => e.isFile() && (secretFile(`${abs}/${e.name}`) || STATE_NAME.test(e.name)));
  if (kept) return `${rel} is ignored, but ${rel}/${kept.name} is what projects keep out of git on purpose (secrets, state)`;
  if (entries.length > NESTED_LOOK) return null;
  for (const e of entries)
    if (e.isDirectory() && lstat(`${abs}/${e.name}/.git`) !== null) return `${rel}/${e.name} is a repository of its own`;
  return null;
}

/** Entries looked through for what one `git add` would stage, at most: past it, the tree may hold a secret. */
export const MAX_STAGED_WALK = 20000;
/** Never looked through for what `git add` stages: other repositories and installed packages (a project's secrets are not kept there). */
const NOT_STAGED = new Set([".git", "node_modules"]);

/** How one `git add` is looked at: what counts, and what all its pathspecs' walks share. */
export interface Staging {
  /** `git add -f`: ignored files are staged too. */
  force: boolean;
  isSecret: (abs: string) => boolean;
  /** Entries left to look at, for every pathspec of the command together. */
  budget: { left: number };
  /** Directories already walked whole (no glob) for this command. */
  walked: Set<string>;
}

/**
 * What `git add PATH` (`fromTop`: `git add -A`, `:/`, the whole work tree
 * wherever the cwd is) would put into the repository's objects that names a
 * secret: the first file under `path` whose name is a secret's (`.env`,
 * `id_rsa`, a key), that the index does not hold (or holds only as
 * intent-to-add) and git does not ignore (or any, with `force`). `wanted`
 * narrows to a pathspec glob's matches (by absolute path). null: none, or
 * in no repository (git refuses there). Else the file, or why the tree may
 * hold one (too large or unreadable here).
 */
export function stagedSecret(path: string, how: Staging, fromTop = false, wanted?: (abs: string) => boolean): string | null {
  const real = realParent(path) ?? path;
  const st = lstat(real);
  if (st === null) return null;
  if (st === "unknown") return `${path} cannot be looked at here`;
  const dir = st.isDirectory() ? real : posix.dirname(real);
  const repo = repoAt(dir);
  if (repo === null) return null;
  const start = fromTop ? repo.worktree : real;
  const top = posix.relative(repo.worktree, start);
  if (top.startsWith("..")) return null;
  const ignores = ignoresOf(repo, null);
  const index = indexOf(repo);
  // No index yet (a repository nothing was added to): nothing is tracked.
  if (index === null && lstat(posix.join(repo.gitDir, "index")) !== null) return "the repository's index cannot be read here";
  const tracked = index?.entries ?? new Map();
  // An intent-to-add entry (`git add -N`) holds no content yet: the next `git add` or `commit -a` stores it.
  const stages = (rel: string, abs: string): boolean =>
    (wanted?.(abs) ?? true) &&
    how.isSecret(abs) &&
    !(tracked.get(rel)?.incomplete === false) &&
    (how.force || !ignores.ignored(rel, false));
  if (!fromTop && !st.isDirectory()) return st.isFile() && stages(top, real) ? top : null;
  if (top !== "" && !how.force && ignores.ignored(top, true)) return null;
  const queue: Array<[string, string]> = [[top, start]];
  while (queue.length > 0) {
    const [rel, abs] = queue.pop() as [string, string];
    // A directory an earlier pathspec walked whole holds nothing staged (a glob's walk sees only its matches).
    if (how.walked.has(abs)) continue;
    if (wanted === undefined) how.walked.add(abs);
    let entries: Dirent[];
    try {
      entries = readdirSync(abs, { withFileTypes: true });
    } catch {
      return `${rel || "."} cannot be listed here`;
    }
    if ((how.budget.left -= entries.length) < 0) return `more than ${MAX_STAGED_WALK} entries to look through here`;
    for (const e of entries) {
      const r = rel === "" ? e.name : `${rel}/${e.name}`;
      const a = `${abs}/${e.name}`;
      if (e.isDirectory()) {
        if (!NOT_STAGED.has(e.name) && (how.force || !ignores.ignored(r, true))) queue.push([r, a]);
      } else if (e.isFile() && stages(r, a)) return r;
    }
  }
  return null;
}

interface Pattern {
  base: string;
  match: (path: string) => boolean;
  negate: boolean;
  dirOnly: boolean;
}

/** .gitignore files (the work tree's, each directory's on the way) and info/exclude, read as git reads them for the common forms. */
class Ignores {
  private readonly byDir = new Map<string, Pattern[]>();
  constructor(
    private readonly repo: Repo,
    /** Read only the .gitignore files this index holds unchanged; null: every one. */
    private readonly held: GitIndex | null,
  ) {}

  private patterns(dir: string): Pattern[] {
    let list = this.byDir.get(dir);
    if (list !== undefined) return list;
    const extra = dir === "" ? ignoreFile(posix.join(this.repo.gitDir, "info", "exclude"), "") : [];
    // Only a .gitignore git holds as it is says what is regenerable: one the agent wrote or changed (`echo '*' >
    // src/.gitignore`, then `rm -rf src`) would make any work look like build output (round 22).
    const rel = dir === "" ? ".gitignore" : `${dir}/.gitignore`;
    const path = posix.join(this.repo.worktree, rel);
    const own = this.held === null || (lstat(path) !== null && held(rel, path, this.held, this.repo)) ? ignoreFile(path, dir) : [];
    list = [...extra, ...own];
    this.byDir.set(dir, list);
    return list;
  }

  /** Whether `rel` (or a directory above it) is ignored. */
  ignored(rel: string, isDir: boolean): boolean {
    const parts = rel.split("/");
    for (let i = 1; i <= parts.length; i++) {
      const sub = parts.slice(0, i).join("/");
      if (this.matches(sub, i < parts.length || isDir)) return true;
    }
    return false;
  }

  private matches(rel: string, isDir: boolean): boolean {
    const parts = rel.split("/");
    let verdict = false;
    for (let i = 0; i < parts.length; i++) {
      const dir = parts.slice(0, i).join("/");
      const local = parts.slice(i).join("/");
      for (const p of this.patterns(dir)) if ((!p.dirOnly || isDir) && p.match(local)) verdict = !p.negate;
    }
    return verdict;
  }
}

/** An ignore file's patterns (none when it is missing or unreadable), parsed once per version of the file. */
function ignoreFile(path: string, base: string): Pattern[] {
  let st: BigIntStats | undefined;
  try {
    // git does not follow a .gitignore that is a symbolic link (2.32+): none is read then.
    st = lstatSync(path, { bigint: true, throwIfNoEntry: false });
  } catch {
    return [];
  }
  if (!st?.isFile()) return [];
  const key = `${path}\0${base}\0${identity(st)}`;
  return ignoreFiles.get(key) ?? remember(ignoreFiles, key, parse(readScript(path) ?? "", base));
}

function parse(text: string, base: string): Pattern[] {
  const out: Pattern[] = [];
  for (const raw of text.split("\n")) {
    // git strips trailing spaces (not an escaped one, not tabs).
    let line = raw.replace(/(?<!\\) +$/, "");
    if (line === "" || line.startsWith("#")) continue;
    const negate = line.startsWith("!");
    if (negate) line = line.slice(1);
    const dirOnly = line.endsWith("/");
    if (dirOnly) line = line.replace(/\/+$/, "");
    const anchored = line.includes("/");
    const glob = anchored ? line.replace(/^\//, "") : `**/${line}`;
    try {
      let match = compiled.get(glob);
      if (match === undefined) {
        // git's patterns have no braces and no extglobs: `{.env,x}` names a file with braces in it.
        match = picomatch(glob, { dot: true, nobrace: true, noextglob: true, nonegate: true });
        if (compiled.size > 4096) compiled.clear();
        compiled.set(glob, match);
      }
      out.push({ base, match, negate, dirOnly });
    } catch {}
  }
  return out;
}
