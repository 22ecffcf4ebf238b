// `pnpm NAME …`, `yarn NAME …` and `bun NAME …` where NAME is none of the
// tool's own commands: the tool runs the package.json script of that name
// if there is one, else the program NAME (pnpm and bun from PATH too, yarn
// from node_modules/.bin) — `pnpm sh -c 'rm -rf ~'` is `sh -c 'rm -rf ~'`.
// So a NAME that is no script of the nearest package.json is judged as the
// program it runs; a script keeps the tool's own rule.
import { posix } from "node:path";
import { readScript } from "../host-paths.js";
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

/** Programs that are never a package.json script's name. */
const NEVER_A_SCRIPT = new Set(
  `sh bash zsh dash ksh fish csh tcsh busybox env printenv node deno python python3 perl ruby php lua awk gawk sed curl wget nc
  ncat netcat socat ssh scp rsync rm rmdir mv cp dd cat tee chmod chown ln find xargs eval exec sudo su kill pkill git docker`.split(/\s+/),
);

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
  // --filter/-r select the workspace's packages, whose scripts are not read here: the name is taken for a script
  // unless it is a program no one names a script after (a shell, an interpreter, a network or file tool).
  if (args.some((w) => /^(--filter|-F|-r|--recursive|--workspace-root|-w)(=|$)/.test(w.text))) return NEVER_A_SCRIPT.has(name.text);
  const dir = projectDir(args, cwd);
  const scripts = dir ? scriptsNear(dir) : null;
  return scripts === null || !scripts.has(name.text);
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
