// Shells and language interpreters: `bash -c CODE` and code fed to a shell on
// stdin are parsed and judged; eval of literal words likewise. Inline code in
// other languages (python -c, node -e, perl -e …) and code only known at run
// time are at least tier 2 and scanned by the danger vetoes.
import type { StdinSource, Word } from "./types.js";
import { joinWords, literalWord, unwrap } from "./unwrap.js";
import type { Unwrap } from "./unwrap.js";

export const SHELLS = new Set(["bash", "sh", "zsh", "dash", "ksh", "ash", "mksh", "fish", "busybox", "rbash", "tcsh", "csh"]);
const SHELL_VALUES = new Set(["-o", "+o", "-O", "+O", "--rcfile", "--init-file"]);
/** Shells whose -n reads commands without running them. */
const NOEXEC_SHELLS = new Set(["bash", "sh", "dash", "ksh", "mksh", "ash", "zsh", "rbash"]);

const INLINE: Record<string, RegExp> = {
  python: /^-[a-zA-Z]*c$/,
  node: /^(-e|--eval|-p|--print|-pe)$/,
  perl: /^-[a-zA-Z]*[eE]$/,
  ruby: /^-[a-zA-Z]*e$/,
  php: /^-r$/,
  lua: /^-e$/,
  Rscript: /^-e$/,
  osascript: /^-e$/,
  deno: /^eval$/,
  bun: /^(-e|--eval|-p|--print)$/,
  tclsh: /^-c$/,
  pwsh: /^(-c|-Command|-command)$/,
  jshell: /^-c$/,
  awk: /^$/,
  // -E/--print evaluate and print (round 28: `julia -E ENV` printed the environment).
  julia: /^(-e|-E|--eval|--print)$/,
  php8: /^-r$/,
  // --erl passes flags to the Erlang VM (`-eval`, `-s M F`), --rpc-eval runs code on a node (round 28).
  elixir: /^(-e|--eval|--erl|--rpc-eval)$/,
  octave: /^--eval$/,
  clojure: /^(-e|--eval)$/,
  clj: /^(-e|--eval)$/,
};

/** deno's subcommands that run the script named after their options. */
const DENO_SCRIPT_SUBCOMMANDS = new Set(["run", "serve"]);
/** deno's other subcommands (`eval` is inline code): none names a script file in the workspace. */
const DENO_SUBCOMMANDS = new Set([
  "add",
  "approve-scripts",
  "bench",
  "bundle",
  "cache",
  "check",
  "clean",
  "compile",
  "completions",
  "coverage",
  "doc",
  "fmt",
  "help",
  "i",
  "info",
  "init",
  "install",
  "jupyter",
  "lint",
  "lsp",
  "outdated",
  "publish",
  "remove",
  "repl",
  "task",
  "test",
  "types",
  "uninstall",
  "update",
  "upgrade",
  "vendor",
  "x",
]);

/** `python -m MOD ARGS`: modules whose arguments are Python code (timeit statements, the interactive console). */
const PY_CODE_MODULES = /^(timeit|code)$/;

/** python3.11 → python, nodejs → node, perl5.36 → perl. */
export function interpreterFamily(name: string): string | null {
  if (/^(python|pypy)[0-9.]*$/.test(name)) return "python";
  if (name === "node" || name === "nodejs" || name === "tsx" || name === "ts-node") return "node";
  if (/^perl[0-9.]*$/.test(name)) return "perl";
  if (/^ruby[0-9.]*$/.test(name)) return "ruby";
  if (/^php[0-9.]*$/.test(name)) return "php";
  if (/^lua[0-9.]*$/.test(name) || name === "luajit") return "lua";
  return Object.hasOwn(INLINE, name) ? name : null;
}

function stdinCode(stdin: StdinSource | null, shell: boolean, who: string): Unwrap {
  if (stdin === null) return unwrap(`interpreter:${who}`, 2, `interactive ${who} session`);
  if (stdin.text !== null && !stdin.dynamic && shell) {
    return unwrap(`interpreter:${who}`, stdin.kind === "pipe" ? 2 : 0, `code fed to ${who} on stdin`, { code: [stdin.text] });
  }
  return unwrap(`interpreter:${who}`, 2, `code piped into ${who}`, { opaque: stdin.text !== null ? [stdin.text] : [], computed: true });
}

