// The manifest: the full diff of a transactional run (tiers 1-2), built by
// the root launcher from each overlay's upper layer (what the command
// created, changed or deleted) and its lower layer (the host). Every touched
// path becomes one Change with `before` = the host's entry and `after` =
// the mirror's, and the content of every file to commit goes into `blobs`
// (key: lowercase hex sha256). The signer hashes `encoded`, the executor
// checks each `before` and commits each `after`.
//
// What is listed:
//   - created entries, each one (a created directory with everything in it),
//   - changed entries: type, content, symlink target, mode (07777), owner,
//     xattr names; a directory copied up only because something inside it
//     changed, or a file copied up with nothing but new times, is not listed,
//   - deleted entries (whiteout; an opaque directory's hidden lower entries,
//     in it and in every directory below it; a lower directory replaced by a
//     non-directory), each with everything below it,
//   - hard links in the upper layer: one file entry per name; the link
//     itself is not recorded (a new name for a host file not everyone may
//     read is a problem: the judges could not tell whose content it is),
//   - layer roots are never compared (the launcher made each upper root).
// Changes are sorted by path segments (UTF-8 bytes): a directory before its
// contents, "/x/a" < "/x/a/b" < "/x/a-b".
//
// SECURITY: the upper layer is the command's output and the lower layer is
// the live host; neither is trusted. lstat everywhere; files are opened
// O_NOFOLLOW|O_NONBLOCK and checked against their lstat (a swapped-in
// symlink or fifo is never followed nor blocks); lower directories are only
// read below real directories of the same mount (a mount point on the host
// is not what the mirror showed there). Whatever cannot be represented
// exactly is a problem, never guessed: names that are not UTF-8 text on one
// line, xattr value changes (the manifest carries names), overlay metadata
// we cannot interpret (redirect, metacopy, protattr…), names or link
// targets holding a control character or a line separator, entries that changed
// while read, a diff over the caps. Any problem refuses the run; the
// manifest is then incomplete and must not be signed. The host may change
// while it is walked: `before` is what the executor checks again at commit;
// a host entry whose ctime says it changed after the command started is a
// conflict (the copy-up the command worked on predates that change).
import { isUtf8 } from "node:buffer";
import { createHash } from "node:crypto";
import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  openSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  readSync,
  type Stats,
} from "node:fs";
import { dirname, join } from "node:path";
import { type Change, EntryKind, type EntryState, Manifest } from "../../../proto/gen/agent_sudo/v1/manifest_pb.js";
import { tryLstat } from "../../shared/fs-probe.js";
import { isWhiteout, printable, readXattrsWith, type UpperLayer, type Xattrs } from "./diff.js";
import { readXattrsOf, type XattrReader } from "./xattrs.js";

export interface ManifestOptions {
  requestId: string;
  commandDigest: Buffer;
  host: string;
  maxPaths: number;
  maxBlobBytes: number;
  /**
   * When the command started (ms since the epoch). A host entry behind a
   * change that was changed after the command saw it (its ctime at or after
   * the upper entry's birth; without a birth time, this) was changed by
   * someone else while the command ran: what the mirror copied up is not
   * what `before` says, and committing would lose that change (a conflict).
   */
  changedSinceMs?: number;
  /** Reads xattrs (the warm envelope server's reader); default a one-shot perl per layer. */
  readXattrs?: XattrReader;
}

export interface BuiltManifest {
  manifest: Manifest;
  /** Manifest.encode(manifest).finish(): the bytes that are signed. */
  encoded: Uint8Array;
  /** Content of every `after` FILE, by lowercase hex sha256. */
  blobs: Map<string, Buffer>;
  /** Non-empty: the run must be refused. */
  problems: string[];
  /** Host entries changed while the command ran (also in `problems`): the caller may retry. */
  conflicts: string[];
}

/** Stops the build: the reason is already in `problems`. */
class Stop extends Error {}

const MAX_PROBLEMS = 50;
const OVERLAY = "trusted.overlay.";
/** overlayfs metadata that says nothing about the merged view we diff. */
const OVERLAY_INERT = new Set(["origin", "impure", "nlink", "uuid"]);
const OPEN_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

/** An entry touched in one layer: upper and/or lower lstat, relative path. */
interface Item {
  path: string;
  key: Buffer;
  layer: UpperLayer;
  rel: string;
  up?: Stats;
  low?: Stats;
  upX?: Xattrs;
  lowX?: Xattrs;
}

/** Sort key: the path's UTF-8 bytes with "/" as NUL, so a directory sorts right before its contents. */
function sortKey(path: string): Buffer {
  const b = Buffer.from(path, "utf8");
  for (let i = 0; i < b.length; i++) if (b[i] === 0x2f) b[i] = 0;
  return b;
}

