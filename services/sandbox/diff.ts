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
// here, every name for manifest.ts) are read with GNU tar (Essential in
// Debian): `readXattrs` below. manifest.ts builds the full before/after
// diff the executor commits from the same layers; this list only names paths.
//
// SECURITY: the upper layer holds names the command chose. tar reads its
// file list with --verbatim-files-from and --no-unquote (a name such as
// `--checkpoint-action=exec=…` is a name, never an option) and never
// follows a symlink (no -h). xattr names are taken only from PAX records,
// which are length-prefixed; tar's verbose listing (where a name may hold
// a newline) is used for one bit per entry, checked by count.
import { isUtf8 } from "node:buffer";
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

export function tryLstat(path: string): Stats | undefined {
  try {
    return lstatSync(path);
  } catch {
    return undefined;
  }
}

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

/** One member of a tar stream: its name and type flag, with the PAX records before it (keys as byte strings in latin1). */
interface TarMember {
  name: string;
  type: string;
  records: Map<string, Buffer>;
}

/** PAX records ("LEN KEY=VALUE\n", LEN in bytes), parsed as bytes: keys and values may hold any byte, newlines included. */
function paxRecords(data: Buffer): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  for (let p = 0; p < data.length; ) {
    const sp = data.indexOf(0x20, p);
    const len = sp > p ? Number(data.subarray(p, sp).toString("latin1")) : Number.NaN;
    if (!Number.isSafeInteger(len) || p + len > data.length || len <= sp + 1 - p || data[p + len - 1] !== 0x0a) throw new Error("tar wrote a malformed PAX record");
    const record = data.subarray(sp + 1, p + len - 1);
    const eq = record.indexOf(0x3d);
    if (eq < 0) throw new Error("tar wrote a PAX record without '='");
    out.set(record.subarray(0, eq).toString("latin1"), Buffer.from(record.subarray(eq + 1)));
    p += len;
  }
  return out;
}

/** The members of a ustar/PAX stream, in order. */
function tarMembers(tar: Buffer): TarMember[] {
  const out: TarMember[] = [];
  let pending = new Map<string, Buffer>();
  for (let off = 0; off + 512 <= tar.length; ) {
    const header = tar.subarray(off, off + 512);
    if (header.every((b) => b === 0)) break;
    const field = (start: number, len: number) => {
      const f = header.subarray(start, start + len);
      const nul = f.indexOf(0);
      return (nul < 0 ? f : f.subarray(0, nul)).toString("latin1");
    };
    let size = parseInt(field(124, 12).trim() || "0", 8);
    if (!Number.isSafeInteger(size) || size < 0) throw new Error("tar wrote a malformed header");
    const type = String.fromCharCode(header[156] ?? 0);
    if (type === "x") {
      pending = paxRecords(tar.subarray(off + 512, off + 512 + size));
    } else if (type !== "g") {
      const prefix = field(345, 155);
      const name = pending.get("path")?.toString("latin1") ?? (prefix ? `${prefix}/${field(0, 100)}` : field(0, 100));
      const paxSize = pending.get("size");
      if (paxSize) size = Number(paxSize.toString("latin1"));
      out.push({ name: Buffer.from(name, "latin1").toString("utf8"), type, records: pending });
      pending = new Map();
    }
    off += 512 + Math.ceil(size / 512) * 512;
  }
  return out;
}