/** bash's long options that load no code and change no parsing. */
const INERT_LONG = new Set([
  "--posix",
  "--norc",
  "--noprofile",
  "--verbose",
  "--login",
  "--noediting",
  "--restricted",
  "--version",
  "--help",
]);

/**
 * A shell option that changes how the code it runs is read or expanded, which the judge does not follow: `-k` (`-o
 * keyword`: `bash -k -c 'git diff GIT_EXTERNAL_DIFF=./x'` runs ./x), `-O NAME` (`-O nocaseglob`: `cat .EN[V]` reads
 * .env; round 25 raised `shopt -s` so, round 30 the same options given to the shell). A computed value may be either,
 * and so may a long option bash does not list as inert.
 */
function steeringOption(args: readonly Word[]): string | null {
  for (let i = 0; i < args.length; i++) {
    const w = args[i] as Word;
    const t = w.text;
    if (t === "--" || t === "-" || w.dynamic || !/^[-+]/.test(t)) return null;
    if (/^-[a-zA-Z]*k[a-zA-Z]*$/.test(t)) return t;
    // A long option not known to be inert (`--debugger` loads code; others are not bash's).
    if (t.startsWith("--") && !INERT_LONG.has(t)) return t;
    const value = args[i + 1];
    if ((t === "-O" && value) || (t === "-o" && value && (value.dynamic || value.text === "keyword"))) return `${t} ${value?.text}`;
    if (SHELL_VALUES.has(t)) i++;
  }
  return null;
}

function shell(name: string, args: Word[], stdin: StdinSource | null): Unwrap {
  const u = shellCode(name, args, stdin);
  const steer = steeringOption(args);
  if (steer === null || u.floor >= 2) return u;
  return { ...u, floor: 2, reason: `${name} ${steer} changes how the code is read or expanded, which is not judged here` };
}

function shellCode(name: string, args: Word[], stdin: StdinSource | null): Unwrap {
  let i = 0;
  let inline = false;
  let readsStdin = false;
  let noexec = false;
  let interactive = false;
  let known = true;
  while (i < args.length) {
    const t = (args[i] as Word).text;
    if (t === "--" || t === "-") {
      i++;
      break;
    }
    if (!/^[-+]/.test(t) || (args[i] as Word).dynamic) break;
    if (/^-[a-zA-Z]*c[a-zA-Z]*$/.test(t)) inline = true;
    if (/^-[a-zA-Z]*s[a-zA-Z]*$/.test(t)) readsStdin = true;
    if (/^-[a-zA-Z]*n[a-zA-Z]*$/.test(t)) noexec = true;
    if (/^\+[a-zA-Z]*n/.test(t) || SHELL_VALUES.has(t)) noexec = false;
    if (/^-[a-zA-Z]*i/.test(t) || t === "--login" || t === "-l") interactive = true;
    // Only plain single-letter options and a few inert long ones keep -n a syntax check (`--debugger`, `--rcfile` … load code).
    if (!/^[-+][a-zA-Z]+$/.test(t) && !["--posix", "--norc", "--noprofile", "--verbose"].includes(t)) known = false;
    i += SHELL_VALUES.has(t) ? 2 : 1;
  }
  // `sh -n FILE`: a syntax check; nothing runs (an interactive shell ignores -n). The file is read, as cat reads it.
  if (noexec && known && !interactive && NOEXEC_SHELLS.has(name)) {
    const file = inline ? undefined : args[i];
    return unwrap(`interpreter:${name}`, 0, `${name} -n checks syntax without running anything`, {
      inner: file ? [[literalWord("cat"), file]] : [],
    });
  }
  if (name === "busybox") return unwrap("interpreter:busybox", 0, "busybox applet", { inner: [args] });
  const first = args[i];
  if (inline) {
    if (!first) return unwrap(`interpreter:${name}`, 4, `${name} -c without code`);
    // A glob's matches are the code: file names (`find … -exec sh -c "wc -l {}" ;` splices each found name in, round 30).
    if (first.dynamic || first.glob)
      return unwrap(`interpreter:${name}`, 2, `${name} -c runs code computed at run time`, { opaque: [first.text] });
    return unwrap(`interpreter:${name}`, 0, `${name} -c runs this code`, { code: [first.text] });
  }
  if (!first || readsStdin) return stdinCode(stdin, true, name);
  if (fdLike(first)) return fdScript(name, first);
  return unwrap(`interpreter:${name}`, 0, `${name} runs a script file`, { inner: [[literalWord("\u0000script"), first]] });
}

