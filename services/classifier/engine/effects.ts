// Effect analysis: from a simple command's program, operands and redirections,
// find what it writes, deletes, re-permissions or reads, and the lowest tier
// those effects allow. Workspace writes → 1, outside → ≥ 2, secrets read → ≥ 2,
// block devices, critical files and recursive ops on system trees → 4.
import { posix } from "node:path";
import type { TierNumber } from "../../shared/tier.js";
import {
  blockDevice,
  catastrophicTree,
  criticalData,
  criticalFile,
  guardFile,
  hostPaths,
  inside,
  upwardSearched,
  inWorkspace,
  isWorkspaceRoot,
  persistenceFile,
  resolvePlace,
  scratch,
  sharedScratchRoot,
  secretPlace,
  sink,
  systemPath,
} from "./paths.js";
import type { Place } from "./paths.js";
import type { Context, Redirect, SimpleCommand, VerbClass, Word } from "./types.js";
import { splitArgs } from "./argv.js";
import { cwdTarget } from "./targets.js";
import {
  danglingPath,
  expandWordPaths,
  hiddenFromView,
  keyInside,
  LET_IT_LOOK,
  linksIn,
  listDir,
  lstat,
  readScript,
  realPath,
} from "./host-paths.js";
import { commonDir, repoOf } from "./git-index.js";
import { targetsOf } from "./writers.js";
import { insideGitDir, notHeldByGit, regenerablePlace } from "./reversible.js";
import { gitAddStagesSecret } from "./git-stages.js";
import { readsStdinCode } from "./stdin-code.js";
import { candidates, hiddenSecretRead } from "./secret-trees.js";
import type { Target } from "./targets.js";
import { literalWord } from "./unwrap.js";
import { ffmpegNames } from "./tools/outputs.js";
import { holdsRunsLater, runsLater } from "./runs-later.js";
import { bareRepoFile, clonedByCommand, nestedRepository } from "./bare-repos.js";
import { userGitDrivers } from "./git-drivers.js";
import { agentSteered } from "./agent-steered.js";
import { reachesMoved } from "./moved-before.js";
import { throughLinksMade } from "./linked-before.js";
import { gitSteered } from "./git-steered.js";
import { GIT_FILE_KEYS, gitGlobals } from "./tools/git.js";
import { sendsRedirectedInput } from "./tools/network.js";

export interface Effect {
  tier: TierNumber;
  reason: string;
}

const WRITE_OPS = new Set([">", ">>", ">|", "&>", "&>>", "<>", ">&"]);
const READ_OPS = new Set(["<", "<&", "<>"]);

// Programs whose operands are named, not read: a secret path here reveals nothing.
const METADATA = new Set([
  "ls",
  "stat",
  "file",
  "du",
  "find",
  "test",
  "[",
  "[[",
  "realpath",
  "readlink",
  "basename",
  "dirname",
  "touch",
  "mkdir",
  "chmod",
  "chown",
  "chgrp",
  "rm",
  "rmdir",
  "unlink",
  "shred",
  "echo",
  "printf",
  "wc",
  "namei",
  "lsattr",
  "getfacl",
  "exa",
  "eza",
  "tree",
  "which",
  "type",
  "command",
  "ssh-keygen",
  "ssh-add",
  "git",
  // Device metadata, not contents (their writes are judged by rules and vetoes).
  "lsblk",
  "blkid",
  "fdisk",
  "sfdisk",
  "gdisk",
  "parted",
  "wipefs",
  "smartctl",
  "hdparm",
  "udevadm",
  "findmnt",
  "mount",
  "umount",
  "losetup",
  "cryptsetup",
  "pvs",
  "vgs",
  "lvs",
  "pvdisplay",
  "vgdisplay",
  "lvdisplay",
  "tune2fs",
  "dumpe2fs",
  "e2label",
  "xfs_info",
  "btrfs",
  "mdadm",
  "nvme",
  "blockdev",
]);

// Programs that only write where the rule says they work: the cwd (or -C dir).
const CWD_WRITERS = new Set(["git", "make", "npm", "patch", "ninja", "cargo", "gofmt", "goimports"]);

/**
 * A write, delete or permission change of `t`, judged by the place its text
 * names and by every place it names on this host (a symlink's target, a
 * glob's matches): the worst stands.
 */
function judgeTarget(t: Target, ctx: Context): Effect {
  const p = resolvePlace(t.word, ctx);
  // A hard link's source is not changed: only where its content now also lives is judged.
  if (t.shares) return movedAway(t, p, ctx) ?? { tier: 0, reason: `${p.raw}: linked from, not changed` };
  let e = judgePlace(t, p, ctx);
  if (t.tree) e = max(e, treeLands(t.tree, p, ctx)) ?? e;
  if (e.tier === 4) return e;
  // Root's later code (a cron line, a unit, a hook: ctx.laterScript is set only there) writing or re-permissioning
  // where code runs later: what lands there — a download, a copy of a user's file, a new owner — is never judged.
  if (ctx.laterScript && p.path !== null && (t.mode === "write" || t.mode === "perm" || t.mode === "perm-tree")) {
    const r = runsLater(p.path) ?? (holdsRunsLater(p.path) ? runsLater(`${p.path === "/" ? "" : p.path}/x`) : null);
    if (r || holdsRunsLater(p.path))
      return {
        tier: 4,
        reason: `${t.mode} ${p.raw}: root's later code changes where code runs later (${r?.what ?? "it holds such places"}); what lands there is not judged`,
      };
  }
  const reals = hostPaths(p, t.mode !== "delete" && t.mode !== "tree");
  for (const real of reals) {
    const r = judgePlace(t, resolvePlace(literalWord(real), ctx), ctx);
    if (r.tier > e.tier) e = { tier: r.tier, reason: `${r.reason} (${p.raw} leads there on this host)` };
  }
  if (t.serverNamed) e = max(e, serverNamed(p, reals, ctx)) ?? e;
  if (t.followsLinks) e = max(e, followedLinks(t, p, ctx)) ?? e;
  return t.fills ? (max(e, throughLinks(p, reals, ctx)) ?? e) : e;
}

/** Entries looked through for links below a tree a program follows them in, at most. */
const MAX_FOLLOWED = 2000;

/**
 * Every link below `p` that a program following links (find -L, chown -RL) goes through: what it leads to is
 * changed as the tree is (`link/`), judged there. A tree too large to look through here is not judged whole.
 */
