// Prefix wrappers that run the rest of their arguments as a command: sudo,
// doas, su, env, nice, nohup, timeout, time, command, builtin, exec, stdbuf,
// ionice, chroot, flock, setsid, strace, valgrind, taskset, systemd-run, runuser, c8, nyc …
import { harmlessValue, toolVariable } from "./tool-variables.js";
import type { TierNumber } from "../../shared/tier.js";
import type { Word } from "./types.js";
import { firstOperand, handedTexts, joinWords, unwrap } from "./unwrap.js";
import type { Unwrap } from "./unwrap.js";

interface PrefixSpec {
  values: string[];
  /** Operands to skip after options (timeout's duration, chroot's root, flock's file …). */
  skip?: number;
  floor?: TierNumber;
  why?: string;
}

const COVERAGE_VALUES = [
  "-r",
  "--reporter",
  "-o",
  "--reports-dir",
  "--report-dir",
  "--temp-directory",
  "--temp-dir",
  "-t",
  "-n",
  "--include",
  "-x",
  "--exclude",
  "-e",
  "--extension",
  "-i",
  "--require",
  "--src",
  "--lines",
  "--functions",
  "--branches",
  "--statements",
  "--per-file",
  "--config",
  "-c",
  "--cwd",
];

const PREFIX: Record<string, PrefixSpec> = {
  nice: { values: ["-n", "--adjustment"] },
  nohup: { values: [] },
  timeout: { values: ["-s", "--signal", "-k", "--kill-after"], skip: 1 },
  time: { values: ["-f", "--format", "-o", "--output"] },
  builtin: { values: [] },
  exec: { values: ["-a"] },
  stdbuf: { values: ["-i", "-o", "-e"] },
  ionice: { values: ["-c", "-n", "--class", "--classdata"] },
  chroot: { values: ["--userspec", "--groups"], skip: 1, floor: 2, why: "runs in another root" },
  flock: { values: ["-w", "--timeout", "-E", "--conflict-exit-code"], skip: 1 },
  setsid: { values: [] },
  unbuffer: { values: [] },
  strace: { values: ["-o", "-e", "-s", "-u", "-a", "-b", "-I", "-O", "-P", "-S", "-X"] },
  ltrace: { values: ["-o", "-e", "-s", "-u", "-a", "-n"] },
  // valgrind's own options are all `--name=value`; the rest is the program it runs.
  valgrind: { values: [] },
  taskset: { values: [], skip: 1 },
  numactl: { values: ["-C", "-N", "-m", "-i", "-p", "--physcpubind", "--cpunodebind", "--membind", "--interleave", "--preferred"] },
  "xvfb-run": { values: ["-n", "-s", "-f", "-e", "-p", "--server-args"] },
  "dbus-run-session": { values: [] },
  catchsegv: { values: [] },
  "systemd-run": {
    values: [
      "-u",
      "--unit",
      "-p",
      "--property",
      "--uid",
      "--gid",
      "-E",
      "--setenv",
      "--slice",
      "-M",
      "--machine",
      "--description",
      "--on-calendar",
      "--on-active",
      "-H",
      "--host",
      "--working-directory",
    ],
    floor: 3,
    why: "starts a transient system unit",
  },
  nsenter: {
    values: ["-t", "--target", "-S", "--setuid", "-G", "--setgid", "-w", "--wd", "-r", "--root"],
    floor: 3,
    why: "enters another process's namespaces",
  },
  unshare: {
    values: ["--map-user", "--map-group", "-S", "-G", "--setuid", "--setgid", "-R", "--root", "-w", "--wd"],
    floor: 2,
    why: "runs in new namespaces",
  },
  firejail: { values: [] },
  proxychains: { values: ["-f"] },
  proxychains4: { values: ["-f"] },
  torsocks: { values: [] },
  caffeinate: { values: ["-t", "-w"] },
  // Coverage tools run the command after their options (`c8 npm test`, `nyc mocha`); every option that takes
  // a separate value is listed, so no value is mistaken for the command (one not listed makes it an unknown program).
  c8: { values: COVERAGE_VALUES, why: "runs the rest under coverage" },
  nyc: { values: COVERAGE_VALUES, why: "runs the rest under coverage" },
};

// Wrappers that do nothing harmful with no command (exec alone only redirects).
const BARE_OK = new Set(["time", "nice", "exec", "builtin", "nohup", "timeout", "stdbuf", "setsid"]);

const SUDO_VALUES = new Set([
  "-u",
  "--user",
  "-g",
  "--group",
  "-p",
  "--prompt",
  "-C",
  "--close-from",
  "-D",
  "--chdir",
  "-r",
  "--role",
  "-t",
  "--type",
  "-T",
  "--command-timeout",
  "-h",
  "--host",
  "-U",
  "--other-user",
]);

