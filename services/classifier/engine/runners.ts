// Test runners, build tools and task runners run the code their operands
// and options point at: a test path, a config file (jest, vitest, webpack,
// eslint … configs are JavaScript), a project directory (`yarn --cwd`,
// `pnpm -C`, `make -C`, `just --justfile`), a manifest (`cargo --manifest-path`), a preloaded
// module (`node -r`), a remote module (`go run pkg@v`, `deno run
// https:…`). Their rules are tier 1 "in the workspace"; from the hook that
// code then runs unguarded, so a place outside the workspace (or not known
// until run time, or downloaded) is code no one has seen: 2.
import { downloadedPath, downloadedProject, PROJECT_FILE } from "./downloaded.js";
import { composedFile, composedProject } from "./composed.js";
import { goLinkerFlags } from "./go-ldflags.js";
import { lstat } from "./host-paths.js";
import { parentConfig } from "./parent-config.js";
import { resolvePlace } from "./paths.js";
import { workspaceScript } from "./script-place.js";
import { ffmpegConcat } from "./tools/ffmpeg-concat.js";
import type { Context, Word } from "./types.js";
import { literalWord } from "./unwrap.js";

interface Runner {
  /** Options whose value names code or a project to run (long options also as `--opt=value`). */
  options: readonly string[];
  /** Operands that look like paths (or remote modules) are code too. */
  operands: boolean;
  /** It loads a configuration that is code (or runs commands it lists) from the working directory. */
  cwd?: boolean;
}

const JS_CONFIG = ["--config", "-c", "--configFile", "--config-file"];
const PROJECT = ["--prefix", "--cwd", "-C", "--dir", "--workspace", "-w", "--root", "--rootDir", "--rootdir"];
const MAKE = ["-f", "--file", "--makefile", "-C", "--directory", "-I", "--include-dir"];
const NODE_PRELOAD = ["-r", "--require", "--import", "--loader", "--experimental-loader"];
/**
 * Gradle's init scripts, build and settings files, project directory; its user home (`-g DIR`: the init
 * scripts in DIR/init.d and DIR/gradle.properties' JVM arguments run; review 31, tier 1 after a task name)
 * and its project cache directory (written).
 */
const GRADLE = [
  "--init-script",
  "-I",
  "-b",
  "--build-file",
  "-c",
  "--settings-file",
  "-p",
  "--project-dir",
  "-Dorg.gradle.java.home",
  "-g",
  "--gradle-user-home",
  "--project-cache-dir",
];
/** Modules a JS test runner loads by name or path (reporters, setup files, environments, runners). */
const JS_TEST_MODULES = [
  "--reporter",
  "--reporters",
  "--globalSetup",
  "--globalTeardown",
  "--setupFiles",
  "--setupFilesAfterEnv",
  "--environment",
  "--testEnvironment",
  "--testRunner",
  "--runner",
  "--resolver",
  "--testSequencer",
];