/** Control characters, NEL and the line and paragraph separators: past the judges' path patterns (`.` stops there), not past sudo's includedir. */
const NOT_IN_NAMES = /[\u0000-\u001f\u007f\u0085\u2028\u2029]/;

function textOk(b: Buffer): boolean {
  return isUtf8(b) && !NOT_IN_NAMES.test(b.toString("utf8"));
}

/**
 * Hard links that give a host file another name: link(2) in the mirror copies
 * the host file up and links the copy, so the upper layer holds one inode
 * under the host's name (unchanged, not listed) and under the new one (listed
 * as a new file with the host file's content, mode and owner; the executor
 * commits a copy). The judges cannot tell whose content that is; a host file
 * that not everyone may read (/etc/shadow, a key) is refused here.
 */
function linksToHostFiles(b: Builder, items: readonly Item[]): void {
  const byInode = new Map<string, Item[]>();
  for (const i of items) {
    if (!i.up?.isFile() || i.up.nlink < 2) continue;
    const key = `${i.layer.upper}\0${i.up.dev}:${i.up.ino}`;
    byInode.set(key, [...(byInode.get(key) ?? []), i]);
  }
  for (const group of byInode.values()) {
    if (group.length < 2) continue;
    // The host's own name for the inode: a host file of the same type, size and mode (the copy-up keeps them).
    const source = group.find(
      (i) =>
        i.low?.isFile() &&
        i.up &&
        i.low.size === i.up.size &&
        (i.low.mode & 0o7777) === (i.up.mode & 0o7777) &&
        i.low.uid === i.up.uid &&
        !(i.low.mode & 0o004 && othersReach(i.layer.lower, i.rel)),
    );
    if (!source) continue;
    for (const i of group)
      if (i !== source)
        b.problem(`${i.path}: a hard link to the host's ${source.path}, which not everyone may read (committed, it would be a copy of it)`);
  }
}

/**
 * Whether everyone may reach a host file: every directory above it, below the layer's root, lets others search it
 * (/root/x 0644 in /root 0700: no, so a link to it is one to a file not everyone may read).
 */
function othersReach(lower: string, rel: string): boolean {
  for (let d = dirname(rel); d !== "." && d !== "/" && d !== ""; d = dirname(d)) {
    const st = tryLstat(join(lower, d));
    if (!st?.isDirectory() || !(st.mode & 0o001)) return false;
  }
  return true;
}

/** Mount points of this mount namespace (mountinfo's octal escapes decoded as bytes). */
function mountPoints(): Set<string> {
  const out = new Set<string>();
  for (const line of readFileSync("/proc/self/mountinfo").toString("latin1").split("\n")) {
    const field = line.split(" ")[4];
    if (field)
      out.add(
        Buffer.from(
          field.replace(/\\([0-7]{3})/g, (_m, o: string) => String.fromCharCode(parseInt(o, 8))),
          "latin1",
        ).toString("utf8"),
      );
  }
  return out;
}

/** The whole build's state: problems, counts, the entries of every layer. */
class Builder {
  readonly problems: string[] = [];
  readonly conflicts: string[] = [];
  readonly items: Item[] = [];
  readonly mounts = mountPoints();
  private definite = 0;

  constructor(readonly opts: ManifestOptions) {}

  problem(message: string): void {
    this.problems.push(message);
    if (this.problems.length >= MAX_PROBLEMS) {
      this.problems.push("too many problems; stopped");
      throw new Stop();
    }
  }

  tooLarge(message: string): never {
    this.problems.push(`diff too large: ${message}`);
    throw new Stop();
  }

  tooManyPaths(): never {
    return this.tooLarge(`${this.opts.maxPaths + 1} paths or more (cap ${this.opts.maxPaths})`);
  }

  /** A change listed whatever the comparison says (created or deleted): stops early when over the cap. */
  count(): void {
    if (++this.definite > this.opts.maxPaths) this.tooManyPaths();
  }
}

/**
 * One layer: walks the upper layer against the lower, collecting every
 * entry that may be a change (with both lstats and xattrs); comparing them
 * is left to `listChange`.
 */
class LayerWalk {
  readonly items: Item[] = [];
  /** Upper directories, parents first, with the names they hold and whether the host has a directory there. */
  private readonly dirs: { rel: string; names: Set<string>; lowDir: boolean }[] = [];
  private readonly rootDev: number | undefined;