function sudo(name: string, args: Word[]): Unwrap {
  const at = firstOperand(args, SUDO_VALUES);
  const flags = args.slice(0, at).map((w) => w.text);
  let rest = args.slice(at);
  // `sudo VAR=value CMD` sets VAR for CMD (where sudoers lets it): judged like env's.
  let risky: string | undefined;
  while (rest[0] && /^[A-Za-z_][A-Za-z0-9_]*=/.test(rest[0].text)) {
    const varName = rest[0].text.slice(0, rest[0].text.indexOf("="));
    if (riskyAssignment(varName)) risky ??= varName;
    rest = rest.slice(1);
  }
  const floor: TierNumber = risky ? 2 : 0;
  const setsWhy = risky ? `sets ${risky}, which changes what runs, as another user` : undefined;
  const short = flags.filter((f) => /^-[a-zA-Z]+$/.test(f)).join("");
  const shell = /[is]/.test(short) || flags.includes("--login") || flags.includes("--shell");
  if (rest.length === 0) {
    if (shell) return unwrap(`wrapper:${name}`, 4, "interactive root shell: a person runs that");
    const listing =
      /[lvkK]/.test(short) ||
      flags.some((f) => ["--list", "--validate", "--reset-timestamp", "--remove-timestamp", "--version", "--help"].includes(f));
    return listing
      ? unwrap(`wrapper:${name}`, 0, "lists or refreshes sudo rights")
      : unwrap(`wrapper:${name}`, 4, "sudo without a command");
  }
  // A login shell (-i) starts in the target user's home: `sudo -i rm -rf *` empties /root.
  const userAt = args.slice(0, at).findIndex((w) => w.text === "-u" || w.text === "--user");
  const login = /i/.test(short) || flags.includes("--login");
  const loginHome = login ? homeWord(userAt >= 0 ? args[userAt + 1]?.text : undefined) : undefined;
  if (shell)
    return unwrap(`wrapper:${name}`, floor, setsWhy ?? "runs through root's shell", {
      code: [joinWords(rest).text],
      policy: "sudo",
      ...(loginHome ? { chdir: loginHome } : {}),
    });
  const dirAt = args.slice(0, at).findIndex((w) => w.text === "-D" || w.text === "--chdir");
  const chdir =
    dirAt >= 0
      ? args[dirAt + 1]
      : (args
          .slice(0, at)
          .map((w) => (w.text.startsWith("--chdir=") ? { ...w, text: w.text.slice(8) } : null))
          .find((w) => w !== null) ?? undefined);
  return unwrap(`wrapper:${name}`, floor, setsWhy ?? "runs as another user: SUDO.md decides", {
    inner: [rest],
    policy: "sudo",
    ...(chdir ? { chdir } : {}),
  });
}

/** The home a login shell of `user` starts in (root's by default; unknown for a computed name). */
function homeWord(user: string | undefined): Word {
  const dir =
    user === undefined || user === "root" || user === "0" ? "/root" : /^[a-z_][a-z0-9_-]*$/.test(user) ? `/home/${user}` : "$UNKNOWN_HOME";
  return { text: dir, dynamic: dir.startsWith("$"), glob: false, confusable: false };
}

function su(args: Word[]): Unwrap {
  const i = args.findIndex((w) => w.text === "-c" || w.text === "--command");
  const code = i >= 0 ? args[i + 1] : undefined;
  const login = args.some((w) => w.text === "-" || w.text === "-l" || w.text === "--login");
  const user = args.find((w, k) => !w.text.startsWith("-") && k !== i + 1)?.text;
  if (code)
    return unwrap("wrapper:su", 0, "runs as another user: SUDO.md decides", {
      code: [code.text],
      policy: "sudo",
      ...(login ? { chdir: homeWord(user) } : {}),
    });
  return unwrap("wrapper:su", 4, "interactive shell as another user: a person runs that");
}