const RUNNERS: ReadonlyMap<string, Runner> = new Map(
  Object.entries({
    pytest: { options: ["--rootdir", "-c", "--confcutdir"], operands: true },
    "py.test": { options: ["--rootdir", "-c", "--confcutdir"], operands: true },
    jest: { options: [...JS_CONFIG, ...PROJECT, ...JS_TEST_MODULES], operands: true },
    vitest: { options: [...JS_CONFIG, ...PROJECT, ...JS_TEST_MODULES], operands: true },
    mocha: {
      options: [
        ...JS_CONFIG,
        "--require",
        "-r",
        "--reporter",
        "-R",
        "--file",
        "--ui",
        "-u",
        "--spec",
        "--reporter-option",
        "--reporter-options",
        "-O",
      ],
      operands: true,
    },
    ava: { options: JS_CONFIG, operands: true },
    tap: { options: [...JS_CONFIG, ...PROJECT, "--reporter", "-R", "--plugin", "-P", "--test-env", "--node-arg"], operands: true },
    uvu: { options: ["-r", "--require", "--dir"], operands: true },
    // Coverage tools load reporters and preloaded modules (the command they run is judged as a command).
    c8: { options: [...JS_CONFIG, "--cwd", "--reporter", "-r", "--require", "-i", "--src"], operands: false },
    nyc: { options: [...JS_CONFIG, "--cwd", "--reporter", "-r", "--require", "-i", "--src"], operands: false },
    // Tools whose configuration is JavaScript (or names plugins by path): a config from elsewhere is code.
    cypress: {
      options: [...JS_CONFIG, "-C", "--project", "-P", "--reporter", "-r", "--reporter-options", "-o", "--env", "-e"],
      operands: false,
    },
    playwright: { options: [...JS_CONFIG, "--reporter", "--global-setup", "--global-teardown"], operands: false },
    parcel: { options: JS_CONFIG, operands: false },
    commitlint: { options: [...JS_CONFIG, "-g", "--extends", "-x", "--cwd", "-d"], operands: false, cwd: true },
    cspell: { options: JS_CONFIG, operands: false, cwd: true },
    "markdownlint-cli2": { options: JS_CONFIG, operands: true, cwd: true },
    storybook: { options: [...JS_CONFIG, "--config-dir"], operands: false },
    prettier: { options: [...JS_CONFIG, "--plugin", "--stdin-filepath"], operands: true, cwd: true },
    stylelint: { options: [...JS_CONFIG, "--custom-syntax", "--config-basedir"], operands: true, cwd: true },
    webpack: { options: JS_CONFIG, operands: false },
    rollup: { options: [...JS_CONFIG, "-p", "--plugin", "--configPlugin"], operands: false },
    // tsc -b builds the projects it is given (their tsconfig decides where output lands); vue-tsc loads the plugins a
    // tsconfig names; svelte-check loads the workspace's svelte.config.js; tsup's config is code (round 27).
    tsc: { options: ["-p", "--project", "-b", "--build", "--generateTrace", "--tsBuildInfoFile"], operands: false },
    "vue-tsc": { options: ["-p", "--project"], operands: true },
    "svelte-check": { options: ["--workspace", "--tsconfig"], operands: false },
    tsup: { options: JS_CONFIG, operands: true },
    jekyll: { options: ["-s", "--source", "-p", "--plugins", "--layouts", "--config"], operands: false },
    // Round 28: hugo's site (its config widens security.exec.allow; its asset pipeline runs npx tools) and PlantUML's
    // diagrams (!include of any file, %getenv, !includeurl under the CLI's default profile).
    hugo: { options: ["-s", "--source", "--config", "--configDir", "--themesDir", "-c", "--contentDir"], operands: false },
    plantuml: { options: ["-config", "-I"], operands: true },
    latexmk: { options: ["-r", "-cd"], operands: true },
    buf: { options: ["--template", "--config"], operands: false },
    // knip's `--reporter PATH` and `--preprocessor PATH` load a module (review 31: `knip --reporter /root/x.js` was 1).
    knip: { options: [...JS_CONFIG, "--reporter", "--preprocessor", "--directory"], operands: false },
    // `vite build DIR`, `next dev DIR`, `nuxt build DIR`, `mdbook build DIR`: the project root is an operand, and its config is code.
    vite: { options: [...JS_CONFIG, ...PROJECT], operands: true },
    next: { options: [...JS_CONFIG, ...PROJECT], operands: true },
    nuxt: { options: [...JS_CONFIG, ...PROJECT, "--cwd"], operands: true },
    nuxi: { options: [...JS_CONFIG, ...PROJECT, "--cwd"], operands: true },
    astro: { options: [...JS_CONFIG, ...PROJECT], operands: true },
    mdbook: { options: [], operands: true },
    tailwindcss: { options: [...JS_CONFIG], operands: false },
    postcss: { options: [...JS_CONFIG, "-u", "--use"], operands: false },
    // nodemon runs the script it is given (its --exec command has no table entry: 2).
    nodemon: { options: [...JS_CONFIG, "--watch", "-w"], operands: true },
    // pydoc imports the module or file it documents: a file elsewhere runs its code.
    // …and from the working directory first (round 28: `cd /tmp/x && pydoc3 evilmod` ran it).
    pydoc: { options: [], operands: true, cwd: true },
    pydoc3: { options: [], operands: true, cwd: true },
    // `python -m cProfile FILE`, `-m doctest FILE`, `-m unittest discover -s DIR` run or import those files.
    cProfile: { options: [], operands: true },
    profile: { options: [], operands: true },
    doctest: { options: [], operands: true },
    unittest: { options: ["-s", "--start-directory", "-t", "--top-level-directory"], operands: true },
    trace: { options: [], operands: true },
    eslint: {
      options: [...JS_CONFIG, "--resolve-plugins-relative-to", "--rulesdir", "-f", "--format", "--stdin-filename"],
      operands: true,
      cwd: true,
    },
    babel: { options: JS_CONFIG, operands: false, cwd: true },
    // Configs found in the working directory that are code or list commands to run: pre-commit's hooks
    // (`language: system`), lint-staged's tasks, rubocop's `require:`, pylint's `init-hook`, hatch's scripts.
    "pre-commit": { options: ["-c", "--config"], operands: false, cwd: true },
    "lint-staged": { options: ["-c", "--config", "--cwd"], operands: false, cwd: true },
    rubocop: { options: ["-c", "--config", "-r", "--require"], operands: true, cwd: true },
    // Round 22: linters find their configuration (code: .eslintrc.js, prettier.config.js, .rubocop.yml's `require:`,
    // golangci-lint's plugins: shared objects, module plugins) from each linted file's directory upward, so a file elsewhere brings its own; a
    // Gemfile (Ruby) named for any bundle subcommand (`bundle check --gemfile /tmp/Gemfile`).
    "golangci-lint": { options: ["-c", "--config"], operands: true, cwd: true },
    // sqlfluff reads .sqlfluff (its templater's Python macros, library_path) from each file's directory upward.
    sqlfluff: { options: ["--config", "--library-path"], operands: true, cwd: true },
    bundle: { options: ["--gemfile"], operands: false, cwd: true },
    // rspec loads its spec files (operands), required files, load paths and an options file (which can -r more).
    rspec: { options: ["-r", "--require", "-I", "--default-path", "-O", "--options"], operands: true },
    pylint: { options: ["--rcfile"], operands: false, cwd: true },
    // flake8's config names local plugins (`[flake8:local-plugins]` with `paths =`): Python it imports (review 27).
    flake8: { options: ["--config", "--append-config"], operands: false, cwd: true },
    // ansible runs inventory scripts and plugins, imports the filter/vars plugins beside a playbook, runs an executable
    // vault password file (also `--vault-id LABEL@FILE`, loaded at start-up; round 28), and loads modules from -M:
    // from elsewhere, code no one has seen.
    "ansible-inventory": {
      options: ["-i", "--inventory", "--inventory-file", "--vault-password-file", "--vault-pass-file", "--vault-id", "--playbook-dir"],
      operands: false,
    },
    "ansible-playbook": {
      options: ["-i", "--inventory", "--inventory-file", "--vault-password-file", "--vault-pass-file", "--vault-id", "-M", "--module-path"],
      operands: true,
    },
    "ansible-doc": { options: ["-M", "--module-path", "--playbook-dir"], operands: false },
    "ansible-lint": { options: ["-c", "--config-file"], operands: true },
    // PHP tools: phpunit's and pest's configuration names a bootstrap script, phpstan's neon names bootstrap files,
    // php-cs-fixer's config is PHP, composer -d runs another project's scripts; Maven's extensions and settings
    // (mirrors and repositories plugins are downloaded from).
    phpunit: { options: ["-c", "--configuration", "--bootstrap", "--include-path"], operands: true },
    pest: { options: ["-c", "--configuration", "--bootstrap"], operands: true },
    phpstan: { options: ["-c", "--configuration", "-a", "--autoload-file", "--memory-limit-file"], operands: false },
    "php-cs-fixer": { options: ["--config"], operands: false },
    composer: { options: ["-d", "--working-dir"], operands: false },
    mvn: {
      options: [
        "-f",
        "--file",
        "-s",
        "--settings",
        "-gs",
        "--global-settings",
        "-t",
        "--toolchains",
        "-Dmaven.ext.class.path",
        "-Dmaven.multiModuleProjectDirectory",
        // The local repository: where every plugin and dependency jar is written and loaded from.
        "-Dmaven.repo.local",
      ],
      operands: false,
    },
    hatch: { options: [], operands: false, cwd: true },
    markdownlint: { options: JS_CONFIG, operands: true, cwd: true },
    yarn: { options: PROJECT, operands: false },
    pnpm: { options: PROJECT, operands: false },
    npm: { options: PROJECT, operands: false },
    bun: { options: [...PROJECT, ...NODE_PRELOAD], operands: true },
    // `node --test --test-reporter=FILE` loads FILE as a module (a built-in reporter's name names nothing here).
    // Review 27: an env file's NODE_OPTIONS (--require …) applies, an OpenSSL config loads engines, a snapshot blob is code.
    node: {
      options: [...NODE_PRELOAD, "--test-reporter", "--env-file", "--env-file-if-exists", "--openssl-config", "--snapshot-blob"],
      operands: false,
    },
    tsx: { options: NODE_PRELOAD, operands: true },
    "ts-node": { options: [...NODE_PRELOAD, "--project", "-P"], operands: true },
    deno: { options: [...JS_CONFIG, "--import-map"], operands: true },
    go: { options: ["-C", "-modfile", "-overlay"], operands: true },
    // cargo-nextest's config (setup scripts are commands) and its tool config files.
    cargo: { options: ["--manifest-path", "-C", "--config", "--config-file", "--tool-config-file"], operands: false },
    // Build and task tools whose recipes, build files, configs or source trees are code.
    just: { options: ["--justfile", "-f", "--working-directory", "-d"], operands: false },
    task: { options: ["--taskfile", "-t", "--dir", "-d"], operands: false },
    rake: {
      options: ["-f", "--rakefile", "-I", "--libdir", "-r", "--require", "-C", "--directory", "-R", "--rakelibdir"],
      operands: false,
    },
    gradle: { options: GRADLE, operands: false },
    gradlew: { options: GRADLE, operands: false },
    dotnet: { options: ["--project", "-p"], operands: true },
    // `cmake --build DIR` runs the commands of DIR's generated build system (round 28).
    cmake: { options: ["-C", "-P", "-S", "--toolchain", "--build"], operands: false },
    ctest: { options: ["--test-dir"], operands: false },
    meson: { options: ["--native-file", "--cross-file", "-C"], operands: true },
    bazel: { options: ["--bazelrc"], operands: false },
    mypy: { options: ["--config-file"], operands: false },
    // actionlint runs the shellcheck and pyflakes it is pointed at.
    actionlint: { options: ["-shellcheck", "-pyflakes", "--shellcheck", "--pyflakes"], operands: false },
    uv: { options: ["--directory", "--project", "--config-file"], operands: true },
    poetry: { options: ["--directory", "-C", "--project", "-P"], operands: false },
    mage: { options: ["-d", "-w"], operands: false },
    scons: {
      options: ["-f", "--file", "--makefile", "--sconstruct", "-C", "--directory", "-I", "--include-dir", "--site-dir"],
      operands: false,
    },
    zig: { options: ["--build-file", "--build-runner", "--zig-lib-dir"], operands: true },
    // earthly's targets name an Earthfile's directory before the `+` (`/tmp/x+build`, `github.com/o/r+build`; round 28).
    earthly: { options: [], operands: true },
    nx: { options: ["--runner"], operands: false },
    sqlc: { options: ["-f", "--file"], operands: false },
    coverage: { options: ["--rcfile"], operands: true },
    // tsc -p DIR builds the project there: its tsconfig says what is read and where output goes.
    // nbconvert --execute runs the notebook's cells; its --config file is Python.
    jupyter: { options: ["--config"], operands: true },
    "sphinx-build": { options: ["-c", "--conf-dir"], operands: true },
    mkdocs: { options: ["-f", "--config-file"], operands: false },
    // A TeX file is code: lualatex's \directlua opens any file, every engine reads any file and writes the working
    // directory; a document (or format) from outside the workspace is code no one has seen (review 34).
    ...Object.fromEntries(
      ["tex", "pdftex", "xetex", "luatex", "latex", "pdflatex", "xelatex", "lualatex", "context"].map((n) => [
        n,
        { options: ["-fmt", "--fmt"], operands: true },
      ]),
    ),
    make: { options: MAKE, operands: false },
    gmake: { options: MAKE, operands: false },
    // Round 28: BSD make as GNU make; ninja -C DIR runs DIR/build.ninja's commands, -f FILE another file's.
    bmake: { options: MAKE, operands: false },
    ninja: { options: ["-C", "-f"], operands: false },
  } satisfies Record<string, Runner>),
);