function followedLinks(t: Target, p: Place, ctx: Context): Effect | null {
  if (p.path === null || p.dynamic || ctx.remote) return null;
  const root = p.glob ? p.path : (realPath(p.path) ?? p.path);
  let worst: Effect | null = null;
  let seen = 0;
  const stack = [root];
  while (stack.length > 0) {
    const dir = stack.pop() as string;
    for (const name of listDir(dir) ?? []) {
      if (++seen > MAX_FOLLOWED)
        return max(worst, { tier: 2, reason: `${t.mode} ${p.raw}: follows links in a tree too large to look through here` });
      const at = `${dir === "/" ? "" : dir}/${name}`;
      const st = lstat(at);
      if (st === null || st === "unknown") continue;
      if (st.isSymbolicLink()) {
        const mode = t.mode === "perm" || t.mode === "perm-tree" ? "perm-tree" : "tree";
        const e = judgeTarget({ word: literalWord(`${at}/`), mode }, ctx);
        if (e.tier > (worst?.tier ?? 1)) worst = { tier: e.tier, reason: `${e.reason} (${p.raw} follows ${at})` };
        if (e.tier === 4) return worst;
      } else if (st.isDirectory()) stack.push(at);
    }
  }
  return worst;
}

/** Members not known here may replace what a workspace directory holds that git does not (round 22: `tar xf a.tar -C src`). */
function overUnheld(dir: string, raw: string, ctx: Context): Effect | null {
  if (ctx.source !== "claude" || ctx.remote || !inWorkspace(dir, ctx)) return null;
  const why = notHeldByGit(dir, "tree");
  return why === null ? null : { tier: 2, reason: `write ${raw}: names not known here land where ${why}` };
}

/**
 * One file whose name the server chooses (Content-Disposition: `curl -OJ`,
 * `wget --content-disposition`, aria2c without -o) landing in the
 * workspace's or a repository's top, above the workspace or in a shared
 * scratch root: the name may be one a tool obeys there (`.npmrc`, `.envrc`,
 * `conftest.py`, `CLAUDE.md`); a subdirectory (`-d dl`) is where downloads go. The clients strip directories and never overwrite, so links
 * there are not written through. Round 22.
 */
function serverNamed(p: Place, reals: readonly string[], ctx: Context): Effect | null {
  const dir = reals.at(-1) ?? p.path;
  if (dir === null || p.glob) return { tier: 2, reason: `write ${p.raw}: a file the server names, in a place not known until run time` };
  // …or a tool's own directory (`--output-dir .vscode`: the server names it tasks.json; round 23).
  return repositoryTop(dir, p.raw, ctx) !== null || isWorkspaceRoot(dir, ctx) || posix.basename(dir).startsWith(".")
    ? {
        tier: 2,
        reason: `write ${p.raw}: the server chooses the file's name, which may be one a tool obeys there (.npmrc, .envrc, conftest.py)`,
      }
    : null;
}

/** At most this many entries of a tree copied, moved or linked are looked at; a larger tree is "cannot be known". */
const MAX_TREE = 512;

/**
 * A tree that lands under `dest` (`cp -r tpl/. .`, `rsync -a tpl/ .`, `cp -a
 * tpl/.vscode .`, `mv`, `ln -s tpl .vscode`): each entry is judged as a write
 * there, so `tpl/.claude/settings.json` copied into the workspace is what a
 * write of `.claude/settings.json` is. Directories whose names start with a
 * dot are followed (what runs later lives there: .git/hooks, .vscode/tasks.json,
 * .claude/); the others' entries are judged by their own names only. The
 * verdict is at most 2: such copies are everyday (`cp -r repo backup/`), and
 * what lands is judged again where it runs (the hook's next command, /exec's diff).
 */
function directoryAt(path: string): boolean {
  const st = lstat(path);
  return st !== null && st !== "unknown" && st.isDirectory();
}

