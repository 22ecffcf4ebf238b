// `agent-sudo install`, the code: what runs on a host (the build, the
// runtime dependencies, bin/, policies, migrations, the deployment files)
// copied under the prefix root:root 0644/0755, with a manifest of every path
// written, so a later install removes what is no longer shipped and
// uninstall removes exactly what was installed.
import {
  chmodSync,
  chownSync,
  existsSync,
  lchownSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmdirSync,
  rmSync,
  symlinkSync,
  unlinkSync,
} from "node:fs";
import { basename, dirname, join } from "node:path";
import { PENDING_FILE } from "../services/shared/proposals.js";
import { type Actions, at, isSymlink, type Options, ROOT, writeAtomic } from "./install-plan.js";

/** Lists every path an install wrote under the prefix (what uninstall removes). */
export const MANIFEST = ".agent-sudo-manifest.json";

interface Entry {
  rel: string;
  kind: "file" | "dir" | "symlink";
  exec: boolean;
}

/** What runs on a host: the build, the runtime dependencies, bin/, policies, migrations, the deployment files. */
function codeTree(src: string): Map<string, Entry[]> {
  if (!existsSync(join(src, "dist", "services"))) throw new Error(`${src}/dist is missing: run \`npm run build\` first`);
  const lock = JSON.parse(readFileSync(join(src, "package-lock.json"), "utf8")) as { packages: Record<string, { dev?: boolean }> };
  const modules = Object.entries(lock.packages)
    .filter(([k, v]) => !v.dev && /^node_modules\/(@[^/]+\/)?[^/]+$/.test(k) && existsSync(join(src, k)))
    .map(([k]) => k)
    .sort();
  const tops = [
    "package.json",
    "package-lock.json",
    "bin",
    "dist/cli",
    "dist/proto",
    "dist/services",
    "policies",
    "services/gateway/audit/migrations",
    "systemd",
    "apparmor",
  ];
  const groups = new Map<string, Entry[]>();
  for (const top of tops.filter((t) => existsSync(join(src, t)))) groups.set(top, walk(src, top));
  groups.set(
    "node_modules",
    modules.flatMap((m) => walk(src, m)),
  );
  return groups;
}

/** Host state that may sit in a source tree's policies/ (a local `rules learn` or `activate`): never shipped as code. */
const NOT_CODE = new RegExp(`^(${PENDING_FILE.replace(/\./g, "\\.")}|\\.rules-stage-)`);

function walk(src: string, rel: string): Entry[] {
  if (NOT_CODE.test(basename(rel))) return [];
  const st = lstatSync(join(src, rel));
  if (st.isSymbolicLink()) return [{ rel, kind: "symlink", exec: false }];
  if (st.isFile()) return [{ rel, kind: "file", exec: (st.mode & 0o111) !== 0 }];
  if (!st.isDirectory()) return [];
  const out: Entry[] = [{ rel, kind: "dir", exec: true }];
  for (const name of readdirSync(join(src, rel)).sort()) out.push(...walk(src, join(rel, name)));
  return out;
}

/** Whether the installed copy of one entry differs (content, link target, mode or owner). */
function entryDiffers(src: string, dest: string, e: Entry): boolean {
  if (!existsSync(dest) && !isSymlink(dest)) return true;
  const st = lstatSync(dest);
  if (e.kind === "symlink") return !st.isSymbolicLink() || readlinkSync(dest) !== readlinkSync(src) || st.uid !== 0;
  const mode = e.kind === "dir" || e.exec ? 0o755 : 0o644;
  if ((st.mode & 0o7777) !== mode || st.uid !== 0 || st.gid !== 0) return true;
  if (e.kind === "dir") return !st.isDirectory();
  return !st.isFile() || st.size !== lstatSync(src).size || !readFileSync(dest).equals(readFileSync(src));
}

function installEntry(src: string, dest: string, e: Entry): void {
  if (e.kind === "dir") {
    if (existsSync(dest) && !lstatSync(dest).isDirectory()) rmSync(dest, { force: true });
    mkdirSync(dest, { recursive: true, mode: 0o755 });
    chownSync(dest, 0, 0);
    chmodSync(dest, 0o755);
    return;
  }
  if (existsSync(dest) || isSymlink(dest)) rmSync(dest, { recursive: true, force: true });
  mkdirSync(dirname(dest), { recursive: true, mode: 0o755 });
  if (e.kind === "symlink") {
    symlinkSync(readlinkSync(src), dest);
    lchownSync(dest, 0, 0);
    return;
  }
  const mode = e.exec ? 0o755 : 0o644;
  writeAtomic(dest, readFileSync(src), mode);
  chownSync(dest, 0, 0);
  chmodSync(dest, mode);
}

export function readManifest(prefix: string): string[] {
  const path = join(prefix, MANIFEST);
  if (!existsSync(path)) return [];
  return (JSON.parse(readFileSync(path, "utf8")) as { paths: string[] }).paths;
}

export function installCode(o: Options, src: string, act: Actions): void {
  const prefix = at(o, o.prefix);
  if (src === prefix) {
    act.step("", `code: already running from ${prefix}`, false, () => {});
    return;
  }
  act.dir(prefix, 0o755, ROOT);
  const groups = codeTree(src);
  const all: string[] = [];
  for (const [top, entries] of groups) {
    all.push(...entries.map((e) => e.rel));
    const stale = entries.filter((e) => entryDiffers(join(src, e.rel), join(prefix, e.rel), e));
    const files = entries.filter((e) => e.kind !== "dir").length;
    act.step(
      "copy",
      `${join(prefix, top)} ← ${join(src, top)} (${files} file${files === 1 ? "" : "s"}, root:root 0644/0755${stale.length ? `; ${stale.length} to write` : ""})`,
      stale.length > 0,
      () => {
        for (const e of stale) installEntry(join(src, e.rel), join(prefix, e.rel), e);
      },
    );
  }
  const keep = new Set(all);
  const old = readManifest(prefix).filter((p) => !keep.has(p));
  act.step("remove", `${old.length} stale path(s) of an earlier install under ${prefix}`, old.length > 0, () => removeListed(prefix, old));
  act.file(join(prefix, MANIFEST), `${JSON.stringify({ paths: all }, null, 0)}\n`, 0o644, ROOT, " (what uninstall removes)");
}

/** Removes empty directories under (and including) `dir`, deepest first. */
export function pruneEmpty(dir: string): void {
  if (!existsSync(dir) || !lstatSync(dir).isDirectory()) return;
  for (const name of readdirSync(dir)) pruneEmpty(join(dir, name));
  if (readdirSync(dir).length === 0) rmdirSync(dir);
}

/** Removes the listed paths (files first, then directories deepest first, only when empty). */
export function removeListed(prefix: string, paths: string[]): void {
  const sorted = [...paths].sort((a, b) => b.split("/").length - a.split("/").length || b.localeCompare(a));
  for (const rel of sorted) {
    const p = join(prefix, rel);
    if (!existsSync(p) && !isSymlink(p)) continue;
    if (lstatSync(p).isDirectory()) {
      if (readdirSync(p).length === 0) rmdirSync(p);
    } else unlinkSync(p);
  }
}