  constructor(
    private readonly b: Builder,
    private readonly layer: UpperLayer,
  ) {
    this.rootDev = tryLstat(layer.lower)?.dev;
  }

  async run(): Promise<Item[]> {
    this.walk("", this.rootDev !== undefined);
    // Both layers' xattrs in one read; host entries an opaque directory hides come after, in a second one.
    const read = this.b.opts.readXattrs ?? readXattrsOf;
    const withUp = this.items.filter((i) => i.up);
    const withLow = this.items.filter((i) => i.low);
    const [upper, host] = await readXattrsWith(read, [
      {
        dir: this.layer.upper,
        entries: withUp.map((i) => ({ rel: i.rel, st: i.up as Stats })),
        where: (r) => `${this.mirror(r)} (mirror)`,
      },
      { dir: this.layer.lower, entries: withLow.map((i) => ({ rel: i.rel, st: i.low as Stats })), where: (r) => this.mirror(r) },
    ]);
    for (const p of [...(upper?.problems ?? []), ...(host?.problems ?? [])]) this.b.problem(p);
    for (const i of withLow) i.lowX = host?.xattrs.get(i.rel) ?? new Map();
    this.overlayMetadata(withUp, upper?.xattrs ?? new Map());
    const hidden = this.items.filter((i) => i.low && !i.lowX);
    if (hidden.length > 0) {
      const [more] = await readXattrsWith(read, [
        { dir: this.layer.lower, entries: hidden.map((i) => ({ rel: i.rel, st: i.low as Stats })), where: (r) => this.mirror(r) },
      ]);
      for (const p of more?.problems ?? []) this.b.problem(p);
      for (const i of hidden) i.lowX = more?.xattrs.get(i.rel) ?? new Map();
    }
    return this.items;
  }

  private mirror(rel: string): string {
    return this.layer.target === "/" ? `/${rel}` : `${this.layer.target}/${rel}`;
  }

  private add(rel: string, up: Stats | undefined, low: Stats | undefined): void {
    const path = this.mirror(rel);
    this.items.push({ path, key: sortKey(path), layer: this.layer, rel, ...(up ? { up } : {}), ...(low ? { low } : {}) });
    if (!up || !low) this.b.count();
  }

  /** A child's relative path, or undefined (a problem) when it cannot be a manifest path. */
  private child(rel: string, name: Buffer): string | undefined {
    if (textOk(name)) return rel ? `${rel}/${name.toString("utf8")}` : name.toString("utf8");
    this.b.problem(`${this.mirror(rel) + (rel ? "/" : "")}${printable(name)}: a path that is not UTF-8 text on one line`);
    return undefined;
  }

  /** The host entry at rel (its parent is a real lower directory of this mount), or "mount" (a problem). */
  private lower(rel: string): Stats | undefined | "mount" {
    const p = join(this.layer.lower, rel);
    const st = tryLstat(p);
    if (st && (st.dev !== this.rootDev || this.b.mounts.has(p))) {
      this.b.problem(`${this.mirror(rel)}: a mount point on the host (the mirror showed what is under it)`);
      return "mount";
    }
    return st;
  }

  /** A deleted host entry, with everything below it. */
  private deleted(rel: string, low: Stats): void {
    this.add(rel, undefined, low);
    if (low.isDirectory()) this.deletedBelow(rel, new Set());
  }

  /** Host entries in the directory rel that the merged view no longer shows, except `kept`. */
  private deletedBelow(rel: string, kept: Set<string>): void {
    let names: Buffer[];
    try {
      names = readdirSync(join(this.layer.lower, rel), { encoding: "buffer" });
    } catch (err) {
      this.b.problem(`${this.mirror(rel)}: could not read the host directory (${(err as NodeJS.ErrnoException).code ?? "error"})`);
      return;
    }
    for (const name of names) {
      if (isUtf8(name) && kept.has(name.toString("utf8"))) continue;
      const r = this.child(rel, name);
      const st = r === undefined ? undefined : this.lower(r);
      if (r !== undefined && st && st !== "mount") this.deleted(r, st);
    }
  }

  /** The upper directory rel: every entry, recursively; returns the names it holds. */
  private walk(rel: string, lowDir: boolean): Set<string> {
    const names = new Set<string>();
    for (const name of readdirSync(join(this.layer.upper, rel), { encoding: "buffer" })) {
      const r = this.child(rel, name);
      if (r === undefined) continue;
      names.add(name.toString("utf8"));
      const up = lstatSync(join(this.layer.upper, r));
      // Below a host entry that is not a directory there is nothing (and nothing to follow).
      const low = lowDir ? this.lower(r) : undefined;
      if (low === "mount") continue;
      if (isWhiteout(up)) {
        if (low) this.deleted(r, low);
        continue;
      }
      this.add(r, up, low);
      if (up.isDirectory()) {
        const dir = { rel: r, names: new Set<string>(), lowDir: low?.isDirectory() ?? false };
        this.dirs.push(dir);
        dir.names = this.walk(r, dir.lowDir);
      } else if (low?.isDirectory()) {
        this.deletedBelow(r, new Set());
      }
    }
    return names;
  }

