// Reads that reach secrets without naming one: a recursive read of a tree
// that holds them (`grep -r x /etc`, `tar czf /tmp/h.tgz /root`,
// `find / -name id_rsa -exec cat {} +`, `cp -a ~ /tmp/x`) and a glob that
// can expand to one (`cat /etc/s*`). Such a command reveals what `cat
// /etc/shadow` reveals, so it gets the same floor (2). Trees inside the
// workspace (and others that are no secret place as a whole) count by the
// secret files they hold (secret-files.ts).
import { type Dirent, readdirSync, realpathSync } from "node:fs";
import picomatch from "picomatch";
import { hiddenFromView, LET_IT_LOOK, mayList, realPath } from "./host-paths.js";
import { checkOptions } from "./options/check.js";
import { TOOLS } from "./options/index.js";
import { hostPaths, inside, inWorkspace, resolvePlace } from "./paths.js";
import type { Context, Word } from "./types.js";
import { allValues } from "./argv.js";
import { composeConfigSecret } from "./compose-env.js";
import { findFollowsLinks, findStarts } from "./tools/find.js";
import { gitDiskTrees, gitGlobals, gitLocalSources } from "./tools/git.js";
import { repoOf } from "./git-index.js";
import { configHoldsCredential, gitConfigFile, gitPrintsCredential } from "./git-credentials.js";
import { dynamicWord, literalWord } from "./unwrap.js";
import { describeFound, GIT_PATCH, gitSecretPath, secretFile, secretFileUnder, type TreeReading, treeReading } from "./secret-files.js";

/** Where a host keeps secrets: a tree containing or inside one of these holds them. */
const SECRET_ROOTS = ["/etc", "/root", "/home", "/run", "/proc", "/dev", "/var/lib", "/var/backups", "/srv", "/opt", "/mnt", "/media"];

/** Concrete secret files a glob is tried against. */
const SECRET_EXAMPLES = [
  "/etc/shadow",
  "/etc/gshadow",
  "/etc/shadow-",
  "/etc/sudoers",
  "/etc/ssl/private/server.key",
  "/etc/ssh/ssh_host_ed25519_key",
  "/root/.ssh/id_rsa",
  "/root/.ssh/id_ed25519",
  "/root/.bash_history",
  "/root/.aws/credentials",
  "/root/.vault-token",
  "/home/user/.ssh/id_rsa",
  "/home/user/.ssh/id_ed25519",
  "/home/user/.aws/credentials",
  "/home/user/.bash_history",
  "/root/.claude/.credentials.json",
  "/home/user/.claude/.credentials.json",
  "/proc/1/environ",
  "/proc/1/task/1/environ",
  "/proc/1/mem",
  "/proc/1/fd/3",
  "/proc/1/task/1/fd/3",
  "/etc/kubernetes/admin.conf",
  "/var/lib/rancher/k3s/server/token",
  "/dev/sda",
  "/dev/nvme0n1",
  "/dev/vda",
  // agent-sudo's own state: keys, tokens, the database URL, the journal (default state dirs).
  "/var/lib/agent-sudo/keys/classifier.key",
  "/var/lib/agent-sudo/keys/operator.key",
  "/var/lib/agent-sudo/database-url",
  "/var/lib/agent-sudo/dev-token",
  "/var/lib/agent-sudo/tokens.json",
  "/var/lib/agent-sudo/state/executor/journal.log",
  "/root/.agent-sudo/keys/classifier.key",
  "/root/.agent-sudo/database-url",
  "/etc/agent-sudo/tokens.json",
];

/** Programs that read the contents of files named to them (as operands, by xargs, from stdin). */
const CONTENT_READERS = new Set([
  "cat",
  "tac",
  "head",
  "tail",
  "less",
  "more",
  "most",
  "bat",
  "batcat",
  "view",
  "grep",
  "egrep",
  "fgrep",
  "zgrep",
  "rg",
  "ag",
  "ack",
  "strings",
  "xxd",
  "od",
  "hexdump",
  "base64",
  "base32",
  "tar",
  "zip",
  "cp",
  "rsync",
  "sha256sum",
  "md5sum",
  "gzip",
  "bzip2",
  "xz",
  "zstd",
  "zcat",
  "zless",
  "zmore",
  "bzcat",
  "xzcat",
  "zstdcat",
  "nl",
  "sort",
  "uniq",
  "diff",
  "cmp",
  "comm",
  "join",
  "paste",
  "cut",
  "column",
  "fold",
  "fmt",
  "pr",
  "rev",
  "expand",
  "iconv",
  "dd",
  "awk",
  "gawk",
  "mawk",
  "sed",
  "jq",
  "yq",
  "mlr",
  "xmllint",
  "split",
  "scp",
]);