/**
 * pytest's `-o KEY=VALUE` / `--override-ini=KEY=VALUE` override ini options, some of which load code (`addopts`
 * with `-p`, `pythonpath`, `required_plugins`, `plugins`), move where conftests are found (`confcutdir`, `rootdir`,
 * `testpaths`) or write elsewhere (`cache_dir`, `log_file`), or set the environment (`env`, pytest-env): the key, or null when none does.
 */
function pytestOverride(args: readonly Word[]): string | null {
  for (let i = 0; i < args.length; i++) {
    const t = (args[i] as Word).text;
    let value: string | undefined;
    if (t === "-o" || t === "--override-ini") value = args[i + 1]?.text;
    else if (t.startsWith("--override-ini=")) value = t.slice("--override-ini=".length);
    else if (/^-o./.test(t)) value = t.slice(2);
    if (value === undefined) continue;
    const key = value.split("=")[0] ?? "";
    if ((args[i + 1]?.dynamic && (t === "-o" || t === "--override-ini")) || PYTEST_RISKY_INI.test(key)) return key || "?";
  }
  return null;
}

const PYTEST_RISKY_INI = /^(?:addopts|pythonpath|required_plugins|plugins|confcutdir|rootdir|testpaths|cache_dir|log_file|env)$/;

const FFMPEG = new Set(["ffmpeg", "ffprobe", "ffplay"]);