  /** The upper xattrs (read with the host's): opaque directories hide the host's entries in them and in every directory below. */
  private overlayMetadata(withUp: readonly Item[], upper: ReadonlyMap<string, Xattrs>): void {
    const opaque = new Set<string>();
    for (const i of withUp) {
      i.upX = upper.get(i.rel) ?? new Map();
      for (const [name, value] of i.upX) {
        if (!name.startsWith(OVERLAY)) continue;
        const what = name.slice(OVERLAY.length);
        if (what === "opaque" && value.toString("latin1") === "y" && i.up?.isDirectory()) opaque.add(i.rel);
        else if (!OVERLAY_INERT.has(what)) this.b.problem(`${i.path}: overlay metadata ${name} in the mirror, not representable`);
      }
    }
    const hidden = new Set<string>();
    for (const d of this.dirs) {
      const parent = d.rel.includes("/") ? d.rel.slice(0, d.rel.lastIndexOf("/")) : "";
      if (opaque.has(d.rel) || hidden.has(parent)) hidden.add(d.rel);
      if (hidden.has(d.rel) && d.lowDir) this.deletedBelow(d.rel, d.names);
    }
  }
}

function kindOf(st: Stats): EntryKind {
  if (st.isFile()) return EntryKind.ENTRY_KIND_FILE;
  if (st.isDirectory()) return EntryKind.ENTRY_KIND_DIR;
  if (st.isSymbolicLink()) return EntryKind.ENTRY_KIND_SYMLINK;
  return EntryKind.ENTRY_KIND_SPECIAL;
}

function absent(): EntryState {
  return { kind: EntryKind.ENTRY_KIND_ABSENT, mode: 0, uid: 0, gid: 0, size: 0, sha256: Buffer.alloc(0), target: "", xattrs: [] };
}

/** Opens a regular file without following a symlink, checked to be the entry lstat saw. */
function openChecked(path: string, st: Stats): number | undefined {
  let fd: number;
  try {
    fd = openSync(path, OPEN_FLAGS);
  } catch {
    return undefined;
  }
  const f = fstatSync(fd);
  if (f.isFile() && f.ino === st.ino && f.dev === st.dev && f.size === st.size) return fd;
  closeSync(fd);
  return undefined;
}

/** sha256 of a regular file, read in 1 MiB pieces; undefined when it is not the file lstat saw. */
/** One read buffer for every hash (hashFile is synchronous): a fresh zeroed MiB per file was most of a small manifest's cost, in GC. */
const HASH_BUF = Buffer.allocUnsafe(1024 * 1024);

function hashFile(path: string, st: Stats): Buffer | undefined {
  const fd = openChecked(path, st);
  if (fd === undefined) return undefined;
  try {
    const h = createHash("sha256");
    const buf = HASH_BUF;
    let total = 0;
    for (let n; (n = readSync(fd, buf, 0, buf.length, null)) > 0; total += n) h.update(buf.subarray(0, n));
    return total === st.size ? h.digest() : undefined;
  } finally {
    closeSync(fd);
  }
}

function readWhole(path: string, st: Stats): Buffer | undefined {
  const fd = openChecked(path, st);
  if (fd === undefined) return undefined;
  try {
    const data = readFileSync(fd);
    return data.length === st.size ? data : undefined;
  } finally {
    closeSync(fd);
  }
}

function byBytes(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, "utf8"), Buffer.from(b, "utf8"));
}

/** The state of one entry, or undefined (a problem has been reported). */
function stateOf(b: Builder, file: string, st: Stats, xattrs: Xattrs, path: string): EntryState | undefined {
  const state: EntryState = { ...absent(), kind: kindOf(st), mode: st.mode & 0o7777, uid: st.uid, gid: st.gid };
  state.xattrs = [...xattrs.keys()].filter((n) => !n.startsWith(OVERLAY)).sort(byBytes);
  if (st.isFile()) {
    const sha = hashFile(file, st);
    if (!sha) return void b.problem(`${path}: changed while it was read`);
    state.size = st.size;
    state.sha256 = sha;
  } else if (st.isSymbolicLink()) {
    let target: Buffer;
    try {
      target = readlinkSync(file, { encoding: "buffer" });
    } catch {
      return void b.problem(`${path}: changed while it was read`);
    }
    if (!textOk(target)) return void b.problem(`${path}: a symlink target that is not UTF-8 text on one line (${printable(target)})`);
    state.target = target.toString("utf8");
  }
  return state;
}

