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
// listed. Node has no xattr API, so opaque flags are read with GNU tar
// (Essential in Debian) as PAX `SCHILY.xattr.*` records.
import { spawnSync } from "node:child_process";
import { closeSync, lstatSync, openSync, readdirSync, readlinkSync, readSync, type Stats } from "node:fs";
import { join } from "node:path";

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

function tryLstat(path: string): Stats | undefined {
  try {
    return lstatSync(path);
  } catch {
    return undefined;
  }
}

function isWhiteout(st: Stats): boolean {
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

/** Parses a tar stream's PAX headers: which entries carry trusted.overlay.opaque=y. */
export function opaqueFromTar(tar: Buffer): Set<string> {
  const out = new Set<string>();
  let pending: Record<string, string> = {};
  for (let off = 0; off + 512 <= tar.length; ) {
    const header = tar.subarray(off, off + 512);
    if (header.every((b) => b === 0)) break;
    const field = (start: number, len: number) => header.subarray(start, start + len).toString("utf8").replace(/\0.*$/s, "");
    const size = parseInt(field(124, 12).trim() || "0", 8);
    const type = String.fromCharCode(header[156] ?? 0);
    const data = tar.subarray(off + 512, off + 512 + size);
    if (type === "x") {
      pending = {};
      let text = data.toString("utf8");
      while (text.length > 0) {
        const sp = text.indexOf(" ");
        const len = Number(text.slice(0, sp));
        if (!(sp > 0 && len > 0)) break;
        const record = text.slice(sp + 1, len - 1);
        const eq = record.indexOf("=");
        pending[record.slice(0, eq)] = record.slice(eq + 1);
        text = text.slice(len);
      }
    } else {
      const prefix = field(345, 155);
      const name = pending.path ?? (prefix ? `${prefix}/${field(0, 100)}` : field(0, 100));
      if (pending["SCHILY.xattr.trusted.overlay.opaque"] === "y") out.add(name.replace(/^\.\//, "").replace(/\/$/, ""));
      pending = {};
    }
    off += 512 + Math.ceil(size / 512) * 512;
  }
  return out;
}

function opaqueDirs(upper: string, candidates: string[]): Set<string> {
  if (candidates.length === 0) return new Set();
  const r = spawnSync("tar", ["-c", "-f", "-", "-C", upper, "--xattrs", "--xattrs-include=trusted.overlay.*", "--no-recursion", "--null", "-T", "-"], {
    input: `${candidates.join("\0")}\0`,
    maxBuffer: 64 * 1024 * 1024,
  });
  if (r.status !== 0) throw new Error(`tar could not read the upper layer's xattrs: ${r.stderr.toString().trim()}`);
  return opaqueFromTar(r.stdout);
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