function treeLands(tree: Word, dest: Place, ctx: Context): Effect | null {
  if (tree.dynamic || dest.path === null || ctx.remote) return null;
  const src = resolvePlace(tree, ctx);
  // Sources a glob names (`cp -r tpl/* .`, round 25): each lands in the destination under its own name.
  if (src.glob && dest.glob && dest.text.endsWith("/*") && !/[*?[]/.test(dest.text.slice(0, -2))) {
    const into = dest.path === "/" ? "" : dest.path;
    for (const match of [...new Set(hostPaths(src, true))].slice(0, 64)) {
      const e = treeLands(literalWord(match), resolvePlace(literalWord(`${into}/${posix.basename(match)}`), ctx), ctx);
      if (e !== null) return e;
    }
    return null;
  }
  if (dest.glob) return null;
  const root = src.path === null || src.glob ? null : realPath(src.path);
  if (root === null || root === "/") return null;
  let worst: Effect | null = null;
  let seen = 0;
  const stack: [string, string][] = [[root, dest.path]];
  while (stack.length > 0) {
    const [from, to] = stack.pop() as [string, string];
    for (const name of listDir(from) ?? []) {
      if (++seen > MAX_TREE)
        return max(worst, { tier: 2, reason: `write ${dest.raw}: ${tree.text} lands there, a tree too large to look through here` });
      const at = `${to === "/" ? "" : to}/${name}`;
      const e = judgePlace({ word: literalWord(at), mode: "write" }, resolvePlace(literalWord(at), ctx), ctx);
      if (e.tier >= 2 && worst === null) worst = { tier: 2, reason: `${e.reason} (${tree.text} lands there)` };
      if (worst !== null) return worst;
      // A directory merges into one already there (round 25: `cp -r tpl/. .` replaced untracked src/new.js under an
      // existing src/); into a new one, and for a dot-directory's own names (.git/hooks), what is below is judged too.
      const st = lstat(`${from}/${name}`);
      if (st && st !== "unknown" && st.isDirectory() && (name.startsWith(".") || directoryAt(at))) stack.push([`${from}/${name}`, at]);
    }
  }
  return worst;
}

/**
 * An extraction into a directory writes member paths not known here; one
 * that starts with the name of a link already in that directory (`r/.ssh/
 * authorized_keys` with r → /root) is written where the link leads.
 */
function throughLinks(p: Place, reals: readonly string[], ctx: Context): Effect | null {
  const dir = reals.at(-1) ?? p.path;
  if (dir === null || p.glob) return null;
  const links = linksIn(dir);
  if (links === null) return { tier: 2, reason: `extracts into ${p.raw}, a directory that cannot be listed for links` };
  let worst: Effect | null = repositoryTop(dir, p.raw, ctx) ?? overUnheld(dir, p.raw, ctx);
  for (const link of links) {
    // Judged where it leads (one lookup, no check of the link's own name as a workspace file): a link that
    // stays in the workspace writes nowhere new; one that cannot be resolved is judged as named.
    const to = realPath(link) ?? danglingPath(link);
    if (to !== null && inWorkspace(to, ctx)) continue;
    const e = judgeTarget({ word: literalWord(`${to ?? link}/x`), mode: "write" }, ctx);
    if (e.tier > (worst?.tier ?? 1))
      worst = { tier: e.tier, reason: `extracts into ${p.raw}, where the link ${link} leads out: ${e.reason}` };
    if (e.tier === 4) break;
  }
  return worst;
}

/**
 * Names not known here (an archive's members, a server's file names) that
 * land in a repository's top, above a workspace or in a shared scratch root
 * may be what runs later: `.git/config` (its fsmonitor runs on the next
 * `git status`), `.git/hooks/*`, `.claude/settings.json`, `.envrc`, a
 * `conftest.py` pytest finds from below. Round 22: `wget -r -nH URL` and
 * `curl -OJ URL` let the server choose them.
 */
function repositoryTop(dir: string, raw: string, ctx: Context): Effect | null {
  const st = lstat(`${dir === "/" ? "" : dir}/.git`);
  const why =
    st !== null && st !== "unknown"
      ? "a repository's top, where they may replace .git/config or add .git/hooks (git runs them on its next read)"
      : ctx.workspace.some((w) => w !== dir && inside(w, dir))
        ? "a directory above the workspace, where they may reach its .git and its tools' configuration"
        : sharedScratchRoot(dir)
          ? "a shared scratch root, where they may plant what tools search upward for (conftest.py, package.json)"
          : null;
  return why === null ? null : { tier: 2, reason: `write ${raw}: names not known here (an archive's, the server's) land in ${why}` };
}

/**
 * Work git does not hold, moved or hard-linked where it counts as regenerable (an ignored path, scratch space, a
 * name computed at run time): the next delete or write there is not checked against git (round 22: `mv mod.txt
 * build.log && rm build.log`; round 23: `ln untracked.txt x.log && echo gone > x.log`, rsync --remove-source-files).
 */
function movedAway(t: Target, p: Place, ctx: Context): Effect | null {
  // `find ROOT … -exec mv {} DEST \;` moves matches not known here: the whole tree under ROOT must be held (round 28).
  const findRoot = p.glob && /\/\{\}$/.test(p.raw);
  if (ctx.source !== "claude" || ctx.remote || !t.movedTo || (p.glob && !findRoot) || p.path === null || !inWorkspace(p.path, ctx))
    return null;
  if (notHeldByGit(p.path, "tree") === null) return null;
  const to = t.movedTo.find((w) => {
    const d = resolvePlace(w, ctx).path;
    return d === null || !inWorkspace(d, ctx) || regenerablePlace(d);
  });
  return to === undefined
    ? null
    : {
        tier: 2,
        reason: `${t.mode} ${p.raw}: moves or links work git does not hold to ${to.text}, where deleting or overwriting it would pass as regenerable`,
      };
}

function judgePlace(t: Target, p: Place, ctx: Context): Effect {
  const through = p.path !== null && ctx.linksMade ? linkedPlace(t, p, p.path, ctx) : null;
  const own = judgeOwnPlace(t, p, ctx);
  return through !== null && through.tier > own.tier ? through : own;
}

/**
 * A write through a link an earlier command of the line made (`ln -s .git/hooks h && echo … > h/pre-commit`),
 * judged where it lands too, through every reading and through links made before that one (`ln -s .git d && ln -s
 * d/config c`). A glob (`>> c*`) may match any link made in its directory. Deleting the link's own name deletes only
 * the link.
 */
function linkedPlace(t: Target, p: Place, path: string, ctx: Context): Effect | null {
  const links = ctx.linksMade as ReadonlyMap<string, string>;
  const deletes = t.mode === "delete" || t.mode === "tree";
  // `echo … >> c*` after `ln -s .git/config c`: p.path is the glob's static directory, which any link under it may match.
  const paths = p.glob ? [...links.keys()].filter((n) => n === path || n.startsWith(path === "/" ? "/" : `${path}/`)) : [path];
  let worst: Effect | null = null;
  for (const at of paths)
    for (const through of throughLinksMade(at, links)) {
      // Deleting a link deletes the link: only a link among the path's parents leads a delete elsewhere.
      if (deletes && (through.name === at || (through.to === "" && posix.dirname(at) === through.name))) continue;
      const to = through.to;
      let e: Effect;
      if (to === "")
        e = {
          tier: 2,
          reason: `${t.mode} ${at}: ${through.name === "*" ? "a link the line made at a name not known here may be this" : `under ${through.name}, where an earlier command of the line extracts, copies or moves names not known here (a link among them leads anywhere)`}`,
        };
      else {
        // A link made before this one may lead on (`ln -s .git d && ln -s d/config c`): followed with the rest.
        const rest = new Map([...links].filter(([n]) => n !== through.name));
        const c = { ...ctx, linksMade: rest.size > 0 ? rest : undefined };
        const j = judgePlace(t, resolvePlace(literalWord(to), c), c);
        e = { tier: j.tier, reason: `${j.reason} (through a link the line made at ${at})` };
      }
      if (worst === null || e.tier > worst.tier) worst = e;
    }
  return worst;
}

function judgeOwnPlace(t: Target, p: Place, ctx: Context): Effect {
  const what = `${t.mode} ${p.raw}`;
  if (p.path !== null && sink(p.path)) return { tier: 0, reason: `${what}: a sink` };
  if (p.path !== null && blockDevice(p.path)) return { tier: 4, reason: `${what}: writes a block or memory device` };
  if (p.path !== null && criticalFile(p.path)) return { tier: 4, reason: `${what}: a file whose damage locks out or stops the host` };
  if (p.path !== null && guardFile(p.path))
    return { tier: 4, reason: `${what}: the agent's hook settings or agent-sudo's own files — changing them switches the broker off` };
  if (p.path !== null && persistenceFile(p.path))
    return { tier: 3, reason: `${what}: a file whose content runs later (shell start-up, git hooks/config, user units, authorized_keys)` };
  if (p.path !== null && bareRepoFile(p.path))
    return {
      tier: 3,
      reason: `${what}: a bare repository's config or hooks, whose content git runs later (as .git/config and .git/hooks)`,
    };
  if (t.mode === "tree" && catastrophicTree(p, true)) return { tier: 4, reason: `${what}: recursive delete/move of a system tree or home` };
  if (t.mode === "perm-tree" && catastrophicTree(p, false))
    return { tier: 4, reason: `${what}: recursive permission change of a top-level tree` };
  if (p.path !== null && criticalData(p.path)) {
    return { tier: ctx.host === "primary" ? 4 : 3, reason: `${what}: stateful data (databases, volumes)` };
  }
  // `rm -rf "$X"`, or `rm -rf *` after `cd "$X"`: it may be `/`.
  if (p.path === null && t.mode === "tree")
    return { tier: 4, reason: `${what}: recursive delete or move of a place not known until run time` };
  if (p.path === null) return { tier: 2, reason: `${what}: target not known until run time` };
  if (inWorkspace(p.path, ctx)) {
    // `.githooks/pre-commit` with core.hooksPath = .githooks, a file the repository's config includes.
    // A `.gitattributes` picks drivers of the user's own git config for any file: with one that runs a program
    // (a decrypting textconv), the next `git log -p` runs it.
    if (/(^|\/)\.gitattributes$/.test(p.path)) {
      const drivers = userGitDrivers(ctx.home ?? null);
      if (drivers.length > 0)
        return {
          tier: 2,
          reason: `${what}: chooses diff, filter or merge drivers for files, and ${drivers[0]} defines ones that run programs (git log -p, git show run them)`,
        };
    }
    // A file with other hard links (pnpm's and uv's stores link packages' files into node_modules and .venv): writing
    // it in place writes every project's copy (round 22). Replacing it by rename would not, but few writers do.
    if (ctx.source === "claude" && t.mode === "write" && !p.glob) {
      const st = lstat(p.path);
      if (st !== null && st !== "unknown" && st.isFile() && st.nlink > 1n)
        return {
          tier: 2,
          reason: `${what}: a file with ${st.nlink - 1n} other hard link(s): writing it changes each of them, outside the workspace too`,
        };
    }
    const steered = gitSteered(p.path, ctx.home ?? null);
    if (steered !== null)
      return {
        tier: 3,
        reason: `${what}: the repository's config makes ${steered.path} its ${steered.what} (git runs or obeys what it holds)`,
      };
    if (
      ctx.source === "claude" &&
      !ctx.remote &&
      (t.mode === "write" || t.mode === "tree") &&
      agentSteered(p.path, ctx.workspace, ctx.home ?? null)
    )
      return {
        tier: 3,
        reason: `${what}: a script the workspace's agent or editor settings run on their own (Claude Code hooks, MCP servers, tasks run on open)`,
      };
    const wholeRoot = isWorkspaceRoot(p.path, ctx) && (!p.glob || /(^|\/)(\*|\.\*)$/.test(p.raw));
    const destroysRoot = (t.mode === "tree" || t.mode === "delete") && (wholeRoot || /\/\.git(\/|$)/.test(p.path));
    if (destroysRoot) return { tier: 2, reason: `${what}: deletes the workspace root or its history` };
    // The hook runs tier 1 with no envelope: a delete or overwrite is reversible only when git holds what it destroys.
    // `find ROOT … -delete` deletes matches not known here: the whole tree under ROOT must be held.
    const findRoot = p.glob && /\/\{\}$/.test(p.raw);
    if (
      ctx.source === "claude" &&
      !ctx.remote &&
      !t.keeps &&
      (!p.glob || findRoot) &&
      (t.mode === "write" || t.mode === "delete" || t.mode === "tree")
    ) {
      const why = notHeldByGit(p.path, findRoot ? "tree" : t.mode);
      if (why !== null) return { tier: 2, reason: `${what}: ${why}` };
    }
    // A glob's matches are not known here: `rm z*` after `mv untracked.txt zz.txt` (round 29) reaches any moved work
    // under its directory.
    if (
      ctx.unheldMoved &&
      !t.keeps &&
      (t.mode === "write" || t.mode === "delete" || t.mode === "tree") &&
      reachesMoved(p.path, ctx.unheldMoved, t.mode !== "write" || p.glob)
    )
      return { tier: 2, reason: `${what}: reaches work git does not hold that an earlier mv of this line put there` };
    const away = t.keeps ? movedAway(t, p, ctx) : null;
    if (away !== null) return away;
    return { tier: 1, reason: `${what}: inside the workspace` };
  }
  // Scratch space that holds the workspace (`rm -rf ..` from /tmp/x/ws) deletes the workspace with it.
  if ((t.mode === "tree" || t.mode === "delete") && !p.glob && ctx.workspace.some((w) => inside(w, p.path as string)))
    return { tier: 2, reason: `${what}: deletes a directory that holds the workspace` };
  const upward = upwardSearched(p.path, ctx.workspace);
  if (upward !== null)
    return { tier: 2, reason: `${what}: ${upward} is a name tools look for in every directory below it (others' runs load it)` };
  if (scratch(p.path)) {
    // A repository's own directory in scratch space (a bare one, `/tmp/x/.bare`) is no scratch: its hooks, config and
    // rebase state run later (round 23).
    if (t.mode !== "perm" && t.mode !== "perm-tree" && insideGitDir(p.path))
      return { tier: 2, reason: `${what}: inside a repository's git directory, whose files git runs or obeys later` };
    return { tier: 1, reason: `${what}: scratch space` };
  }
  if (systemPath(p.path)) return { tier: 3, reason: `${what}: system path outside the workspace` };
  return { tier: 2, reason: `${what}: outside the workspace` };
}

function max(a: Effect | null, b: Effect | null): Effect | null {
  if (a === null) return b;
  if (b === null) return a;
  return b.tier > a.tier ? b : a;
}

function secretReads(name: string, args: readonly Word[], ctx: Context): Effect | null {
  const hidden = hiddenSecretRead(name, args, ctx, METADATA.has(name));
  if (hidden) return { tier: 2, reason: hidden };
  // git names files for most verbs, but prints them for these.
  const gitPrints =
    name === "git" &&
    (args.some((w) => w.text === "--no-index") ||
      (args[0]?.text === "config" && args.some((w) => /^(-f|--file)(=|$)/.test(w.text) || GIT_FILE_KEYS.test(w.text.toLowerCase()))));
  if (METADATA.has(name) && !gitPrints) return null;
  const searcher = SEARCHERS.has(name);
  const s = splitArgs(args, name === "ssh" || name === "scp" ? IDENTITY_VALUE : searcher ? SEARCH_VALUES : NO_VALUES);
  // dd names its input as if=PATH.
  let operands = name === "dd" ? s.positional.map((w) => (w.text.startsWith("if=") ? { ...w, text: w.text.slice(3) } : w)) : s.positional;
  // A search's pattern is data, not a path (`grep -rn "id_rsa" docs/`): the first operand unless -e/-f gave the pattern.
  if (searcher && !["-e", "--regexp", "-f", "--file"].some((k) => s.values.has(k))) operands = operands.slice(1);
  const values = [...s.values.entries()].filter(([k]) => k !== "-i" && !(searcher && SEARCH_DATA.has(k))).map(([, v]) => v);
  const words = [...operands, ...values];
  // ffmpeg opens the file behind a protocol prefix or named in a filter graph (`file:F`, `drawtext=textfile=F`).
  if (name === "ffmpeg" || name === "ffprobe" || name === "ffplay") words.push(...words.flatMap(ffmpegNames));
  // Operands of tools that never read them as files (subcommands, names, hosts) are judged by their text only.
  // man and info read a file they are given by path (`man -l F`, `man ./F`, `info -f F`, `info -d DIR NODE`): its link is followed.
  const docFile =
    (name === "man" || name === "info") &&
    args.some((w) => /^(-l|--local-file|-f|--file|-d|--directory)(=|$)/.test(w.text) || w.text.includes("/"));
  const host = !OPERANDS_NOT_FILES.has(name) || docFile;
  // curl reads a file: URL's path, percent-decoded and with its own {a,b} / [a-z] globs expanded, following links.
  if (name === "curl") {
    const globoff = args.some((w) => w.text === "-g" || w.text === "--globoff");
    for (const w of words) {
      const paths = fileUrlPaths(w, globoff);
      if (paths === null) continue;
      if (paths === "many" || w.dynamic)
        return { tier: 2, reason: `reads ${w.text}, a file not known until run time (it may be a secret)` };
      for (const c of paths)
        if (secretPlace(resolvePlace(c, ctx), true)) return { tier: 2, reason: `reads a secret: ${w.text} (${c.text})` };
    }
  }
  for (const w of words) {
    for (const c of candidates(w)) {
      const p = resolvePlace(c, ctx);
      if (secretPlace(p, host || values.includes(w)))
        return { tier: 2, reason: `reads a secret: ${w.text}${c === w ? "" : ` (${c.text})`}` };
      // A key saved under another name (`backup.txt`): its content says so. One the classifier may not read,
      // from the hook, may be one (fail closed).
      if (host && !p.remote && !p.glob && p.path !== null && !/^\/(proc|sys|dev)\//.test(p.path)) {
        const key = keyInside(p.path);
        if (key === true) return { tier: 2, reason: `reads a secret: ${w.text} holds a private key` };
        if (key === "unreadable" && ctx.source === "claude")
          return {
            tier: 2,
            reason: `reads ${w.text}, which the classifier may not read here (it may hold a key): ${LET_IT_LOOK}`,
          };
      }
      // The hook's reads run unsandboxed: a file the classifier cannot look at may be a link to a key (fail closed).
      if (ctx.source === "claude" && host && !p.remote && hiddenRead(p)) return cannotLook(w.text);
    }
  }
  return null;
}

/** The hook's verdict on a read it cannot see the end of (fail closed). */
function cannotLook(text: string): Effect {
  return {
    tier: 2,
    reason: `reads ${text}, which the classifier cannot look at here (a link there may lead to a secret): ${LET_IT_LOOK}`,
  };
}

/**
 * A read whose way the classifier cannot follow here. A glob or brace word
 * (whose place is only its directory, or none where an alternative may
 * leave it): the way to each path it makes here, and where those cannot be
 * listed, unknown.
 */
function hiddenRead(p: Place): boolean {
  if (p.dynamic || p.remote) return false;
  if (p.path !== null && hiddenFromView(p.path)) return true;
  if (!p.glob) return false;
  const made = expandWordPaths(p.text, p.base);
  return made === null || made.matches.some(hiddenFromView);
}

/**
 * The paths curl reads for a `file:` URL word (null: not a file URL): the
 * path percent-decoded (`%2e` is `.`), each of curl's URL globs expanded
 * (`{a,b}` sets, `[a-z]` / `[0-9]` ranges) unless `-g`; "many" past 64.
 */
function fileUrlPaths(w: Word, globoff: boolean): Word[] | "many" | null {
  const m = /^file:(?:\/\/(?:localhost)?)?(.*)$/i.exec(w.text);
  if (!m) return null;
  let texts = [m[1] as string];
  if (!globoff) {
    for (let round = 0; round < 8; round++) {
      const next: string[] = [];
      let changed = false;
      for (const t of texts) {
        const set = /\{([^{}]*)\}/.exec(t);
        const range = /\[([a-zA-Z0-9])-([a-zA-Z0-9])(?::\d+)?\]/.exec(t);
        const g = set && (!range || set.index < range.index) ? set : range;
        if (!g) {
          next.push(t);
          continue;
        }
        changed = true;
        const head = t.slice(0, g.index);
        const tail = t.slice(g.index + g[0].length);
        if (g === set) for (const alt of (g[1] as string).split(",")) next.push(head + alt + tail);
        else {
          const a = (g[1] as string).charCodeAt(0);
          const b = (g[2] as string).charCodeAt(0);
          if (b - a > 64) return "many";
          for (let c = a; c <= b; c++) next.push(head + String.fromCharCode(c) + tail);
        }
        if (next.length > 64) return "many";
      }
      texts = next;
      if (!changed) break;
    }
  }
  return texts.map((t) => {
    let path = t;
    try {
      path = decodeURIComponent(t);
    } catch {
      // a stray % stays as written
    }
    return { ...w, text: path };
  });
}

/**
 * A secret this simple command reads — an operand, a tree holding one, an
 * input redirection — or null: for the diff judge, what a file the command
 * writes may carry (manifest-effects.ts). The command's own words only: a
 * wrapper's or an interpreter's inner command is not followed.
 */
export function readsSecret(cmd: SimpleCommand, ctx: Context): string | null {
  for (const r of cmd.redirects)
    if (READ_OPS.has(r.op) && candidates(r.target).some((w) => secretPlace(resolvePlace(w, ctx))))
      return `reads a secret: ${r.target.text}`;
  const [first, ...args] = cmd.words;
  if (!first || first.dynamic) return null;
  // What names a secret, not what only may (a file not known until run time: with no cwd, every relative operand).
  const found = secretReads(posix.basename(first.text), args, ctx)?.reason ?? null;
  return found !== null && /not known until run time/.test(found) ? null : found;
}

/** ssh's and scp's identity file (-i KEY), and no option with a value: the sets secretReads splits with. */
const IDENTITY_VALUE: ReadonlySet<string> = new Set(["-i"]);
const NO_VALUES: ReadonlySet<string> = new Set();

/** Programs whose operands are subcommands, names, hosts or URLs, never files they read. */
const OPERANDS_NOT_FILES = new Set([
  "docker",
  "podman",
  "nerdctl",
  "kubectl",
  "helm",
  "npm",
  "pnpm",
  "yarn",
  "bun",
  "npx",
  "cargo",
  "go",
  "gh",
  "systemctl",
  "service",
  "journalctl",
  "apt",
  "apt-get",
  "apt-cache",
  "dpkg",
  "dpkg-query",
  "snap",
  "flatpak",
  "pip",
  "pip3",
  "uv",
  "poetry",
  "ps",
  "pgrep",
  "pidof",
  "kill",
  "pkill",
  "ping",
  "dig",
  "host",
  "nslookup",
  "ss",
  "netstat",
  "ip",
  "curl",
  "wget",
  "http",
  "https",
  "xh",
  "ssh",
  "id",
  "getent",
  "uname",
  "hostname",
  "date",
  "whoami",
  "which",
  "type",
  "man",
  "info",
  "apropos",
  "whatis",
  "tldr",
  "pydoc3",
  "printenv",
  "sleep",
  "seq",
  "yes",
  "expr",
  "kubectx",
]);

/** Searches whose first operand is a pattern; their options with values, and those whose values are patterns or globs. */
const SEARCHERS = new Set(["grep", "egrep", "fgrep", "zgrep", "rg", "ag", "ack", "ugrep", "pcregrep", "pcre2grep", "sift", "git-grep"]);
const SEARCH_VALUES = new Set([
  "-e",
  "--regexp",
  "-f",
  "--file",
  "-g",
  "--glob",
  "--iglob",
  "-t",
  "--type",
  "-T",
  "--type-not",
  "-A",
  "-B",
  "-C",
  "-m",
  "--max-count",
  "-d",
  "-D",
  "--include",
  "--exclude",
  "--exclude-dir",
  "--ignore-dir",
  "-G",
  "--file-search-regex",
  "--replace",
]);
/** The option values that are search data, not files: every value option but the pattern file's. */
const SEARCH_DATA = new Set([...SEARCH_VALUES].filter((o) => o !== "-f" && o !== "--file"));

/** The targets this command writes, given what kind of verb its rule says it is. */
function targets(name: string, args: readonly Word[], verbClass: VerbClass | null): Target[] {
  const known = targetsOf(name, args);
  // A read verb of a working-directory writer (`git log`) writes nothing in
  // place — but an output option it was given (`--output=/etc/passwd`) does.
  if (CWD_WRITERS.has(name) && (verbClass === "read" || verbClass === null)) return (known ?? []).filter((t) => !t.implicit);
  if (known !== null) return known;
  return verbClass === "workspace-write" ? [cwdTarget()] : [];
}

/** Options that name a file the program writes, whatever its verb (`sort -o F`, `strace -o F`, `--output=F`). */
const OUTPUT_OPTIONS = new Set([
  "-o",
  "--output",
  "--output-file",
  "--out",
  "--outfile",
  "--log-file",
  "--logfile",
  "--cursor-file",
  "--dump-bin",
  "--result-file",
  "--save",
]);
const OUTPUT_F = new Set(["iptables-save", "ip6tables-save", "iptables-legacy-save", "ip6tables-legacy-save", "nft"]);

/** Write targets named by output options, when the value looks like a path (`ps -o pid`, `mount -o ro` name none). */
function outputOptionTargets(name: string, args: readonly Word[]): Target[] {
  const out: Target[] = [];
  const pathLike = (w: Word | undefined): w is Word => w !== undefined && /^[~./]|\//.test(w.text) && !/^[A-Za-z][\w.-]*=/.test(w.text);
  for (let i = 0; i < args.length; i++) {
    const t = (args[i] as Word).text;
    const eq = t.indexOf("=");
    if (t.startsWith("--") && eq > 0 && OUTPUT_OPTIONS.has(t.slice(0, eq))) {
      const value = { ...(args[i] as Word), text: t.slice(eq + 1) };
      if (pathLike(value)) out.push({ word: value, mode: "write" });
    } else if (OUTPUT_OPTIONS.has(t) || (t === "-f" && OUTPUT_F.has(name))) {
      if (pathLike(args[i + 1])) out.push({ word: args[i + 1] as Word, mode: "write" });
    } else if (/^-o[/~.]/.test(t)) {
      out.push({ word: { ...(args[i] as Word), text: t.slice(2) }, mode: "write" });
    }
  }
  return out;
}

/** The lowest tier this command's effects allow (null: no effect found). */
export function effectFloor(
  name: string,
  args: readonly Word[],
  redirects: readonly Redirect[],
  ctx: Context,
  verbClass: VerbClass | null,
): Effect | null {
  let worst: Effect | null = null;
  for (const r of redirects) {
    if (WRITE_OPS.has(r.op)) worst = max(worst, judgeTarget({ word: r.target, mode: "write" }, ctx));
    if (!READ_OPS.has(r.op)) continue;
    if (r.op !== "<>" && NET_SENDERS.has(name)) worst = max(worst, inputSentTo(name, args, r.target, ctx));
    // `< "$f"`: the literal words the command pins f to, or a file not known until run time (`< <(cmd)` is a pipe).
    const places = candidates(r.target).map((w) => resolvePlace(w, ctx));
    if (places.some((p) => secretPlace(p))) worst = max(worst, { tier: 2, reason: `reads a secret: ${r.target.text}` });
    else if (places.some((p) => p.path === null && !/^[<>]\(/.test(p.raw)))
      worst = max(worst, { tier: 2, reason: `reads ${r.target.text}, a file not known until run time (it may be a secret)` });
    else if (ctx.source === "claude" && !ctx.remote && places.some(hiddenRead)) worst = max(worst, cannotLook(r.target.text));
  }
  for (const t of [...targets(name, args, verbClass), ...outputOptionTargets(name, args)]) worst = max(worst, judgeTarget(t, ctx));
  if (name === "ln" && ctx.source === "claude") worst = max(worst, linkOut(args, ctx));
  if ((name === "mv" || name === "cp" || name === "rsync" || name === "git") && ctx.source === "claude")
    worst = max(worst, linkRenamed(name, args, ctx));
  if (name === "git" && ctx.source === "claude" && !ctx.remote) worst = max(worst, gitStoresSecret(args, ctx));
  if (name === "git" && ctx.source === "claude" && !ctx.remote) worst = max(max(worst, gitElsewhere(args, ctx)), checkoutOfPath(args, ctx));
  return max(worst, secretReads(name, args, ctx));
}

/**
 * `true && ssh HOST cat < F`, `{ ssh HOST cat; } < F`: the grammar hangs the
 * input redirection on the list or group; bash gives it to the list's last
 * command, or to every command in the group. The network senders that read
 * it (ssh, openssl s_client …), each with the redirections it reads.
 */
export function listInputs(commands: readonly SimpleCommand[]): Map<SimpleCommand, Redirect[]> | null {
  let out: Map<SimpleCommand, Redirect[]> | null = null;
  for (let i = 0; i < commands.length; i++) {
    const bare = commands[i] as SimpleCommand;
    if (bare.words.length > 0 || bare.fn) continue;
    const inputs = bare.redirects.filter((r) => READ_OPS.has(r.op) && r.op !== "<>");
    if (inputs.length === 0) continue;
    // A group, subshell or loop feeds every command in it; a list (the grammar's reading of `a && b < F`) its last.
    const compound = /^\s*(?:[({]|(?:while|until|for|if|case|select)\b)/.test(bare.source);
    for (let k = i - 1; k >= 0 && (compound || k === i - 1); k--) {
      const cmd = commands[k] as SimpleCommand;
      if (!bare.source.includes(cmd.source)) break;
      const name = posix.basename(cmd.words[0]?.text ?? "");
      if (NET_SENDERS.has(name) || exModeEditor(cmd.words) || readsStdinCode(name)) (out ??= new Map()).set(cmd, inputs);
    }
  }
  return out;
}

/** vi-family editors in Ex mode (`ex`, `vim -e`, `-es`, `-E`): they read editor commands from standard input. */
export function exModeEditor(words: readonly Word[]): boolean {
  const name = posix.basename(words[0]?.text ?? "");
  if (!["vim", "vi", "nvim", "ex", "view", "vimdiff", "gvim", "nex", "vim.basic", "vim.tiny"].includes(name)) return false;
  return name === "ex" || name === "nex" || words.slice(1).some((w) => /^-[a-zA-Z]*[eE][a-zA-Z]*$/.test(w.text));
}

/** The effect of a list's input redirections on one of its network senders (listInputs). */
export function listInputEffect(cmd: SimpleCommand, inputs: readonly Redirect[], ctx: Context): Effect | null {
  const name = posix.basename(cmd.words[0]?.text ?? "");
  // `true && vim -es < FILE`: the input is editor commands (judge.ts editorCommandsInput judges the command's own).
  if (exModeEditor(cmd.words))
    return {
      tier: 2,
      reason: `${name} in Ex mode runs the editor commands in ${inputs[0]?.target.text ?? "its input"} (:!cmd runs shell code)`,
    };
  let worst: Effect | null = null;
  for (const r of inputs) worst = max(worst, inputSentTo(name, cmd.words.slice(1), r.target, ctx));
  return worst;
}

/** Network clients that send what their input holds (tools/network.ts says when). */
const NET_SENDERS = new Set(["ssh", "openssl", "logger", "nslookup", "wget", "http", "https", "xh", "xhs"]);

/** `ssh HOST cmd < F`, `openssl s_client … < F`: F's content goes to another system, as with `nc HOST < F` (3). */
function inputSentTo(name: string, args: readonly Word[], target: Word, ctx: Context): Effect | null {
  if (target.text === "-" || (!target.dynamic && /^\d+$/.test(target.text))) return null;
  const p = resolvePlace(target, ctx);
  if (p.path !== null && sink(p.path)) return null;
  const why = sendsRedirectedInput(name, args);
  return why === null ? null : { tier: 3, reason: `${why}: sends ${target.text} to another system, as nc HOST < ${target.text} does` };
}

/**
 * git in a repository outside the workspace (`git -C /tmp/e status`,
 * `--git-dir=`, `--work-tree=`, `cd /tmp/e && git status`, `env -C`): git
 * reads that repository's config, and core.fsmonitor, core.pager,
 * diff.external, a filter or an alias there run commands — a read verb
 * too, from whoever could write that config. From the hook that is not
 * tier 0–1 unless the place is the workspace's (its config is judged where
 * it is written: a persistence file) or in a tree only root writes (/etc,
 * /usr …), which the hook writes at tier 3 at least. A directory not known
 * until run time may be anywhere.
 */
/** Trees only root writes on a stock system (not /opt, /srv, /var/lib, /dev: /dev/shm is anyone's). */
const ROOT_ONLY_TREES = /^\/(?:etc|usr|boot|lib|lib32|lib64|bin|sbin)(?:\/|$)/;

/**
 * `git checkout NAME` with no `--`: git takes NAME as a branch when one is
 * named so, else as a path, whose uncommitted changes it overwrites. A NAME
 * that is a file or directory here and no branch, tag or remote branch of
 * the repository is that path.
 */
function checkoutOfPath(args: readonly Word[], ctx: Context): Effect | null {
  const g = gitGlobals(args);
  if (args[g.sub]?.text !== "checkout" || g.gitDir || g.workTree) return null;
  const operands: Word[] = [];
  for (const w of args.slice(g.sub + 1)) {
    // These make NAME a branch to create, a start point or a path after `--`: not this question.
    if (/^(--|-[bBt]|--orphan|--detach|--track|--no-track)(=|$)/.test(w.text) || /^-[a-zA-Z]*[bB]/.test(w.text)) return null;
    if (!w.text.startsWith("-")) operands.push(w);
  }
  const [only, ...more] = operands;
  if (!only || more.length > 0 || only.dynamic) return null;
  let dir: string | null = ctx.cwd === "" ? null : ctx.cwd;
  for (const w of g.chdirs) dir = dir === null ? null : resolvePlace(w, { ...ctx, cwd: dir }).path;
  if (dir === null) return null;
  const place = resolvePlace(only, { ...ctx, cwd: dir });
  if (place.path === null || !inWorkspace(place.path, ctx) || lstat(place.path) === null) return null;
  const repo = repoOf(dir);
  if (repo === null || namesRef(repo.gitDir, only.text)) return null;
  return {
    tier: 2,
    reason: `git checkout ${only.text}: no branch is named so, so git takes the path ${only.text} and overwrites its uncommitted changes`,
  };
}

/** A local branch, tag or remote-tracking branch of the repository at `gitDir` named `name` (loose or packed). */
function namesRef(gitDir: string, name: string): boolean {
  if (/(^|\/)\.\.?(\/|$)|[\s~^:?*[\\]/.test(name)) return false;
  // A linked worktree's refs live in the main repository's directory (its commondir).
  const refsDir = commonDir(gitDir);
  const packed = readScript(`${refsDir}/packed-refs`) ?? "";
  const isFile = (path: string) => {
    const st = lstat(path);
    return st !== null && st !== "unknown" && st.isFile();
  };
  if (name === "HEAD" || name === "@" || name === "-") return true;
  for (const ref of [`refs/heads/${name}`, `refs/tags/${name}`])
    if (isFile(`${refsDir}/${ref}`) || packed.includes(` ${ref}\n`)) return true;
  // `git checkout NAME` also makes a branch from a remote's NAME (its DWIM): any remote's.
  if (new RegExp(` refs/remotes/[^/\n]+/${name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\n`).test(packed)) return true;
  for (const remote of listDir(`${refsDir}/refs/remotes`) ?? []) if (isFile(`${refsDir}/refs/remotes/${remote}/${name}`)) return true;
  // A commit id is no path.
  return /^[0-9a-f]{4,64}$/i.test(name);
}

function gitElsewhere(args: readonly Word[], ctx: Context): Effect | null {
  const g = gitGlobals(args);
  let dir: string | null = ctx.cwd === "" ? null : ctx.cwd;
  for (const w of g.chdirs) dir = resolvePlace(w, { ...ctx, cwd: dir ?? "" }).path;
  // No cwd given (the gateway's own self-test, `agent-sudo doctor`) and nothing pointing elsewhere: judged as any
  // command without a cwd is (Claude Code always sends one; `cd X && git …` and `-C X` are judged below).
  const unpointed = ctx.cwd === "" && g.chdirs.length === 0;
  const places: [string | null, string][] = unpointed ? [] : [[dir, g.chdirs.map((w) => w.text).join("/") || "the working directory"]];
  for (const w of [g.gitDir, g.workTree]) if (w) places.push([resolvePlace(w, { ...ctx, cwd: dir ?? "" }).path, w.text]);
  for (const [path, named] of places) {
    if (path === null)
      return {
        tier: 2,
        reason: `git works in ${named}, a directory not known until run time: a repository's config there may run commands`,
      };
    // A link in the workspace to a repository elsewhere (a checked-out symlink) is that repository.
    const real = realPath(path);
    const out = [path, ...(real !== null && real !== path ? [real] : [])].find((x) => !inWorkspace(x, ctx) && !ROOT_ONLY_TREES.test(x));
    if (out !== undefined)
      return {
        tier: 2,
        reason: `git works in ${out}, outside the workspace: that repository's config (core.fsmonitor, core.pager, diff.external …) may run commands`,
      };
    const inner = innerRepository(real ?? path, args[g.sub]?.text ?? "", ctx);
    if (inner !== null) return { tier: 2, reason: `git works in ${inner}: ${NESTED}` };
  }
  return null;
}

const NESTED =
  "a repository in the workspace other than its own, whose config and attributes came with it (core.fsmonitor, diff textconv … may run commands)";

/**
 * A repository inside the workspace that is not the workspace's own (copied
 * in, assembled file by file), or a directory in it not there yet — which
 * the same line makes, perhaps by copying a repository (`cp -r /tmp/r d &&
 * git -C d show`); `git init`/`clone` make their own config.
 */
function innerRepository(dir: string, sub: string, ctx: Context): string | null {
  const root = ctx.workspace.find((w) => dir === w || dir.startsWith(`${w}/`));
  if (root === undefined || dir === root) return null;
  if (clonedByCommand(dir, root)) return null;
  if (lstat(dir) === null) return sub === "init" || sub === "clone" ? null : dir;
  return nestedRepository(dir, root);
}

/** A place in the workspace's own home, not the home itself nor a dot-entry of it (`ln -s ../shared shared`). */
function besideInHome(real: string, ctx: Context): boolean {
  const home = ctx.home;
  if (!home || home === "/root" || real === home || !real.startsWith(`${home}/`)) return false;
  return !real.slice(home.length + 1).startsWith(".");
}

const LN_VALUES = new Set(["-S", "--suffix", "-t", "--target-directory"]);

/**
 * A link from the hook's workspace to a place outside it (`ln -s /root r`,
 * a hard link to /etc/passwd): every later write through it — an
 * extraction, a copy, a tool writing under r/ — lands there, and the link
 * alone passes as a write in the workspace. Scratch space is not raised.
 */
function linkOut(args: readonly Word[], ctx: Context): Effect | null {
  const a = splitArgs(args, LN_VALUES);
  const into = a.values.get("-t") ?? a.values.get("--target-directory");
  const sources = into ? a.positional : a.positional.length > 1 ? a.positional.slice(0, -1) : a.positional;
  const dest = into ?? (a.positional.length > 1 ? a.positional.at(-1) : undefined);
  const symbolic = a.flags.some((f) => f === "--symbolic" || (!f.startsWith("--") && f.includes("s")));
  const base = dest && !dest.dynamic && symbolic ? posix.dirname(dest.text) : ".";
  for (const src of sources) {
    if (src.dynamic) return { tier: 2, reason: `links to ${src.text}, a place not known until run time` };
    const text = symbolic && !src.text.startsWith("/") && !src.text.startsWith("~") ? posix.join(base, src.text) : src.text;
    const p = resolvePlace(literalWord(text), ctx);
    if (p.path === null) return { tier: 2, reason: `links to ${src.text}, a place not known until run time` };
    const real = realPath(p.path) ?? p.path;
    if (!inWorkspace(real, ctx) && !scratch(real) && real !== "/dev/null" && !besideInHome(real, ctx))
      return { tier: 2, reason: `links the workspace to ${real}: what later writes through the link lands there` };
  }
  return null;
}

/**
 * A link of the workspace to a place outside it, given a new name (review 24): `mv cron c2`, `git mv cron c2`,
 * `cp -P`/`-d`/`-a`/`-R link new`, `rsync -l`/`-a link new` keep the link a link, so `… && echo x > c2/job`
 * writes /etc/cron.d/job while its text names only the workspace (the new name is not there when judged).
 * Judged as linkOut judges a link made: at most 2.
 */
function linkRenamed(name: string, args: readonly Word[], ctx: Context): Effect | null {
  let words = args;
  if (name === "git") {
    const { sub } = gitGlobals(args);
    if (args[sub]?.text !== "mv") return null;
    words = args.slice(sub + 1);
  }
  const flags = words.filter((w) => /^-/.test(w.text) && !w.dynamic).map((w) => w.text);
  const short = flags.filter((f) => !f.startsWith("--")).join("");
  if (name === "cp") {
    // cp follows a link given as an operand unless it copies links as links: -P, -d, -a, --no-dereference, or -R without -L/-H.
    const keeps =
      /[Pda]/.test(short) ||
      flags.some((f) => f === "--no-dereference" || f === "--archive" || f.startsWith("--preserve=links")) ||
      ((/[rR]/.test(short) || flags.includes("--recursive")) && !/[LH]/.test(short) && !flags.includes("--dereference"));
    if (!keeps) return null;
  }
  if (name === "rsync" && !(/[la]/.test(short) || flags.includes("--links") || flags.includes("--archive"))) return null;
  if (name === "rsync" && (/[L]/.test(short) || flags.includes("--copy-links"))) return null;
  const operands = words.filter((w) => !/^-/.test(w.text) || w.dynamic);
  for (const src of operands.slice(0, -1)) {
    if (src.dynamic || src.glob || /^[\w.@-]+:/.test(src.text)) continue;
    const p = resolvePlace(src, ctx);
    if (p.path === null || src.text.endsWith("/")) continue;
    const st = lstat(p.path);
    if (st === null || st === "unknown" || !st.isSymbolicLink()) continue;
    const real = realPath(p.path) ?? danglingPath(p.path);
    if (real === null) continue;
    if (!inWorkspace(real, ctx) && !scratch(real) && real !== "/dev/null" && !besideInHome(real, ctx))
      return { tier: 2, reason: `gives ${src.text}, a link to ${real}, a new name: what later writes through it lands there` };
  }
  return null;
}

/** git subcommands that store the content of the paths they are given in the repository's objects. */
const GIT_STORES = new Set(["add", "commit", "stash", "hash-object", "update-index", "notes"]);

/**
 * `git add -f .env`, `git commit key.pem`, `git stash push .env`, `git hash-object -w id_rsa` (review 24): the
 * secret's content goes into the repository's objects, which a push — tier 1 for a feature branch — sends to the
 * remote. Judged as reading the secret: 2. (`git` is a metadata program for reads: its operands are names.)
 */
function gitStoresSecret(args: readonly Word[], ctx: Context): Effect | null {
  const { sub } = gitGlobals(args);
  const name = args[sub]?.text ?? "";
  if (!GIT_STORES.has(name)) return null;
  if (name === "add") {
    const staged = gitAddStagesSecret(args.slice(sub + 1), ctx);
    if (staged !== null)
      return { tier: 2, reason: `git add stores an untracked secret in the repository's objects (a push sends it on): ${staged}` };
  }
  for (const w of args.slice(sub + 1)) {
    if (w.text.startsWith("-") && !w.dynamic) {
      // `-F FILE` / `--file=FILE` of commit, notes and tag are read into the message.
      const file = /^--file=(.+)$/s.exec(w.text)?.[1];
      if (file !== undefined && secretPlace(resolvePlace({ ...w, text: file }, ctx)))
        return { tier: 2, reason: `git ${name} records ${file}, a secret, in the repository's objects` };
      continue;
    }
    const p = resolvePlace(w, ctx);
    if (!w.dynamic && secretPlace(p, false))
      return { tier: 2, reason: `git ${name} stores ${w.text}, a secret, in the repository's objects (a push sends it on)` };
  }
  return null;
}

export { judgeTarget };