function unchanged(i: Item, before: EntryState, after: EntryState): boolean {
  const { up, low } = i;
  if (!up || !low || (up.mode & 0o170000) !== (low.mode & 0o170000)) return false;
  if (kindOf(up) === EntryKind.ENTRY_KIND_SPECIAL && up.rdev !== low.rdev) return false;
  return (
    before.mode === after.mode &&
    before.uid === after.uid &&
    before.gid === after.gid &&
    before.size === after.size &&
    before.sha256.equals(after.sha256) &&
    before.target === after.target &&
    before.xattrs.join("\0") === after.xattrs.join("\0")
  );
}

interface Blobs {
  map: Map<string, Buffer>;
  bytes: number;
}

/**
 * The host entry changed after the command saw it: its ctime is at or after
 * the birth of the upper entry (the copy-up, the whiteout, the command's own
 * creation — the upper layer is a tmpfs, which keeps birth times), or, where
 * there is no birth time, at or after the run's start. Both clocks are the
 * kernel's; the fallback can call a change just before the start a conflict.
 */
function changedAfterSeen(i: Item, changedSinceMs: number | undefined): boolean {
  if (!i.low) return false;
  const seen = i.up && i.up.birthtimeMs > 0 ? i.up.birthtimeMs : changedSinceMs;
  return seen !== undefined && i.low.ctimeMs >= seen;
}

/** The Change for one entry, or undefined: unchanged, or a problem reported. */
function listChange(b: Builder, i: Item, blobs: Blobs): Change | undefined {
  const before = i.low ? stateOf(b, join(i.layer.lower, i.rel), i.low, i.lowX ?? new Map(), i.path) : absent();
  const after = i.up ? stateOf(b, join(i.layer.upper, i.rel), i.up, i.upX ?? new Map(), i.path) : absent();
  if (!before || !after) return undefined;
  for (const [name, value] of i.lowX ?? []) {
    const now = i.upX?.get(name);
    if (now && !now.equals(value) && !name.startsWith(OVERLAY))
      b.problem(`${i.path}: the value of xattr ${name} changed (the manifest carries names only)`);
  }
  if (unchanged(i, before, after)) return undefined;
  if (i.low && changedAfterSeen(i, b.opts.changedSinceMs)) {
    const conflict = `conflict: ${i.path} changed on the host while the command ran in the mirror`;
    b.conflicts.push(conflict);
    return void b.problem(conflict);
  }
  if (i.up?.isFile()) {
    const hex = after.sha256.toString("hex");
    if (!blobs.map.has(hex)) {
      if (blobs.bytes + after.size > b.opts.maxBlobBytes)
        b.tooLarge(`${blobs.bytes + after.size} bytes of file content or more (cap ${b.opts.maxBlobBytes})`);
      const data = readWhole(join(i.layer.upper, i.rel), i.up);
      if (!data || !createHash("sha256").update(data).digest().equals(after.sha256))
        return void b.problem(`${i.path}: changed while it was read`);
      blobs.map.set(hex, data);
      blobs.bytes += data.length;
    }
  }
  return { path: i.path, before, after };
}

export async function buildManifest(layers: readonly UpperLayer[], opts: ManifestOptions): Promise<BuiltManifest> {
  const b = new Builder(opts);
  const changes: Change[] = [];
  const blobs: Blobs = { map: new Map(), bytes: 0 };
  try {
    for (const layer of layers) for (const i of await new LayerWalk(b, layer).run()) b.items.push(i);
    const items = b.items.sort((x, y) => Buffer.compare(x.key, y.key));
    linksToHostFiles(b, items);
    items.forEach((i, n) => {
      if (i.path === items[n - 1]?.path) b.problem(`${i.path}: listed by two layers`);
      const change = listChange(b, i, blobs);
      if (!change) return;
      if (changes.length >= opts.maxPaths) b.tooManyPaths();
      changes.push(change);
    });
  } catch (err) {
    if (!(err instanceof Stop)) throw err;
  }
  const manifest: Manifest = { requestId: opts.requestId, commandDigest: opts.commandDigest, host: opts.host, changes };
  return { manifest, encoded: Manifest.encode(manifest).finish(), blobs: blobs.map, problems: b.problems, conflicts: b.conflicts };
}