/**
 * A bare number where a script is expected is, in practice, the descriptor of
 * a redirection the grammar split off (`true && sh -i 0</dev/tcp/…`): the
 * interpreter reads code from wherever that redirection points.
 */
const fdLike = (w: Word): boolean => !w.dynamic && /^\d+$/.test(w.text);

function fdScript(name: string, w: Word): Unwrap {
  return unwrap(`interpreter:${name}`, 2, `${name} reads its code from a redirection (${w.text}<…), not from a script file`, {
    computed: true,
  });
}

function evalWords(args: Word[]): Unwrap {
  const { text, dynamic } = joinWords(args);
  if (dynamic) return unwrap("interpreter:eval", 2, "eval of code computed at run time", { opaque: [text] });
  return unwrap("interpreter:eval", 0, "eval runs this code", { code: [text] });
}

/** `trap 'code' SIGNAL`: the code runs later, in this shell. */
function trap(all: Word[]): Unwrap | null {
  const args = all[0]?.text === "--" ? all.slice(1) : all;
  const first = args[0];
  if (!first || /^-[lp]$/.test(first.text) || first.text === "-" || args.length === 1) return null;
  if (first.dynamic || first.glob) return unwrap("interpreter:trap", 2, "trap with code computed at run time", { opaque: [first.text] });
  return unwrap("interpreter:trap", 0, "trap runs this code on a signal", { code: [first.text] });
}

function source(args: Word[]): Unwrap {
  const file = args[0];
  if (!file) return unwrap("interpreter:source", 4, "source without a file");
  return unwrap("interpreter:source", 0, "runs a script in this shell", {
    inner: [
      [literalWord("\u0000script"), file],
      [literalWord("\u0000sourced"), file],
    ],
  });
}

/**
 * Options of an interpreter that take the next word as their value (review 24): without this list `python3 -W
 * ignore -c CODE`, `node --title x -e CODE`, `ruby -I lib -e CODE` took the value for the script and never saw
 * the inline code. `load`: the value is code the interpreter loads (a file or module: judged as a script is);
 * `value`: plain data.
 */
const INTERPRETER_VALUES: Record<string, { load: readonly string[]; value: readonly string[] }> = {
  python: { load: [], value: ["-W", "-X", "--check-hash-based-pycs", "-Q"] },
  node: {
    load: ["-r", "--require", "--import", "--loader", "--experimental-loader", "--test-reporter"],
    value: [
      "-C",
      "--conditions",
      "--title",
      "--input-type",
      "--env-file",
      "--env-file-if-exists",
      "--stack-size",
      "--inspect-port",
      "--test-reporter-destination",
      "--watch-path",
      "--disable-warning",
      "--redirect-warnings",
      "--experimental-policy",
      "--openssl-config",
      "--icu-data-dir",
      "--tls-keylog",
      "--diagnostic-dir",
      "--report-dir",
      "--cpu-prof-dir",
      "--heap-prof-dir",
      "--max-old-space-size",
      "--max-semi-space-size",
      "--unhandled-rejections",
      "--dns-result-order",
      "--secure-heap",
      "--localstorage-file",
    ],
  },
  ruby: { load: ["-r", "-I"], value: ["-C", "-E", "--encoding", "-F", "--external-encoding", "--internal-encoding"] },
  php: { load: ["-c", "-z"], value: ["-d"] },
  lua: { load: ["-l"], value: [] },
  perl: { load: ["-I"], value: [] },
  julia: {
    load: ["-L", "--load", "-J", "--sysimage", "--project"],
    value: [
      "-t",
      "--threads",
      "-p",
      "--procs",
      "-O",
      "-g",
      "--color",
      "--startup-file",
      "--history-file",
      "--compile",
      "--check-bounds",
      "-C",
      "--cpu-target",
    ],
  },
  Rscript: { load: [], value: ["--default-packages"] },
  // Code paths and boot or config files the Erlang VM loads (round 28).
  elixir: { load: ["-r", "-pr", "-pa", "-pz", "--erl-config", "--boot"], value: [] },
  "ts-node": {
    load: ["-r", "--require", "-P", "--project", "-C", "--compiler"],
    value: ["-O", "--compilerOptions", "--cwd", "--scope-dir", "-I", "--ignore"],
  },
};