/** Searches whose first operand is a pattern (unless -e/-f gave it). */
const PATTERN_FIRST = new Set(["grep", "egrep", "fgrep", "zgrep", "rg", "ag", "ack"]);

const GREP_RECURSIVE = /^-[a-zA-Z]*[rR]|^--(recursive|dereference-recursive)$/;
const CP_RECURSIVE = /^-[a-zA-Z]*[rRa]|^--(recursive|archive)$/;

/** tar creates an archive: `-c`/`--create`, or a first word of bundled letters holding c (`tar czf …`). */
function tarCreates(first: string, flags: readonly string[]): boolean {
  return /^-?[A-Za-z]*c[A-Za-z]*$/.test(first) || flags.some((f) => /^-[A-Za-z]*c[A-Za-z]*$/.test(f) || f === "--create");
}

/**
 * Readers that take the names of the files they read from a file or stdin
 * (`tar -c -T LIST`, `sort --files0-from=LIST`, `cpio -o < LIST`, `cpio -p DIR
 * < LIST`, `7z a x.7z @LIST`): those
 * files are not known until run time, so they may be secrets. Programs that
 * print only sizes or counts of them (wc, du) are not in here.
 */
function namesFromInput(name: string, args: readonly Word[]): string | undefined {
  // The words' texts are taken only for the programs named below (this runs for every command).
  const opt = (re: RegExp) => args.find((w) => re.test(w.text))?.text;
  switch (name) {
    case "tar":
    case "bsdtar": {
      const t = args.map((w) => w.text);
      const list = opt(/^(-[A-Za-z]*T|--files-from)(=|$)/);
      return tarCreates(t[0] ?? "", t) && list ? list : undefined;
    }
    case "sort":
      return opt(/^--files0-from(=|$)/);
    case "cpio":
      // -o packs the files named on stdin; -p copies them (pass-through) into a directory.
      return opt(/^(-[A-Za-z]*[op][A-Za-z]*|--create|--pass-through)$/);
    case "7z":
    case "7za":
    case "7zz":
      // `7z a x.7z @LIST`, `-i@LIST`: the files named in LIST.
      return opt(/^(-[ix]r?[-!0]?)?@/);
    default:
      return undefined;
  }
}

/** Options whose value is a name filter (ripgrep, grep, find, fd), not a path. */
const NAME_FILTER = /^(-g|--glob|--iglob|--include|--exclude|--exclude-dir|-name|-iname|-path|-ipath|-wholename)$/;

/** A path operand outside the repository git works in (or any, when there is none). */
function outsideRepository(w: Word, ctx: Context): boolean {
  const p = resolvePlace(w, ctx).path;
  if (p === null || !ctx.cwd) return true;
  const repo = repoOf(ctx.cwd);
  return repo === null || !inside(realPath(p) ?? p, repo.worktree);
}

/** grep reads trees: -r/-R (in a bundle too), --recursive, or -d/--directories recurse. */
function grepRecursive(args: readonly Word[]): boolean {
  return args.some(
    (w, i) =>
      GREP_RECURSIVE.test(w.text) ||
      /^(--directories=|-d)rec/.test(w.text) ||
      ((w.text === "-d" || w.text === "--directories") && /^rec/.test(args[i + 1]?.text ?? "")),
  );
}

/** A searcher given no tree searches the working directory (`grep -R x`, `rg x`). */
const orHere = (trees: Word[]): Word[] => (trees.length > 0 ? trees : [literalWord(".")]);

