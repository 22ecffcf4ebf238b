// `pnpm NAME …`, `yarn NAME …` and `bun NAME …` where NAME is none of the
// tool's own commands: the tool runs the package.json script of that name
// if there is one, else the program NAME (pnpm and bun from PATH too, yarn
// from node_modules/.bin) — `pnpm sh -c 'rm -rf ~'` is `sh -c 'rm -rf ~'`.
// So a NAME that is no script of the nearest package.json is judged as the
// program it runs; a script keeps the tool's own rule.
import { type Dirent, readdirSync } from "node:fs";
import { posix } from "node:path";
import { lstat, readScript } from "../host-paths.js";
import type { Word } from "../types.js";

/** pnpm's commands and their aliases (pnpm 8–10). */
export const PNPM_COMMANDS = new Set(
  `add audit approve-builds bin c cat-file cat-index config create dedupe deploy dlx doctor env exec fetch find-hash get help i
  ignored-builds import init install install-test it la licenses link list ll ln ls m multi outdated pack patch patch-commit
  patch-remove prune publish rb rebuild recursive remove rm root run run-script sbom self-update server set setup start store
  t test tst un uninstall unlink up update upgrade why dislink`.split(/\s+/),
);

/** yarn's commands (classic and berry). */
export const YARN_COMMANDS = new Set(
  `add audit autoclean bin cache check config constraints create dedupe dlx exec explain generate-lock-entry global help import
  info init install licenses link list login logout node npm outdated owner pack patch patch-commit plugin policies publish
  rebuild remove run search set stage tag team test unlink unplug up upgrade upgrade-interactive version versions why
  workspace workspaces env`.split(/\s+/),
);

/** bun's commands. */
export const BUN_COMMANDS = new Set(
  `a add audit build c completions create discord exec help i info init install link outdated patch pm publish remove repl rm
  run test unlink update upgrade x why`.split(/\s+/),
);

/** Whether `name` is a script of one of the packages of the workspace holding `cwd`. */
export function isWorkspaceScript(name: string, cwd: string | undefined): boolean {
  return workspaceScripts(cwd).has(name);
}

/** Directories listed, at most, looking for a workspace's package.json files (a larger workspace: the root's only). */
const WORKSPACE_DIRS = 2000;

/**
 * The scripts of every package.json in the workspace holding `cwd`: from
 * the nearest directory with a pnpm-workspace.yaml (else the nearest
 * package.json) down to three levels, node_modules left out.
 */
function workspaceScripts(cwd: string | undefined): ReadonlySet<string> {
  const out = new Set<string>();
  if (!cwd) return out;
  let root = cwd;
  for (let d = cwd; d.startsWith("/"); d = posix.dirname(d)) {
    if (readScript(posix.join(d, "pnpm-workspace.yaml")) !== null) {
      root = d;
      break;
    }
    if (d === "/") break;
  }
  const queue: Array<[string, number]> = [[root, 0]];
  let dirs = 0;
  while (queue.length > 0 && dirs++ < WORKSPACE_DIRS) {
    const [dir, depth] = queue.shift() as [string, number];
    for (const s of scriptsIn(dir)) out.add(s);
    if (depth >= 3) continue;
    let names: Dirent[];
    try {
      names = readdirSync(dir, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const e of names)
      if (e.isDirectory() && e.name !== "node_modules" && !e.name.startsWith(".")) queue.push([posix.join(dir, e.name), depth + 1]);
  }
  return out;
}

function scriptsIn(dir: string): string[] {
  const text = readScript(posix.join(dir, "package.json"));
  if (text === null) return [];
  try {
    const scripts = (JSON.parse(text) as { scripts?: Record<string, unknown> }).scripts;
    return scripts && typeof scripts === "object" ? Object.keys(scripts) : [];
  } catch {
    return [];
  }
}

/** The scripts of the package.json nearest above `cwd`, or null when there is none that can be read. */
function scriptsNear(cwd: string): ReadonlySet<string> | null {
  for (let d = cwd; d.startsWith("/"); d = posix.dirname(d)) {
    const text = readScript(posix.join(d, "package.json"));
    if (text !== null) {
      try {
        const scripts = (JSON.parse(text) as { scripts?: Record<string, unknown> }).scripts;
        return new Set(scripts && typeof scripts === "object" ? Object.keys(scripts) : []);
      } catch {
        return null;
      }
    }
    if (d === "/") break;
  }
  return null;
}

/**
 * Whether `name` (no command of the tool) runs as a program rather than a
 * script: it is not a script of the nearest package.json (of the tool's
 * `--cwd`/`-C`/`--dir`), or there is none to read. A computed name may be
 * either.
 */
export function runsAsProgram(name: Word, cwd: string | undefined, args: readonly Word[] = []): boolean {
  if (name.dynamic) return true;
  const dir = projectDir(args, cwd);
  const nearest = dir ? scriptsNear(dir) : null;
  // --filter/-r select the workspace's packages: the name is a script when one of their package.json files has it.
  const filtered = args.some((w) => /^(--filter|-F|-r|--recursive)(=|$)/.test(w.text));
  const scripts = filtered ? workspaceScripts(dir) : nearest;
  // With no package.json to read, the tool can only run a program: one that is there (PATH, node_modules/.bin).
  if (nearest === null && (scripts === null || scripts.size === 0)) return onPath(name.text, dir);
  return scripts === null || !scripts.has(name.text);
}

/** Where programs are looked for: the standard directories, the classifier's PATH, node_modules/.bin up the tree. */
function onPath(name: string, dir: string | undefined): boolean {
  if (name.includes("/")) return true;
  const dirs = new Set([
    "/usr/local/sbin",
    "/usr/local/bin",
    "/usr/sbin",
    "/usr/bin",
    "/sbin",
    "/bin",
    ...(process.env.PATH ?? "").split(":"),
  ]);
  for (let d = dir; d?.startsWith("/"); d = posix.dirname(d)) {
    dirs.add(posix.join(d, "node_modules/.bin"));
    if (d === "/") break;
  }
  for (const d of dirs) if (d.startsWith("/") && lstat(posix.join(d, name)) !== null) return true;
  return false;
}

/** Where the tool runs: its `--cwd`/`-C`/`--dir` option (before the name), relative to `cwd`; a computed one is not known. */
function projectDir(args: readonly Word[], cwd: string | undefined): string | undefined {
  for (let i = 0; i < args.length; i++) {
    const w = args[i] as Word;
    const glued = /^--(cwd|dir)=(.*)$/.exec(w.text);
    const value = glued ? { ...w, text: glued[2] as string } : /^(--cwd|--dir|-C)$/.test(w.text) ? args[i + 1] : undefined;
    if (value === undefined) continue;
    if (value.dynamic) return undefined;
    return value.text.startsWith("/") ? value.text : cwd ? posix.join(cwd, value.text) : undefined;
  }
  return cwd;
}