/** php -d settings that load code, name files it runs or writes, or lift its limits. */
const PHP_CODE_INI =
  /^(?:auto_(?:pre|ap)pend_file|(?:zend_)?extension|extension_dir|include_path|sendmail_path|error_log|mail\.log|disable_functions|disable_classes|open_basedir|allow_url_include|ffi\.\w+|opcache\.preload\w*)\s*=/i;

function other(family: string, name: string, argv: Word[], stdin: StdinSource | null): Unwrap | null {
  let args = argv;
  // clojure -Sdeps EDN adds dependencies (a git URL, a Maven version, a local root) the project does not declare;
  // -Ttools install installs a tool every later `clj -T` runs. Neither value is a script.
  if (
    (family === "clojure" || family === "clj") &&
    args.some((w, i) => /^-Sdeps/.test(w.text) || (w.text === "-Ttools" && /^install/.test(args[i + 1]?.text ?? "")))
  )
    return unwrap(`interpreter:${family}`, 2, `${name} adds dependencies or tools named on the command line: code no one has seen`);
  if (family === "deno") {
    // deno's subcommands are no script files (review 27: `deno upgrade`, `deno x PKG`, `deno init --npm PKG`,
    // `deno install`, `deno jupyter --install` were "runs a script from the workspace", tier 1): the policy judges
    // them. `deno run`/`deno serve` take the script after their own options; `deno eval` is inline code below.
    const at = args.findIndex((w) => w.dynamic || !w.text.startsWith("-"));
    const sub = args[at];
    if (sub !== undefined && !sub.dynamic && DENO_SCRIPT_SUBCOMMANDS.has(sub.text)) args = [...args.slice(0, at), ...args.slice(at + 1)];
    else if (sub !== undefined && !sub.dynamic && DENO_SUBCOMMANDS.has(sub.text)) return null;
  }
  const flag = INLINE[family];
  const values = INTERPRETER_VALUES[family === "node" && name === "ts-node" ? "ts-node" : family];
  const loads: Word[] = [];
  for (let i = 0; i < args.length; i++) {
    const w = args[i] as Word;
    const t = w.text;
    if (values && !w.dynamic && (values.load.includes(t) || values.value.includes(t)) && !(flag && flag.test(t))) {
      const v = args[++i];
      if (v === undefined) break;
      if (family === "php" && t === "-d" && (v.dynamic || PHP_CODE_INI.test(v.text)))
        return unwrap(`interpreter:${family}`, 2, `${name} -d ${v.text} loads code or names a file php runs or writes`, {});
      if (values.load.includes(t)) loads.push(v);
      continue;
    }
    if (family === "php" && /^-d./.test(t) && (w.dynamic || PHP_CODE_INI.test(t.slice(2))))
      return unwrap(`interpreter:${family}`, 2, `${name} ${t} loads code or names a file php runs or writes`, {});
    // python takes few long options; any other is not python's (it refuses it) and is not judged as harmless here.
    if (
      family === "python" &&
      !w.dynamic &&
      t.startsWith("--") &&
      !/^--(help|help-env|help-xoptions|help-all|version|check-hash-based-pycs(=.*)?)$/.test(t)
    )
      return unwrap(`interpreter:${family}`, 2, `${t} is not one of ${name}'s options`, {});
    // perl and ruby: `-S` looks the script up in PATH (`perl -S prove /tmp/x.t` runs /usr/bin/prove), not here.
    if ((family === "perl" || family === "ruby") && !w.dynamic && /^-(?![MmIrxdDeECFilKTW])[a-zA-Z]*S/.test(t))
      return unwrap(`interpreter:${family}`, 2, `${name} ${t} runs a script found in PATH, not one of the workspace`, {});
    // A library directory or file glued to its option (`perl -I/tmp/lib`, `-wI/tmp`, `-Mlib=/tmp`, `ruby -r/tmp/x`):
    // `use`, `BEGIN` and `-r` load run even under `-c`.
    const glued = w.dynamic ? null : gluedLoad(family, t);
    if (glued !== null) {
      loads.push({ ...w, text: glued });
      continue;
    }
    if (flag && flag.test(t) && flag.source !== "^$") {
      const code = args[i + 1]?.text ?? "";
      return unwrap(`interpreter:${family}`, 2, `${name} runs inline code`, { opaque: [code] });
    }
    // `-m MOD`, `-mMOD`, `-Im MOD` (flags bundled before m).
    const m = family === "python" ? /^-[bBdEhiIOPqRsSuvx]*m(.*)$/.exec(t) : null;
    if (m) {
      const mod = m[1] ? [{ ...w, text: m[1] }, ...args.slice(i + 1)] : args.slice(i + 1);
      // Modules whose arguments are Python statements (timeit) or debugger commands (pdb -c): inline code.
      const codeArgs =
        PY_CODE_MODULES.test(mod[0]?.text ?? "") || (mod[0]?.text === "pdb" && mod.some((w) => /^(-c|--command)/.test(w.text)));
      if (codeArgs)
        return unwrap("interpreter:python-m", 2, `${name} -m ${mod[0]?.text} runs inline code`, {
          opaque: mod.slice(1).map((w) => w.text),
        });
      return unwrap("interpreter:python-m", 0, "runs a Python module as a command", { inner: [mod] });
    }
    if (t === "-" && family !== "awk") return stdinCode(stdin, false, name);
    if (fdLike(w)) return fdScript(name, w);
    // An option not known here just before: this word may be its value, and the inline code may come after it.
    const prev = args[i - 1];
    if (
      !w.dynamic &&
      flag &&
      flag.source !== "^$" &&
      prev !== undefined &&
      /^-[^=]*$/.test(prev.text) &&
      args.slice(i + 1).some((x) => flag.test(x.text))
    )
      return unwrap(`interpreter:${family}`, 2, `${name} runs inline code (${prev.text} may take ${t} as its value)`, {
        opaque: args.slice(i + 1).map((x) => x.text),
      });
    if (!t.startsWith("-") || w.dynamic)
      return unwrap(`interpreter:${family}`, 0, `${name} runs a script file`, {
        inner: [[literalWord("\u0000script"), w, ...args.slice(i + 1)], ...loadedScripts(loads)],
      });
    if (/^(-V|--version|-v|--help|-h)$/.test(t) && args.length === 1) return null;
  }
  return args.length === 0 ? stdinCode(stdin, false, name) : null;
}