function memberPath(name: string): string {
  return name.replace(/^\.\//, "").replace(/\/$/, "");
}

/** Parses a tar stream's PAX headers: which entries carry trusted.overlay.opaque=y. */
export function opaqueFromTar(tar: Buffer): Set<string> {
  const out = new Set<string>();
  for (const m of tarMembers(tar)) {
    if (m.records.get("SCHILY.xattr.trusted.overlay.opaque")?.toString("latin1") === "y") out.add(memberPath(m.name));
  }
  return out;
}

/** Extended attributes of one entry: name (UTF-8) -> value. */
export type Xattrs = Map<string, Buffer>;

const TAR_LIST = ["--no-recursion", "--verbatim-files-from", "--no-unquote", "--null", "-T", "-"];
const TAR_XATTRS = ["--xattrs", "--xattrs-include=*", "--format=pax", "--numeric-owner", "--hard-dereference"];
/** Content bytes per tar run that must carry file data (regular files with xattrs). */
const CHUNK_BYTES = 64 * 1024 * 1024;
/** A regular file with xattrs larger than this is not read (tar would hold all of it in memory): a problem. */
const MAX_FILE_WITH_XATTRS = 1024 * 1024 * 1024;

function tar(dir: string, args: string[], paths: readonly string[], maxBuffer: number): { out?: Buffer; error?: string } {
  const r = spawnSync("tar", ["-c", ...args, "-C", dir, ...TAR_XATTRS, ...TAR_LIST], { input: paths.map((p) => `${p}\0`).join(""), maxBuffer });
  if (r.error) return { error: r.error.message };
  if (r.status !== 0) return { error: r.stderr.toString("utf8").trim() || `exit ${r.status}` };
  return { out: r.stdout };
}

/** Which of `paths` carry any xattr, without reading file content (tar skips data when its archive is /dev/null). */
function flagged(dir: string, paths: readonly string[]): { flags?: boolean[]; error?: string } {
  const r = tar(dir, ["-f", "/dev/null", "-vvv", "--quoting-style=escape"], paths, 1024 * 1024 + paths.length * 64 * 1024);
  if (!r.out) return { error: r.error ?? "no output" };
  // One header line per member ("-rw-r--r--* 0/0 …", the 11th character
  // flags xattrs/ACLs), then "  x: LEN NAME" per xattr. NAME is printed raw
  // and may contain a newline: a line it adds can only add to the count.
  const headers = r.out.toString("latin1").split("\n").filter((l) => l !== "" && !l.startsWith("  x: "));
  if (headers.length !== paths.length) return { error: `tar listed ${headers.length} entries for ${paths.length} paths (an xattr name with a newline, or an entry that changed)` };
  return { flags: headers.map((h) => h.length > 10 && h[10] !== " ") };
}

function decodeName(keyword: string): Buffer {
  // GNU tar escapes "%" and "=" in xattr keywords.
  return Buffer.from(keyword.replace(/%(25|3D)/g, (_m, c: string) => (c === "25" ? "%" : "=")), "latin1");
}

/**
 * Extended attributes of `entries` (paths relative to `dir`, with their
 * lstat). Never follows a symlink; reads file content only for regular files
 * that carry xattrs (tar has no header-only mode), 64 MiB per tar run;
 * such a file over 1 GiB is a problem instead.
 * Every entry gets a map (empty: no xattrs) except sockets, which tar
 * skips: their names are not read.
 * A name that is not UTF-8 or holds a newline, or any tar failure, is a
 * problem; `where(rel)` names the entry in the message.
 */
export function readXattrs(dir: string, entries: readonly { rel: string; st: Stats }[], where: (rel: string) => string): { xattrs: Map<string, Xattrs>; problems: string[] } {
  const xattrs = new Map<string, Xattrs>();
  const problems: string[] = [];
  const list = entries.filter((e) => !e.st.isSocket());
  if (list.length === 0) return { xattrs, problems };
  const f = flagged(dir, list.map((e) => e.rel));
  if (!f.flags) return { xattrs, problems: [`could not list the xattrs under ${dir}: ${f.error}`] };
  for (const e of list) xattrs.set(e.rel, new Map());
  const todo = list.filter((e, i) => {
    if (!f.flags?.[i]) return false;
    if (sizeOf(e.st) <= MAX_FILE_WITH_XATTRS) return true;
    problems.push(`${where(e.rel)}: xattrs not read (a ${e.st.size}-byte file; tar would read all of it)`);
    return false;
  });
  for (let i = 0; i < todo.length; ) {
    const chunk: typeof todo = [];
    let bytes = 0;
    for (; i < todo.length && (chunk.length === 0 || bytes + sizeOf(todo[i]?.st) <= CHUNK_BYTES); i++) {
      const e = todo[i];
      if (!e) break;
      chunk.push(e);
      bytes += sizeOf(e.st);
    }
    const r = tar(dir, ["-f", "-"], chunk.map((e) => e.rel), bytes + (chunk.length + 2) * 1024 * 1024);
    let members: TarMember[];
    try {
      if (!r.out) throw new Error(r.error ?? "no output");
      members = tarMembers(r.out);
    } catch (err) {
      problems.push(`could not read the xattrs under ${dir}: ${(err as Error).message}`);
      return { xattrs, problems };
    }
    if (members.length !== chunk.length) {
      problems.push(`could not read the xattrs under ${dir}: ${members.length} members for ${chunk.length} paths`);
      return { xattrs, problems };
    }
    chunk.forEach((e, j) => {
      const m = members[j];
      if (!m || memberPath(m.name) !== e.rel) {
        problems.push(`could not read the xattrs of ${where(e.rel)}: tar answered for another entry`);
        return;
      }
      const map: Xattrs = new Map();
      for (const [key, value] of m.records) {
        if (!key.startsWith("SCHILY.xattr.")) continue;
        const name = decodeName(key.slice("SCHILY.xattr.".length));
        if (!isUtf8(name) || name.includes(0x0a)) problems.push(`${where(e.rel)}: an xattr name that is not UTF-8 text on one line (${printable(name)})`);
        else map.set(name.toString("utf8"), value);
      }
      xattrs.set(e.rel, map);
    });
  }
  return { xattrs, problems };
}

/** Bytes for a message: printable ASCII as is, any other byte (and the backslash) as \xHH. */
export function printable(bytes: Buffer): string {
  return [...bytes].map((c) => (c >= 0x20 && c < 0x7f && c !== 0x5c ? String.fromCharCode(c) : `\\x${c.toString(16).padStart(2, "0")}`)).join("");
}

function sizeOf(st: Stats | undefined): number {
  return st?.isFile() ? st.size : 0;
}

function opaqueDirs(upper: string, candidates: string[]): Set<string> {
  if (candidates.length === 0) return new Set();
  // Directories carry no data: one PAX stream for all of them.
  const r = tar(upper, ["-f", "-"], candidates, 64 * 1024 * 1024);
  if (!r.out) throw new Error(`tar could not read the upper layer's xattrs: ${r.error}`);
  return opaqueFromTar(r.out);
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
