// JavaScript package tools: npx/bunx, npm exec, pnpm dlx|exec (and its shell
// mode), yarn dlx|exec, bun x|exec, nodemon --exec; and where npm writes.
import { posix } from "node:path";
import { lstat, readScript, realPath } from "../host-paths.js";
import { scriptFirst } from "../subcommand-first.js";
import { optionValueSpec } from "../targets.js";
import type { Spec, Target } from "../targets.js";
import type { Word } from "../types.js";
import { firstOperand, joinWords, literalWord, unwrap } from "../unwrap.js";
import type { Delegate, Unwrap } from "../unwrap.js";
import { BUN_COMMANDS, isWorkspaceScript, PNPM_COMMANDS, runsAsProgram, YARN_COMMANDS } from "./run-fallback.js";
import { pullOptions, Runs, shQuote } from "./runs.js";
import { outside } from "./runners.js";

const NPX_VALUES = new Set(["-p", "--package", "-c", "--call", "--prefix", "-w", "--workspace"]);

/** The dependencies named by the package.json nearest above `cwd`. */
function dependencies(cwd: string | undefined): ReadonlySet<string> {
  for (let d = cwd; d?.startsWith("/"); d = posix.dirname(d)) {
    const text = readScript(posix.join(d, "package.json"));
    if (text !== null) {
      try {
        const j = JSON.parse(text) as Record<string, unknown>;
        const out = new Set<string>();
        for (const k of ["dependencies", "devDependencies", "optionalDependencies", "peerDependencies"]) {
          const deps = j[k];
          if (deps && typeof deps === "object") for (const n of Object.keys(deps)) out.add(n);
        }
        return out;
      } catch {
        return new Set();
      }
    }
    if (d === "/") break;
  }
  return new Set();
}

/**
 * Why a package spec npx (bunx, pnpm dlx …) would download is code no one
 * has seen, or null: a git, URL, file, tarball or alias spec
 * (`github:x/y`, `x/y`, `https://…`, `./x.tgz`, `eslint@npm:evil`), a
 * scoped name (`@evil/eslint`: its binary would be judged as `eslint`) or a
 * `-p` package other than the binary's own name, unless the project's
 * package.json depends on it. `bin` is the binary the command names.
 */
