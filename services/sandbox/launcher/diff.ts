// The diff: after a trial, each overlay's upper layer *is* what the command
// changed. Walk it against the lower layer (the host) and name every path:
//   created   — in upper, not in lower (a created directory is listed once:
//               removing it removes what is inside),
//   modified  — content or type differs,
//   deleted   — a whiteout (char device 0/0), or a lower entry hidden by an
//               opaque directory (xattr trusted.overlay.opaque=y); a deleted
//               directory is listed with everything below it, so an undo
//               plan built from the list restores the whole tree,
//   metadata  — same content, different mode, owner or mtime.
// A directory copied up only because something inside it changed is not
// listed. Node has no xattr API, so extended attributes (the opaque flag
// here, every name for manifest.ts) are read by xattrs.ts (one perl-base
// process calling llistxattr/lgetxattr): `readXattrs` below. manifest.ts
// builds the full before/after diff the executor commits from the same
// layers; this list only names paths.
//
// SECURITY: the upper layer holds names the command chose. The reader gets
// them NUL-separated on stdin (never as arguments) and answers with
// length-prefixed records; the `l` calls never follow the entry's symlink.
import { isUtf8 } from "node:buffer";
import { closeSync, lstatSync, openSync, readdirSync, readlinkSync, readSync, type Stats } from "node:fs";
import { join } from "node:path";
import { tryLstat } from "../../shared/fs-probe.js";
import { readXattrsOf, type XattrEntry, type XattrReader } from "./xattrs.js";

export type ChangeKind = "created" | "modified" | "deleted" | "metadata";

export interface Change {
  path: string;
  kind: ChangeKind;
}

export interface UpperLayer {
  /** Where the layer appears in the mirror ("/", "/home"). */
  target: string;
  /** The host directory that was its lower layer. */
  lower: string;
  /** The upper directory the trial wrote. */
  upper: string;
}

export interface DiffResult {
  changes: Change[];
  /** More than `maxPaths` changes: the list is incomplete. */
  truncated: boolean;
}

class Full extends Error {}

/** overlayfs marks a deleted lower entry with a character device 0/0 in the upper layer. */
export function isWhiteout(st: Stats): boolean {
  return st.isCharacterDevice() && st.rdev === 0;
}

function sameContent(a: string, b: string, size: number): boolean {
  if (size === 0) return true;
  const fa = openSync(a, "r");
  const fb = openSync(b, "r");
  try {
    const ba = Buffer.alloc(64 * 1024);
    const bb = Buffer.alloc(64 * 1024);
    for (;;) {
      const na = readSync(fa, ba, 0, ba.length, null);
      const nb = readSync(fb, bb, 0, bb.length, null);
      if (na !== nb || !ba.subarray(0, na).equals(bb.subarray(0, nb))) return false;
      if (na === 0) return true;
    }
  } finally {
    closeSync(fa);
    closeSync(fb);
  }
}

function sameOwnerMode(a: Stats, b: Stats): boolean {
  return a.mode === b.mode && a.uid === b.uid && a.gid === b.gid;
}

/** What changed between an upper entry and its lower counterpart (undefined: nothing). */
function compare(up: string, upSt: Stats, low: string, lowSt: Stats | undefined): ChangeKind | undefined {
  if (!lowSt) return "created";
  if ((upSt.mode & 0o170000) !== (lowSt.mode & 0o170000)) return "modified";
  if (upSt.isFile()) {
    if (upSt.size !== lowSt.size || !sameContent(up, low, upSt.size)) return "modified";
    return sameOwnerMode(upSt, lowSt) && upSt.mtimeMs === lowSt.mtimeMs ? undefined : "metadata";
  }
  if (upSt.isSymbolicLink()) {
    if (readlinkSync(up) !== readlinkSync(low)) return "modified";
    return sameOwnerMode(upSt, lowSt) ? undefined : "metadata";
  }
  if (upSt.isDirectory()) return sameOwnerMode(upSt, lowSt) ? undefined : "metadata";
  return upSt.rdev === lowSt.rdev && sameOwnerMode(upSt, lowSt) ? undefined : "modified";
}

/** Extended attributes of one entry: name (UTF-8) -> value. */
export type Xattrs = Map<string, Buffer>;

/**
 * Extended attributes of `entries` (paths relative to `dir`, with their
 * lstat), by xattrs.ts in one process. Never follows the entry's own
 * symlink; reads no file content. Every entry gets a map (empty: no
 * xattrs) except sockets, whose names are not read.
 * A name that is not UTF-8 or holds a newline, or any failure, is a
 * problem; `where(rel)` names the entry in the message.
 */
export function readXattrs(
  dir: string,
  entries: readonly { rel: string; st: Stats }[],
  where: (rel: string) => string,
): { xattrs: Map<string, Xattrs>; problems: string[] } {
  return readXattrsMany([{ dir, entries, where }])[0] as { xattrs: Map<string, Xattrs>; problems: string[] };
}

type XattrGroup = { dir: string; entries: readonly { rel: string; st: Stats }[]; where: (rel: string) => string };
type XattrAnswer = { xattrs: Map<string, Xattrs>; problems: string[] };

/** readXattrs for several directories in one reader process (one answer per group). */
export function readXattrsMany(groups: readonly XattrGroup[]): XattrAnswer[] {
  const { paths, finish } = xattrPlan(groups);
  if (paths.length === 0) return finish([]);
  try {
    return finish(readXattrsOf(paths));
  } catch (err) {
    return groups.map((g) => ({ xattrs: new Map(), problems: [`could not read the xattrs under ${g.dir}: ${(err as Error).message}`] }));
  }
}