/** The operands this program reads as whole trees, or [] when it reads none that way. */
function treeOperands(name: string, args: readonly Word[], ctx: Context): Word[] {
  // The operands come from the program's option table (fileOperands), which knows which options take a value in
  // every spelling (`-eX`, `--context 3`, `-ig GLOB`); a search's pattern is not among them.
  switch (name) {
    case "grep":
    case "egrep":
    case "fgrep":
    case "zgrep":
      // With no tree named, a recursive grep reads ".".
      return grepRecursive(args) ? orHere(fileOperands(name, args)) : [];
    case "rg":
    case "ack":
    case "ag":
      return orHere(fileOperands(name, args));
    case "tar":
    case "bsdtar": {
      // Creating an archive reads its operands; `tar czf …` may spell the mode without a dash. -C DIR: the operands
      // are read from there, so DIR counts as a tree too.
      if (
        !tarCreates(
          args[0]?.text ?? "",
          args.map((w) => w.text),
        )
      )
        return [];
      const dirs = allValues(args, "C", ["--directory"]);
      return [...fileOperands(name, args).filter((w) => w !== args[0]), ...dirs];
    }
    case "zip":
    case "7z":
    case "7za":
    case "rsync":
      return fileOperands(name, args);
    case "gzip":
    case "zstd":
    case "lz4":
    case "pigz":
      // `gzip -rc DIR > x.gz`: every file under DIR, compressed into one stream (links under it read through).
      return args.some((w) => /^-[a-zA-Z0-9]*r/.test(w.text) || w.text === "--recursive") ? fileOperands(name, args) : [];
    case "jar":
      // `jar cf x.jar DIR…` / `jar uf …`: every word after the mode is read as a tree (the archive's own name and a
      // manifest among them: reading too much only raises the verdict). Listing and extracting read no tree.
      return /^-?[a-zA-Z]*[cu]/.test(args[0]?.text ?? "") ? args.slice(1).filter((w) => !w.text.startsWith("-")) : [];
    case "cp": {
      // With -t DIR (`-t DIR`, `-tDIR`, `-rt DIR`, `--target-directory=DIR`) every operand is a source; else the last is the destination.
      if (!args.some((w) => CP_RECURSIVE.test(w.text))) return [];
      const sources = fileOperands(name, args);
      return args.some((w) => /^-[a-zA-Z]*t|^--target-directory(=|$)/.test(w.text)) ? sources : sources.slice(0, -1);
    }
    case "diff":
      // diff compares two directories' files (with -r, their trees); -N prints a file found on one side only in full.
      // `<(cmd)` is a pipe whose command is judged on its own.
      return [...fileOperands(name, args), ...allValues(args, "", ["--from-file", "--to-file"])].filter((w) => !/^[<>]\(/.test(w.text));
    case "git":
      return [...gitRepositoryTrees(args), ...gitLocalSources(args), ...gitDiskTrees(args, (w) => outsideRepository(w, ctx))];
    case "xargs": {
      // `… | xargs cat` as root (or nowhere known): it reads whatever files arrive on stdin.
      const program = args.find((w) => !w.text.startsWith("-"));
      return program && CONTENT_READERS.has(program.text) && (ctx.policy === "sudo" || !ctx.cwd) ? [dynamicWord("(files from stdin)")] : [];
    }
    case "find": {
      const runs = args.some((w) => /^-(exec|execdir|ok|okdir)$/.test(w.text));
      if (!runs) return [];
      const starts = findStarts(args);
      return starts.length > 0 ? starts : [literalWord(".")];
    }
    default:
      return [];
  }
}

/**
 * Whether this reader follows symbolic links while it recurses, so a tree
 * it reads includes whatever a link under it points at: `grep -R`, `find
 * -L`/`-follow`, `rg -L`, `ag -f`, `ack --follow`, `tar -h`, `cp -rL`,
 * `rsync -L`/`-k`, `zip` (it stores what a link points at unless
 * `-y`), `jar`, a compressor's `-r`, and 7-Zip unless `-snl`. The flags are matched loosely (a short cluster holding the letter):
 * reading too much into an option only raises the verdict.
 */
function followsLinks(name: string, args: readonly Word[]): boolean {
  // The words' texts are taken only for the programs named below (this runs for every command).
  let texts: string[] | undefined;
  const words = () => (texts ??= args.map((w) => w.text));
  const short = (letters: RegExp) => words().some((x) => /^-[a-zA-Z]+$/.test(x) && letters.test(x.slice(1)));
  switch (name) {
    case "grep":
    case "egrep":
    case "fgrep":
    case "zgrep":
      return short(/R/) || words().includes("--dereference-recursive");
    case "find":
      return findFollowsLinks(args);
    case "rg":
      return short(/L/) || words().includes("--follow");
    case "ag":
      return short(/f/) || words().includes("--follow");
    case "ack":
      return words().includes("--follow");
    case "tar":
    case "bsdtar":
      return short(/h/) || words().includes("--dereference") || /^[A-Za-z]*h[A-Za-z]*$/.test(words()[0] ?? "");
    case "cp":
      return short(/L/) || words().includes("--dereference");
    case "jar":
    case "gzip":
    case "pigz":
    case "zstd":
    case "lz4":
      // Java's file walk, and a compressor's -r (seen: `gzip -rc d` reads d/k → a key), open what a link points at.
      return true;
    case "7z":
    case "7za":
    case "7zz":
      // 7-Zip for Linux stores what a link points at unless -snl; p7zip stores links as links unless -l. Taken as
      // following but for -snl (the program on a host is not known here).
      return !words().includes("-snl");
    case "rsync":
      return short(/[Lk]/) || words().some((x) => /^--(copy-links|copy-unsafe-links|copy-dirlinks)$/.test(x));
    case "zip":
      return !short(/y/) && !words().includes("--symlinks");
    case "diff":
      // diff compares what links point at, files and directories alike.
      return !words().includes("--no-dereference");
    default:
      return false;
  }
}

/** Entries a symlink-following read's tree is searched for links, at most (a larger tree counts as reaching anywhere). */
const LINK_SEARCH_LIMIT = 4000;

/**
 * Where a symlink-following read of the tree `root` reaches beyond it: the
 * first link under it (followed on, as the reader would) whose target holds
 * secrets, or a reason when the trees are too large to search. Links made by
 * the same command later are not on disk yet: a command that makes links
 * does not get a tier-0 verdict anyway (ln, cp -s, tar x … write). A
 * secret file met on the way (under the tree or a link's target) counts,
 * and so does a link or directory the classifier cannot look behind here
 * (the reader, running as its own user, may: a workspace link into a 0700
 * ~/.ssh). The answer completes "reads the tree T following symbolic links, …".
 */
function linkEscape(root: string, ctx: Context): string | undefined {
  const seen = new Set<string>([root]);
  const queue = [root];
  let entries = 0;
  while (queue.length > 0) {
    const dir = queue.pop() as string;
    // A missing operand or a file is skipped without the failed readdir (its exception costs more than the lstat).
    if (!mayList(dir)) continue;
    let list: Dirent[];
    try {
      list = readdirSync(dir, { withFileTypes: true });
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === "ENOENT" || code === "ENOTDIR") continue;
      return `which passes ${dir}, which the classifier cannot list here (${code ?? "error"}): ${LET_IT_LOOK}`;
    }
    for (const e of list) {
      if (++entries > LINK_SEARCH_LIMIT) return `which follows symbolic links through more than ${LINK_SEARCH_LIMIT} entries under ${root}`;
      const path = `${dir === "/" ? "" : dir}/${e.name}`;
      if (e.isDirectory()) queue.push(path);
      else if (e.isFile() && secretFile(path)) return `which reaches secrets: ${path}`;
      if (!e.isSymbolicLink()) continue;
      let real: string;
      try {
        real = realpathSync(path);
      } catch {
        // Dangling or a loop: nothing to read. A link whose way this process may not walk may lead to a key.
        if (hiddenFromView(path)) return `which passes ${path}, a link the classifier cannot look behind here: ${LET_IT_LOOK}`;
        continue;
      }
      if (holdsSecrets(real, ctx) || secretFile(real)) return `which reaches secrets: ${path} → ${real}`;
      if (![...seen].some((s) => inside(real, s))) {
        seen.add(real);
        queue.push(real);
      }
    }
  }
  return undefined;
}

