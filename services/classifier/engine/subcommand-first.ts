// Package managers read their flags anywhere on the line: `npm -w
// packages/a test` is `npm test -w packages/a`, `npm run -s deploy` runs the
// script `deploy` as `npm run deploy -s` does. The rules (and the delegate
// that unwraps `npm exec -- CMD`) look for the subcommand right after the
// program and the script right after `run`, so:
// - subcommandFirst: npm's leading known options go right after the
//   subcommand — the same command, judged as a whole in that order
//   (`npm -w a exec -- rm -rf /` is `npm exec -w a -- rm -rf /`);
// - scriptFirst: for rule matching only, known options between `run` and
//   the script's name go after the name (`npm run -s deploy` meets
//   js-script-live as `npm run deploy` does).
// An option the tool's table does not know leaves the words as written (the
// option check judges it).
import { lookup } from "./options/check.js";
import { TOOLS } from "./options/index.js";
import type { Opt, ToolSpec } from "./options/spec.js";
import type { Word } from "./types.js";

/** Tools whose options before the subcommand mean what they mean after it. */
const ANYWHERE = new Set(["npm"]);
/** Script runners: `TOOL run [options] SCRIPT [args]`. */
const SCRIPT_RUNNERS = new Set(["npm", "pnpm", "yarn", "bun"]);
const RUN = new Set(["run", "run-script", "rum", "urn"]);

/** How many words the known options starting at `from` take (0 when the first is not one). */
function knownOptions(spec: ToolSpec, args: readonly Word[], from: number): number | null {
  let i = from;
  while (i < args.length) {
    const w = args[i] as Word;
    const t = w.text;
    if (!/^-[^-]|^--[^-=]/.test(t)) break;
    if (w.dynamic) return null;
    const eq = t.startsWith("--") ? t.indexOf("=") : -1;
    const glued = eq >= 0;
    const key = glued ? t.slice(0, eq) : t;
    const opt: Opt | undefined = t.startsWith("--")
      ? lookup(TOOLS, spec, (s) => s.long, key)
      : t.length === 2
        ? lookup(TOOLS, spec, (s) => s.short, t.slice(1))
        : undefined;
    if (opt === undefined || (glued && opt.value === "none")) return null;
    i += opt.value === "required" && !glued ? 2 : 1;
  }
  return i - from;
}

/** The table of `name sub`, else of `name` (knownOptions also reads the tables it names with @also, as the option check does). */
function tableOf(name: string, sub = ""): ToolSpec | undefined {
  return (sub !== "" ? TOOLS.get(`${name} ${sub}`) : undefined) ?? TOOLS.get(name);
}

/** npm's `args` with its leading known options moved right after the subcommand, or null when nothing moves. */
export function subcommandFirst(name: string, args: readonly Word[]): Word[] | null {
  const spec = ANYWHERE.has(name) ? tableOf(name) : undefined;
  if (spec === undefined || !args[0]?.text.startsWith("-")) return null;
  const n = knownOptions(spec, args, 0);
  const sub = n === null ? undefined : args[n];
  if (!n || sub === undefined || sub.dynamic || sub.text.startsWith("-")) return null;
  return [sub, ...args.slice(0, n), ...args.slice(n + 1)];
}

/** For rule matching: `TOOL run OPTIONS SCRIPT …` as `TOOL run SCRIPT OPTIONS …`, or null when nothing moves. */
export function scriptFirst(name: string, args: readonly Word[]): Word[] | null {
  const run = args[0];
  if (!SCRIPT_RUNNERS.has(name) || run === undefined || !RUN.has(run.text) || !args[1]?.text.startsWith("-")) return null;
  const spec = tableOf(name, run.text);
  const n = spec === undefined ? null : knownOptions(spec, args, 1);
  const script = n === null ? undefined : args[1 + n];
  if (!n || script === undefined || script.dynamic || script.text.startsWith("-")) return null;
  return [run, script, ...args.slice(1, 1 + n), ...args.slice(2 + n)];
}