function foreignSpec(spec: Word, bin: string, cwd: string | undefined, named: boolean): string | null {
  if (spec.dynamic) return `${spec.text}: a computed package`;
  const text = spec.text;
  const scoped = /^@[^/@]+\//.test(text);
  const name = scoped ? text.replace(/^(@[^/@]+\/[^@]*).*$/, "$1") : text.replace(/@.*$/, "");
  const version = text.slice(name.length).replace(/^@/, "");
  // A relative directory or tarball of the workspace (`npx .`, `npx ./cli`) is the workspace's own code.
  if (/^\.{1,2}(\/|$)/.test(text) && !text.split("/").includes("..")) {
    // …unless a link on the way leads out of it (`npx ./home/` with home → a home directory).
    if (cwd === undefined || realUnder(text, cwd)?.inside !== false) return null;
    return `${text}: a package directory a link leads outside the workspace`;
  }
  if (/[/:\\]/.test(name.replace(/^@[^/@]+\//, "")) || /[/:\\]/.test(version) || name.startsWith("."))
    return `${text}: a package from git, a URL, a file or an alias`;
  if (!scoped && (!named || name === bin)) return null;
  return dependencies(cwd).has(name) ? null : `${text}: a package the project does not depend on`;
}

/** Where `rel` under `cwd` leads once links are followed, and whether that is still under `cwd`; null when not there. */
function realUnder(rel: string, cwd: string): { real: string; inside: boolean } | null {
  const here = realPath(cwd);
  const real = realPath(posix.join(cwd, rel));
  if (here === null || real === null) return null;
  return { real, inside: real === here || real.startsWith(`${here === "/" ? "" : here}/`) };
}

/** Whether `rel` is a directory under `cwd` once links are followed (`./root/opt/pkg/` with root → / is not). */
function packageDirInside(rel: string, cwd: string | undefined): boolean {
  const at = cwd ? realUnder(rel, cwd) : null;
  if (!at?.inside) return false;
  const st = lstat(at.real);
  return st !== null && st !== "unknown" && st.isDirectory();
}

/** The package specs of npx's `-p X`, `--package X`, `--package=X` among `args` (up to the command). */
function packageOptions(args: readonly Word[]): Word[] {
  const out: Word[] = [];
  for (let i = 0; i < args.length; i++) {
    const w = args[i] as Word;
    if (w.text === "-p" || w.text === "--package") {
      if (args[i + 1]) out.push(args[i + 1] as Word);
      i++;
    } else if (w.text.startsWith("--package=")) out.push({ ...w, text: w.text.slice("--package=".length) });
    else if (!w.text.startsWith("-") && !NPX_VALUES.has(args[i - 1]?.text ?? "")) break;
  }
  return out;
}

/**
 * Options that say where a downloaded package comes from: another registry (`--registry=URL`,
 * `--@scope:registry=URL`, pnpm's `--config.registry=URL`), a config file that may name one or a cache or store
 * that may hold a planted package (`--userconfig`, `--globalconfig`, `--cache`, `--store-dir`). Review 38: `npm exec
 * --registry=https://evil.example vite`, `pnpm dlx --config.registry=… vite` were 1 as the known tool `vite`.
 */
const FETCH_SETTING =
  /^--(?:[^=]*registry|userconfig|globalconfig|cache|cache-dir|store-dir|config\.[^=]*(?:registry|store|cache)[^=]*)(?:=|$)/i;

/** The first option that sets where the package comes from: npm reads its options anywhere before `--`, the others before the package. */
function fetchSetting(tool: string, args: readonly Word[], at: number, own: readonly Word[]): Word | undefined {
  const end = tool === "npm-exec" ? args.findIndex((w) => w.text === "--") : at;
  return [...own, ...args.slice(0, end < 0 ? args.length : end)].find((w) => w.dynamic || FETCH_SETTING.test(w.text));
}

/** The tools that download the package they are named when it is not installed. */
const DOWNLOADS = new Set(["npx", "bunx", "bun-x", "npm-exec", "pnpm-dlx", "yarn-dlx"]);

/** npx/bunx/pnpm dlx: run a package's binary (downloading it when absent). `own`: the tool's options before its subcommand. */
function npx(tool: string, args: Word[], cwd?: string, own: readonly Word[] = []): Unwrap {
  const at = firstOperand(args, NPX_VALUES);
  const rest = args.slice(at);
  const first = rest[0];
  const bin = first ? first.text.replace(/^@[^/]+\//, "").replace(/@[^@/]*$/, "") : "";
  const packages = [...packageOptions(own), ...packageOptions(args)];
  const why = DOWNLOADS.has(tool)
    ? [
        ...packages.map((p) => foreignSpec(p, bin, cwd, true)),
        ...(packages.length === 0 && first ? [foreignSpec(first, bin, cwd, false)] : []),
      ].find((w) => w !== null)
    : null;
  if (why) return unwrap(`delegate:${tool}`, 2, `${tool} downloads and runs ${why}: code no one has seen`);
  const source = DOWNLOADS.has(tool) ? fetchSetting(tool, args, at, own) : undefined;
  if (source)
    return unwrap(
      `delegate:${tool}`,
      2,
      `${tool} ${source.text}: the package it downloads and runs comes from elsewhere, code no one has seen`,
    );
  const c = args.findIndex((w) => w.text === "-c" || w.text === "--call");
  if (c >= 0 && args[c + 1]) return unwrap(`delegate:${tool}`, 1, "runs a package binary", { code: [(args[c + 1] as Word).text] });
  if (rest.length === 0 || !first) return unwrap(`delegate:${tool}`, 2, `${tool} without a command`);
  // `npx .`, `npx ./cli/`: the binary of a package directory of the workspace (foreignSpec let only those through).
  if (/^\.(?:\/.*)?$/.test(first.text) && packageDirInside(first.text, cwd))
    return unwrap(`delegate:${tool}`, 1, "runs the binary of a package directory in the workspace");
  return unwrap(`delegate:${tool}`, 1, "runs a package binary", { inner: [[{ ...first, text: bin }, ...rest.slice(1)]] });
}

/** pnpm's shell mode (`pnpm -c exec 'CMD'`, `pnpm exec --shell-mode CMD`): the command line runs through a shell. */
function pnpm(args: Word[], cwd: string | undefined): Unwrap | null {
  const found = leading(args, PNPM_LEADING);
  if (found.unknown) return unknownOption("pnpm", found.unknown);
  // `--config.KEY=VALUE` anywhere sets any .npmrc key for this run: script-shell, node-options (round 25).
  const setting = args.find((w) => /^--config\.(?!registry=)/.test(w.text) || (w.dynamic && w.text.startsWith("--")));
  if (setting)
    return unwrap("delegate:pnpm-config", 2, `pnpm ${setting.text}: sets configuration that may name the shell or code scripts run with`);
  const at = found.at;
  const sub = args[at]?.text;
  // `pnpm recursive exec …` / `pnpm multi …` / `pnpm m …` are `pnpm -r …` (review 24: `pnpm recursive exec CMD` was tier 1).
  if ((sub === "recursive" || sub === "multi" || sub === "m") && args.length > at + 1)
    return pnpm([...args.slice(0, at), { ...(args[at] as Word), text: "-r" }, ...args.slice(at + 1)], cwd);
  if (sub === "dlx") return npx("pnpm-dlx", args.slice(at + 1), cwd, args.slice(0, at));
  // A name that is no pnpm command and no script runs as `pnpm exec NAME` (`pnpm sh -c …`, `pnpm printenv`).
  const name = args[at];
  if (name && !PNPM_COMMANDS.has(name.text) && runsAsProgram(name, cwd, args.slice(0, at))) return npx("pnpm-exec", args.slice(at), cwd);
  if (sub !== "exec") return leadingOptions("pnpm", args, at);
  // exec's own options come before the command; a -c after the command is the command's own (`pnpm exec sh -c …`).
  const after = args.slice(at + 1);
  let i = 0;
  while (i < after.length && !(after[i] as Word).dynamic && (after[i] as Word).text.startsWith("-"))
    i += /^(--filter|-F|--resume-from|--workspace-concurrency|--report-summary-file)$/.test((after[i] as Word).text) ? 2 : 1;
  const own = [...args.slice(0, at), ...after.slice(0, i)];
  const shellMode = own.some((w) => w.text === "-c" || w.text === "--shell-mode");
  if (!shellMode) return npx("pnpm-exec", after.slice(i), cwd);
  const cmd = after.slice(i);
  const runs = new Runs();
  if (cmd.length) runs.add(joinWords(cmd), 1, "pnpm runs a command line through a shell");
  else runs.raise(2, "pnpm exec without a command");
  return runs.result("delegate:pnpm-exec");
}

// The options pnpm, yarn and bun take before their subcommand, by what they do:
//   flag, value: change nothing a rule judges (the command is judged again without them);
//   dir: the command runs in the value (`-C DIR`, `--dir`, `--cwd`);
//   setting (with a value), info (without): known, but they change what runs or what is shown, so the
//   command keeps the path its rules give it.
// Any other option may take the next word as its value: the words after it cannot be told apart.
type LeadingKind = "flag" | "value" | "dir" | "setting" | "info";
const LEADING = new Map<string, LeadingKind>([
  ...[
    "-s",
    "--silent",
    "--verbose",
    "--json",
    "--frozen-lockfile",
    "--immutable",
    "--offline",
    "--prefer-offline",
    "--non-interactive",
    "--no-progress",
    "-w",
    "--workspace-root",
    "-r",
    "--recursive",
    "--if-present",
    "--parallel",
    "--stream",
    "--aggregate-output",
    "--no-bail",
    "--sort",
    "--fail-if-no-match",
    "--color",
    "--no-color",
  ].map((o): [string, LeadingKind] => [o, "flag"]),
  ...["--filter", "-F", "--reporter", "--loglevel", "--workspace-concurrency", "--elide-lines"].map((o): [string, LeadingKind] => [
    o,
    "value",
  ]),
  ...["-C", "--dir", "--cwd"].map((o): [string, LeadingKind] => [o, "dir"]),
  ...["--config", "-c", "--env-file"].map((o): [string, LeadingKind] => [o, "setting"]),
  ...["-v", "--version", "-h", "--help"].map((o): [string, LeadingKind] => [o, "info"]),
]);

interface Leading {
  /** Where the subcommand is: the first word that is no option or option value. */
  at: number;
  /** `-C DIR` / `--dir=DIR` / `--cwd DIR`: where the command runs. */
  chdir?: Word;
  /** The first option that is not dropped when the command is judged again (a setting, info, a second chdir). */
  kept?: Word;
  /** The first option not known (or computed): it may take the next word as its value. */
  unknown?: Word;
}

/** pnpm's own meanings: `-c` is its shell mode (no value). */
const PNPM_LEADING = new Map<string, LeadingKind>([...LEADING, ["-c", "info"], ["--shell-mode", "info"], ["--workspace-dir", "setting"]]);

/**
 * bun's own run-time flags that load nothing (`--watch`, `--hot`); `-e`/`--eval` is judged as the code it runs.
 * For bun, `-r` is --preload, and a bunfig (`-c`/`--config`) or an env file can preload code: not known here.
 */
const BUN_LEADING = new Map<string, LeadingKind>([
  ...[...LEADING].filter(([o]) => !["-r", "-c", "--config", "--env-file"].includes(o)),
  ...["--watch", "--hot", "--smol", "--bun", "--no-install", "--no-clear-screen", "-e", "--eval", "-p", "--print"].map(
    (o): [string, LeadingKind] => [o, "info"],
  ),
]);

/** The leading options of pnpm, yarn or bun in `args` (from the start, until the first other word). */
function leading(args: readonly Word[], known: ReadonlyMap<string, LeadingKind> = LEADING): Leading {
  const out: Leading = { at: 0 };
  let i = 0;
  while (i < args.length && (args[i] as Word).text.startsWith("-")) {
    const w = args[i] as Word;
    const eq = w.text.indexOf("=");
    const name = w.text.startsWith("--") && eq > 0 ? w.text.slice(0, eq) : w.text;
    const kind = w.dynamic ? undefined : known.get(name);
    const inline = name !== w.text;
    // A value may come in the same word (`--dir=sub`), else it is the next word.
    const takes = kind === "value" || kind === "dir" || kind === "setting";
    const value = takes ? (inline ? { ...w, text: w.text.slice(eq + 1) } : args[i + 1]) : undefined;
    // A second directory (`-C a -C b`): which one wins is the tool's business, not a guess of ours.
    if (kind === undefined || (inline && !takes) || (kind === "dir" && out.chdir !== undefined)) out.unknown ??= w;
    else if (kind === "dir" && value !== undefined) out.chdir = value;
    else if (kind !== "flag" && kind !== "value") out.kept ??= w;
    i += takes && !inline ? 2 : 1;
  }
  out.at = Math.min(i, args.length);
  return out;
}

/** An option before the subcommand that is not known may take a value: the words after it cannot be told apart. */
function unknownOption(tool: string, odd: Word): Unwrap | null {
  const runs = new Runs();
  runs.raise(
    2,
    `${odd.text} before ${tool}'s subcommand is not a known option (or a second directory): it may take a value, run a program, write or read a file`,
  );
  return runs.result(`delegate:${tool}-options`);
}

/**
 * `pnpm --silent add x`, `pnpm -C sub publish`, `yarn --cwd sub add x`: a subcommand after leading options
 * was matched by no rule but `pnpm *` / `yarn *` (tier 1, "the project's own scripts"), so installs,
 * publishes and config writes slipped (review 26). The command is judged again without them.
 */
function leadingOptions(tool: string, args: Word[], at: number): Unwrap | null {
  if (at === 0 || at >= args.length) return null;
  const found = leading(args.slice(0, at), tool === "pnpm" ? PNPM_LEADING : LEADING);
  if (found.unknown) return unknownOption(tool, found.unknown);
  if (found.at !== at || found.kept) return null;
  return unwrap(`delegate:${tool}-options`, 0, `${tool} with leading options`, {
    inner: [[literalWord(tool), ...args.slice(at)]],
    ...(found.chdir ? { chdir: found.chdir } : {}),
  });
}

/** `bun x …` is bunx; `bun exec 'code'` runs code with Bun's shell (after bun's own options: `bun --silent x …`). */
function bun(all: Word[], cwd?: string): Unwrap | null {
  const args = afterOptions(all);
  const sub = args[0]?.text;
  if (sub === "x") return npx("bun-x", args.slice(1), cwd);
  if (sub !== "exec") return null;
  const code = args.slice(1);
  if (code.length === 0) return null;
  const runs = new Runs();
  runs.add(joinWords(code), 0, "bun exec runs shell code");
  return runs.result("delegate:bun-exec");
}

const RUN = new Set(["run", "run-script", "rum", "urn"]);

/**
 * `npm run env`, `yarn run env` (`yarn env`), `bun run env` (`bun env`):
 * the package manager's built-in `env` script prints the environment its
 * scripts get — bun's with the project's .env files loaded — so it is
 * judged as `env` (a package.json script named env, which takes precedence,
 * is judged so too). `tool` is the program, `args` its words after any
 * leading options.
 */
function envScript(tool: string, args: Word[]): Unwrap | null {
  const named = scriptFirst(tool, args) ?? args;
  const sub = named[0]?.text ?? "";
  const afterRun = named[1]?.text === "--" ? named[2] : named[1];
  const script = RUN.has(sub) ? afterRun : tool !== "npm" ? named[0] : undefined;
  if (script?.text !== "env" || script.dynamic) return null;
  return unwrap(`delegate:${tool}-env`, 1, `${tool}'s built-in env script prints the environment its scripts get`, {
    inner: [[literalWord("env")]],
  });
}

/** The words after a bun's or yarn's own leading options (`bun --silent run env`). */
function afterOptions(args: Word[]): Word[] {
  return args.slice(leading(args).at);
}

const NODEMON_VALUES = new Set([
  "-w",
  "--watch",
  "-e",
  "--ext",
  "-i",
  "--ignore",
  "-d",
  "--delay",
  "-s",
  "--signal",
  "--config",
  "-x",
  "--exec",
]);

/** `nodemon -x CMD [script]` / `--exec CMD`: nodemon runs CMD (with the script appended) through a shell. */
function nodemon(args: Word[]): Unwrap | null {
  const { values, rest } = pullOptions(args, { longs: ["--exec"], shorts: "x" });
  if (values.length === 0) return null;
  const operands = rest.filter((w, i) => !w.text.startsWith("-") && !NODEMON_VALUES.has(rest[i - 1]?.text ?? ""));
  const runs = new Runs();
  for (const v of values) runs.add(v, 0, "nodemon runs a command on each change", operands.map((w) => shQuote(w.text)).join(" "));
  return runs.result("delegate:nodemon", [[literalWord("nodemon"), ...rest]]);
}

export const npxDelegate: Delegate = (name, args, _stdin, cwd) => npx(name, args, cwd);

export const pnpmDelegate: Delegate = (_name, args, _stdin, cwd) => pnpm(args, cwd);

export const yarnDelegate: Delegate = (name, args, stdin, cwd) => {
  // An option before the subcommand that is not known may take a value (`yarn --cache-folder /tmp/c add x`): the
  // words after it cannot be told apart, so the command is not judged as whatever they seem to be.
  const odd = leading(args).unknown;
  if (odd) return unknownOption(name, odd);
  // The subcommand comes after yarn's own options (`yarn --silent exec …`).
  const rest = afterOptions(args);
  const sub = rest[0]?.text ?? "";
  if (sub === "dlx") return npx(`${name}-dlx`, rest.slice(1), cwd);
  // `yarn exec CMD…` runs its words as one shell command line (yarn's shell), as `pnpm exec -c` does:
  // `yarn exec 'rm -rf /root/x'` was judged as a workspace script named by the whole line (review 26).
  if (sub === "exec") {
    const cmd = rest.slice(1);
    if (cmd.length <= 1 || cmd.some((w) => /[\s;&|<>`$()]/.test(w.text))) {
      const runs = new Runs();
      if (cmd.length) runs.add(joinWords(cmd), 1, "yarn exec runs a command line through a shell");
      else runs.raise(2, "yarn exec without a command");
      return runs.result(`delegate:${name}-exec`);
    }
    return npx(`${name}-exec`, cmd, cwd);
  }
  // `yarn node ARGS` runs node with yarn's environment.
  if (sub === "node") return npx(`${name}-node`, rest);
  // `yarn run NAME …` runs a binary of the project's dependencies when NAME is no script (`yarn run rimraf ~`, round
  // 23): judged as that program, as `yarn NAME` is.
  const target = rest[1];
  if (sub === "run" && target && !target.text.startsWith("-") && runsAsProgram(target, cwd, args))
    return npx(`${name}-exec`, rest.slice(1));
  // `yarn workspace W CMD…` runs another yarn command in W; `workspaces foreach` runs one in every workspace.
  if (sub === "workspace" && rest.length > 2) {
    const inner = rest.slice(2);
    const script = inner[0];
    // A script of one of the workspace's packages keeps yarn's rule; anything else is judged as yarn would run it.
    if (script && !script.dynamic && !YARN_COMMANDS.has(script.text) && isWorkspaceScript(script.text, cwd)) return null;
    // Round 23: a yarn command the delegate has nothing to say of (`add`, `publish`, `plugin import URL`) is judged by
    // the rules as `yarn CMD…` would be, not left to the outer `yarn *` (tier 1).
    return (
      yarnDelegate(name, inner, stdin, cwd) ??
      unwrap(`delegate:${name}-workspace`, 1, "yarn workspace runs a yarn command in one workspace", {
        inner: [[literalWord(name), ...inner]],
      })
    );
  }
  if (sub === "workspaces" && rest[1]?.text === "foreach")
    return unwrap(`delegate:${name}-foreach`, 2, "yarn workspaces foreach runs a command in every workspace");
  // A name that is no yarn command and no script runs as a program (`yarn rimraf ~`: a binary of node_modules/.bin).
  const first = rest[0];
  if (first && !first.text.startsWith("-") && !YARN_COMMANDS.has(first.text) && runsAsProgram(first, cwd, args))
    return npx(`${name}-exec`, rest);
  return envScript("yarn", rest) ?? leadingOptions(name, args, args.length - rest.length);
};

export const npmDelegate: Delegate = (_name, args, _stdin, cwd) => {
  const sub = args[0]?.text ?? "";
  if (sub === "pack") return npmPack(args.slice(1));
  return sub === "exec" || sub === "x" ? npx("npm-exec", args.slice(1), cwd) : envScript("npm", args);
};

/** A package spec npm prepares by running its scripts: a git repository (`github:u/r`, `u/r`, `git+https://…`). */
const GIT_SPEC = /^(?:git(?:\+[a-z]+)?:|github:|gitlab:|bitbucket:|gist:|[\w.-]+\/[\w.-]+(?:#.*)?$|[\w.-]+@[\w.-]+:)/i;

/**
 * `npm pack SPEC` (with --dry-run too) prepares what it packs: a git spec is cloned and installed (its preinstall,
 * install, postinstall and prepare run), a directory runs its prepack and prepare (round 23: both ran for real). A
 * directory of the workspace is the workspace's own code; one elsewhere, or a git spec, is code no one has seen.
 */
function npmPack(args: readonly Word[]): Unwrap | null {
  const foreign = args.find(
    (w) =>
      !w.text.startsWith("-") && (w.dynamic || GIT_SPEC.test(w.text) || /^(?:\/|~|file:)/.test(w.text) || w.text.split("/").includes("..")),
  );
  return foreign
    ? unwrap(
        "delegate:npm-pack",
        2,
        `npm pack ${foreign.text} runs that package's scripts (prepare, prepack; a git spec's install scripts)`,
      )
    : null;
}

/** bun's commands that install, remove, upgrade or publish packages (network, install scripts), or scaffold a project. */
const BUN_INSTALLS = new Set([
  "a",
  "add",
  "i",
  "install",
  "remove",
  "rm",
  "update",
  "upgrade",
  "link",
  "unlink",
  "pm",
  "publish",
  "patch",
  "create",
  "c",
  "init",
]);

/** bun's options naming code it loads or a place it writes, in the `--opt=VALUE` form: outside the workspace, judged. */
const BUN_PLACED =
  /^--(preload|config|reporter-outfile|coverage-dir|outdir|outfile|out-dir|env-file|cwd|require|import|tsconfig-override|root|public-dir|sourcemap-dir)=(.*)$/s;

export const bunDelegate: Delegate = (_name, args, _stdin, cwd) => {
  // An option before bun's subcommand or script that is not known (`--preload=/opt/x.js`, `--config=…`) may load code.
  const odd = leading(args, BUN_LEADING).unknown;
  if (odd) return unknownOption("bun", odd);
  const own = bun(args, cwd);
  if (own) return own;
  const rest = afterOptions(args);
  const first = rest[0];
  // Options after the subcommand that load code or write where they say, glued (`bun test --preload=/tmp/x.js`,
  // `--reporter-outfile=~/.bashrc`; round 25: only the spaced forms were seen), and the REPL fed by its input.
  const glued = rest.find((w) => {
    const m = BUN_PLACED.exec(w.text);
    return m !== null && (w.dynamic || outside(m[2] ?? ""));
  });
  if (glued) return unwrap("delegate:bun-options", 2, `bun ${glued.text}: loads code from, or writes to, a place outside the workspace`);
  if (first?.text === "repl") return unwrap("delegate:bun-repl", 2, "bun repl runs what its input says");
  if (first && BUN_INSTALLS.has(first.text))
    return unwrap("delegate:bun-install", 2, "bun installs, removes, upgrades or publishes packages, or scaffolds a project");
  // A name that is no bun command, no file and no script runs as a program (`bun sh -c …`, `bun run sh -c …`).
  const runAt = first?.text === "run" ? (rest[1]?.text === "--" ? 2 : 1) : 0;
  const named = rest[runAt];
  if (
    named &&
    !named.text.startsWith("-") &&
    !/[./]/.test(named.text) &&
    (runAt > 0 || !BUN_COMMANDS.has(named.text)) &&
    runsAsProgram(named, cwd, args)
  )
    return npx("bun-run", rest.slice(runAt));
  return envScript("bun", rest);
};

export const nodemonDelegate: Delegate = (_name, args) => nodemon(args);

export const npmTargets: Spec = optionValueSpec(["--prefix", "-C"], true);

/** node's options whose value is a file or directory it writes: reports, profiles, warnings, TLS keys, storage. */
const NODE_WRITES = new Set([
  "--diagnostic-dir",
  "--report-dir",
  "--report-directory",
  "--report-filename",
  "--cpu-prof-dir",
  "--cpu-prof-name",
  "--heap-prof-dir",
  "--heap-prof-name",
  "--redirect-warnings",
  "--trace-event-file-pattern",
  "--tls-keylog",
  "--localstorage-file",
  "--test-reporter-destination",
]);
/** node's other options that take the next word as their value (so the script operand is found). */
const NODE_VALUES = new Set([
  "-r",
  "--require",
  "--import",
  "--loader",
  "--experimental-loader",
  "-C",
  "--conditions",
  "--title",
  "--input-type",
  "--env-file",
  "--stack-size",
  "--inspect-port",
  "--watch-path",
  "--disable-warning",
  "--openssl-config",
  "--icu-data-dir",
  "--test-reporter",
]);

/**
 * `node --diagnostic-dir=/x app.js`, `--report-directory`, `--cpu-prof-dir`,
 * `--redirect-warnings=/x`: the places node writes, before the script
 * (review 34: they were "runs a script from the workspace", tier 1, wherever they pointed).
 */
export const nodeTargets: Spec = (args) => {
  const out: Target[] = [];
  for (let i = 0; i < args.length; i++) {
    const w = args[i] as Word;
    if (w.dynamic || !w.text.startsWith("-") || w.text === "-" || w.text === "--") break;
    const eq = w.text.indexOf("=");
    const opt = eq > 0 ? w.text.slice(0, eq) : w.text;
    if (!NODE_WRITES.has(opt)) {
      if (eq < 0 && NODE_VALUES.has(opt)) i++;
      continue;
    }
    const value = eq > 0 ? { ...w, text: w.text.slice(eq + 1) } : args[++i];
    if (value !== undefined && !/^(stdout|stderr)$/.test(value.text)) out.push({ word: value, mode: "write" });
  }
  return out;
};
