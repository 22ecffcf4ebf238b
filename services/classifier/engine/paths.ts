// Path judgement: resolve a word to an absolute path against the caller's cwd
// and home, and say what kind of place it is (workspace, scratch, secret,
// system directory, critical data, block device …). The text is judged as
// written; hostPaths() adds what it names on this host (the real path behind
// symlinks, a glob's matches), which callers judge too — never instead.
import { posix } from "node:path";
import { globSet } from "./glob-set.js";
import { configHoldsCredential, gitConfigFile } from "./git-credentials.js";
import { certificateOnly, danglingPath, expandWordPaths, realParent, realPath } from "./host-paths.js";
import type { Context, Word } from "./types.js";

export interface Place {
  /** Absolute normalised path, or null when unknown (dynamic, or relative with no cwd). */
  path: string | null;
  raw: string;
  /** Unquoted glob: `path` is then the static directory prefix before the first glob character. */
  glob: boolean;
  dynamic: boolean;
  /** `$VAR/`, `"$X"/*` …: an empty variable would make this `/`. */
  emptyVarRoot: boolean;
  isHome: boolean;
  /** The word after `~`/`$HOME` expansion, and the directory it is relative to ("" when none, or remote). */
  text: string;
  base: string;
  /** The word names a place on another host (ssh, a container): this host's files say nothing about it. */
  remote: boolean;
}

const HOME_PREFIX = /^(~|\$HOME|\$\{HOME\})(?=\/|$)/;

/** The caller's home, inferred from its cwd (the classifier's own home is meaningless). */
export function inferHome(cwd: string): string | null {
  const m = /^(\/home\/[^/]+|\/root)(\/|$)/.exec(cwd);
  return m?.[1] ?? null;
}

