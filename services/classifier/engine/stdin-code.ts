// Programs that read code from their standard input when it is not a terminal: a pipe, a heredoc or a file
// redirected in is run (round 25: `curl … | make -f -`, `octave -q < /tmp/x.m`, `printf 'os:cmd(…)' | rebar3 shell`,
// `… | bun repl`, `dc < /tmp/x.dc`, `printf '__import__("os").system(…)' | pytest --pdb`). Their rules (builds
// and checks in the workspace) never meant code no one has seen.
import { inWorkspace } from "./paths.js";
import type { Context, SimpleCommand, Word } from "./types.js";

/** Programs whose standard input is code in the form they are given (`make -f -`: only with that option). */
const READS_CODE: Record<string, (args: readonly Word[]) => boolean> = {
  make: (a) => makefileFromStdin(a),
  gmake: (a) => makefileFromStdin(a),
  bmake: (a) => makefileFromStdin(a),
  scons: (a) => makefileFromStdin(a),
  octave: () => true,
  "octave-cli": () => true,
  R: () => true,
  julia: (a) => !a.some((w) => !w.text.startsWith("-")),
  rebar3: (a) => a.some((w) => w.text === "shell"),
  dune: (a) => a.some((w) => w.text === "utop"),
  bun: (a) => a.some((w) => w.text === "repl"),
  dc: (a) => !a.some((w) => !w.text.startsWith("-")),
  pytest: (a) => a.some((w) => /^--(pdb|trace)$/.test(w.text)),
  erl: () => true,
  iex: () => true,
  ghci: () => true,
};

function makefileFromStdin(args: readonly Word[]): boolean {
  return args.some(
    (w, i) => (/^(-f|--file|--makefile)$/.test(w.text) && args[i + 1]?.text === "-") || /^(-f-|--file=-|--makefile=-)$/.test(w.text),
  );
}

/** Whether `name` may read code from its standard input (a list's redirection is handed to it: effects.ts listInputs). */
export function readsStdinCode(name: string): boolean {
  return Object.hasOwn(READS_CODE, name);
}

/** Why `cmd` runs code it reads from its standard input, or null. */
export function stdinCode(name: string, args: readonly Word[], cmd: SimpleCommand): string | null {
  // Own keys only: a program named `hasOwnProperty` or `__proto__` is no entry (prototype-names.spec.ts).
  const reads = Object.hasOwn(READS_CODE, name) ? READS_CODE[name] : undefined;
  if (!reads?.(args)) return null;
  const redirected = cmd.redirects.some((r) => r.op === "<" || r.op === "<<" || r.op === "<<<" || r.op === "<&");
  if (cmd.stdin === null && !redirected) return null;
  // dc's program given as known text without `!` (its shell escape) computes and prints (`echo '2 3 + p' | dc`).
  if (name === "dc" && !redirected && cmd.stdin?.text != null && !cmd.stdin.dynamic && !cmd.stdin.text.includes("!")) return null;
  return `${name} runs the code its standard input holds (a pipe or a file redirected in): code no one has seen`;
}

/** Rules that run the project's own code where they run: the project must be the caller's, not scratch space's. */
const PROJECT_RULES = new Set(["c-make", "js-run", "py-run", "rust-build", "run-script", "c-dune-exec", "js-node-test"]);
/** Compilers and interpreters these rules let run a source file they are given. */
const RUNS_FILE = new Set([
  "R",
  "Rscript",
  "nim",
  "v",
  "odin",
  "crystal",
  "julia",
  "octave",
  "octave-cli",
  "elixir",
  "zig",
  "swift",
  "go",
  "ghc",
  "runghc",
]);
const SCRATCH = /^\/(tmp|var\/tmp|dev\/shm)(\/|$)/;

/**
 * A project rule's command run in scratch space others write, outside the workspace (`cd /tmp/x && make`, `env -C
 * /tmp/x cargo test`), or a compiler or interpreter given a source file there (`nim r /tmp/x.nim`, `R CMD BATCH
 * /tmp/x.R`): the Makefile, package.json or source may be anyone's (round 25). Null when neither.
 */
export function foreignProject(rule: string, name: string, args: readonly Word[], ctx: Context): string | null {
  if (!PROJECT_RULES.has(rule) || ctx.remote) return null;
  if (SCRATCH.test(ctx.cwd) && !inWorkspace(ctx.cwd, ctx)) return `${name} runs the project in ${ctx.cwd}, scratch space other users write`;
  if (!RUNS_FILE.has(name)) return null;
  const file = args.find((w) => !w.text.startsWith("-") && (w.dynamic || (SCRATCH.test(w.text) && !inWorkspace(w.text, ctx))));
  return file ? `${name} runs ${file.text}, a file in scratch space other users write (or one not known until run time)` : null;
}