const ENV_VALUES = new Set(["-u", "--unset", "-C", "--chdir", "-S", "--split-string"]);
const RISKY_ENV = new RegExp(
  "^(" +
    [
      "LD_[A-Z_]+",
      // Where a CLI sends its credentials: a custom endpoint or host receives the signed requests or the token.
      "AWS_ENDPOINT_URL[A-Z0-9_]*",
      "GH_HOST",
      // vault sends its token (VAULT_TOKEN, ~/.vault-token) to whatever address it is given (round 22); so do the
      // other token-carrying CLIs to their endpoints.
      "VAULT_ADDR",
      // Database clients' hosts: a "read" sent there carries the stored password (db-hosts.ts).
      "PGHOST",
      "PGHOSTADDR",
      "PGSERVICEFILE",
      "PGDATABASE",
      "MYSQL_HOST",
      "REDISCLI_HOST",
      "PGSYSCONFDIR",
      "PGSERVICE",
      "ETCDCTL_ENDPOINTS",
      "HTTPIE_CONFIG_DIR",
      "VAULT_AGENT_ADDR",
      "CONSUL_HTTP_ADDR",
      "NOMAD_ADDR",
      // Where a client sends its requests and whom it trusts: a proxy of the caller's choosing, given a trust root of
      // the caller's, reads the token a forge, registry or git read carries (`HTTPS_PROXY=… SSL_CERT_FILE=… gh api user`).
      "[Hh][Tt][Tt][Pp][Ss]?_[Pp][Rr][Oo][Xx][Yy]",
      "[Aa][Ll][Ll]_[Pp][Rr][Oo][Xx][Yy]",
      "[Nn][Oo]_[Pp][Rr][Oo][Xx][Yy]",
      "SSL_CERT_FILE",
      "SSL_CERT_DIR",
      "NODE_EXTRA_CA_CERTS",
      "NODE_TLS_REJECT_UNAUTHORIZED",
      "GIT_SSL_[A-Z_]+",
      "CURL_CA_BUNDLE",
      "REQUESTS_CA_BUNDLE",
      "AWS_CA_BUNDLE",
      "PIP_CERT",
      "PIP_INDEX_URL",
      "PIP_EXTRA_INDEX_URL",
      "CARGO_HTTP_[A-Z_]+",
      "GOPROXY",
      "GOSUMDB",
      "GONOSUMDB",
      "GONOSUMCHECK",
      "GOINSECURE",
      "GOPRIVATE",
      "GONOPROXY",
      "GOFLAGS",
      "NPM_CONFIG_[A-Z_]+",
      "npm_config_[a-z_]+",
      "BASH_ENV",
      "ENV",
      "PROMPT_COMMAND",
      "IFS",
      "SHELLOPTS",
      "BASHOPTS",
      "PS0",
      "PS1",
      "PS2",
      "PS3",
      "PS4",
      "HISTFILE",
      "INPUTRC",
      "PATH",
      "PYTHONPATH",
      "PYTHONSTARTUP",
      "NODE_OPTIONS",
      // bun puts BUN_OPTIONS before its own arguments (`--preload /tmp/x.ts`), as NODE_OPTIONS (round 22).
      "BUN_OPTIONS",
      // The shell's own: globs that match dot files (GLOBIGNORE), `cd` elsewhere (CDPATH), which program a name runs
      // (EXECIGNORE, the BASH_CMDS hash, BASH_ALIASES), where `enable -f` loads code from, where xtrace is written.
      "GLOBIGNORE",
      "CDPATH",
      "EXECIGNORE",
      "BASH_CMDS",
      "BASH_ALIASES",
      "BASH_LOADABLES_PATH",
      "BASH_XTRACEFD",
      "PERL5OPT",
      "PERL5LIB",
      "RUBYOPT",
      "GIT_SSH_COMMAND",
      "GIT_EXEC_PATH",
      "GIT_DIR",
      "GIT_CONFIG_[A-Z_0-9]+",
      "EDITOR",
      "VISUAL",
      "PAGER",
      "GIT_PAGER",
      "APT_CONFIG",
      "DPKG_[A-Z_]+",
      "SYSTEMD_[A-Z_]+",
      "OPENSSL_CONF",
      "PYTHONHOME",
      "NODE_PATH",
      // Variables whose value is a command some program runs (less, man, git, ssh, sudo, browsers, pagers of other tools).
      "LESSOPEN",
      "LESSCLOSE",
      // less's and more's options from the environment: `LESS='+!cmd'` runs cmd at start; LESSHISTFILE is written.
      "LESS",
      "MORE",
      "LESSHISTFILE",
      "LESSEDIT",
      // Every lesskey source or file less reads from the environment (LESSKEYIN_SYSTEM, LESSKEY_CONTENT: its #env
      // section sets LESSOPEN, which less runs — round 21).
      "LESSKEY[A-Z_]*",
      // ExifTool loads $EXIFTOOL_HOME/.ExifTool_config as Perl.
      "EXIFTOOL_HOME",
      "MANPAGER",
      "MANOPT",
      "MANROFFOPT",
      "BROWSER",
      "GIT_EXTERNAL_DIFF",
      "GIT_PROXY_COMMAND",
      "GIT_ASKPASS",
      "SSH_ASKPASS",
      "SSH_ASKPASS_REQUIRE",
      "SUDO_ASKPASS",
      "GIT_SSH",
      "GIT_EDITOR",
      "GIT_SEQUENCE_EDITOR",
      "GIT_TEMPLATE_DIR",
      "GIT_CONFIG",
      "GIT_CONFIG_GLOBAL",
      "GIT_CONFIG_SYSTEM",
      "GIT_CONFIG_PARAMETERS",
      "[A-Z]+_PAGER",
      "[A-Z]+_EDITOR",
      "[A-Z]+_BROWSER",
      "FCEDIT",
      "SHELL",
      "ZDOTDIR",
      "XDG_CONFIG_HOME",
      "XDG_CONFIG_DIRS",
      "HOME",
      "PERL5DB",
      "PERLLIB",
      "RUBYLIB",
      "PYTHONBREAKPOINT",
      "PYTHONINSPECT",
      "PYTHONEXECUTABLE",
      "PYTHONUSERBASE",
      "JAVA_TOOL_OPTIONS",
      "_JAVA_OPTIONS",
      "JDK_JAVA_OPTIONS",
      "RUSTC_WRAPPER",
      "RUSTC_WORKSPACE_WRAPPER",
      "RUSTC",
      "CARGO_BUILD_RUSTC_WRAPPER",
      "CARGO_TARGET_[A-Z0-9_]+_RUNNER",
      "GCONV_PATH",
      "MAKEFLAGS",
      "MFLAGS",
      "GNUMAKEFLAGS",
      "MAKEFILES",
      "TAR_OPTIONS",
      "[Nn][Pp][Mm]_[Cc][Oo][Nn][Ff][Ii][Gg]_[A-Za-z0-9_]+",
      "BUNDLE_GEMFILE",
      "GEM_PATH",
      "GEM_HOME",
      // Variables that make a tool write a file of the caller's choosing (git's trace files take a path and append
      // argv text to it; TLS key logs) or load options, config or code from elsewhere: zip's and unzip's option
      // variables, curl's and wget's config file, Go's flags and env file, ripgrep's and bat's config, Terraform's
      // CLI config and extra arguments, rustup's toolchain (a path runs that directory's binaries), cargo's home.
      "GIT_TRACE[A-Z0-9_]*",
      "SSLKEYLOGFILE",
      "GIT_ALLOW_PROTOCOL",
      "CURL_HOME",
      "WGETRC",
      "SYSTEM_WGETRC",
      "UNZIP",
      "UNZIPOPT",
      "ZIPINFO",
      "ZIPINFOOPT",
      "ZIP",
      "ZIPOPT",
      "GOFLAGS",
      "GOENV",
      "GOTOOLCHAIN",
      // A go.work elsewhere adds its modules and replace lines to every build (round 28; GOWORK=off is harmless).
      "GOWORK",
      // Julia's project (a Manifest mapping package names to any path), load path and depot (packages, startup.jl).
      "JULIA_PROJECT",
      "JULIA_LOAD_PATH",
      "JULIA_DEPOT_PATH",
      "RIPGREP_CONFIG_PATH",
      "BAT_CONFIG_PATH",
      "BAT_CONFIG_DIR",
      "TF_CLI_CONFIG_FILE",
      "TF_CLI_ARGS[A-Za-z0-9_]*",
      "RUSTUP_TOOLCHAIN",
      "RUSTUP_HOME",
      "CARGO_HOME",
      // git's repository layout: another work tree (checkout, stash -u and clean then write or delete files there),
      // another common dir (its config and hooks run), an index or object store written at a path of the caller's.
      "GIT_WORK_TREE",
      "GIT_COMMON_DIR",
      "GIT_INDEX_FILE",
      "GIT_OBJECT_DIRECTORY",
      "GIT_ALTERNATE_OBJECT_DIRECTORIES",
      "GIT_SHALLOW_FILE",
      // cargo's target directory (`cargo clean` deletes it, builds write there), programs it runs, aliases.
      "CARGO_TARGET_DIR",
      "CARGO_BUILD_TARGET_DIR",
      "CARGO_BUILD_RUSTC[A-Z_]*",
      "CARGO_BUILD_RUSTDOC",
      "RUSTDOC",
      "CARGO_TARGET_[A-Z0-9_]+_LINKER",
      "CARGO_HOST_LINKER",
      "CARGO_ALIAS_[A-Za-z0-9_]+",
      // Config files or daemons a tool is pointed at whose content runs commands or sends the caller's requests
      // elsewhere: kubeconfig exec plugins, AWS credential_process, docker's host (ssh://), credential helpers and
      // contexts, psql's rc (\!), mysql's option files (pager, system), gpg's home, gcloud/az/ansible/helm config, pip's.
      "KUBECONFIG",
      "AWS_CONFIG_FILE",
      "AWS_SHARED_CREDENTIALS_FILE",
      "DOCKER_HOST",
      "DOCKER_CONFIG",
      "DOCKER_CONTEXT",
      "CONTAINER_HOST",
      "CONTAINERS_CONF",
      "PSQLRC",
      "MYSQL_HOME",
      "MYSQL_TEST_LOGIN_FILE",
      "GNUPGHOME",
      "CLOUDSDK_CONFIG",
      "AZURE_CONFIG_DIR",
      "ANSIBLE_CONFIG",
      "HELM_PLUGINS",
      "HELM_CONFIG_HOME",
      "HELM_DATA_HOME",
      // pip reads every option from PIP_<OPTION> (PIP_PYTHON: the interpreter it runs; PIP_LOG: a file it appends
      // to; index URLs, cert files, targets …): all but a few that only quieten it.
      "PIP_(?!(?:DISABLE_PIP_VERSION_CHECK|NO_INPUT|QUIET|NO_COLOR|PROGRESS_BAR|ROOT_USER_ACTION|DEFAULT_TIMEOUT|TIMEOUT|RETRIES|NO_WARN_SCRIPT_LOCATION|REQUIRE_VIRTUALENV)$)[A-Za-z0-9_]+",
      // Programs started from the environment: git's test hooks (GIT_TEST_FSMONITOR runs a program), vi's start-up
      // commands and runtime files (a commit's editor runs them), rsync's daemon connector (a shell command) and
      // remote shell; files written where a variable says: node's coverage, ffmpeg's report, node's REPL history.
      "GIT_TEST_[A-Za-z0-9_]+",
      "VIMINIT",
      "GVIMINIT",
      "EXINIT",
      "VIMRUNTIME",
      "VIM",
      "MYVIMRC",
      "RSYNC_CONNECT_PROG",
      "RSYNC_RSH",
      "NODE_V8_COVERAGE",
      "NODE_REPL_HISTORY",
      "NODE_COMPILE_CACHE",
      "FFREPORT",
      // Review 24: variables the workspace's build, test, lint and doc tools load code, plugins, start-up files or
      // another project's manifest from (pytest's plugins, pylint's rc with its init-hook, perldoc's -M, kubectl diff's
      // program, Maven's extra goals, PHP's ini (auto_prepend_file), composer's manifest, .NET's startup hooks, mix's
      // project file, the Erlang VM's flags (-eval), Julia's, R's, Octave's and Lua's start-up code and load paths,
      // TeX's configuration (shell_escape runs \write18 commands, openout_any writes anywhere), ImageMagick's delegates,
      // Ghostscript's options (-dNOSAFER), yarn's settings (yarnPath runs a file; its rc file, plugins).
      "PYTEST_PLUGINS",
      "PYLINTRC",
      "PERLDOC",
      "KUBECTL_EXTERNAL_DIFF",
      "MAVEN_ARGS",
      "CMAKE_TOOLCHAIN_FILE",
      "CMAKE_PROJECT_INCLUDE[A-Z_]*",
      "PHPRC",
      "PHP_INI_SCAN_DIR",
      "COMPOSER",
      "COMPOSER_HOME",
      "DOTNET_STARTUP_HOOKS",
      "DOTNET_ADDITIONAL_DEPS",
      "MIX_EXS",
      "ERL_[AZ]?FLAGS",
      "ERL_LIBS",
      "JULIA_LOAD_PATH",
      "JULIA_DEPOT_PATH",
      "R_PROFILE(?:_USER)?",
      "R_ENVIRON(?:_USER)?",
      "R_LIBS(?:_USER|_SITE)?",
      "OCTAVE_(?:SITE_)?INITFILE",
      "LUA_(?:INIT|PATH|CPATH)(?:_5_[0-9])?",
      "TEXMFCNF",
      "shell_escape(?:_commands)?",
      "openout_any",
      "openin_any",
      "MAGICK_CONFIGURE_PATH",
      "MAGICK_CODER_(?:MODULE|FILTER)_PATH",
      "GS_OPTIONS",
      "GS_LIB",
      // Review 27: where corepack downloads the package manager it runs, uv's indexes and settings file (`uv run`
      // syncs the environment from them), ccache's wrapper program, compiler and config, the sanitizers' symbolizer.
      "COREPACK_NPM_[A-Z_]+",
      "UV_(?:INDEX_URL|EXTRA_INDEX_URL|DEFAULT_INDEX|INDEX|FIND_LINKS|CONFIG_FILE|INSECURE_HOST|PYTHON_INSTALL_MIRROR|PYPY_INSTALL_MIRROR|OVERRIDE|CONSTRAINT|BUILD_CONSTRAINT)",
      "POETRY_REPOSITORIES_[A-Z0-9_]+",
      "CCACHE_(?:PREFIX|PREFIX_CPP|COMPILER|PATH|CONFIGPATH)",
      "[A-Z]*SAN_SYMBOLIZER_PATH",
      // Review 31: man's page path (`MANPATH=./m man x` renders a page whose `.so FILE` includes any file, as
      // `man -M ./m x` and `man ./x.1` do: 2), and groff's macro and font paths it reads from.
      "MANPATH",
      "GROFF_TMAC_PATH",
      "GROFF_FONT_PATH",
      // Round 28: where groff finds troff and grotty (man ran them from a scratch directory), and man-db's switch
      // for the seccomp sandbox it runs them in.
      "GROFF_BIN_PATH",
      "GROFF_COMMAND_PREFIX",
      "MAN_DISABLE_SECCOMP",
      "YARN_(?!(?:ENABLE_IMMUTABLE_INSTALLS|ENABLE_TELEMETRY|ENABLE_PROGRESS_BARS|ENABLE_COLORS|ENABLE_HYPERLINKS|ENABLE_MESSAGE_NAMES|ENABLE_INLINE_BUILDS|ENABLE_GLOBAL_CACHE|CHECKSUM_BEHAVIOR|SILENT|IGNORE_NODE|NETWORK_CONCURRENCY|HTTP_TIMEOUT|NODE_LINKER|NM_MODE|PRODUCTION|FROZEN_LOCKFILE|CACHE_FOLDER)$)[A-Z0-9_]+",
    ].join("|") +
    ")$",
);

