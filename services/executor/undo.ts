// Scoped undo. Before anything changes the host, the state of each path it
// will change is recorded in the undo store (root-only): content of regular
// files (≤ 64 MiB; up to 64 KiB inside the record, larger ones in a slot
// file beside it), owner and mode, symlink targets, "absent". Two sources:
// a commit records the manifest's paths and, in the same pass, proves the
// host still matches each `before` the judges saw (else CONFLICT: nothing
// is committed); a tier-3 or package run records the classifier's plan (and
// the installed packages). Rollback restores exactly that: created paths
// removed (deepest first), changed and deleted ones restored (parents
// first). Every host path is reached through safe-fs.ts, never through a
// symlink; rollback first opens every parent and refuses as a whole, having
// written nothing, when one of them is no longer a plain directory.
// Records expire after the retention (14 days).
import { execFileSync } from "node:child_process";
import { createHash, randomUUID } from "node:crypto";
import {
  closeSync,
  existsSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
} from "node:fs";
import { isAbsolute, join, normalize } from "node:path";
import { EntryKind, type EntryState, type Manifest } from "../../proto/gen/agent_sudo/v1/manifest_pb.js";
import { CodedError } from "../shared/errors.js";
import { installedPackages, packageRevert, type PackageState } from "./packages.js";
import {
  applyOrder,
  type Dir,
  lstatAt,
  type Placed,
  placeAt,
  readFileAt,
  readlinkAt,
  removeAt,
  syncDir,
  UnsafePath,
  withParent,
} from "./safe-fs.js";

type Kind = "absent" | "file" | "dir" | "symlink" | "uncaptured";

interface Entry {
  path: string;
  kind: Kind;
  mode?: number;
  uid?: number;
  gid?: number;
  target?: string;
  /** A file's saved content: its sha256 (hex), checked before it is written back. */
  sha256?: string;
  /** A small file's saved bytes (base64), kept in the record itself: one fsync fewer per file. */
  content?: string;
}

interface Record_ {
  requestId: string;
  createdAt: number;
  /** Captured before a tier-3 live action: the only record a breaker grant may roll back. */
  live?: boolean;
  entries: Entry[];
  /** Every installed package before the command, and after it. */
  packages?: PackageState[];
  packagesAfter?: PackageState[];
}

/** What a rollback grant is checked against (verify.ts checkGrant). */
export interface UndoOwner {
  requestId: string;
  createdAt: number;
  live: boolean;
}

export interface RollbackResult {
  restored: string[];
  removed: string[];
  failed: string[];
}

const APT_ENV = { PATH: "/usr/sbin:/usr/bin:/sbin:/bin", DEBIAN_FRONTEND: "noninteractive" };
const MAX_PATHS = 4096;
const MAX_FILE_BYTES = 64 * 1024 * 1024;
/** Files up to this size are saved inside the record (written and fsynced once with it), up to INLINE_TOTAL per record. */
const INLINE_BYTES = 64 * 1024;
const INLINE_TOTAL = 1024 * 1024;
const UNDOABLE = /^\/(?!proc(?:\/|$)|sys(?:\/|$)|dev(?:\/|$))/;

function tryRun(argv: string[]): boolean {
  try {
    execFileSync(argv[0] ?? "false", argv.slice(1), { stdio: "pipe", env: APT_ENV });
    return true;
  } catch {
    return false;
  }
}

/** The host's state of `name` in `dir`, its content copied to `slot`; undefined st → absent. */
/** What one record may still keep inline (bytes): past it, saved files get slot files (the record stays small in memory). */
interface InlineBudget {
  left: number;
}