/** The same with a given reader (the warm envelope server's: no process per call). */
export async function readXattrsWith(reader: XattrReader, groups: readonly XattrGroup[]): Promise<XattrAnswer[]> {
  const { paths, finish } = xattrPlan(groups);
  if (paths.length === 0) return finish([]);
  try {
    return finish(await reader(paths));
  } catch (err) {
    return groups.map((g) => ({ xattrs: new Map(), problems: [`could not read the xattrs under ${g.dir}: ${(err as Error).message}`] }));
  }
}

/** The paths to read (no sockets), and how the answer becomes one map per group. */
function xattrPlan(groups: readonly XattrGroup[]): { paths: string[]; finish: (read: XattrEntry[]) => XattrAnswer[] } {
  const lists = groups.map((g) => g.entries.filter((e) => !e.st.isSocket()));
  const paths = lists.flatMap((list, gi) => list.map((e) => join((groups[gi] as XattrGroup).dir, e.rel)));
  const finish = (read: XattrEntry[]): XattrAnswer[] => {
    const answers = groups.map(() => ({ xattrs: new Map<string, Xattrs>(), problems: [] as string[] }));
    let i = 0;
    lists.forEach((list, gi) => {
      const { where } = groups[gi] as XattrGroup;
      const { xattrs, problems } = answers[gi] as XattrAnswer;
      for (const e of list) {
        const r = read[i++];
        if (!r || r.error) {
          problems.push(`could not read the xattrs of ${where(e.rel)}: ${r?.error ?? "no answer"}`);
          continue;
        }
        const map: Xattrs = new Map();
        for (const { name, value } of r.xattrs) {
          // A newline or another control character (CR, ESC …): past the judges' name patterns and into their reasons.
          if ([...name].some((c) => c < 0x20 || c === 0x7f))
            problems.push(`${where(e.rel)}: an xattr name with a newline or another control character in it (${printable(name)})`);
          else if (!isUtf8(name)) problems.push(`${where(e.rel)}: an xattr name that is not UTF-8 text (${printable(name)})`);
          else map.set(name.toString("utf8"), value);
        }
        xattrs.set(e.rel, map);
      }
    });
    return answers;
  };
  return { paths, finish };
}

/** Bytes for a message: printable ASCII as is, any other byte (and the backslash) as \xHH. */
export function printable(bytes: Buffer): string {
  return [...bytes]
    .map((c) => (c >= 0x20 && c < 0x7f && c !== 0x5c ? String.fromCharCode(c) : `\\x${c.toString(16).padStart(2, "0")}`))
    .join("");
}

function opaqueDirs(upper: string, candidates: string[]): Set<string> {
  if (candidates.length === 0) return new Set();
  const read = readXattrsOf(candidates.map((c) => join(upper, c)));
  const out = new Set<string>();
  candidates.forEach((c, i) => {
    const r = read[i];
    if (!r || r.error) throw new Error(`could not read the upper layer's xattrs: ${r?.error ?? "no answer"}`);
    if (r.xattrs.some((x) => x.name.toString("latin1") === "trusted.overlay.opaque" && x.value.toString("latin1") === "y")) out.add(c);
  });
  return out;
}

export function diffLayers(layers: readonly UpperLayer[], maxPaths: number): DiffResult {
  const changes = new Map<string, ChangeKind>();
  const add = (path: string, kind: ChangeKind) => {
    if (!changes.has(path) && changes.size >= maxPaths) throw new Full();
    changes.set(path, kind);
  };
  /** A deleted lower entry, with everything below it. */
  const deleteTree = (low: string, path: string) => {
    add(path, "deleted");
    const st = tryLstat(low);
    if (st?.isDirectory()) for (const name of readdirSync(low)) deleteTree(join(low, name), join(path, name));
  };
  try {
    for (const layer of layers) {
      const mirror = (rel: string) => (rel ? join(layer.target, rel) : layer.target);
      // First pass: every entry, and the directories that may be opaque.
      const dirs: string[] = [];
      const walk = (rel: string): void => {
        for (const name of readdirSync(join(layer.upper, rel))) {
          const r = rel ? join(rel, name) : name;
          const up = join(layer.upper, r);
          const low = join(layer.lower, r);
          const st = lstatSync(up);
          if (isWhiteout(st)) {
            if (tryLstat(low)) deleteTree(low, mirror(r));
            continue;
          }
          const lowSt = tryLstat(low);
          const kind = compare(up, st, low, lowSt);
          if (kind) add(mirror(r), kind);
          // A created directory is listed once; a replaced one too.
          if (st.isDirectory() && lowSt?.isDirectory()) {
            dirs.push(r);
            walk(r);
          }
        }
      };
      walk("");
      for (const r of opaqueDirs(layer.upper, dirs)) {
        const present = new Set(readdirSync(join(layer.upper, r)));
        for (const name of readdirSync(join(layer.lower, r))) {
          if (!present.has(name)) deleteTree(join(layer.lower, r, name), mirror(join(r, name)));
        }
      }
    }
  } catch (err) {
    if (err instanceof Full) return { changes: toList(changes), truncated: true };
    throw err;
  }
  return { changes: toList(changes), truncated: false };
}

function toList(m: Map<string, ChangeKind>): Change[] {
  return [...m.entries()].map(([path, kind]) => ({ path, kind })).sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}
