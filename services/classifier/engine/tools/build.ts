// Build tools: make's --eval text, SHELL= and $(shell …) variables; cmake -E
// built-in commands and -P scripts; where make works.
import { splitArgs } from "../argv.js";
import { asTargets, cwdWord, optionValueSpec } from "../targets.js";
import type { Spec, Target } from "../targets.js";
import type { Word } from "../types.js";
import { literalWord, unwrap } from "../unwrap.js";
import type { Delegate, Unwrap } from "../unwrap.js";
import { riskyValue } from "../risky-value.js";
import { commandLineValue, toolVariable } from "../tool-variables.js";
import { pullOptions, Runs } from "./runs.js";

/** `$(shell cmd)` and `VAR != cmd` in make text: shell code make runs while reading it. */
function makeShell(text: string): string[] {
  const out = [...text.matchAll(/\$[({]shell\s+([^)}]*)[)}]/g)].map((m) => m[1] ?? "");
  for (const m of text.matchAll(/!=\s*([^\n]*)/g)) out.push(m[1] ?? "");
  return out;
}

/** make variables (and cmake cache entries) naming a program the build runs. */
const TOOL_VAR =
  /^(?:-D)?((?:CMAKE_[A-Z]+_COMPILER(?:_LAUNCHER)?|CMAKE_[A-Z]+_LINKER_LAUNCHER|CMAKE_CROSSCOMPILING_EMULATOR|CMAKE_(?:LINKER|AR|RANLIB|MAKE_PROGRAM|STRIP|OBJCOPY|NM)|CC|CXX|CPP|LD|AR|AS|FC|RANLIB|STRIP|NM|OBJCOPY|OBJDUMP|YACC|LEX|M4|PKG_CONFIG|PYTHON|PERL|INSTALL|GO|CARGO|RUSTC|NODE|HOSTCC|CROSS_COMPILE))(?::[A-Z]+)?[:?]?=(.*)$/s;

/**
 * cmake cache entries naming CMake code the configure step runs (review 31: `-DCMAKE_TOOLCHAIN_FILE=/root/x.cmake`
 * was tier 1, while `--toolchain` and `-C` are judged): the toolchain file, the project includes, the rules overrides.
 */
const CMAKE_CODE_VAR =
  /^-D(CMAKE_TOOLCHAIN_FILE|CMAKE_PROJECT_(?:[A-Za-z0-9_]+_)?INCLUDE(?:_BEFORE)?|CMAKE_PROJECT_TOP_LEVEL_INCLUDES|CMAKE_USER_MAKE_RULES_OVERRIDE(?:_[A-Z]+)?)(?::[A-Z]+)?=(.*)$/s;

/** A program named by path that is not the system's (`/usr/bin/clang` is as `clang`): its place decides. */
function foreignProgram(value: string): boolean {
  const prog = value.trim().split(/[\s;]+/)[0] ?? "";
  return prog.includes("/") && !(/^\/(usr\/|bin\/|sbin\/)/.test(prog) && !prog.split("/").includes(".."));
}

/**
 * A `NAME=VALUE` operand that, in the environment, changes what the recipes' programs run or load: NAME with why.
 * The program variables TOOL_VAR lists are make's own, judged below by the place they name.
 */
function environmentVariable(w: Word): string | null {
  const m = /^([A-Za-z_][A-Za-z0-9_]*)[:?]?=(.*)$/s.exec(w.text);
  if (!m) return null;
  const [name, value] = [m[1] as string, w.dynamic ? null : (m[2] as string)];
  if (riskyValue(name, value)) return `${name} changes what the recipes' programs run or load`;
  const why = TOOL_VAR.test(w.text) ? null : toolVariable(name, value);
  return why === null ? null : `${name}: ${why}`;
}