/** A module fetched and run: `pkg@version` (go), a URL or `npm:`/`jsr:` specifier (deno, bun). */
const REMOTE = /^(?:https?:|npm:|jsr:)|^[a-z0-9.-]+\.[a-z0-9-]+(?::\d+)?\/\S*@/i;
/** An Earthfile reference that starts with a host name (`github.com/o/r`, `gitlab.example.com:2222/r`). */
const REMOTE_EARTHFILE = /^[a-z0-9-]+(?:\.[a-z0-9-]+)+(?::\d+)?\//i;
/** A word that names a place (a module name such as `ts-node/register` does not). */
const PATH_LIKE = /^(?:\/|~|\.\.?(?:\/|$))/;

/** Build tools whose `-Dname=value` system properties may load code (a Java agent, a user home's init scripts). */
const JVM_TOOLS = new Set(["mvn", "mvnw", "gradle", "gradlew", "sbt"]);

/** Why running `name args` from the hook runs code from outside the workspace, or null. */
/**
 * An operand `KEY=VALUE` whose value is a path (dotnet test's inline RunSettings after `--`:
 * `RunConfiguration.TestAdaptersPaths=/srv/x` loads adapters from there, `…DotnetHostPath=` runs that program,
 * `…ResultsDirectory=` writes there): the value, judged as the place (review 27); any other word as it is.
 */