function describeAt(
  dir: Dir,
  name: string,
  path: string,
  slot: string,
  budget: InlineBudget,
): { entry: Entry; sha256?: Buffer; size?: number } {
  const st = lstatAt(dir, name);
  if (!st) return { entry: { path, kind: "absent" } };
  const owner = { mode: st.mode & 0o7777, uid: st.uid, gid: st.gid };
  if (st.isSymbolicLink()) return { entry: { path, kind: "symlink", target: readlinkAt(dir, name), ...owner } };
  if (st.isDirectory()) return { entry: { path, kind: "dir", ...owner } };
  if (st.isFile() && st.size <= MAX_FILE_BYTES) {
    const f = readFileAt(dir, name, MAX_FILE_BYTES);
    const entry: Entry = { path, kind: "file", ...owner, sha256: f.sha256.toString("hex") };
    // Durable before anything is written over the original (in the record, or in its own slot file for a
    // larger one): a rollback after a crash restores these bytes.
    if (f.data.length <= INLINE_BYTES && f.data.length <= budget.left) {
      entry.content = f.data.toString("base64");
      budget.left -= f.data.length;
    } else writeDurable(slot, f.data);
    return { entry, sha256: f.sha256, size: f.data.length };
  }
  return { entry: { path, kind: "uncaptured" } };
}