/** The place a glued perl or ruby load option names (`-I/tmp/lib`, `-cI/tmp`, `-Mlib=/tmp`, `-r/tmp/x.rb`), or null. */
function gluedLoad(family: string, t: string): string | null {
  if (family === "perl") {
    const m = /^-[a-zA-Z]*I(.+)$/.exec(t) ?? /^-[Mm]-?lib=(.+)$/.exec(t);
    return m ? ((m[1] as string).split(",")[0] ?? null) : null;
  }
  if (family === "ruby") return /^-[a-zA-Z]*[Ir](.+)$/.exec(t)?.[1] ?? null;
  // julia's `--load=F`, `--sysimage=F`, `--project=DIR` and glued `-LF`, `-JF` (round 28).
  if (family === "julia") return /^(?:--(?:load|sysimage|project)=|-[LJ])(.+)$/.exec(t)?.[1] ?? null;
  return null;
}

/** Files an interpreter's options load (`ruby -r /opt/x.rb`, `node --import /opt/x.mjs`), judged as scripts; module names stay names. */
function loadedScripts(loads: readonly Word[]): Word[][] {
  return loads.filter((v) => v.dynamic || /[/.]/.test(v.text)).map((v) => [literalWord("\u0000script"), v]);
}

/** dc's `!cmd` runs cmd through the shell (`!<`, `!>`, `!=` are comparisons). */
function dcShell(text: string): string[] {
  return [...text.matchAll(/!(?![<>=])([^\n]*)/g)].map((m) => m[1] ?? "");
}