function settingValue(w: Word): Word {
  const m = /^[A-Za-z_][\w.:-]*=([~/.].*)$/.exec(w.text);
  return m ? { ...w, text: m[1] as string } : w;
}

export function runnerLoadsElsewhere(name: string, args: readonly Word[], ctx: Context): string | null {
  // ffmpeg's concat demuxer reads whatever files its list names (review 38).
  if (FFMPEG.has(name) && ctx.policy === "claude" && !ctx.remote) return ffmpegConcat(name, args, ctx);
  if (name === "sqlite3" && ctx.policy === "claude" && !ctx.remote) return sqliteElsewhere(args, ctx);
  // Before the table: tools with no option of their own to judge still read a parent's configuration (round 28).
  const above = parentConfig(name, ctx);
  if (above !== null) return `${name} reads ${above}, in a directory above the workspace (anyone who may write there chooses code it runs)`;
  const runner = RUNNERS.get(name);
  if (runner === undefined || ctx.policy !== "claude" || ctx.remote) return null;
  if (name === "go") {
    const flags = goLinkerFlags(args);
    if (flags !== null) return `go ${flags.slice(0, 60)}: the linker runs or writes where these flags say (an external linker, its flags)`;
  }
  if (name === "pytest" || name === "py.test") {
    const key = pytestOverride(args);
    if (key !== null) return `pytest -o ${key}=… sets an ini option that loads code or writes elsewhere`;
    // pytest empties --basetemp before it runs (round 27: `--basetemp=src` deleted uncommitted work).
    const base = args.findIndex((w) => /^--basetemp(=|$)/.test(w.text));
    if (base >= 0) return "pytest --basetemp: pytest deletes that directory's contents before the run";
  }
  // [word, an option's value]: option values always name a place; operands only when they look like paths.
  const named: Array<[Word, boolean]> = [];
  for (let i = 0; i < args.length; i++) {
    const w = args[i] as Word;
    const t = w.text;
    if (t === "--") {
      // `cmake --build b -- -C /srv/x`: the words after `--` go to the native build tool (make or ninja).
      if (name === "cmake") return runnerLoadsElsewhere("make", args.slice(i + 1), ctx);
      if (runner.operands) for (const rest of args.slice(i + 1)) named.push([settingValue(rest), false]);
      break;
    }
    const opt = runner.options.find((o) => t === o || t.startsWith(`${o}=`));
    if (opt !== undefined) {
      // The next word is the value unless it is an option itself: a flag this table lists as taking a value in
      // another tool (vitest's -w is --watch, prettier's -c is --check, rollup's -c takes none) must not hide the
      // option after it (round 27: `vitest -w --config=/tmp/v.mjs`).
      const next = args[i + 1];
      let value =
        t !== opt
          ? { ...w, text: t.slice(opt.length + 1) }
          : next && !(next.text.length > 1 && next.text.startsWith("-") && !next.dynamic)
            ? args[++i]
            : undefined;
      // `--vault-id LABEL@FILE`: the file after the last `@` (`prompt` asks at the terminal and names no file).
      if (opt === "--vault-id" && value !== undefined) {
        const file = value.text.slice(value.text.lastIndexOf("@") + 1);
        if (file === "prompt") continue;
        value = { ...value, text: file };
      }
      if (value !== undefined) {
        // Inline configuration or code (`jest --config '{"globalSetup": …}'`, `rollup -p '{transform(){…}}'`).
        if (/^\s*[{[]/.test(value.text) || value.dynamic)
          return `${name} ${opt} ${value.text.slice(0, 60)}: inline configuration or code, which may load or run anything`;
        named.push([value, true]);
        // `KEY=PATH` settings in a value (`cypress --config supportFile=/tmp/s.js`, mocha's `--reporter-option output=~/.bashrc`).
        for (const m of value.text.matchAll(/(?:^|,)\s*[\w.-]+=([^,]+)/g)) named.push([{ ...value, text: (m[1] as string).trim() }, true]);
      }
      continue;
    }
    // A bundle of short options (`-sC DIR`, `-kfMakefile`): the first letter that takes a value takes the rest, or the next word.
    // `-Dname=value` is a system property (mvn, gradle, sbt), not a bundle of short options.
    // The property as the next word (`-D KEY=V`, `--define`, gradle's `--system-prop`/`--project-prop`; round 25).
    const glued = JVM_TOOLS.has(name) ? /^--(?:define|system-prop|project-prop)=(.*)$/s.exec(t) : null;
    const property = glued
      ? { ...w, text: glued[1] as string }
      : JVM_TOOLS.has(name) && /^(-D|--define|--system-prop|--project-prop|-P)$/.test(t)
        ? args[++i]
        : undefined;
    // A debugger or JMX agent listening (`jdwp … address=*:5005`, `jmxremote.authenticate=false`, gradle's debug host).
    if (JVM_TOOLS.has(name) && /jdwp|jmxremote|org\.gradle\.debug/.test(property?.text ?? (/^-D./.test(t) ? t : "")))
      return `${name} ${t}: starts a debugger or JMX agent others may connect to (code run in the build)`;
    if (/^-D./.test(t) || property !== undefined) {
      // …whose value may name code to load: `-DargLine=-javaagent:/tmp/a.jar`, `-Dorg.gradle.jvmargs=…`,
      // `-Dgradle.user.home=/tmp/g` (round 23), an argument file (`-DargLine=@/srv/e/x.args`) or a path up the tree
      // (`-javaagent:../x.jar`; round 26). Each such path in it is judged as a place.
      const text = property?.text ?? t.slice(2);
      if (JVM_TOOLS.has(name))
        // (`./lib/../../x.jar` climbs out as well as `../x.jar` does.)
        for (const part of text.split(/[=:,;\s@]/))
          if (/^(?:\/|~\/)/.test(part) || part.split("/").includes("..")) named.push([{ ...(property ?? w), text: part }, true]);
      continue;
    }
    // gradle's composite builds: another build's code runs (`--include-build /srv/e/lib`).
    if (JVM_TOOLS.has(name) && /^--include-build(=|$)/.test(t)) {
      const value = t.includes("=") ? { ...w, text: t.slice(t.indexOf("=") + 1) } : args[++i];
      if (value !== undefined) named.push([value, true]);
      continue;
    }
    if (/^-[^-]/.test(t)) {
      for (let k = 1; k < t.length; k++) {
        if (!runner.options.includes(`-${t[k]}`)) continue;
        const rest = t.slice(k + 1).replace(/^=/, "");
        const value = rest !== "" ? { ...w, text: rest } : args[++i];
        if (value !== undefined) named.push([value, true]);
        break;
      }
      continue;
    }
    if (name === "earthly" && !w.dynamic && t.includes("+")) {
      const dir = t.slice(0, t.indexOf("+"));
      if (REMOTE_EARTHFILE.test(dir)) return `earthly runs the Earthfile of ${dir}, downloaded: code no one has seen`;
      if (dir !== "") named.push([{ ...w, text: dir }, true]);
      continue;
    }
    // A response file (`dotnet build @/srv/e/x.rsp`, msbuild, csc): more options read from it (round 26).
    if (runner.operands && t.startsWith("@") && t.length > 1) named.push([{ ...w, text: t.slice(1) }, true]);
    else if (runner.operands && !t.startsWith("-")) named.push([w, false]);
  }
  // `git clone URL d && cd d && make`, `curl -o Makefile URL && make`: the project it runs is downloaded (review 34).
  const fetched = downloadedProject(name, ctx);
  if (fetched) return fetched;
  // Started in a directory outside the workspace (`cd ../other && npx eslint .`): the configuration it finds there is code.
  if (runner.cwd === true && !workspaceScript(resolvePlace(literalWord("."), ctx), ctx))
    return `${name} loads its configuration (code, or commands it runs) from ${ctx.cwd}, outside the workspace`;
  for (const [w, value] of named) {
    if (REMOTE.test(w.text)) return `${name} downloads and runs ${w.text}: code no one has seen`;
    const p = resolvePlace(w, ctx);
    // `curl -o x.mk URL && make -f x.mk`: what the same line downloads is code no one has seen (review 31).
    if (downloadedPath(p.path, ctx)) return `${name} runs code from ${w.text}, which the same command line downloads`;
    // A value with no path, quote, bracket or shell character in it names no code (`echo x > a.cnf && node --openssl-config=a.cnf`).
    const wrote = composedFile(p.path, ctx);
    if (wrote === null || (wrote !== undefined && !/^[\w\s.,=:+-]*$/.test(wrote)))
      return `${name} runs code from ${w.text}, which the same command line writes from its own text`;
    // An operand that is no path and names nothing here (a subcommand, a test-name filter) names no code; one
    // that is there (`pytest etc`, etc -> /etc) is judged where it leads.
    if (!value && !w.dynamic && !PATH_LIKE.test(w.text) && !w.text.includes("/") && (p.path === null || lstat(p.path) === null)) continue;
    if (!workspaceScript(p, ctx)) return `${name} runs code from ${w.text}, outside the workspace (or not known until run time)`;
  }
  // `printf 'all:\n\tid\n' > Makefile && make`: a project or source file the same line writes from its own text
  // (review 40); the files named above were judged by their text.
  if (ctx.composed !== undefined) {
    const written = composedProject(name, ctx, PROJECT_FILE, new Set(named.map(([w]) => resolvePlace(w, ctx).path)));
    if (written) return written;
  }
  return null;
}

/** sqlite3's options that take a value (the next word). */
const SQLITE_VALUED = /^--?(cmd|init|separator|newline|nullvalue|escape|maxsize|mmap|vfs|pagecache|lookaside|heap|zip|A|archive)$/;

/**
 * sqlite3's database from outside the workspace: the shell's `edit()` is allowed in a view's definition, so a plain
 * `select * from v` runs what the database's author wrote (round 28, verified with sqlite 3.40), unless `-safe`.
 */
function sqliteElsewhere(args: readonly Word[], ctx: Context): string | null {
  let db: Word | undefined;
  for (let i = 0; i < args.length; i++) {
    const t = (args[i] as Word).text;
    // `-nullvalue -safe` gives -nullvalue its value: only an option in its own place turns safe mode on (round 29).
    if (SQLITE_VALUED.test(t)) i++;
    else if (t === "-safe" || t === "--safe") return null;
    else if (db === undefined && !t.startsWith("-")) db = args[i];
  }
  if (db === undefined || db.text === ":memory:" || db.text === "") return null;
  if (db.dynamic) return "sqlite3 opens a database not known until run time, whose views may run programs (add -safe)";
  const p = resolvePlace(db, ctx);
  if (downloadedPath(p.path, ctx)) return `sqlite3 opens ${db.text}, which the same command line downloads: its views may run programs`;
  return workspaceScript(p, ctx) ? null : `sqlite3 opens ${db.text}, outside the workspace: its views may run programs (add -safe)`;
}