/** git subcommands that print names and history, never a file's content (log only without a patch). */
const GIT_METADATA = new Set([
  "status",
  "rev-parse",
  "branch",
  "tag",
  "describe",
  "remote",
  "ls-remote",
  "shortlog",
  "count-objects",
  "log",
]);

/**
 * The repository another place holds, as a tree git reads: `git -C /root
 * show HEAD:.ssh/id_rsa` prints a file of that tree as `cat` would (a home
 * or /etc kept in git, etckeeper). Subcommands that print only names and
 * history do not count; `log` counts with a patch (-p, -u, --patch, -L,
 * --full-diff).
 */
function gitRepositoryTrees(args: readonly Word[]): Word[] {
  const g = gitGlobals(args);
  const places = [...g.chdirs, g.gitDir, g.workTree].filter((w): w is Word => w !== null && w.text !== "");
  if (places.length === 0) return [];
  const sub = args[g.sub]?.text ?? "";
  const rest = args.slice(g.sub + 1).map((w) => w.text);
  const patch = rest.some((x) => GIT_PATCH.test(x));
  return GIT_METADATA.has(sub) && !(sub === "log" && patch) ? [] : places;
}

/** What a word may name: the literal words a computed one becomes when the command pins them down, else the word. */
export function candidates(w: Word): readonly Word[] {
  return w.loopValues ?? [w];
}