/** make --eval/-E TEXT (makefile text: `$(shell …)`, new recipes), SHELL= overrides and variables holding `$(shell …)`. */
function make(name: string, args: Word[]): Unwrap | null {
  const runs = new Runs();
  const { values, rest } = pullOptions(args, { longs: ["--eval"], shorts: "E" });
  for (const v of values) {
    runs.opaque.push(v.text);
    for (const c of makeShell(v.text)) runs.add({ ...v, text: c }, 2, "make evaluates makefile text given on the command line");
    runs.raise(2, "make evaluates makefile text given on the command line");
  }
  const kept: Word[] = [literalWord(name)];
  for (const w of rest) {
    // `make MAKEFILES=/opt/x.mk`: make reads those makefiles first (their `$(shell …)` runs even under -n).
    const makefiles = /^MAKEFILES[:?+]?=(.*)$/s.exec(w.text);
    if (makefiles) {
      for (const f of (makefiles[1] ?? "").split(/\s+/).filter(Boolean)) runs.inner.push([literalWord("\u0000script"), { ...w, text: f }]);
      if (w.dynamic) runs.raise(2, "make reads makefiles named at run time");
      else runs.raise(0, "make reads the makefiles MAKEFILES names first");
      continue;
    }
    // `make PYTHONPATH=/tmp/x test`: make exports its command-line variables to every recipe (GNU make manual 5.7.2),
    // so they are judged as the same names given as a prefix (`PYTHONPATH=/tmp/x make test`) are (round 28).
    const exported = environmentVariable(w);
    if (exported) {
      runs.opaque.push(w.text);
      runs.raise(2, `make exports its command-line variables to every recipe: ${exported}`);
      continue;
    }
    const shellVar = /^(SHELL|\.SHELLFLAGS|MAKESHELL)[:?]?=(.*)$/s.exec(w.text);
    const assign = /^[A-Za-z_.][\w.]*([:+?!]?)=(.*)$/s.exec(w.text);
    const why = "a make variable given on the command line runs a shell command";
    const tool = TOOL_VAR.exec(w.text);
    if (tool && commandLineValue(tool[2] ?? "")) {
      // `make CC='sh -c "…" #'`: make runs the value through sh, the recipe's words after it.
      runs.add({ ...w, text: tool[2] ?? "" }, 2, `make runs ${tool[1]}'s value, a command line, as its ${tool[1]} program`);
    } else if (tool && foreignProgram(tool[2] ?? "")) {
      // `make CC=/opt/x`: the build runs the program the variable names (its place decides; `CC=clang` is on PATH).
      runs.inner.push([literalWord("\u0000script"), { ...w, text: (tool[2] ?? "").trim().split(/\s+/)[0] ?? "" }]);
      runs.raise(0, `make runs ${tool[1]} as its ${tool[1]} program`);
    } else if (shellVar) {
      runs.opaque.push(shellVar[2] ?? "");
      runs.raise(2, `make runs its recipes through ${shellVar[1]}`);
    } else if (assign?.[1] === "!") runs.add({ ...w, text: assign[2] ?? "" }, 2, why);
    else if (assign && makeShell(assign[2] ?? "").length) for (const c of makeShell(assign[2] ?? "")) runs.add({ ...w, text: c }, 2, why);
    // Any other assignment with a function or a reference in it (make's parser takes `X != cmd`, `Y ::= …`,
    // `a$(shell …)b=1`, and `$(file >F,TEXT)` writes F): expanded at once, even under -n (round 25).
    else if (w.text.includes("=") && (w.dynamic || /\$[({]|!=/.test(w.text))) {
      runs.opaque.push(w.text);
      runs.raise(2, "make expands a variable given on the command line: its functions run, $(file …) writes, even under -n");
    } else kept.push(w);
  }
  return runs.result(`delegate:${name}`, [kept]);
}

/** `cmake -E CMD …` runs a portable built-in command; `cmake -P file` runs a CMake script. */
const CMAKE_E: Record<string, string[] | null> = {
  rm: ["rm"],
  remove: ["rm"],
  remove_directory: ["rm", "-r"],
  make_directory: ["mkdir", "-p"],
  copy: ["cp"],
  copy_directory: ["cp", "-r"],
  copy_directory_if_different: ["cp", "-r"],
  copy_if_different: ["cp"],
  rename: ["mv"],
  create_symlink: ["ln", "-s"],
  create_hardlink: ["ln"],
  touch: ["touch"],
  touch_nocreate: ["touch", "-c"],
  cat: ["cat"],
  echo: ["echo"],
  echo_append: ["echo"],
  md5sum: ["md5sum"],
  sha1sum: ["sha1sum"],
  sha224sum: ["sha224sum"],
  sha256sum: ["sha256sum"],
  sha384sum: ["sha384sum"],
  sha512sum: ["sha512sum"],
  sleep: ["sleep"],
  true: ["true"],
  false: ["false"],
  tar: ["tar"],
  compare_files: ["cmp"],
  capabilities: ["true"],
  environment: ["env"],
  env: ["env"],
  time: ["time"],
  chdir: null,
};

function cmake(args: Word[]): Unwrap | null {
  const e = args.findIndex((w) => w.text === "-E");
  if (e >= 0) {
    const cmd = args[e + 1];
    if (!cmd) return null;
    const as = Object.hasOwn(CMAKE_E, cmd.text) ? CMAKE_E[cmd.text] : undefined;
    const rest = args.slice(e + 2);
    if (as === undefined) return unwrap("delegate:cmake-E", 2, `cmake -E ${cmd.text}: a built-in command not known here`);
    // `cmake -E chdir DIR CMD …` runs CMD in DIR: judged from the outside.
    if (as === null) return unwrap("delegate:cmake-E", 2, "cmake -E chdir runs a command in another directory", { inner: [rest.slice(1)] });
    return unwrap("delegate:cmake-E", 0, `cmake -E ${cmd.text} runs a built-in command`, { inner: [[...as.map(literalWord), ...rest]] });
  }
  const p = args.findIndex((w) => w.text === "-P");
  const script = p >= 0 ? args[p + 1] : undefined;
  if (script) return unwrap("delegate:cmake-P", 0, "cmake runs a CMake script", { inner: [[literalWord("\u0000script"), script]] });
  // `-DCMAKE_C_COMPILER=/opt/x` (also `-D NAME=VALUE`): the build runs the program the cache entry names.
  const progs: Word[] = [];
  const others: Word[] = [];
  let lines = false;
  for (let i = 0; i < args.length; i++) {
    const w = args[i] as Word;
    const pair = w.text === "-D" && args[i + 1] !== undefined;
    const text = pair ? `-D${(args[i + 1] as Word).text}` : w.text;
    const m = text.startsWith("-D") ? TOOL_VAR.exec(text) : null;
    const code = text.startsWith("-D") ? CMAKE_CODE_VAR.exec(text) : null;
    if (m && commandLineValue(m[2] ?? "", true)) {
      lines = true;
      if (pair) i++;
    } else if (m && foreignProgram(m[2] ?? "")) {
      progs.push({ ...w, text: (m[2] ?? "").trim().split(/[\s;]+/)[0] ?? "" });
      if (pair) i++;
    } else if (code) {
      // CMake code the configure step includes: each file (a `;` list for the top-level includes) judged where it is.
      for (const f of (code[2] ?? "").split(";").filter(Boolean)) progs.push({ ...w, text: f });
      if (pair) i++;
    } else others.push(w);
  }
  if (progs.length || lines)
    return unwrap(
      "delegate:cmake-D",
      lines ? 2 : 0,
      lines
        ? "a cache entry names a command line (a shell or interpreter given code) as a program the build runs"
        : "cmake's build runs the programs and CMake files its cache entries name",
      { inner: [[literalWord("cmake"), ...others], ...progs.map((w) => [literalWord("\u0000script"), w])] },
    );
  return null;
}

export const makeDelegate: Delegate = (name, args) => make(name, args);

export const cmakeDelegate: Delegate = (_name, args) => cmake(args);

export const makeTargets: Spec = optionValueSpec(["-C", "--directory", "-f", "--file"], true);

// ninja -C DIR runs DIR/build.ninja and writes there; -f FILE runs another file's rules (like make's).
export const ninjaTargets: Spec = optionValueSpec(["-C", "-f"], true);

/** The working directory, written by a build tool that runs there (dropped for a read verb: effects.ts CWD_WRITERS). */
const implicitCwd = (): Target => ({ word: cwdWord(), mode: "write", implicit: true });

// cargo's global options that take a value (before the subcommand).
const CARGO_GLOBAL_VALUES = new Set(["--color", "-Z", "--config", "-C"]);
// Values of the subcommands' options, so operands are found (new/init/vendor take a path).
const CARGO_VALUES = new Set([
  "--target-dir",
  "--manifest-path",
  "-p",
  "--package",
  "--vcs",
  "--name",
  "--edition",
  "--registry",
  "-s",
  "--sync",
  "--profile",
  "--target",
  "--features",
  "-F",
  "-j",
  "--jobs",
  "--color",
  "-Z",
  "--config",
  "--lockfile-path",
  "--artifact-dir",
  "--out-dir",
  "--root",
]);

/**
 * What cargo writes besides its workspace: `--target-dir` (emptied whole by
 * `cargo clean`), `--artifact-dir`/`--out-dir`, `cargo install --root`, the
 * package `cargo new`/`init` creates, the directory `cargo vendor` fills
 * (emptying it first unless `--no-delete`).
 */
export const cargoTargets: Spec = (args) => {
  let i = 0;
  // Global options and rustup's `+toolchain` come before the subcommand.
  while (i < args.length && /^[-+]/.test((args[i] as Word).text)) i += CARGO_GLOBAL_VALUES.has((args[i] as Word).text) ? 2 : 1;
  const sub = args[i]?.text;
  const a = splitArgs(args.slice(i + 1), CARGO_VALUES);
  const out: Target[] = [implicitCwd()];
  const dir = a.values.get("--target-dir");
  if (dir) out.push({ word: dir, mode: sub === "clean" ? "tree" : "write" });
  for (const o of ["--artifact-dir", "--out-dir", "--root"]) {
    const v = a.values.get(o);
    if (v) out.push({ word: v, mode: "write" });
  }
  if (sub === "new" || sub === "init") out.push(...asTargets(a.positional.slice(0, 1), "write"));
  if (sub === "vendor") {
    const into = a.positional.slice(0, 1);
    out.push(...asTargets(into, a.flags.includes("--no-delete") ? "write" : "tree"));
  }
  return out;
};

/** gofmt/goimports -w rewrite their operands in place. */
export const gofmtTargets: Spec = (args) => {
  const a = splitArgs(args, new Set(["-r", "-cpuprofile", "-local", "-srcdir"]));
  const writes = a.flags.some((f) => f === "-w" || f === "--w" || /^--?w=(true|1|t|T|TRUE|True)$/.test(f));
  return [implicitCwd(), ...(writes ? asTargets(a.positional, "write") : [])];
};
