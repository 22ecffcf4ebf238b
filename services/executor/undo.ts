// Scoped undo: before a tier >= 1 command runs, each path of its undo plan
// is copied into the undo store with owner, mode and xattrs (`cp -a
// --preserve=all`), or recorded as absent. Rollback restores exactly that:
// created paths are removed, changed and deleted ones restored. Records
// expire after the retention (default 14 days). For package operations the
// installed versions are recorded too and reinstated by a plan (packages.ts). Files over 64 MiB and
// special files are recorded as not captured; rollback reports them failed.
import { execFileSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { closeSync, existsSync, fsyncSync, lstatSync, mkdirSync, openSync, readdirSync, readFileSync, readlinkSync, renameSync, rmSync, statSync, symlinkSync, writeSync, chmodSync, lchownSync } from "node:fs";
import { isAbsolute, join, normalize } from "node:path";
import { CodedError } from "../shared/errors.js";
import { installedPackages, packageRevert, type PackageState } from "./packages.js";

type Kind = "absent" | "file" | "dir" | "symlink" | "uncaptured";

interface Entry {
  path: string;
  kind: Kind;
  mode?: number;
  uid?: number;
  gid?: number;
  target?: string;
}

interface Manifest {
  requestId: string;
  createdAt: number;
  entries: Entry[];
  /** Every installed package before the command, and after it. */
  packages?: PackageState[];
  packagesAfter?: PackageState[];
}

const APT_ENV = { PATH: "/usr/sbin:/usr/bin:/sbin:/bin", DEBIAN_FRONTEND: "noninteractive" };

function tryRun(argv: string[]): boolean {
  try {
    execFileSync(argv[0] ?? "false", argv.slice(1), { stdio: "pipe", env: APT_ENV });
    return true;
  } catch {
    return false;
  }
}

const MAX_PATHS = 4096;
const MAX_FILE_BYTES = 64 * 1024 * 1024;
const UNDOABLE = /^\/(?!proc(?:\/|$)|sys(?:\/|$)|dev(?:\/|$))/;

function copyPreserving(from: string, to: string): void {
  execFileSync("cp", ["-a", "--preserve=all", "--no-target-directory", from, to], { stdio: "pipe" });
}

function describe(path: string, slot: string): Entry {
  if (!existsSync(path) && !isBrokenLink(path)) return { path, kind: "absent" };
  const st = lstatSync(path);
  const owner = { mode: st.mode & 0o7777, uid: st.uid, gid: st.gid };
  if (st.isSymbolicLink()) return { path, kind: "symlink", target: readlinkSync(path), ...owner };
  if (st.isDirectory()) return { path, kind: "dir", ...owner };
  if (st.isFile() && st.size <= MAX_FILE_BYTES) {
    copyPreserving(path, slot);
    return { path, kind: "file", ...owner };
  }
  return { path, kind: "uncaptured" };
}

function isBrokenLink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}

/** Written to a temp file, fsynced, renamed: a manifest is whole or absent. */
function writeManifest(root: string, manifest: Manifest): void {
  const tmp = join(root, "manifest.json.tmp");
  const fd = openSync(tmp, "w", 0o600);
  writeSync(fd, JSON.stringify(manifest));
  fsyncSync(fd);
  closeSync(fd);
  renameSync(tmp, join(root, "manifest.json"));
}

function revertPackages(before: PackageState[], after: PackageState[], out: { restored: string[]; failed: string[] }): void {
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

export class UndoStore {
  constructor(
    private readonly dir: string,
    private readonly retentionS = 14 * 24 * 3600,
  ) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  }

  /** Captures the plan (and package states); returns the undo id. The manifest is fsynced last. */
  capture(requestId: string, paths: readonly string[], packages: readonly PackageState[] = []): string {
    if (paths.length > MAX_PATHS) throw new CodedError("BAD_REQUEST", `undo plan over ${MAX_PATHS} paths`);
    const clean = [...new Set(paths.map((p) => normalize(p)))];
    if (clean.some((p) => !isAbsolute(p) || !UNDOABLE.test(p))) throw new CodedError("BAD_REQUEST", "undo plan paths must be absolute and outside /proc, /sys, /dev");
    const id = randomUUID();
    const root = join(this.dir, id);
    mkdirSync(root, { mode: 0o700 });
    const entries = clean.map((path, i) => describe(path, join(root, String(i))));
    const manifest: Manifest = { requestId, createdAt: Math.floor(Date.now() / 1000), entries, ...(packages.length ? { packages: [...packages] } : {}) };
    writeManifest(root, manifest);
    return id;
  }

  /** After a package command ran: the state its rollback reverts to `packages`. */
  recordPackagesAfter(undoId: string, after: readonly PackageState[]): void {
    const root = join(this.dir, undoId);
    const manifest = JSON.parse(readFileSync(join(root, "manifest.json"), "utf8")) as Manifest;
    writeManifest(root, { ...manifest, packagesAfter: [...after] });
  }

  rollback(undoId: string): { restored: string[]; removed: string[]; failed: string[] } {
    if (!/^[0-9a-f-]{36}$/.test(undoId)) throw new CodedError("BAD_REQUEST", "malformed undo id");
    const root = join(this.dir, undoId);
    const file = join(root, "manifest.json");
    if (!existsSync(file)) throw new CodedError("BAD_REQUEST", "unknown, expired or already rolled-back undo id");
    const manifest = JSON.parse(readFileSync(file, "utf8")) as Manifest;
    // A record is rolled back once: the manifest moves aside first.
    renameSync(file, join(root, "manifest.rolled-back.json"));
    const out = { restored: [] as string[], removed: [] as string[], failed: [] as string[] };
    // Deepest first, so a created directory's contents go before it.
    const order = manifest.entries.map((e, i) => ({ e, i })).sort((a, b) => b.e.path.length - a.e.path.length);
    // Packages first (their files may be in the plan too), then files.
    if (manifest.packages && manifest.packagesAfter) revertPackages(manifest.packages, manifest.packagesAfter, out);
    else if (manifest.packages) out.failed.push("packages: no record of the state after the command");
    for (const { e, i } of order) {
      try {
        this.restoreOne(e, join(root, String(i)), out);
      } catch {
        out.failed.push(e.path);
      }
    }
    return out;
  }

  private restoreOne(e: Entry, slot: string, out: { restored: string[]; removed: string[]; failed: string[] }): void {
    const present = existsSync(e.path) || isBrokenLink(e.path);
    if (e.kind === "uncaptured") {
      out.failed.push(e.path);
      return;
    }
    if (e.kind === "absent") {
      if (present) {
        rmSync(e.path, { recursive: true, force: true });
        out.removed.push(e.path);
      }
      return;
    }
    if (e.kind === "dir") {
      if (present && !lstatSync(e.path).isDirectory()) rmSync(e.path, { force: true });
      mkdirSync(e.path, { recursive: true });
    } else {
      if (present && (e.kind === "symlink" || lstatSync(e.path).isDirectory())) rmSync(e.path, { recursive: true, force: true });
      if (e.kind === "symlink") symlinkSync(e.target ?? "", e.path);
      else copyPreserving(slot, e.path);
    }
    lchownSync(e.path, e.uid ?? 0, e.gid ?? 0);
    if (e.kind !== "symlink") chmodSync(e.path, e.mode ?? 0o644);
    out.restored.push(e.path);
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