/** Variables whose value is itself a command line (the program runs it through a shell or as argv). */
const COMMAND_ENV =
  /^(LESSOPEN|LESSCLOSE|LESSEDIT|MANPAGER|BROWSER|GIT_EXTERNAL_DIFF|GIT_PROXY_COMMAND|GIT_ASKPASS|SSH_ASKPASS|SUDO_ASKPASS|GIT_SSH_COMMAND|GIT_SSH|RSYNC_CONNECT_PROG|GIT_EDITOR|GIT_SEQUENCE_EDITOR|PAGER|GIT_PAGER|EDITOR|VISUAL|FCEDIT|PROMPT_COMMAND|[A-Z]+_PAGER|[A-Z]+_EDITOR|[A-Z]+_BROWSER)$/;

/** The command line a risky variable's literal value runs, for judging as shell code (`LESSOPEN='|cmd %s'` → `cmd "$FILE"`). */
export function assignmentCode(name: string, value: string): string | null {
  if (!COMMAND_ENV.test(name) || value.trim() === "") return null;
  return value.replace(/^\s*\|\|?-?/, "").replace(/%[sS]/g, '"$FILE"');
}

export function riskyAssignment(name: string): boolean {
  return RISKY_ENV.test(name);
}

function env(args: Word[]): Unwrap {
  let i = 0;
  let floor: TierNumber = 0;
  let why = "sets variables for one command";
  const code: string[] = [];
  const set: Word[] = [];
  let chdir: Word | undefined;
  while (i < args.length) {
    const t = (args[i] as Word).text;
    // `-S STR`, `-SSTR`, `-iS STR` (a cluster: -i, -0 and -v take no value), `--split-string=STR` and its
    // abbreviations: STR is split into words that run before the rest.
    const split = splitString(t);
    if (split !== null) {
      const words = split === "" ? args.slice(i + 1) : [{ ...(args[i] as Word), text: split }, ...args.slice(i + 1)];
      // env's own escapes in the string: `\_` separates words, `\c` ends the string (and the words after it).
      const [first, ...after] = words;
      if (first === undefined) return unwrap("wrapper:env", 2, "env -S with no string");
      const ended = first.text.includes("\\c");
      code.push(joinWords([{ ...first, text: envEscapes(first.text) }, ...(ended ? [] : after)]).text);
      return unwrap("wrapper:env", floor, why, { code });
    }
    if (t === "--") {
      i++;
      break;
    }
    if (t === "-C" || t === "--chdir") chdir = args[i + 1];
    else if (t.startsWith("--chdir=")) chdir = { ...(args[i] as Word), text: t.slice(8) };
    if (t.startsWith("-")) {
      i += ENV_VALUES.has(t) ? 2 : 1;
      continue;
    }
    const m = /^([A-Za-z_][A-Za-z0-9_]*)=/.exec(t);
    if (!m) break;
    const literal = (args[i] as Word).dynamic ? null : t.slice(t.indexOf("=") + 1).replace(/^(["'])(.*)\1$/s, "$2");
    if (riskyAssignment(m[1] ?? "") && !harmlessValue(m[1] ?? "", literal)) {
      floor = 2;
      why = `sets ${m[1]}, which changes what runs`;
    }
    const steers = toolVariable(m[1] ?? "", literal);
    if (steers !== null) {
      floor = 2;
      why = `sets ${m[1]}: ${steers}`;
    }
    const run = (args[i] as Word).dynamic ? null : assignmentCode(m[1] ?? "", t.slice(t.indexOf("=") + 1));
    if (run !== null) code.push(run);
    set.push(args[i] as Word);
    i++;
  }
  const rest = args.slice(i);
  if (rest.length === 0) return unwrap("wrapper:env", 2, "prints the environment, which may hold secrets");
  return unwrap("wrapper:env", floor, why, { inner: [rest], code, carried: handedTexts(set), ...(chdir ? { chdir } : {}) });
}

/** GNU env's escapes in a -S string: `\_` is a blank between words, `\c` ends the string. */
function envEscapes(text: string): string {
  const cut = text.indexOf("\\c");
  return (cut >= 0 ? text.slice(0, cut) : text).replaceAll("\\_", " ");
}

/**
 * env's split string in word `t`: "" when it is the next word (`-S`,
 * `--split-string`), the attached text (`-SSTR`, `-iSSTR`,
 * `--split-string=STR`, `--s=STR`), or null when `t` is no -S.
 */
function splitString(t: string): string | null {
  const long = /^--s(?:p(?:l(?:i(?:t(?:-(?:s(?:t(?:r(?:i(?:ng?)?)?)?)?)?)?)?)?)?)?(=|$)/.exec(t);
  if (long) return long[1] === "=" ? t.slice(t.indexOf("=") + 1) : "";
  if (!/^-[^-]/.test(t)) return null;
  for (let k = 1; k < t.length; k++) {
    const c = t[k] as string;
    if (c === "S") return t.slice(k + 1);
    // A letter that takes a value ends the cluster (`-uSOME`: unset SOME); one env does not know, too.
    if (!"i0v".includes(c)) return null;
  }
  return null;
}

/** The command strace's output option names (`-o '|CMD'`, `-o!CMD`, `--output=|CMD`), or null. */
function straceOutputCommand(options: Word[]): string | null {
  for (let i = 0; i < options.length; i++) {
    const t = (options[i] as Word).text;
    let value: string | undefined;
    if (t === "--output") value = options[i + 1]?.text;
    else if (t.startsWith("--output=")) value = t.slice(9);
    else if (/^-[^-]/.test(t)) {
      // A cluster: `-fo FILE`, `-ffoFILE`; a letter that takes a value ends it.
      const { letter, rest } = straceCluster(t);
      if (letter === "o") value = rest === "" ? options[i + 1]?.text : rest;
    }
    if (value !== undefined && /^[|!]/.test(value)) return value.slice(1);
  }
  return null;
}

/** strace's short options that take a value. */
const STRACE_VALUE_LETTERS = "eosuabIOPSXpU";

/** The first letter of a short-option cluster that takes a value, and what follows it in the word. */
function straceCluster(t: string): { letter: string | null; rest: string } {
  for (let k = 1; k < t.length; k++)
    if (STRACE_VALUE_LETTERS.includes(t[k] as string)) return { letter: t[k] as string, rest: t.slice(k + 1) };
  return { letter: null, rest: "" };
}

/** strace's long options that take a separate value. */
const STRACE_LONG_VALUES = new Set([
  "--output",
  "--trace",
  "--signal",
  "--string-limit",
  "--attach",
  "--user",
  "--env",
  "--columns",
  "--trace-path",
  "--secontext",
  "--kvm",
]);

/** Where strace's command starts: after its options and their values, clusters (`-fo FILE`) and long options included. */
function straceCommandAt(args: Word[]): number {
  let i = 0;
  while (i < args.length) {
    const t = (args[i] as Word).text;
    if (t === "--") return i + 1;
    if (!t.startsWith("-") || t === "-") return i;
    if (t.startsWith("--")) i += t.includes("=") || !STRACE_LONG_VALUES.has(t) ? 1 : 2;
    else {
      const { letter, rest } = straceCluster(t);
      i += letter !== null && rest === "" ? 2 : 1;
    }
  }
  return i;
}

/** sg GROUP [-c] COMMAND: shadow's sg runs COMMAND with /bin/sh -c; `sg -` gives a login environment first. */
function sg(args: Word[]): Unwrap {
  let i = 0;
  if (args[i]?.text === "-") i++;
  const group = args[i];
  if (!group) return unwrap("wrapper:sg", 2, "starts a shell in another group");
  i++;
  if (args[i]?.text === "-c") i++;
  const command = args[i];
  if (!command) return unwrap("wrapper:sg", 2, "starts a shell in another group");
  if (args.length > i + 1) return unwrap("wrapper:sg", 2, "sg with words after its command: not known how they are read");
  return unwrap("wrapper:sg", 0, "runs a command in another group", { code: [command.text] });
}

function commandBuiltin(args: Word[]): Unwrap {
  const at = firstOperand(args, new Set());
  const flags = args.slice(0, at).map((w) => w.text);
  if (flags.some((f) => /^-[a-zA-Z]*[vV]/.test(f))) return unwrap("wrapper:command", 0, "looks a command up");
  return unwrap("wrapper:command", 0, "runs a command bypassing functions", { inner: [args.slice(at)] });
}

/** concurrently's options that take a separate value. */
const CONCURRENTLY_VALUES = new Set([
  "-n",
  "--names",
  "-c",
  "--prefix-colors",
  "-p",
  "--prefix",
  "-l",
  "--prefix-length",
  "-t",
  "--timestamp-format",
  "-s",
  "--success",
  "-m",
  "--max-processes",
  "--restart-tries",
  "--restart-after",
  "--default-input-target",
  "--name-separator",
  "--cwd",
  "--kill-signal",
  "--teardown",
]);

/**
 * concurrently runs each operand as a shell command (`concurrently "npm:watch" "tsc -w"`);
 * `npm:NAME` (and yarn:, pnpm:, bun:) is the package manager's `run NAME`.
 */
function concurrently(args: Word[]): Unwrap {
  const code: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const w = args[i] as Word;
    if (!w.dynamic && w.text.startsWith("-") && w.text !== "-") {
      // --teardown CMD runs a command too.
      if (w.text === "--teardown" || w.text.startsWith("--teardown="))
        code.push(w.text === "--teardown" ? (args[i + 1]?.text ?? "") : w.text.slice(11));
      if (CONCURRENTLY_VALUES.has(w.text)) i++;
      continue;
    }
    const script = /^(npm|yarn|pnpm|bun):(.+)$/.exec(w.text);
    code.push(script && !w.dynamic ? `${script[1]} run ${script[2]}` : w.text);
  }
  if (code.length === 0) return unwrap("wrapper:concurrently", 2, "runs no command given here");
  return unwrap("wrapper:concurrently", 0, "runs each operand as a shell command", { code });
}

/** A prefix wrapper's unwrapping, or null when `name` is not one. */
export function prefixWrapper(name: string, args: Word[]): Unwrap | null {
  if (name === "concurrently") return concurrently(args);
  // `nx exec -- CMD` runs CMD (in each project with --projects/--all).
  if (name === "nx" && args[0]?.text === "exec") {
    const at = firstOperand(args, new Set(["-p", "--projects", "--exclude", "--parallel"]), 1);
    const rest = args.slice(at);
    return rest.length === 0
      ? unwrap("wrapper:nx", 2, "nx exec with no command")
      : unwrap("wrapper:nx", 0, "nx exec runs a command", { inner: [rest] });
  }
  if (name === "sudo" || name === "doas" || name === "run0") return sudo(name, args);
  if (name === "su") return su(args);
  if (name === "env") return env(args);
  if (name === "sg") return sg(args);
  if (name === "command") return commandBuiltin(args);
  if (name === "runuser") {
    const i = args.findIndex((w) => w.text === "-c" || w.text === "--command");
    if (i >= 0 && args[i + 1])
      return unwrap("wrapper:runuser", 0, "runs as another user", { code: [(args[i + 1] as Word).text], policy: "sudo" });
    const at = firstOperand(args, new Set(["-u", "--user", "-g", "--group", "-G", "--supp-group"]));
    return unwrap("wrapper:runuser", at >= args.length ? 4 : 0, "runs as another user", { inner: [args.slice(at)], policy: "sudo" });
  }
  const spec = Object.hasOwn(PREFIX, name) ? PREFIX[name] : undefined;
  if (!spec) return null;
  if (name === "ionice" && args.some((w) => w.text === "-p" || w.text === "--pid"))
    return unwrap("wrapper:ionice", 2, "changes a running process's priority");
  if (name === "flock") {
    const c = args.findIndex((w) => w.text === "-c" || w.text === "--command");
    if (c >= 0 && args[c + 1]) return unwrap("wrapper:flock", 0, "runs under a lock", { code: [(args[c + 1] as Word).text] });
  }
  let at = name === "strace" ? straceCommandAt(args) : firstOperand(args, new Set(spec.values));
  if (name === "c8" || name === "nyc") {
    // Their own subcommands: a report from saved data is the rule's (js-tools); instrument and merge write where their operands say.
    const sub = args[at]?.text ?? "";
    if (sub === "report" || sub === "check-coverage") return null;
    if (sub === "instrument" || sub === "merge") return unwrap(`wrapper:${name}`, 2, `${name} ${sub} writes where its operands say`);
  }
  at += spec.skip ?? 0;
  const rest = args.slice(at);
  // strace -o '|CMD' (or '!CMD') pipes the trace into CMD, run by /bin/sh -c.
  const piped = name === "strace" ? straceOutputCommand(args.slice(0, at)) : null;
  if (piped !== null)
    return unwrap("wrapper:strace", 2, "pipes its trace into a command", { code: [piped], ...(rest.length ? { inner: [rest] } : {}) });
  const floor = spec.floor ?? 0;
  const why = spec.why ?? `runs the rest under ${name}`;
  if (rest.length === 0) return unwrap(`wrapper:${name}`, Math.max(floor, BARE_OK.has(name) ? 0 : 2) as TierNumber, why);
  return unwrap(`wrapper:${name}`, floor, why, { inner: [rest] });
}