/** dc programs from -e, script files and stdin: a `!` runs a shell command. */
function dc(args: Word[], stdin: StdinSource | null): Unwrap | null {
  const code: Word[] = [];
  const files: Word[] = [];
  for (let i = 0; i < args.length; i++) {
    const t = (args[i] as Word).text;
    if (t === "-e" || t === "--expression" || t === "-f" || t === "--file") {
      const v = args[++i];
      if (v) (t.includes("f") ? files : code).push(v);
    } else if (/^--(expression|file)=/.test(t))
      (t.startsWith("--file") ? files : code).push({ ...(args[i] as Word), text: t.slice(t.indexOf("=") + 1) });
    else if (/^-e./.test(t)) code.push({ ...(args[i] as Word), text: t.slice(2) });
    else if (!t.startsWith("-") || t === "-") files.push(args[i] as Word);
  }
  const reads = files.filter((w) => w.text !== "-");
  const fromStdin = (code.length === 0 && reads.length === 0) || files.some((w) => w.text === "-");
  const shell = code.flatMap((w) => (w.dynamic ? [] : dcShell(w.text)));
  const opaque = code.filter((w) => w.dynamic).map((w) => w.text);
  if (fromStdin && stdin !== null) {
    if (stdin.text !== null && !stdin.dynamic) shell.push(...dcShell(stdin.text));
    else opaque.push(stdin.text ?? "");
  }
  const inner = reads.map((w) => [literalWord("\u0000script"), w]);
  if (shell.length === 0 && opaque.length === 0 && inner.length === 0) return null;
  const floor = shell.length || opaque.length ? 2 : 0;
  return unwrap(
    "interpreter:dc",
    floor,
    shell.length || opaque.length ? "dc program that runs shell commands (!), or one not known until run time" : "dc runs a script file",
    { code: shell, opaque, inner },
  );
}

const JAVA_VALUES = new Set([
  "-cp",
  "-classpath",
  "--class-path",
  "-p",
  "--module-path",
  "--add-modules",
  "-d",
  "--source",
  "--upgrade-module-path",
]);

/**
 * Compilers and runners whose operands or options name code they run: java
 * (`-jar F`, a class path, `-javaagent:F`, a `.java` source file, `@argfile`),
 * javac (annotation processors, `-J` JVM options), kotlin/kotlinc (a `.kts`
 * script, `-e` / `-expression` code), crystal (`eval CODE`, `run F`), nim
 * (`--eval:CODE`, `e F`). Each file is judged as a script (its place decides);
 * inline code is tier 2. Null when nothing names code.
 */