function holdsSecrets(path: string, ctx: Context): boolean {
  if (inWorkspace(path, ctx)) return false;
  if (path === "/") return true;
  if (SECRET_ROOTS.some((r) => inside(path, r) || inside(r, path))) return true;
  return ctx.home !== null && ctx.home !== undefined && inside(ctx.home, path);
}

const globVerdicts = new Map<string, boolean>();

/** A glob or brace operand that can expand to a secret file (verdicts cached: compiling a glob costs more than judging). */
function globReachesSecret(word: Word): boolean {
  if (!word.glob && !/\{[^}]*[,.][^}]*\}/.test(word.text)) return false;
  const text = word.text.replace(/^~(?=\/|$)/, "/home/user").replace(/^\$\{?HOME\}?(?=\/|$)/, "/home/user");
  let verdict = globVerdicts.get(text);
  if (verdict === undefined) {
    try {
      const match = picomatch(text, { dot: true });
      verdict = SECRET_EXAMPLES.some((p) => match(p));
    } catch {
      verdict = false;
    }
    if (globVerdicts.size > 4096) globVerdicts.clear();
    globVerdicts.set(text, verdict);
  }
  return verdict;
}

const ITEMS: TreeReading = { hidden: true, opensLinks: true };

/** A reader of xargs's items from `find ROOTS -print0` reads what find finds: each root, as a tree. */
function itemRoots(name: string, args: readonly Word[]): Word[] {
  if (!CONTENT_READERS.has(name)) return [];
  return args.flatMap((w) => (w.stdinItem && w.underRoots ? w.underRoots.map((text) => literalWord(text)) : []));
}

/** Why this command reads secrets it does not name, or undefined. */
export function hiddenSecretRead(name: string, args: readonly Word[], ctx: Context, metadataOnly = false): string | undefined {
  const listed = namesFromInput(name, args);
  if (listed !== undefined) return `reads the files named by its input (${listed}), not known until run time: they may be secrets`;
  const follows = followsLinks(name, args);
  // How it reads a tree in the workspace, worked out for the first such tree (most commands read none).
  let reading: TreeReading | null | undefined;
  const readingOf = () => (reading === undefined ? (reading = treeReading(name, args)) : reading);
  // Loops, not spread and flatMap: this runs for every command.
  for (const operand of treeOperands(name, args, ctx))
    for (const w of candidates(operand)) {
      const why = treeSecret(w, ctx, follows, readingOf);
      if (why !== undefined) return why;
    }
  // xargs hands the reader each name find printed, a link too: the reader opens what it points at.
  // Files handed over by name are read whatever the reader's own tree filters say (rg's globs skip no operand).
  const items = () => ITEMS;
  for (const operand of itemRoots(name, args))
    for (const w of candidates(operand)) {
      const why = treeSecret(w, ctx, follows, items);
      if (why !== undefined) return why;
    }
  if (name === "git") {
    const printed = gitSecretPath(args, ctx.cwd);
    if (printed !== undefined) return `git prints ${printed}`;
    const g = gitGlobals(args);
    const credential = gitPrintsCredential(args[g.sub]?.text ?? "", args.slice(g.sub + 1), ctx.cwd, ctx.home ?? null);
    if (credential !== undefined) return credential;
  }
  // A repository's config that holds a credential is a secret file (`cat .git/config`).
  if (CONTENT_READERS.has(name))
    for (const w of args) {
      if (!w.text.endsWith("config")) continue;
      const p = resolvePlace(w, ctx).path;
      if (p !== null && gitConfigFile(p) && configHoldsCredential(p)) return `reads ${w.text}, a git config that holds a credential`;
    }
  const compose = composeConfigSecret(name, args, ctx);
  if (compose !== undefined) return compose;
  // A program that reads names and metadata only (ls, stat …) shows no secret a glob reaches.
  if (!metadataOnly)
    for (const [i, arg] of args.entries()) {
      // A name filter's value is matched against names, never expanded to paths (`rg -g '!{node_modules,dist}'`).
      if (NAME_FILTER.test(args[i - 1]?.text ?? "")) continue;
      for (const w of candidates(arg))
        if (!w.text.startsWith("-") && globReachesSecret(w)) return `the pattern ${w.text} can expand to a secret file`;
    }
  return computedRead(name, args, ctx);
}

