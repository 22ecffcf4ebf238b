// The repository a path is in, and what its index holds: read from the
// files on this host (no git process). Only what "git holds it" needs:
// per path the object id, size, mtime, inode and whether the entry is
// complete (not intent-to-add, not conflicted). A split index, an unknown
// version or a damaged file is "nothing known" (callers then refuse the
// fast path). Parsed indexes are kept by the index file's identity (inode,
// size, mtime): a changed index is read again.
import { createHash } from "node:crypto";
import { readFileSync, statSync } from "node:fs";
import { posix } from "node:path";
import { forgetWithCommand, readScript, realPath } from "./host-paths.js";

export interface IndexEntry {
  mtimeSec: number;
  mtimeNsec: number;
  ino: number;
  size: number;
  mode: number;
  oid: string;
  /** Conflicted (stage > 0) or intent-to-add: the index holds no content for it. */
  incomplete: boolean;
}

export interface Repo {
  worktree: string;
  gitDir: string;
  /** sha1 or sha256: how object ids are computed. */
  hash: "sha1" | "sha256";
}

export interface GitIndex {
  entries: Map<string, IndexEntry>;
  /** The index file's mtime in ns: an entry whose file is as new or newer is "racy" (git re-reads it). */
  mtimeNs: bigint;
}

/** The repository whose work tree holds `dir` (a `.git` directory, or a `.git` file naming one). */
/** repoOf's answers for this command (a write's checks and the hook's git-holds-it check ask for the same directories). */
let repos = new Map<string, Repo | null>();
forgetWithCommand(() => {
  if (repos.size !== 0) repos = new Map();
});

export function repoOf(dir: string): Repo | null {
  let found = repos.get(dir);
  if (found === undefined) {
    found = findRepo(dir);
    repos.set(dir, found);
  }
  return found;
}

function findRepo(dir: string): Repo | null {
  for (let d = dir; d.startsWith("/"); d = posix.dirname(d)) {
    const dotgit = posix.join(d, ".git");
    const config = readScript(posix.join(dotgit, "config"));
    const gitDir = config !== null ? dotgit : gitfileTarget(d);
    if (gitDir !== null) {
      const cfg = config ?? readScript(posix.join(gitDir, "config")) ?? readScript(posix.join(gitDir, "commondir")) ?? "";
      return { worktree: realPath(d) ?? d, gitDir, hash: /objectformat\s*=\s*sha256/i.test(cfg) ? "sha256" : "sha1" };
    }
    if (d === "/") break;
  }
  return null;
}

/** The git dir a `.git` file in `dir` names (`gitdir: PATH`: a submodule's, a linked worktree's), or null. */
export function gitfileTarget(dir: string): string | null {
  const m = /^gitdir:\s*(\S+)/.exec(readScript(posix.join(dir, ".git")) ?? "");
  return m ? posix.resolve(dir, m[1] as string) : null;
}

/** The git directory a linked worktree shares with its main repository (its `commondir`), or `gitDir` itself. */
export function commonDir(gitDir: string): string {
  const common = readScript(posix.join(gitDir, "commondir"))?.trim();
  return common ? posix.resolve(gitDir, common) : gitDir;
}

const cache = new Map<string, GitIndex | null>();

/** The parsed index of `repo`, or null when it cannot be read or understood. */
export function readIndex(repo: Repo): GitIndex | null {
  const file = posix.join(repo.gitDir, "index");
  let key: string;
  let mtimeNs: bigint;
  try {
    const st = statSync(file, { bigint: true, throwIfNoEntry: false });
    if (!st) return null;
    key = `${file}\0${st.ino}\0${st.size}\0${st.mtimeNs}`;
    mtimeNs = st.mtimeNs;
  } catch {
    return null;
  }
  if (cache.has(key)) return cache.get(key) ?? null;
  let parsed: GitIndex | null = null;
  try {
    parsed = parse(readFileSync(file), repo.hash === "sha256" ? 32 : 20, mtimeNs);
  } catch {
    parsed = null;
  }
  if (cache.size > 16) cache.clear();
  cache.set(key, parsed);
  return parsed;
}

function parse(buf: Buffer, oidLen: number, mtimeNs: bigint): GitIndex | null {
  if (buf.length < 12 || buf.toString("latin1", 0, 4) !== "DIRC") return null;
  const version = buf.readUInt32BE(4);
  if (version < 2 || version > 4) return null;
  const count = buf.readUInt32BE(8);
  const entries = new Map<string, IndexEntry>();
  let off = 12;
  let prev = "";
  for (let n = 0; n < count; n++) {
    const start = off;
    const mtimeSec = buf.readUInt32BE(off + 8);
    const mtimeNsec = buf.readUInt32BE(off + 12);
    const ino = buf.readUInt32BE(off + 20);
    const mode = buf.readUInt32BE(off + 24);
    const size = buf.readUInt32BE(off + 36);
    const oid = buf.toString("hex", off + 40, off + 40 + oidLen);
    off += 40 + oidLen;
    const flags = buf.readUInt16BE(off);
    off += 2;
    let extended = 0;
    if (flags & 0x4000) {
      extended = buf.readUInt16BE(off);
      off += 2;
    }
    let path: string;
    if (version === 4) {
      let strip = 0;
      let b = 0;
      let first = true;
      do {
        b = buf[off++] as number;
        strip = first ? b & 0x7f : ((strip + 1) << 7) | (b & 0x7f);
        first = false;
      } while (b & 0x80);
      const end = buf.indexOf(0, off);
      path = prev.slice(0, prev.length - strip) + buf.toString("utf8", off, end);
      off = end + 1;
    } else {
      const end = buf.indexOf(0, off);
      path = buf.toString("utf8", off, end);
      off = start + Math.ceil((end + 1 - start) / 8) * 8;
    }
    prev = path;
    const stage = (flags >> 12) & 3;
    const intentToAdd = (extended & 0x2000) !== 0;
    entries.set(path, { mtimeSec, mtimeNsec, ino, size, mode, oid, incomplete: stage !== 0 || intentToAdd });
  }
  // A split index keeps most entries elsewhere: what this file says is not the whole index.
  if (buf.length >= off + 4 && buf.toString("latin1", off, off + 4) === "link") return null;
  return { entries, mtimeNs };
}

/** The object id git would give this content as a blob. */
export function blobId(content: Buffer, hash: Repo["hash"]): string {
  return createHash(hash).update(`blob ${content.length}\0`).update(content).digest("hex");
}