function writeDurable(path: string, data: Buffer | string): void {
  const buf = typeof data === "string" ? Buffer.from(data) : data;
  const fd = openSync(path, "w", 0o600);
  try {
    for (let off = 0; off < buf.length; ) off += writeSync(fd, buf, off, buf.length - off);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Whether the host's state (as captured) is what the manifest says the judges saw. */
function matches(e: Entry, want: EntryState | undefined, sha: Buffer | undefined, size: number | undefined): string | undefined {
  const kind = want?.kind ?? EntryKind.ENTRY_KIND_UNSPECIFIED;
  const expected: Record<number, Kind> = {
    [EntryKind.ENTRY_KIND_ABSENT]: "absent",
    [EntryKind.ENTRY_KIND_FILE]: "file",
    [EntryKind.ENTRY_KIND_DIR]: "dir",
    [EntryKind.ENTRY_KIND_SYMLINK]: "symlink",
  };
  if (expected[kind] !== e.kind) return `is ${e.kind}, was ${expected[kind] ?? "unknown"} when the command ran`;
  if (e.kind === "absent" || !want) return undefined;
  if (e.mode !== want.mode || e.uid !== want.uid || e.gid !== want.gid) return "owner or mode changed since the run";
  if (e.kind === "symlink" && e.target !== want.target) return "link target changed since the run";
  if (e.kind === "file" && (size !== Number(want.size) || !sha || !Buffer.from(want.sha256).equals(sha)))
    return "content changed since the run";
  return undefined;
}

export class UndoStore {
  constructor(
    private readonly dir: string,
    private readonly retentionS = 14 * 24 * 3600,
  ) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  }

  /**
   * The record, durable with its saved contents: temp + fsync, rename, then
   * the record's directory and the store's (which holds the directory's new
   * name: without it a crash could leave a journaled commit whose record is
   * not found, so not rolled back).
   */
  private write(root: string, record: Record_, name = "manifest.json"): void {
    const tmp = join(root, `${name}.tmp`);
    writeDurable(tmp, JSON.stringify(record));
    renameSync(tmp, join(root, name));
    syncDir(root);
    syncDir(this.dir);
  }

  private fresh(): { id: string; root: string } {
    const id = randomUUID();
    const root = join(this.dir, id);
    mkdirSync(root, { mode: 0o700 });
    return { id, root };
  }

  /** Tier 3 and package runs: records the plan's paths as they are now (and the packages). */
  capture(requestId: string, paths: readonly string[], packages: readonly PackageState[] = [], live = false): string {
    if (paths.length > MAX_PATHS) throw new CodedError("BAD_REQUEST", `undo plan over ${MAX_PATHS} paths`);
    const clean = [...new Set(paths.map((p) => normalize(p)))];
    if (clean.some((p) => !isAbsolute(p) || !UNDOABLE.test(p) || p === "/"))
      throw new CodedError("BAD_REQUEST", "undo plan paths must be absolute and outside /proc, /sys, /dev");
    const { id, root } = this.fresh();
    const budget = { left: INLINE_TOTAL };
    const entries = clean.map((path, i) => {
      try {
        return withParent(path, (dir, name) => describeAt(dir, name, path, join(root, String(i)), budget).entry);
      } catch (err) {
        // No such directory on the way: the path does not exist. A symlink on the way: not captured, and rollback says so.
        if ((err as NodeJS.ErrnoException).code === "ENOENT") return { path, kind: "absent" as const };
        return { path, kind: "uncaptured" as const };
      }
    });
    this.write(root, {
      requestId,
      createdAt: Math.floor(Date.now() / 1000),
      ...(live ? { live: true } : {}),
      entries,
      ...(packages.length ? { packages: [...packages] } : {}),
    });
    return id;
  }

  /**
   * A commit: records every path of the manifest as the host has it now and
   * checks it is what the judges saw. Any difference throws CONFLICT naming
   * the paths, and the record is removed: nothing has been written.
   */
  captureManifest(requestId: string, manifest: Manifest): string {
    if (manifest.changes.length > MAX_PATHS) throw new CodedError("BAD_REQUEST", `manifest over ${MAX_PATHS} paths`);
    const { id, root } = this.fresh();
    const budget = { left: INLINE_TOTAL };
    const conflicts: string[] = [];
    const madeDirs = new Set(manifest.changes.filter((c) => c.after?.kind === EntryKind.ENTRY_KIND_DIR).map((c) => c.path));
    const entries = manifest.changes.map((c, i) => {
      try {
        return withParent(c.path, (dir, name) => {
          const got = describeAt(dir, name, c.path, join(root, String(i)), budget);
          const why = matches(got.entry, c.before, got.sha256, got.size);
          if (why) conflicts.push(`${c.path}: ${why}`);
          return got.entry;
        });
      } catch (err) {
        // A path the run created below a directory the commit itself makes (where nothing, a file
        // or a symlink is now): absent on the host indeed. Anything else in the way is a conflict.
        const code = (err as NodeJS.ErrnoException).code;
        const inWay = code === "ENOENT" || ((code === "ENOTDIR" || err instanceof UnsafePath) && hasAncestor(c.path, madeDirs));
        if (inWay && c.before?.kind === EntryKind.ENTRY_KIND_ABSENT) return { path: c.path, kind: "absent" as const };
        conflicts.push(`${c.path}: ${(err as Error).message}`);
        return { path: c.path, kind: "uncaptured" as const };
      }
    });
    if (conflicts.length > 0) {
      rmSync(root, { recursive: true, force: true });
      throw new CodedError(
        "CONFLICT",
        conflicts.slice(0, 20).join("; ") + (conflicts.length > 20 ? `; … ${conflicts.length - 20} more` : ""),
      );
    }
    this.write(root, { requestId, createdAt: Math.floor(Date.now() / 1000), entries });
    return id;
  }

  /** After a package command ran: the state its rollback reverts to `packages`. */
  recordPackagesAfter(undoId: string, after: readonly PackageState[]): void {
    const root = join(this.dir, undoId);
    const record = JSON.parse(readFileSync(join(root, "manifest.json"), "utf8")) as Record_;
    this.write(root, { ...record, packagesAfter: [...after] });
  }

  /** Whether an undo record exists and has not been rolled back. */
  has(undoId: string): boolean {
    return /^[0-9a-f-]{36}$/.test(undoId) && existsSync(join(this.dir, undoId, "manifest.json"));
  }

  /** Whose record it is (what a rollback grant is checked against), or undefined when there is none to roll back. */
  owner(undoId: string): UndoOwner | undefined {
    if (!this.has(undoId)) return undefined;
    const r = JSON.parse(readFileSync(join(this.dir, undoId, "manifest.json"), "utf8")) as Record_;
    return { requestId: r.requestId, createdAt: r.createdAt, live: r.live === true };
  }

  rollback(undoId: string): RollbackResult {
    if (!this.has(undoId)) throw new CodedError("BAD_REQUEST", "unknown, expired or already rolled-back undo id");
    const root = join(this.dir, undoId);
    const file = join(root, "manifest.json");
    const record = JSON.parse(readFileSync(file, "utf8")) as Record_;
    // Every parent must still be a plain directory reached without a symlink — unless the record
    // itself restores an ancestor as a directory first (a commit that replaced a directory by a
    // file or link). Else nothing is written.
    const dirs = new Set(record.entries.filter((e) => e.kind === "dir").map((e) => e.path));
    const unsafe: string[] = [];
    for (const e of record.entries) {
      try {
        withParent(e.path, () => undefined);
      } catch (err) {
        if (hasAncestor(e.path, dirs)) continue;
        if (err instanceof UnsafePath) unsafe.push(err.message);
        else if ((err as NodeJS.ErrnoException).code !== "ENOENT") unsafe.push(`${e.path}: ${(err as Error).message}`);
      }
    }
    if (unsafe.length > 0) throw new CodedError("CONFLICT", `rollback refused, nothing written: ${unsafe.slice(0, 10).join("; ")}`);
    // A record is rolled back once: the manifest moves aside first.
    renameSync(file, join(root, "manifest.rolled-back.json"));
    syncDir(root);
    const out: RollbackResult = { restored: [], removed: [], failed: [] };
    if (record.packages && record.packagesAfter) revertPackages(record.packages, record.packagesAfter, out);
    else if (record.packages) out.failed.push("packages: no record of the state after the command");
    const indexed = record.entries.map((e, i) => ({ e, i, path: e.path }));
    for (const { e, i } of applyOrder(indexed, ({ e }) => e.kind === "absent")) {
      if (e.kind === "uncaptured") {
        out.failed.push(e.path);
        continue;
      }
      this.attempt(e, out, (dir, name) => {
        if (e.kind !== "absent") {
          placeAt(dir, name, placed(e, join(root, String(i))));
          out.restored.push(e.path);
        } else if (lstatAt(dir, name)) {
          removeAt(dir, name);
          out.removed.push(e.path);
        }
      });
    }
    return out;
  }

  private attempt(e: Entry, out: RollbackResult, act: (dir: Dir, name: string) => void): void {
    try {
      withParent(e.path, act);
    } catch {
      out.failed.push(e.path);
    }
  }

  /** Removes records older than the retention. */
  prune(now = Math.floor(Date.now() / 1000)): number {
    let removed = 0;
    for (const id of readdirSync(this.dir)) {
      const root = join(this.dir, id);
      const age = now - Math.floor(statSync(root).mtimeMs / 1000);
      if (age > this.retentionS) {
        rmSync(root, { recursive: true, force: true });
        removed++;
      }
    }
    return removed;
  }
}

/** Whether a proper ancestor of `path` is in `set`. */
function hasAncestor(path: string, set: ReadonlySet<string>): boolean {
  for (let at = path.lastIndexOf("/"); at > 0; at = path.lastIndexOf("/", at - 1)) if (set.has(path.slice(0, at))) return true;
  return false;
}

/** What a record's entry puts back: a file's saved bytes only if they are what was saved (else that path fails). */
function placed(e: Entry, slot: string): Placed {
  const [mode, uid, gid] = [e.mode ?? 0o644, e.uid ?? 0, e.gid ?? 0];
  if (e.kind === "dir") return { kind: "dir", mode, uid, gid };
  if (e.kind === "symlink") return { kind: "symlink", target: e.target ?? "", uid, gid };
  const content = () => {
    const saved = e.content !== undefined ? Buffer.from(e.content, "base64") : readFileSync(slot);
    if (e.sha256 !== undefined && createHash("sha256").update(saved).digest("hex") !== e.sha256)
      throw new Error(`${e.path}: saved content damaged`);
    return saved;
  };
  return { kind: "file", mode, uid, gid, content };
}

function revertPackages(before: PackageState[], after: PackageState[], out: RollbackResult): void {
  const plan = packageRevert(before, after, installedPackages());
  for (const name of plan.skipped) out.failed.push(`package:${name} (changed again since)`);
  // dpkg refuses to remove a package something still depends on: dependents
  // go in an earlier pass, so a few passes remove a whole added tree.
  let left = plan.remove;
  for (let pass = 0; pass < 4 && left.length > 0; pass++) {
    const still = left.filter((name) => !tryRun(["dpkg", "--remove", name]));
    out.restored.push(...left.filter((n) => !still.includes(n)).map((n) => `package:${n}`));
    if (still.length === left.length) break;
    left = still;
  }
  out.failed.push(...left.map((n) => `package:${n}`));
  for (const spec of plan.reinstall) {
    const name = spec.slice(0, spec.indexOf("="));
    (tryRun(["apt-get", "install", "-y", "--no-download", "--allow-downgrades", spec]) ? out.restored : out.failed).push(`package:${name}`);
  }
}