/**
 * Why reading the tree `w` (recursively, following links when `follows`)
 * may read secrets, or undefined. A tree in the workspace is listed for the
 * secret files `reading` says the program reads.
 */
function treeSecret(w: Word, ctx: Context, follows: boolean, reading: () => TreeReading | null): string | undefined {
  const p = resolvePlace(w, ctx);
  // A tree not known until run time (a variable, no cwd) may be any of them.
  if (p.path === null || holdsSecrets(p.path, ctx)) return `reads the tree ${w.text}, which may hold secrets, recursively`;
  const reals = hostPaths(p, true);
  const real = reals.find((x) => holdsSecrets(x, ctx));
  if (real !== undefined) return `reads the tree ${w.text} (${real} on this host), which may hold secrets, recursively`;
  // Following links, the tree is also everything its links point at (`root -> /` in the workspace).
  for (const r of follows ? new Set([p.path, ...reals]) : []) {
    const reached = linkEscape(r, ctx);
    if (reached !== undefined) return `reads the tree ${w.text} following symbolic links, ${reached}`;
  }
  // A tree that is no secret place as a whole (the workspace, /tmp, /usr …) is listed for the secret files in it.
  for (const r of new Set([p.path, ...reals])) {
    const how = reading();
    if (how === null) break;
    const found = secretFileUnder(r, how, (real) => holdsSecrets(real, ctx));
    if (found !== undefined) return `reads the tree ${w.text} recursively, ${describeFound(found)}`;
  }
  return undefined;
}

/**
 * A file operand computed at run time (`cat $(echo /etc/shadow)`, `head
 * $f`, `cat "$(find … -name '*.key')"`) may be any file, a secret too —
 * unless the command pins the variable to literal words (`f=README.md; cat
 * "$f"`), which are judged instead; so may a relative one when the
 * directory is not known (`cd /e* && cat shadow`), and `~-/x`. For every
 * source: the hook runs what it allows unguarded. As root every computed
 * word counts; from the hook the words in option values (`head -n "$n"`)
 * and a search's pattern do not. `$HOME/…` names a known place.
 */
function computedRead(name: string, args: readonly Word[], ctx: Context): string | undefined {
  if (!CONTENT_READERS.has(name)) return undefined;
  // From the hook, `<(cmd)` is a pipe whose command is judged on its own; as root it counts. xargs's items
  // count for every source (`find ~/.ssh -type f | xargs cat`), but from the hook those of `find ROOTS
  // -print0 | xargs -0` are paths under known roots, judged as those trees (itemRoots).
  const hook = ctx.policy !== "sudo";
  const unknown = (w: Word) =>
    !w.text.startsWith("-") &&
    !(hook && (/^[<>]\(/.test(w.text) || (w.stdinItem === true && w.underRoots !== undefined))) &&
    (w.loopValues
      ? w.loopValues.some((v) => resolvePlace(v, ctx).path === null)
      : (w.dynamic && (ctx.policy === "sudo" || resolvePlace(w, ctx).path === null)) ||
        (!w.dynamic && (!ctx.cwd || w.text.startsWith("~")) && !w.text.startsWith("/") && resolvePlace(w, ctx).path === null));
  const computed = (ctx.policy === "sudo" ? args : fileOperands(name, args)).find(unknown);
  if (computed === undefined) return undefined;
  return `reads ${computed.text}, a file not known until run time${ctx.policy === "sudo" ? ", as root" : " (it may be a secret)"}`;
}

/** The words a reader takes as files: not option values (its option table says which take one), not a search's pattern. */
function fileOperands(name: string, args: readonly Word[]): Word[] {
  const values = new Set(checkOptions(TOOLS, name, args, () => null).values);
  let ended = false;
  const out: Word[] = [];
  for (const w of args) {
    if (!ended && w.text === "--" && !w.dynamic) {
      ended = true;
      continue;
    }
    if (values.has(w) || (!ended && !w.dynamic && w.text.startsWith("-") && w.text !== "-")) continue;
    out.push(w);
  }
  // A short cluster holding e or f anywhere (`-eX`, `-reX`, `-rf LIST`) counts: taking the pattern for a file only raises.
  const patternGiven = args.some((w) => /^(-[a-zA-Z]*[ef]|--regexp(=|$)|--file(=|$))/.test(w.text) && !w.dynamic);
  // ag's -f is --follow and ack's -f lists files: their pattern is always the first operand.
  return PATTERN_FIRST.has(name) && (!patternGiven || name === "ag" || name === "ack") ? out.slice(1) : out;
}