function jvmAndCompiled(name: string, args: Word[]): Unwrap | null {
  const scripts: Word[] = [];
  const code: string[] = [];
  let computed = false;
  const push = (w: Word, text: string) => {
    for (const part of text.split(":")) if (part) scripts.push({ ...w, text: part.replace(/\/\*$/, "") });
  };
  if (name === "java" || name === "javac") {
    for (let i = 0; i < args.length; i++) {
      const w = args[i] as Word;
      const t = w.text;
      if (t.startsWith("@")) computed = true;
      else if (t === "-jar" && args[i + 1]) {
        scripts.push(args[i + 1] as Word);
        break;
      } else if (
        /^(-cp|-classpath|--class-path|-p|--module-path|-processorpath|--processor-path|--processor-module-path)$/.test(t) &&
        args[i + 1]
      )
        push(args[i + 1] as Word, (args[++i] as Word).text);
      else if (/^--(class-path|module-path|processor-path)=/.test(t)) push(w, t.slice(t.indexOf("=") + 1));
      else if (/^(-J)?-(javaagent|agentpath|agentlib):/.test(t))
        push(w, t.replace(/^(-J)?-(javaagent|agentpath|agentlib):/, "").split("=")[0] as string);
      else if (/^(-J)?-XX:(OnError|OnOutOfMemoryError)=/.test(t)) code.push(t.slice(t.indexOf("=") + 1));
      else if (JAVA_VALUES.has(t)) i++;
      else if (name === "java" && !t.startsWith("-")) {
        if (/\.java$/.test(t) || w.dynamic) scripts.push(w);
        break;
      }
    }
  } else if (name === "kotlin" || name === "kotlinc") {
    for (let i = 0; i < args.length; i++) {
      const t = (args[i] as Word).text;
      if ((t === "-e" || t === "-expression") && args[i + 1]) code.push((args[++i] as Word).text);
      else if (t === "-script" && args[i + 1]) scripts.push(args[++i] as Word);
      else if (t === "-d" || t === "-jdk-home" || t === "-kotlin-home") i++;
      else if (/^(-cp|-classpath)$/.test(t) && args[i + 1]) push(args[i + 1] as Word, (args[++i] as Word).text);
      else if (!t.startsWith("-") && /\.(kts|jar)$/.test(t)) scripts.push(args[i] as Word);
    }
  } else if (name === "crystal") {
    const sub = args[0]?.text;
    if ((sub === "eval" || sub === "e") && args.length > 1) code.push(...args.slice(1).map((w) => w.text));
    else if (sub === "run" || sub === "r" || sub === "spec" || sub === "build" || /\.cr$/.test(sub ?? ""))
      scripts.push(
        ...args.slice(sub?.endsWith(".cr") ? 0 : 1).filter((w) => !w.text.startsWith("-") && (w.dynamic || /\.cr$/.test(w.text))),
      );
  } else if (name === "nim") {
    for (const w of args) if (/^--eval[:=]/.test(w.text)) code.push(w.text.replace(/^--eval[:=]/, ""));
    if (args[0]?.text === "e")
      scripts.push(
        ...args
          .slice(1)
          .filter((w) => !w.text.startsWith("-"))
          .slice(0, 1),
      );
  } else return null;
  if (code.length || computed)
    return unwrap(`interpreter:${name}`, 2, computed ? `${name} reads its options from a file (@argfile)` : `${name} runs inline code`, {
      opaque: code,
    });
  // Libraries the system's packages installed (`/usr/share/java/junit.jar`) are no one's new code.
  const own = scripts.filter((w) => w.dynamic || !/^\/usr\/(share|lib)\//.test(w.text) || w.text.split("/").includes(".."));
  if (own.length === 0) return null;
  return unwrap(`interpreter:${name}`, 0, `${name} runs code from these files`, {
    inner: own.map((w) => [literalWord("\u0000script"), w]),
  });
}

/** An interpreter's unwrapping, or null when `name` is not one (or is asked only for its version). */
export function interpreter(name: string, args: Word[], stdin: StdinSource | null): Unwrap | null {
  if (SHELLS.has(name)) {
    if (args.length === 1 && /^(--version|--help)$/.test(args[0]?.text ?? "")) return null;
    return shell(name, args, stdin);
  }
  if (name === "eval") return evalWords(args);
  if (name === "trap") return trap(args);
  if (name === "source" || name === ".") return source(args);
  if (name === "dc") return dc(args, stdin);
  const compiled = jvmAndCompiled(name, args);
  if (compiled) return compiled;
  const family = interpreterFamily(name);
  if (family === null || family === "awk") return null;
  return other(family, name, args, stdin);
}