function staticPrefix(text: string): string {
  const i = text.search(/[*?[{]/);
  if (i < 0) return text;
  const cut = text.slice(0, i);
  const slash = cut.lastIndexOf("/");
  return slash < 0 ? "." : cut.slice(0, slash + 1) || "/";
}

/** A brace expansion whose alternatives may leave the directory written before it. */
function braceEscapes(text: string): boolean {
  const open = text.indexOf("{");
  if (open < 0) return false;
  const close = text.indexOf("}", open);
  return !text.slice(0, open).includes("/") || /[/~]|\.\./.test(text.slice(open + 1, close < 0 ? undefined : close));
}

/** A Place, its fields always in one order (one object shape: resolvePlace runs for every operand). */
function place(word: Word, ctx: Context, text: string, path: string | null, emptyVarRoot: boolean, isHome: boolean): Place {
  return {
    raw: word.text,
    glob: word.glob,
    dynamic: word.dynamic,
    emptyVarRoot,
    isHome,
    text,
    base: ctx.remote ? "" : ctx.cwd,
    remote: ctx.remote,
    path,
  };
}

export function resolvePlace(word: Word, ctx: Context): Place {
  let text = word.text;
  // /proc/self/cwd (and /dev/fd/../cwd) is the shell's working directory when the command runs, not the classifier's:
  // `cat /proc/self/cwd/key` reads what `cat key` reads.
  if (text.startsWith("/dev/fd/../")) text = `/proc/self/${text.slice("/dev/fd/../".length)}`;
  if (/^\/proc\/(?:self|thread-self)\/cwd(?=\/|$)/.test(text) && ctx.cwd && !ctx.remote && !word.dynamic)
    text = ctx.cwd + text.replace(/^\/proc\/(?:self|thread-self)\/cwd/, "");
  const homeRel = HOME_PREFIX.test(text);
  if (homeRel) {
    const home = ctx.home ?? "/home/~";
    text = text.replace(HOME_PREFIX, home);
  } else if (/^~\+(?=\/|$)/.test(text) && ctx.cwd && !ctx.remote) {
    // `~+` is $PWD (`~-`, $OLDPWD, stays unknown).
    text = ctx.cwd + text.slice(2);
  } else if (/^~[a-z_][a-z0-9_-]*(?=\/|$)/.test(text)) {
    // `~root/…`, `~dev/…`: another user's home, never the workspace.
    text = text.replace(/^~([a-z_][a-z0-9_-]*)/, (_m, user: string) => (user === "root" ? "/root" : `/home/${user}`));
  } else if (word.dynamic) {
    const emptyVarRoot = /^"?\$\{?[A-Za-z_][A-Za-z0-9_]*\}?"?\/+["*.]*$/.test(text);
    return place(word, ctx, text, null, emptyVarRoot, false);
  }
  const named = text;
  if (word.dynamic && text.includes("$")) return place(word, ctx, named, null, false, false);
  if (/^[\w.@-]+:/.test(text) && !/^[a-z]+:\/\//.test(text)) return place(word, ctx, named, null, false, false);
  // `{/etc,/usr}`, `{~,x}`, `/tmp/{../..,x}`: a brace's alternatives can name any place.
  if (word.glob && braceEscapes(text)) return place(word, ctx, named, null, false, false);
  if (word.glob) text = staticPrefix(text);
  if (text.startsWith("~")) return place(word, ctx, named, null, false, false);
  let path: string | null;
  if (text.startsWith("/")) path = posix.normalize(text);
  else if (ctx.cwd && !ctx.remote) path = posix.resolve(ctx.cwd, text);
  else path = null;
  if (path !== null && path.length > 1) path = path.replace(/\/+$/, "");
  // /proc/self/root, /proc/1/root …: another name for `/`.
  if (path !== null) path = path.replace(/^\/proc\/(?:self|thread-self|\d+)\/root(?=\/|$)/, "") || "/";
  const home = ctx.home ?? (homeRel ? "/home/~" : null);
  return place(word, ctx, named, path, false, path !== null && path === home);
}

/**
 * What a place names on this host besides its text: a glob's current
 * matches, and the real path of each (behind symlinks: `link/etc/shadow`
 * with link → /). `follow` false: the last component is not followed (rm,
 * mv and unlink act on a link itself) unless the word ends in a slash.
 * Empty when nothing can be read, or the place is on another host.
 */
export function hostPaths(p: Place, follow: boolean): string[] {
  if (p.dynamic || p.remote) return [];
  // A plain word is looked up as written (`link/../x` is resolved after the link, as the kernel does).
  const physical = p.path === null || p.glob ? null : p.text.startsWith("/") ? p.text : p.base ? `${p.base}/${p.text}` : null;
  const named = p.glob ? (expandWordPaths(p.text, p.base)?.matches ?? []) : physical !== null ? [physical] : [];
  const through = follow || p.raw.endsWith("/");
  const out: string[] = [];
  // Every match is judged by its name; the first MAX_RESOLVED are also resolved through links.
  for (const [i, x] of named.entries()) {
    if (p.glob && x !== p.path) out.push(x);
    if (i >= MAX_RESOLVED) continue;
    // The directory first (one lookup shared by its words): where it does not exist, the word names nothing here
    // yet — unless a link on the way points somewhere (a dangling link to /etc/cron.d is a write into /etc).
    const parent = realParent(x) ?? danglingPath(x);
    if (parent === null) continue;
    const real = through ? (realPath(x) ?? parent) : parent;
    if (real !== p.path) out.push(real);
  }
  // A glob under a linked directory names its pattern where the link leads, matches or none (`csplit -f cron/x`
  // writes cron/x00 … with cron → /etc/cron.d).
  if (p.glob && p.path !== null) {
    const dir = realPath(p.path);
    const prefix = staticPrefix(p.text);
    if (dir !== null && dir !== p.path) out.push(posix.join(dir, prefix === "." ? p.text : p.text.slice(prefix.length)));
  }
  return out;
}

/** Glob matches resolved through links per word (the rest are judged by name only). */
const MAX_RESOLVED = 64;

let stateDirs: string[] = [];

/** agent-sudo's own state dir (AGENT_SUDO_HOME, or its default) and its real path: secret and guarded for every source. */
export function setStateDir(dir: string): void {
  const dirs = [posix.normalize(dir), realPath(dir)].filter((d): d is string => d !== null && d !== "/" && d.startsWith("/"));
  stateDirs = [...new Set(dirs)];
}

function inStateDir(path: string): boolean {
  return stateDirs.some((d) => inside(path, d));
}

export function inside(path: string, root: string): boolean {
  return path === root || path.startsWith(root === "/" ? "/" : root + "/");
}

export function inWorkspace(path: string, ctx: Context): boolean {
  return !ctx.remote && ctx.workspace.some((root) => inside(path, root));
}

export function isWorkspaceRoot(path: string, ctx: Context): boolean {
  return ctx.workspace.some((root) => path === root);
}

const TOP = new Set([
  "/",
  "/bin",
  "/boot",
  "/dev",
  "/etc",
  "/home",
  "/lib",
  "/lib32",
  "/lib64",
  "/libx32",
  "/opt",
  "/proc",
  "/root",
  "/run",
  "/sbin",
  "/srv",
  "/sys",
  "/usr",
  "/var",
  "/snap",
  "/mnt",
  "/media",
  "/data",
]);
// Second-level directories whose loss breaks the system.
const SECOND_LEVEL_ROOTS = ["/usr", "/var", "/etc", "/boot", "/lib", "/lib64", "/bin", "/sbin"];
const NOT_CATASTROPHIC = new Set(["/var/tmp", "/var/cache", "/tmp"]);

/** Recursive delete/chmod/chown/move here wrecks the host: /, top-level dirs, $HOME, /etc/ssh … */
export function catastrophicTree(p: Place, deep: boolean): boolean {
  if (p.emptyVarRoot || p.isHome) return true;
  if (p.path === null) return false;
  if (NOT_CATASTROPHIC.has(p.path)) return false;
  if (TOP.has(p.path)) return true;
  const parent = posix.dirname(p.path);
  if (parent === "/home") return true;
  return deep && SECOND_LEVEL_ROOTS.includes(parent);
}

const CRITICAL_DATA = [
  "/var/lib/postgresql",
  "/var/lib/docker",
  "/var/lib/mysql",
  "/var/lib/containerd",
  "/var/lib/vault",
  "/opt/appdata",
  "/var/lib/incus",
  "/data",
];

/** Stateful data (databases, container volumes): destroying it loses data no undo brings back. */
export function criticalData(path: string): boolean {
  return CRITICAL_DATA.some((root) => inside(path, root));
}

const CRITICAL_FILES_GLOBS = [
  "/etc/passwd",
  "/etc/shadow",
  "/etc/group",
  "/etc/gshadow",
  "/etc/sudoers",
  "/etc/sudoers.d/**",
  "/etc/fstab",
  "/etc/crypttab",
  "/etc/pam.d/**",
  "/etc/ssh/sshd_config",
  "/etc/ssh/sshd_config.d/**",
  "/boot/**",
  "/etc/default/grub",
  "/etc/security/**",
  "/etc/nsswitch.conf",
  "/etc/ld.so.preload",
  "/etc/login.defs",
  "/etc/inittab",
  "/proc/sysrq-trigger",
  "/proc/sys/kernel/sysrq",
];
const CRITICAL_FILES = globSet(CRITICAL_FILES_GLOBS);

/** Files whose damage locks everyone out or stops the boot. */
// The agent's own guard: its hook settings (which run agent-sudo's hook) and
// agent-sudo's configuration. Changing them switches the broker off.
const GUARD_FILES_GLOBS = [
  "**/.claude",
  "**/.claude/settings.json",
  "**/.claude/settings.local.json",
  "**/.claude/hooks",
  "**/.claude/hooks/**",
  "/etc/claude-code/**",
  "**/.agent-sudo/**",
  "/var/lib/agent-sudo/**",
  "/opt/agent-sudo/**",
  "/etc/agent-sudo/**",
  "/etc/systemd/system/agent-sudo*",
  "/etc/systemd/system/agent-sudo*/**",
  "/run/systemd/system/agent-sudo*",
  "/run/systemd/system/agent-sudo*/**",
  "/etc/apparmor.d/agent-sudo*",
  "/etc/apparmor.d/local/agent-sudo*",
];
const GUARD_FILES = globSet(GUARD_FILES_GLOBS);

/** Writing this switches off or rewires the broker that judges the writer. */
export function guardFile(path: string): boolean {
  return GUARD_FILES(path) || inStateDir(path);
}

// Files whose content runs later, unasked: shell start-up files, git hooks
// and config (aliases, core.hooksPath, core.sshCommand), user units, autostart.
const PERSISTENCE_GLOBS = [
  "**/.bashrc",
  "**/.bash_profile",
  "**/.bash_login",
  "**/.profile",
  "**/.zshrc",
  "**/.zprofile",
  "**/.zshenv",
  "**/.bash_logout",
  "**/.git",
  "**/.git/hooks",
  "**/.git/hooks/**",
  "**/.git/config",
  // Where git also reads config or hooks of a repository: the per-worktree config, the pointer to another
  // common dir (its config and hooks then apply), submodules' and linked worktrees' git dirs, bare repositories.
  "**/.git/config.worktree",
  "**/.git/commondir",
  "**/.git/modules/**/config",
  "**/.git/modules/**/config.worktree",
  "**/.git/modules/**/commondir",
  "**/.git/modules/**/hooks",
  "**/.git/modules/**/hooks/**",
  "**/.git/modules/**/info/attributes",
  "**/.git/worktrees/*/config.worktree",
  "**/.git/worktrees/*/commondir",
  "**/.git/worktrees/*/gitdir",
  "**/*.git/config",
  "**/*.git/config.worktree",
  "**/*.git/commondir",
  "**/*.git/hooks",
  "**/*.git/hooks/**",
  "**/.gitconfig",
  "**/.config/git/config",
  "**/.config/systemd/user",
  "**/.config/systemd/user/**",
  "**/.config/autostart/**",
  "**/.ssh/authorized_keys",
  "**/.ssh/rc",
  "**/.ssh/config",
  "**/.pam_environment",
  "**/.xprofile",
  // Run or obeyed on entering the project or on the next tool run: direnv, editor tasks, git filters, package-manager config, PATH.
  "**/.envrc",
  "**/.vscode/tasks.json",
  "**/.vscode/settings.json",
  "**/.git/info/attributes",
  "**/.npmrc",
  "**/.yarnrc",
  "**/.yarnrc.yml",
  "**/pip.conf",
  // cargo's config (rustc-wrapper, build.rustc, target runners, target-dir) and rustup's toolchain files (a path runs its binaries).
  "**/.cargo/config.toml",
  "**/.cargo/config",
  "**/rust-toolchain.toml",
  "**/rust-toolchain",
  // mise's own configuration (its tasks, hooks and `path:` tools run later); a project's version pins
  // (.tool-versions, .python-version) are everyday files and are not listed (its mise.toml is, below).
  "**/.config/mise/**",
  "**/.config/pip/**",
  "**/.bash_aliases",
  "**/.local/bin",
  "**/.local/bin/**",
  "**/.ssh/environment",
  "**/.config/fish/**",
  // Git hooks wherever core.hooksPath points them (husky); the programs Claude Code starts as MCP servers;
  // Python's start-up files, run by every interpreter of that environment (`import` lines of a .pth).
  "**/.husky/**",
  "**/.mcp.json",
  // Other agents' and editors' MCP servers and hooks in the project (review 24): commands started on the next session.
  "**/.cursor/mcp.json",
  "**/.vscode/mcp.json",
  "**/.gemini/settings.json",
  "**/.codex/config.toml",
  "**/.continue/config.json",
  "**/.continue/config.yaml",
  "**/.roo/mcp.json",
  "**/.kiro/settings/mcp.json",
  "**/.amazonq/mcp.json",
  "**/site-packages/*.pth",
  "**/dist-packages/*.pth",
  "**/site-packages/sitecustomize.py",
  "**/site-packages/usercustomize.py",
  // Review 27: git-hook managers' configs (lefthook runs its commands on every hook git fires, pre-commit's hooks run
  // on the next commit once installed — as .husky/ above), Cursor's agent hooks, and a dev container's commands
  // (initializeCommand runs on the host when the folder is opened in a container).
  "**/?(.)lefthook?(-local).@(yml|yaml|json|toml)",
  "**/.pre-commit-config.yaml",
  "**/.pre-commit-config.yml",
  "**/.cursor/hooks.json",
  "**/.devcontainer/devcontainer.json",
  "**/.devcontainer/*/devcontainer.json",
  "**/.devcontainer.json",
  // Round 20: a virtual environment's start-up files (activate is sourced into the user's own shell; pyvenv.cfg's
  // home picks the interpreter and its .pth files; site-packages modules run at every start: _virtualenv.py) —
  // git-ignored, so "regenerable", but code nothing holds; direnv's usual local include; the common hooksPath
  // directory; Claude Code's per-user project memory (ignored, loaded into every later session).
  "**/bin/activate",
  "**/bin/activate?(.|_)*",
  "**/pyvenv.cfg",
  "**/site-packages/**/*.py",
  "**/dist-packages/**/*.py",
  "**/.envrc.local",
  "**/.githooks/**",
  "**/CLAUDE.local.md",
  // Round 21: another repository's objects a git read then prints (alternates), Mercurial's and Jujutsu's
  // repository config (hooks, extensions, diff and pager commands), as .git/config is git's.
  "**/.git/objects/info/alternates",
  "**/.git/objects/info/http-alternates",
  "**/.hg/hgrc",
  "**/.jj/repo/config.toml",
  // Round 22: what a tool reads from the directory it starts in, every start, and obeys as code or as the program
  // to start: mise's project config ([hooks] and `_.source` run on cd, and its trust is bound to the path, not the
  // content), a VS Code workspace file's tasks (runOn folderOpen, as tasks.json), R's and Octave's start-up files,
  // sbt's and Maven's JVM options (-javaagent), bazel's rc, bun's preloads, Jupyter's and IPython's config; git's
  // state files that run or drop history (a rebase todo's `exec` lines, a shallow boundary).
  "**/?(.)mise?(.local).toml",
  "**/?(.)mise/config?(.local).toml",
  "**/.config/mise.toml",
  "**/*.code-workspace",
  "**/.Rprofile",
  "**/.Renviron",
  "**/.octaverc",
  "**/.sbtopts",
  "**/.jvmopts",
  "**/.mvn/jvm.config",
  "**/.mvn/maven.config",
  "**/.mvn/extensions.xml",
  "**/.bazelrc",
  "**/bunfig.toml",
  "**/jupyter_*_config.@(py|json)",
  "**/ipython_config.py",
  "**/.git/rebase-merge/**",
  "**/.git/rebase-apply/**",
  "**/.git/sequencer/**",
  "**/.git/shallow",
  // Round 23: uv's project config (`index-url` switches where `uv run` syncs from; sdists' setup.py then runs).
  "**/uv.toml",
  // Round 24: option files read from the cwd on every run — ctags' (`-o ~/.bash_aliases` writes anywhere) and
  // yt-dlp's home configuration (`--exec` runs commands).
  "**/.ctags.d/**",
  "**/.ctags",
  "**/yt-dlp.conf",
];
const PERSISTENCE = globSet(PERSISTENCE_GLOBS);

/** Writing this plants something that runs later. */
export function persistenceFile(path: string): boolean {
  return PERSISTENCE(path);
}

export function criticalFile(path: string): boolean {
  return CRITICAL_FILES(path);
}

const BLOCK_DEVICE =
  /^\/dev\/(sd[a-z]|hd[a-z]|vd[a-z]|xvd[a-z]|nvme\d|mmcblk\d|dm-\d|md\d|mapper\/|disk\/|loop\d|sr\d|mem$|kmem$|port$|nbd\d|zd\d|rbd\d)/;

// /dev/<vg>/<lv> (LVM), /dev/block/8:0 …: a two-level name under /dev outside
// these is taken for a block device.
const DEV_NOT_BLOCK =
  /^\/dev\/(pts|shm|fd|mqueue|hugepages|net|input|snd|dri|bus|char|cpu|usb|serial|v4l|vfio|tty|console|null|zero|full|random|urandom|stdin|stdout|stderr|log|kmsg|core|ptmx|rtc|hwrng|fuse|kvm|vhost-net|vhost-vsock|tun|autofs|btrfs-control|cuse|ppp|uinput|uhid|watchdog|vcs|vcsa|vcsu|lp|i2c|spidev|gpiochip|hidraw|infiniband|nvidia|nvme-fabrics)(\/|\d*$)/;

export function blockDevice(path: string): boolean {
  if (BLOCK_DEVICE.test(path)) return true;
  return /^\/dev\/[^/]+\/[^/]+/.test(path) && !DEV_NOT_BLOCK.test(path);
}

const SINKS = new Set(["/dev/null", "/dev/stdout", "/dev/stderr", "/dev/tty", "/dev/zero", "/dev/full"]);

/** Writes here change nothing. */
export function sink(path: string): boolean {
  return SINKS.has(path) || /^\/dev\/fd\/\d+$/.test(path) || /^\/proc\/self\/fd\/\d+$/.test(path);
}

/**
 * Names tools look for in every directory above the one they run in (pytest's
 * rootdir and conftest.py, node's node_modules, Claude Code's CLAUDE.md and
 * .claude, workspace and version files, JS tools' configs, which are code).
 */
const UPWARD =
  /^(conftest\.py|pytest\.ini|tox\.ini|setup\.cfg|pyproject\.toml|package\.json|CLAUDE\.md|AGENTS\.md|\.claude|node_modules|go\.work|Cargo\.toml|pnpm-workspace\.yaml|lerna\.json|nx\.json|turbo\.json|[jt]sconfig\.json|\.tool-versions|\.?mise\.toml|\.mise|\.python-version|\.nvmrc|\.node-version|\.(eslintrc|prettierrc|babelrc|mocharc|stylelintrc|swcrc)(\..+)?|(eslint|prettier|babel|jest|vitest|vite|webpack|rollup|postcss|tailwind|stylelint)\.config\.[cm]?[jt]s|\.mvn|[Rr]akefile(\.rb)?|Gemfile|gems\.rb|\.rubocop\.ya?ml|\.golangci\.(ya?ml|toml|json)|settings\.gradle(\.kts)?|WORKSPACE(\.bazel)?|MODULE\.bazel|\.bazelrc|\.cargo|bunfig\.toml|\.sbtopts|\.jvmopts)$/;

/**
 * A path whose first step into a shared scratch root (`/tmp/conftest.py`,
 * `/tmp/node_modules/…`) or into a directory above a workspace
 * (`../conftest.py` from a workspace in /tmp) is a name tools search upward
 * for: other users' runs and the agent's own later ones load it as theirs.
 */
export function upwardSearched(path: string, workspaces: readonly string[]): string | null {
  const parts = path.split("/").filter(Boolean);
  for (let i = 0; i < parts.length; i++) {
    const dir = `/${parts.slice(0, i).join("/")}`;
    const name = parts[i] as string;
    if (!UPWARD.test(name)) continue;
    if (sharedScratchRoot(dir) || workspaces.some((w) => w !== dir && inside(w, dir))) return `${dir === "/" ? "" : dir}/${name}`;
  }
  return null;
}

/** A world-writable scratch root itself (/tmp, /var/tmp, /dev/shm): anyone may have put a file there. */
export function sharedScratchRoot(path: string): boolean {
  return /^\/(?:tmp|var\/tmp|dev\/shm)\/?$/.test(path);
}

/** Per-user scratch space: writes here are as reversible as the workspace. */
export function scratch(path: string): boolean {
  return /^\/(tmp|var\/tmp|dev\/shm)\/[^/]/.test(path);
}

const SYSTEM = [
  "/etc",
  "/boot",
  "/usr",
  "/lib",
  "/lib32",
  "/lib64",
  "/bin",
  "/sbin",
  "/var/lib",
  "/sys",
  "/proc",
  "/root",
  "/dev",
  "/opt",
  "/srv",
];

export function systemPath(path: string): boolean {
  return SYSTEM.some((root) => inside(path, root)) || path === "/";
}

/** The host's fixed secret files: secret where written, and at the end of another name for `/` (SECRET_SUFFIX). */
const HOST_SECRET_FILES = [
  "/etc/shadow",
  "/etc/gshadow",
  "/etc/shadow-",
  "/etc/gshadow-",
  "/etc/sudoers",
  "/etc/sudoers.d/**",
  "/etc/ssl/private/**",
  "/etc/ssh/ssh_host_*_key",
];

const SECRET_GLOBS = [
  // Daemons' credentials in plain text (review 17): Wi-Fi and VPN secrets, mail relays' passwords, Ceph keyrings,
  // Samba's and sssd's secrets and caches (password hashes), Dropbear's host keys, GitLab's secrets.
  "/etc/wpa_supplicant/**",
  "/etc/NetworkManager/system-connections/**",
  "/etc/ppp/chap-secrets",
  "/etc/ppp/pap-secrets",
  "/etc/ipsec.secrets",
  "/etc/ipsec.d/private/**",
  "/etc/swanctl/private/**",
  "/etc/postfix/sasl_passwd*",
  "/etc/exim4/passwd.client",
  "/etc/ceph/*.keyring",
  "/var/lib/samba/private/**",
  "/etc/sssd/sssd.conf",
  "/var/lib/sss/db/**",
  "/etc/dropbear/*_key",
  "/etc/gitlab/gitlab-secrets.json",
  "**/.ssh/**",
  "**/.aws/**",
  "**/.gnupg/**",
  "**/.kube/config",
  "**/.docker/config.json",
  "**/.netrc",
  // The agent's caller token for `agent-sudo exec` (README: ~/.config/agent-sudo/token, AGENT_SUDO_TOKEN_FILE's default).
  "**/.config/agent-sudo/token",
  "**/.pgpass",
  "**/.git-credentials",
  "**/.pypirc",
  "**/.vault-token",
  "**/.config/gcloud/**",
  "**/.azure/**",
  "**/.npmrc",
  "**/.my.cnf",
  ...HOST_SECRET_FILES,
  "/proc/*/environ",
  // Another process's memory, its threads' environment, and its open files (a /proc fd link reopens the file it
  // names, whatever its permissions now; map_files likewise for mapped files).
  "/proc/*/task/*/environ",
  "/proc/*/mem",
  "/proc/*/task/*/mem",
  "/proc/*/fd/*",
  "/proc/*/task/*/fd/*",
  "/proc/*/map_files/*",
  "/proc/*/task/*/map_files/*",
  // A container's config carries its environment (the secrets passed with -e / env_file).
  "/var/lib/docker/containers/*/config.v2.json",
  "/var/lib/containers/storage/overlay-containers/*/userdata/config.json",
  "/run/secrets/**",
  // /var/run is /run (a link) on every current distribution: a container's or a pod's secrets (the service-account token) by its usual name.
  "/var/run/secrets/**",
  "**/.env",
  "**/.env.*",
  "**/*.env",
  // direnv's file exports the project's secrets as .env holds them; conda's rc holds channel tokens and proxy
  // passwords (`conda config --show` prints it; review 34).
  "**/.envrc",
  "**/.envrc.local",
  "**/.condarc",
  "**/*.pem",
  "**/*.key",
  "**/*.p12",
  "**/*.pfx",
  "**/*.jks",
  "**/*.keystore",
  "**/id_rsa",
  "**/id_dsa",
  "**/id_ecdsa",
  "**/id_ed25519",
  "**/credentials",
  "**/credentials.json",
  "**/secrets.@(yml|yaml|json|toml|env)",
  "**/*.tfstate",
  "**/.bash_history",
  "**/.psql_history",
  "**/.mysql_history",
  "**/.agent-sudo/keys/**",
  "/var/lib/agent-sudo/keys/**",
  "**/master.key",
  "**/.htpasswd",
  // Agents' and CLIs' own credentials.
  "**/.claude/.credentials.json",
  "**/.config/gh/hosts.yml",
  "**/.codex/auth.json",
  "**/.config/rclone/rclone.conf",
  "**/.zsh_history",
  "**/.local/share/keyrings/**",
  "**/.password-store/**",
  "**/.terraform.d/credentials.tfrc.json",
  "**/.cargo/credentials",
  "**/.cargo/credentials.toml",
  "**/.gem/credentials",
  "**/.config/hub",
  "**/.config/doctl/config.yaml",
  "**/.kube/**",
  "/etc/wireguard/**",
  "**/.claude.json",
  "**/.m2/settings.xml",
  "**/.config/sops/**",
  "**/.config/age/**",
  // Review 31 (tier 0 in `cat`): netrc-format credentials under other names, the legacy docker auth file, age
  // identities in their other usual place, Hugging Face and Firebase tokens, pnpm's user rc file (the npmrc
  // format, registry tokens), Terraform's variable files and state backups (passwords, as .env and .tfstate),
  // WordPress's configuration (the database password and the auth salts).
  "**/.authinfo",
  "**/.authinfo.gpg",
  "**/.netrc.gpg",
  "**/.dockercfg",
  "**/.age/**",
  "**/.cache/huggingface/token",
  "**/.huggingface/token",
  "**/.config/configstore/firebase-tools.json",
  "**/.config/pnpm/rc",
  "**/terraform.tfvars",
  "**/*.auto.tfvars",
  "**/*.tfstate.backup",
  "**/wp-config.php",
  "/var/backups/*shadow*",
  "/etc/agent-sudo/**",
  "/dev/block/**",
  // agent-sudo's own state, wherever its state dir is.
  "**/database-url",
  "**/dev-token",
  "**/tokens.json",
  "**/approle-secret-id",
  "**/agent-sudo/state/**",
  "**/.agent-sudo/**",
  // Raw disks and memory hold every file's bytes, secrets included.
  "/dev/@(sd|hd|vd|xvd|nvme|mmcblk|dm-|md|loop)*",
  "/dev/mapper/**",
  "/dev/disk/**",
  "/dev/mem",
  "/dev/kmem",
  "/dev/port",
  "/proc/kcore",
  // Cluster, service and host credentials: kubeadm's and k3s/rke2's admin configs, tokens and PKI; MySQL's
  // maintenance account; registry logins; tailscale's node key; Kerberos keytabs and ticket caches; Wi-Fi and VPN
  // secrets; the GitLab runner's token; old password hashes.
  "/etc/kubernetes/*.conf",
  "/etc/kubernetes/pki/**",
  "/etc/rancher/*/*.yaml",
  "/var/lib/rancher/*/server/token",
  "/var/lib/rancher/*/server/node-token",
  "/var/lib/rancher/*/server/agent-token",
  "/var/lib/rancher/*/server/cred/**",
  "/var/lib/rancher/*/server/tls/**",
  "/etc/mysql/debian.cnf",
  "**/.config/containers/auth.json",
  "/run/containers/*/auth.json",
  "/run/user/*/containers/auth.json",
  "/var/lib/tailscale/**",
  "**/*.keytab",
  "/tmp/krb5cc_*",
  "/etc/NetworkManager/system-connections/**",
  "/etc/gitlab-runner/config.toml",
  "**/.gitlab-runner/config.toml",
  "/etc/security/opasswd",
  // Cloud, deploy and backup CLIs' tokens in a home.
  "**/.s3cfg",
  "**/.boto",
  "**/.yarnrc.yml",
  "**/.databrickscfg",
  "**/.fly/config.yml",
  "**/.supabase/access-token",
  "**/.config/netlify/**",
  "**/.config/ngrok/**",
  "**/.ngrok2/**",
  "**/.local/share/com.vercel.cli/**",
  "**/.wrangler/config/**",
  "**/.config/.wrangler/**",
  "**/.sentryclirc",
  "**/.composer/auth.json",
  "**/.config/composer/auth.json",
  "**/.gradle/gradle.properties",
  "**/.config/github-copilot/**",
  "**/.restic-password",
  "**/.config/borg/keys/**",
  // Browsers' and chat apps' profiles: cookies (live sessions), saved logins and their keys, tokens in local storage.
  "**/.mozilla/**",
  "**/.config/@(google-chrome|google-chrome-beta|google-chrome-unstable|chromium|microsoft-edge|vivaldi|opera)/**",
  "**/.config/BraveSoftware/**",
  "**/.config/@(Slack|discord|Signal|Element)/**",
  // Review 27: registry and forge credentials in package managers' and CLIs' config (pip.conf's index-url with a
  // password, Bundler's `gems.example.com` credentials, Poetry's auth.toml without a keyring, glab's token, a
  // project's Composer auth.json), REPL and shell histories (a typed password or token), cloud service-account keys,
  // PuTTY keys, and projects' local secret files (wrangler's .dev.vars, Azure Functions' local.settings.json, act's .secrets).
  "**/pip.conf",
  "**/pip/pip.ini",
  "**/.bundle/config",
  "**/.config/pypoetry/auth.toml",
  "**/.config/glab-cli/config.yml",
  "**/.*_history",
  "**/.local/share/fish/fish_history",
  // Histories under other names (stop 42): R's, mongosh's and the legacy mongo shell's, Leiningen's, IPython's
  // database, macOS-style per-session bash histories, vim's and neovim's (command lines, searches and registers).
  "**/.*history",
  "**/.*/**/*_history",
  "**/repl-history",
  "**/.dbshell",
  "**/.ipython/**/history.sqlite*",
  "**/.bash_sessions/**",
  "**/.viminfo",
  "**/.local/state/nvim/shada/**",
  "**/.local/share/nvim/shada/**",
  "**/service-account*.json",
  "**/serviceAccountKey*.json",
  "**/*.ppk",
  "**/.dev.vars",
  "**/.dev.vars.*",
  "**/local.settings.json",
  "**/.secrets",
  "**/auth.json",
  "**/secret?(s).@(txt|ini|cfg|conf|properties|xml)",
  // Round 20: credential files under their tools' own names — wallets and node identities (Solana, NEAR, IPFS, a Tor
  // onion service's key), VPN configs with their private key, saved passwords (Subversion, mail clients, Bitwarden's
  // CLI data, Ansible vault passwords, Mercurial's [auth], Maven's master password, KeePass databases), SaaS and
  // cloud CLIs' tokens, Google OAuth and Firebase admin keys, Android signing passwords, kubeconfigs by their usual
  // names, atuin's shell history and key, text browsers' cookies, Compose's and cookiecutter-django's secret files.
  "**/.config/solana/id.json",
  "**/.near-credentials/**",
  "**/.ipfs/config",
  "**/hs_ed25519_secret_key",
  "**/wg+([0-9]).conf",
  "**/wireguard/*.conf",
  "**/*.ovpn",
  "**/.subversion/auth/**",
  "**/.fetchmailrc",
  "**/.msmtprc",
  "**/.mbsyncrc",
  "**/.config/aerc/accounts.conf",
  "**/.config/Bitwarden CLI/**",
  "**/.ansible/vault_pass*",
  "**/?(.)vault[-_]pass*",
  "**/.hgrc",
  "**/.m2/settings-security.xml",
  "**/*.kdbx",
  "**/.kaggle/kaggle.json",
  "**/.gemini/oauth_creds.json",
  "**/.dbt/profiles.yml",
  "**/.snowsql/config",
  "**/.config/snowflake/connections.toml",
  "**/.config/hcloud/cli.toml",
  "**/.config/linode-cli",
  "**/.config/stripe/config.toml",
  "**/.railway/config.json",
  "**/.render/cli.yaml",
  "**/.config/tea/config.yml",
  "**/.talos/config",
  "**/.ivy2/.credentials",
  "**/.wakatime.cfg",
  "**/.cloudflared/*.json",
  "**/.terraformrc",
  "**/.config/helm/repositories.yaml",
  "**/.local/share/atuin/**",
  "**/.elinks/cookies*",
  "**/.w3m/cookie",
  "**/.netlify/config.json",
  "**/token.json",
  "**/client_secret*.json",
  "**/*-firebase-adminsdk-*.json",
  "**/keystore.properties",
  "**/kubeconfig?(.*)",
  "**/.envs/**",
  "**/.env[-_]*",
  "**/env.@(local|prod|production|dev|development|staging|test)",
  "**/secrets/*.@(txt|key|json|env|yaml|yml)",
  "**/@(password|passwords|creds|credentials|api_key|api_keys|apikey|key).txt",
  "**/.token",
  // Round 22: build tools', mail and chat clients', mounts', FTP clients', other agents' MCP servers' (their `env`
  // tokens) and deploy CLIs' credentials; wallets; X11's cookie; histories under other names; fish's universal
  // variables (`set -Ux GITHUB_TOKEN`); VS Code's secret storage.
  "**/.sbt/.credentials",
  "**/.sbt/*/credentials.sbt",
  "**/.mylogin.cnf",
  "**/.nuget/NuGet/NuGet.Config",
  "**/.muttrc",
  "**/.config/mutt/muttrc",
  "**/.mutt/muttrc",
  "**/.offlineimaprc",
  "**/.esmtprc",
  "**/.smbcredentials",
  "**/.davfs2/secrets",
  "**/.purple/accounts.xml",
  "**/.irssi/config",
  "**/.weechat/sec.conf",
  "**/.config/weechat/sec.conf",
  "**/.config/filezilla/@(sitemanager|recentservers).xml",
  "**/.filezilla/@(sitemanager|recentservers).xml",
  "**/.thunderbird/*/logins.json",
  "**/.thunderbird/*/key4.db",
  "**/.cvspass",
  "**/.Xauthority",
  "**/.config/Claude/claude_desktop_config.json",
  "**/.cursor/mcp.json",
  "**/.codeium/windsurf/mcp_config.json",
  "**/.gemini/settings.json",
  "**/.codex/config.toml",
  "**/.codex/auth.json",
  "**/.continue/config.@(json|yaml)",
  "**/.aider.conf.yml",
  "**/.bluemix/config.json",
  "**/.config/argocd/config",
  "**/.puppetlabs/token",
  "**/.local/share/TelegramDesktop/tdata/**",
  "**/.config/Bitwarden/data.json",
  "**/.electrum/wallets/**",
  "**/.bitcoin/wallet.dat",
  "**/.bitcoin/wallets/**",
  "**/.ethereum/keystore/**",
  "**/.histfile",
  "**/.julia/logs/repl_history.jl",
  "**/.config/fish/fish_variables",
  "**/.config/@(Code|Code - OSS|VSCodium|Cursor)/User/globalStorage/state.vscdb*",
];
const SECRET = globSet(SECRET_GLOBS);

const NOT_SECRET_GLOBS = [
  "**/*.pub",
  // A command's own standard streams (`cat /proc/self/fd/0` reads its stdin).
  "/proc/@(self|thread-self)/fd/@(0|1|2)",
  "**/.ssh/known_hosts",
  "**/.ssh/known_hosts.old",
  "**/.ssh/authorized_keys",
  "**/.ssh/config",
  "**/.env.example",
  "**/.env.sample",
  "**/.env.template",
  "**/.env.dist",
  "**/.env.defaults",
  "**/.env[-_]@(example|sample|template|dist|defaults)",
];
const NOT_SECRET = globSet(NOT_SECRET_GLOBS);

/**
 * The host's fixed secret paths (/etc/shadow, /etc/sudoers …) seen through
 * another name for `/`: a link to it (`cat link/etc/shadow`), a bind mount,
 * a chroot's copy. Any path that ends in one counts.
 */
const SECRET_SUFFIX_GLOBS = [...HOST_SECRET_FILES, "/var/lib/agent-sudo/**", "/etc/agent-sudo/**"].map((g) => `**${g}`);
const SECRET_SUFFIX = globSet(SECRET_SUFFIX_GLOBS);

/** Every glob list above, by name (glob-set.spec.ts checks the fast matcher against picomatch on each). */
export const PATH_GLOB_LISTS: Readonly<Record<string, readonly string[]>> = {
  CRITICAL_FILES_GLOBS,
  GUARD_FILES_GLOBS,
  PERSISTENCE_GLOBS,
  SECRET_GLOBS,
  NOT_SECRET_GLOBS,
  SECRET_SUFFIX_GLOBS,
};

/** Reading this reveals a credential. */
export function secretPath(path: string): boolean {
  // A raw disk or volume holds every file's bytes, secrets included.
  if (((SECRET(path) || SECRET_SUFFIX(path) || blockDevice(path)) && !NOT_SECRET(path)) || inStateDir(path)) return true;
  // A backup or editor copy of a secret file is the secret (`id_rsa.bak`, `.env~`, `#.env#`, `.pgpass.old`).
  const original = withoutBackupName(path);
  return original !== null && secretPath(original);
}

const BACKUP_NAME = /^(?:#(.+)#|(.+?)(?:~|\.(?:bak|old|orig|save|backup|prev|copy|tmp)))$/i;

/** The file a backup or editor copy is named after, or null. */
function withoutBackupName(path: string): string | null {
  const cut = path.lastIndexOf("/");
  const m = BACKUP_NAME.exec(path.slice(cut + 1));
  const original = m?.[1] ?? m?.[2];
  return original ? path.slice(0, cut + 1) + original : null;
}

/**
 * The secret test for a word that may be unresolvable (no cwd): judge its
 * own text too, and (with `host`) what it names on this host.
 */
export function secretPlace(p: Place, host = true): boolean {
  const raw = p.raw
    .replace(/^["']|["']$/g, "")
    .replace(/^file:\/\//, "")
    .replace(/^@/, "");
  const asPath = raw.startsWith("/") ? raw : "/x/" + raw.replace(/^(\.\/)+/, "");
  const named =
    (p.path !== null && secretPath(p.path)) || (asPath !== p.path && secretPath(asPath)) || (host && hostPaths(p, true).some(secretPath));
  // `*.pem`, `*.crt` name keys and certificates alike: a file that holds only certificates is public.
  if (named) return !(p.path !== null && !p.glob && !p.remote && CERT_NAME.test(p.path) && !inStateDir(p.path) && certificateOnly(p.path));
  // A repository config that holds a credential (`cat .git/config`, `less < .git/config`, `cat .git/*`).
  return host && p.path !== null && !p.remote && (p.glob ? gitConfigAt(p.path) : gitConfigFile(p.path) && configHoldsCredential(p.path));
}

const CERT_NAME = /\.(?:pem|crt|cer|csr)$/i;

/** A glob naming files in a `.git` directory: does that directory's config hold a credential? */
function gitConfigAt(pattern: string): boolean {
  const m = /^(.*\/\.git)(\/|$)/.exec(pattern);
  return m !== null && !/[*?[]/.test(m[1] as string) && configHoldsCredential(`${m[1]}/config`);
}
