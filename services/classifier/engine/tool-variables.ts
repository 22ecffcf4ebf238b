// Variables that steer a tool by their value (review 24): the program a build runs (CC, CMAKE_C_COMPILER_LAUNCHER),
// flags that load code (RUSTFLAGS, MAVEN_OPTS, PYTEST_ADDOPTS), where a tool finds the binary, toolchain or
// interpreter it runs (JAVA_HOME, ESBUILD_BINARY_PATH, UV_PYTHON), TMPDIR; and pager or editor values that run
// nothing new (PAGER=cat). judge.ts (every assignment) and wrappers.ts (env's) both ask here.

/**
 * Variables a tool reads its code, options or programs from (review 24), judged by their value: a program named
 * by a path outside the system's directories (`CC=/opt/x go build`), flags that load or run code
 * (`RUSTFLAGS='-C linker=…'`, `MAVEN_OPTS=-javaagent:…`, `PYTEST_ADDOPTS='-p mod'`, `CGO_CFLAGS=-fplugin=…`),
 * or a directory for temporary files outside the scratch places. A value computed at run time may be any of them.
 */
export function toolVariable(name: string, literal: string | null): string | null {
  if (TOOL_PROGRAM_VAR.test(name)) {
    if (literal === null) return "the program the build runs by that name, computed at run time";
    if (commandLineValue(literal, name.startsWith("CMAKE_")))
      return `the build runs ${literal.trim()} as that program: a command line of its own, not judged here`;
    const prog = literal.trim().split(/[\s;]+/)[0] ?? "";
    if (prog.includes("..") || prog.startsWith("~") || prog.startsWith("$")) return `the build runs ${prog} as that program`;
    if (prog.startsWith("/") && !/^\/(?:usr|bin|sbin)\//.test(prog)) return `the build runs ${prog} as that program`;
    return null;
  }
  for (const [re, code] of FLAG_VARS) {
    if (!re.test(name)) continue;
    if (literal === null) return "options a tool reads, computed at run time";
    if (code.test(literal)) return "options that load or run code a tool reads from it";
    return null;
  }
  // Search paths for code (review 34): TeX's inputs (`TEXINPUTS=/srv/x// pdflatex f` takes f.tex, classes and
  // packages from there), ffmpeg's frei0r/LADSPA/LV2 plugins (shared objects). `./styles//:` stays the workspace's.
  if (SEARCH_PATH_VAR.test(name)) {
    if (literal === null) return "where the tool loads code from, computed at run time";
    const far = literal.split(":").find((at) => at.includes("..") || /^[~$]/.test(at) || (at.startsWith("/") && !/^\/usr\//.test(at)));
    return far === undefined ? null : `the tool loads code found in ${far}`;
  }
  if (TOOL_LOCATION_VAR.test(name) && literal !== null) {
    const at = literal.trim();
    if (at.includes("..") || (at.startsWith("/") && !/^\/(?:usr|opt|bin|sbin|snap|nix|lib|lib64)(?:\/|$)/.test(at)))
      return `the tool runs the program, toolchain or library found at ${at}`;
    return null;
  }
  // Caches a tool trusts and writes (review 26): Python's bytecode (PYTHONPYCACHEPREFIX: a .pyc found there runs in
  // place of the source), Go's build and module caches (an entry found there is linked in), coverage's data file
  // and configuration (COVERAGE_FILE=~/.bashrc overwrites it; COVERAGE_RCFILE/COVERAGE_PROCESS_START name its
  // settings and plugins). Outside the scratch places they are code from, or writes to, somewhere else. Review 27:
  // the homes that hold such caches and installed tools (GOPATH's pkg/mod, COREPACK_HOME's package managers, DENO_DIR's
  // remote modules, pre-commit's hook repositories, XDG_CACHE_HOME/XDG_DATA_HOME for all of them), any tool's
  // *_CACHE_DIR, and files an instrumented program writes (LLVM_PROFILE_FILE, GCOV_PREFIX, NODE_REDIRECT_WARNINGS).
  if (CACHE_VAR.test(name)) {
    if (literal === null) return "where the tool reads code or settings from, or writes its cache to, computed at run time";
    const at = literal.trim();
    if (leavesScratch(at)) return `the tool reads code or settings from, or writes its cache to, ${at}`;
    return null;
  }
  // TMPDIR: where every program writes its temporary files. `..` climbs out of the scratch places or the workspace
  // (`TMPDIR=/tmp/../root` was passed as under /tmp). A value computed at run time is left: `TMPDIR=$(mktemp -d)`
  // is the everyday form, and temporary files get fresh names.
  if (name === "TMPDIR" && literal !== null) {
    const at = literal.trim();
    if (leavesScratch(at)) return "where every program writes its temporary files: outside the workspace and the scratch places";
  }
  return null;
}

/** Shells, interpreters and launchers: given words after them, they run code of the caller's choosing. */
const RUNS_CODE =
  /^(?:sh|bash|dash|zsh|ksh|mksh|fish|busybox|env|python[0-9.]*|perl|ruby|node|nodejs|deno|bun|php|lua|tclsh|awk|gawk|xargs|nohup|timeout|nice|stdbuf|setsid|sudo|doas|eval|exec)$/;

/**
 * A program variable's value that is a command line of its own, not a program and its flags (review 31): shell
 * syntax, which make hands to sh with the recipe's words after it (`CC='sh -c "rm -rf ~" #' make` was tier 1), or a
 * shell or interpreter with words after it, in cmake's `;`-separated lists too (`CMAKE_C_COMPILER_LAUNCHER='sh;-c;…'`:
 * `list`, where `;` separates a program's arguments). `ccache`, `gcc -m32`, `zig cc`, `/usr/bin/clang-15` are none of these.
 */
export function commandLineValue(value: string, list = false): boolean {
  return (list ? /[|&`"'<>(){}#\n\\]/ : /[;|&`"'<>(){}#\n\\]/).test(value) || runsCode(value);
}

/** The value's first word is a shell or interpreter and words follow it. */
function runsCode(value: string): boolean {
  const words = value.trim().split(/[\s;]+/);
  return words.length > 1 && RUNS_CODE.test((words[0] ?? "").split("/").pop() ?? "");
}

/** A directory value outside the workspace (relative, no `..`) and the scratch places (/tmp, /var/tmp, /dev/shm). */
const leavesScratch = (at: string): boolean => at.includes("..") || (/^[/~]/.test(at) && !/^\/(?:tmp|var\/tmp|dev\/shm)(?:\/|$)/.test(at));

/** make/cmake/go/cargo's program variables (as tools/build.ts's TOOL_VAR on make's command line). */
const TOOL_PROGRAM_VAR =
  /^(?:CC|CXX|CPP|LD|AR|AS|FC|RANLIB|STRIP|NM|OBJCOPY|OBJDUMP|YACC|LEX|M4|PKG_CONFIG|HOSTCC|HOSTCXX|CROSS_COMPILE|CMAKE_[A-Z]+_COMPILER(?:_LAUNCHER)?|CMAKE_[A-Z]+_LINKER_LAUNCHER|CMAKE_CROSSCOMPILING_EMULATOR|CMAKE_(?:LINKER|MAKE_PROGRAM)|CARGO_TARGET_[A-Z0-9_]+_RUNNER)$/;
/**
 * Where a tool finds the program, toolchain, interpreter or library it runs (review 24): esbuild's and swc's binary,
 * Prisma's engines, the browser Puppeteer/Playwright/Cypress start, uv's interpreter and virtual environment, the
 * JDK, Go root, .NET root, Gradle's user home (its init.d scripts run), valgrind's tools, ts-node's compiler. A path
 * outside the system's directories (or climbing with ..) is code no one has seen; one computed at run time is left.
 */
const TOOL_LOCATION_VAR =
  /^(?:VOLTA_HOME|PYENV_ROOT|RBENV_ROOT|NODENV_ROOT|GOENV_ROOT|JENV_ROOT|PLENV_ROOT|ASDF_DATA_DIR|ASDF_DIR|MISE_DATA_DIR|MISE_INSTALLS_DIR|MISE_CONFIG_DIR|MISE_CONFIG_FILE|MISE_GLOBAL_CONFIG_FILE|FNM_DIR|SDKMAN_DIR|UV_PROJECT_ENVIRONMENT|UV_TOOL_DIR|UV_PYTHON_INSTALL_DIR|POETRY_VIRTUALENVS_PATH|POETRY_CONFIG_DIR|PIPX_HOME|TS_NODE_PROJECT|TSX_TSCONFIG_PATH|JUPYTER_CONFIG_DIR|JUPYTER_CONFIG_PATH|IPYTHONDIR|CORECLR_PROFILER_PATH(?:_[A-Z0-9]+)?|ESBUILD_BINARY_PATH|SWC_BINARY_PATH|PRISMA_[A-Z_]*(?:BINARY|LIBRARY)|PUPPETEER_EXECUTABLE_PATH|CHROME_BIN|CHROME_PATH|CYPRESS_RUN_BINARY|PLAYWRIGHT_BROWSERS_PATH|UV_PYTHON|PIPENV_PYTHON|PIPENV_CUSTOM_VENV_NAME|WORKON_HOME|VIRTUAL_ENV|CONDA_PREFIX|JAVA_HOME|JDK_HOME|GOROOT|DOTNET_ROOT|GRADLE_USER_HOME|GRADLE_HOME|MAVEN_HOME|M2_HOME|VALGRIND_LIB|TS_NODE_COMPILER|TS_NODE_TRANSPILER|NODE_REPL_EXTERNAL_MODULE|ELECTRON_OVERRIDE_DIST_PATH|ANDROID_HOME|ANDROID_SDK_ROOT|MAVEN_BASEDIR|DOTNET_HOST_PATH|NUGET_PACKAGES|DirectoryBuildPropsPath|DirectoryBuildTargetsPath|CustomBeforeMicrosoftCommon(?:Props|Targets)|CustomAfterMicrosoftCommon(?:Props|Targets)|GH_CONFIG_DIR|ANSIBLE_CONFIG|ANSIBLE_INVENTORY|ANSIBLE_INVENTORY_PLUGINS|ANSIBLE_VAULT_PASSWORD_FILE|ANSIBLE_LIBRARY|ANSIBLE_MODULE_UTILS|ANSIBLE_[A-Z_]*PLUGINS)$/;
const SEARCH_PATH_VAR = /^(?:TEXINPUTS|TEXMFHOME|BSTINPUTS|BIBINPUTS|LUAINPUTS|FREI0R_PATH|LADSPA_PATH|LV2_PATH)$/;
const CACHE_VAR =
  /^(?:PYTHONPYCACHEPREFIX|GOCACHE|GOMODCACHE|GOTMPDIR|GOPATH|COVERAGE_FILE|COVERAGE_RCFILE|COVERAGE_PROCESS_START|COREPACK_HOME|DENO_DIR|DENO_INSTALL_ROOT|BUN_INSTALL|PRE_COMMIT_HOME|XDG_CACHE_HOME|XDG_DATA_HOME|XDG_STATE_HOME|YARN_CACHE_FOLDER|CCACHE_DIR|SCCACHE_DIR|LLVM_PROFILE_FILE|GCOV_PREFIX|NODE_REDIRECT_WARNINGS|[A-Z][A-Z0-9_]*_CACHE_(?:DIR|PATH|HOME|FOLDER|LOCATION))$/;
/** Flag variables and the options in them that load or run code. */
const FLAG_VARS: ReadonlyArray<readonly [RegExp, RegExp]> = [
  [
    /^(?:CARGO_ENCODED_)?RUST(?:DOC)?FLAGS$|^CARGO_BUILD_RUST(?:DOC)?FLAGS$/,
    /linker|link-arg|codegen-backend|llvm-args|extern|plugin|-Z|@|-L|--test-builder|--test-runtool|runtool|persist-doctests/,
  ],
  [/^CGO_[A-Z]+FLAGS(?:_ALLOW)?$/, /-fplugin|-wrapper|-B|-specs|--specs|@|-Wl|-Wp|-Wa|-load|-fuse-ld|--ld-path|-Xclang|-imacros|-include/],
  [
    /^(?:MAVEN_OPTS|MAVEN_DEBUG_OPTS|GRADLE_OPTS|SBT_OPTS|JAVA_OPTS|JAVA_OPTIONS|JDK_JAVA_OPTIONS|ANT_OPTS|KOTLIN_OPTS|CLASSPATH)$/,
    /agent|-Xbootclasspath|class\.loader|OnError|OnOutOfMemoryError|@|maven\.ext\.class\.path|-cp|classpath|\/|init|exec|jdwp|jmxremote|debug/,
  ],
  // rspec's options from the environment: -r/--require loads code, -I adds a load path, -O another options file.
  [/^SPEC_OPTS$/, /(?:^|\s)(?:-r|--require|-I|-O|--options|--default-path)/],
  // The sanitizers' runtime options (review 27): a symbolizer program it runs on a report, files it writes.
  [/^[A-Z]*SAN_OPTIONS$/, /external_symbolizer_path|log_path|coverage_dir|log_exe_name/],
  [
    /^VALGRIND_OPTS$/,
    /--log-file|--xml-file|--vgdb|--tool|--trace-children-skip|--suppressions|--gen-suppressions|-out-file|--db-command|--extra-debuginfo|--soname-synonyms|--require-text-symbol/,
  ],
  [
    /^PYTEST_ADDOPTS$/,
    /(?:^|\s)-p|--rootdir|(?:^|\s)-c|--confcutdir|(?:^|\s)-o|--override-ini|--pyargs|--basetemp|--junit|--log-file|--debug|--cov-report|--import-mode|--plugin/,
  ],
];

/**
 * A pager or editor variable set to a program that only prints or does nothing (`PAGER=cat git log`,
 * `GIT_EDITOR=true git commit --amend`, `GIT_PAGER='less -R'`), or less's options without commands (`LESS=-FRX`):
 * everyday forms that run nothing new (review 24: they were tier 2).
 */
export function harmlessValue(name: string, literal: string | null): boolean {
  if (literal === null) return false;
  const v = literal.trim();
  if (/^(?:PAGER|GIT_PAGER|MANPAGER|SYSTEMD_PAGER|[A-Z]+_PAGER|GIT_EDITOR|EDITOR|VISUAL|GIT_SEQUENCE_EDITOR|KUBE_EDITOR)$/.test(name))
    return /^(?:cat|true|false|:|less(?:\s+-[A-JL-NP-SU-Zabcdefghijlmnpqrsuvwxyz]+)*|more|head|tail)$/.test(v);
  // Not -k/-K (a lesskey file, whose #env section sets LESSOPEN), -o/-O (a log file written), -t/-T (a tags file).
  // GOWORK=off turns workspace files off; empty is go's own search (round 28).
  if (name === "GOWORK") return v === "off" || v === "";
  if (name === "LESS" || name === "MORE")
    return /^(?:-[A-JL-NP-SU-Zabcdefghijlmnpqrsuvwxyz~#]+)(?:\s+-[A-JL-NP-SU-Zabcdefghijlmnpqrsuvwxyz~#]+)*$|^$/.test(v);
  return false;
}
