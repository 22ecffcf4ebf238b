// Reading the content of a file that runs later as the commands it will run:
// cron lines, systemd Exec*= values, rc files and their aliases, APT hooks,
// logrotate scripts, udev RUN/PROGRAM, modprobe install/remove, SSH command=
// options, loader paths. Each command found is judged by the engine as shell
// code run as root; what a format names (an interpreter, a library directory,
// a variable like LD_PRELOAD) must come from a place only root can change.
// Pure: text in, findings out. It errs towards reading data as code.
import { posix } from "node:path";
import type { TierNumber } from "../../shared/tier.js";
import { secretPath } from "./paths.js";
import { ownConfiguration, ROOT_PATH, rootOwnedPlace } from "./runs-later.js";
import type { Format } from "./runs-later.js";
import { riskyAssignment } from "./wrappers.js";
import type { Mode } from "./targets.js";
import { unitWeakening } from "../../shared/unit-weakening.js";
import { unpackaged } from "./packaged.js";
import { unitGrantMarks } from "./unit-grants.js";

export interface Mark {
  tier: TierNumber;
  text: string;
}

export interface ContentJudge {
  /** Shell code as root runs it later, judged by the engine; `label` names where it was found. */
  code(text: string, label: string): Mark;
  /** A danger veto anywhere in text that is not read as shell. */
  veto(text: string, label: string): Mark | null;
  /** What root does to `path` later (tmpfiles.d at boot): judged like the same change in a diff, a file's content unknown. */
  later(mode: Mode, path: string, file: boolean): Mark[];
}

/** `path`: where the file is (a reader that needs it: a home's user units are not root's). */
export type Reader = (text: string, j: ContentJudge, path?: string) => Mark[];

export const mark = (tier: TierNumber, text: string): Mark => ({ tier, text });
export const lines = (text: string): string[] => text.split("\n").map((l) => l.replace(/\r$/, ""));
export const comment = (line: string): boolean => /^\s*(#|$)/.test(line);

/** Lines ending in a backslash continue on the next (systemd, udev, modprobe). */
export function joined(text: string): string[] {
  return text
    .replace(/\\\r?\n/g, " ")
    .split("\n")
    .map((l) => l.replace(/\r$/, ""));
}

const SHELLS = new Set(["sh", "bash", "dash", "ash", "ksh", "mksh", "zsh"]);

/** A program file: its shebang names what reads it; shell text is judged as code, other languages are refused. */
function script(text: string, j: ContentJudge): Mark[] {
  if (!text.startsWith("#!")) return [j.code(text, "script (no shebang: run by sh)")];
  const words = (text.slice(2).split("\n")[0] ?? "").trim().split(/\s+/);
  const interp = words[0] ?? "";
  if (!rootOwnedPlace(interp)) return [mark(4, `its interpreter ${interp || "(none)"} is not in a place only root can change`)];
  let name = posix.basename(interp);
  if (name === "env") name = posix.basename(words.slice(1).find((w) => !w.startsWith("-") && !w.includes("=")) ?? "");
  if (SHELLS.has(name)) return [j.code(text, `${name} script`)];
  // Python, Perl, node, awk …: code root runs later that the judge cannot read, so it cannot tell it harmless.
  return [mark(4, `a ${name || "unknown"} program root runs later: its code is not shell, which the judge reads`)];
}

/** Shell start-up files: the whole text as code, and every alias body as the code it runs later. */
function rc(text: string, j: ContentJudge, path = ""): Mark[] {
  return [
    j.code(text, "content"),
    ...dkmsHooks(text, path),
    ...aliases(text).map(([name, body]) => j.code(body, `alias ${name}`)),
    ...completions(text).map((cmd) => j.code(cmd, "complete -C")),
    ...historyFiles(text).flatMap((path) =>
      j
        .later("write", path, true)
        .filter((m) => m.tier === 4)
        .map((m) => mark(4, `the shell's history is written to ${path} at exit: ${m.text}`)),
    ),
  ];
}

/**
 * dkms.conf's PRE_BUILD, POST_BUILD, PRE_INSTALL, POST_INSTALL, POST_ADD, PRE_REMOVE and POST_REMOVE name scripts
 * of the module's tree that dkms runs as root: one that climbs out of it (`../../../tmp/x`) or lies elsewhere is
 * code no one judged.
 */
function dkmsHooks(text: string, path: string): Mark[] {
  if (!/^\/(usr\/src\/[^/]+\/dkms\.conf|etc\/dkms\/.+)$/.test(path)) return [];
  const out: Mark[] = [];
  for (const m of text.matchAll(/^\s*((?:PRE|POST)_(?:BUILD|INSTALL|ADD|REMOVE))\s*=\s*(.*)$/gm)) {
    const script = unquote(m[2] as string).split(/\s+/)[0] ?? "";
    if (script.includes("..") || script.includes("$") || (script.startsWith("/") && !rootOwnedPlace(script)))
      out.push(mark(4, `${m[1]}=${script}: dkms runs, as root, a script outside the module's tree`));
  }
  return out;
}

/** `complete -C CMD` / `compgen -C CMD`: CMD runs whenever the completion is asked for (a TAB). */
function completions(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/(?:^|[\s;&|({`])(?:complete|compgen)\s+/g)) {
    const words = shellWords(text, (m.index ?? 0) + m[0].length);
    words.forEach((w, i) => {
      if (/^-[A-Za-z]*C$/.test(w) && words[i + 1]) out.push(words[i + 1] as string);
    });
  }
  return out;
}

/** HISTFILE (and the REPLs' history variables) set in a start-up file: where an interactive shell writes at exit. */
function historyFiles(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(
    /(?:^|[\s;&|({`])(?:export\s+)?(?:HISTFILE|LESSHISTFILE|PYTHON_HISTORY|NODE_REPL_HISTORY|PSQL_HISTORY|MYSQL_HISTFILE|SQLITE_HISTORY|REDISCLI_HISTFILE)=/g,
  )) {
    const value = shellWords(text, (m.index ?? 0) + m[0].length)[0];
    if (value?.startsWith("/")) out.push(value);
  }
  return out;
}

/** `alias NAME=VALUE …` anywhere in shell text (after `;`, `&&`, in a block …), quotes removed. */
export function aliases(text: string): [string, string][] {
  const out: [string, string][] = [];
  for (const m of text.matchAll(/(?:^|[\s;&|({`])alias\s+/g)) {
    for (const w of shellWords(text, (m.index ?? 0) + m[0].length)) {
      const eq = w.indexOf("=");
      if (eq > 0 && !w.startsWith("-")) out.push([w.slice(0, eq), w.slice(eq + 1)]);
    }
  }
  return out;
}

/** Words of one shell command from `start`: quotes and backslashes removed; stops at an unquoted `;&|)` or newline. */
export function shellWords(text: string, start = 0): string[] {
  const out: string[] = [];
  let word: string | null = null;
  for (let i = start; i < text.length; i++) {
    const c = text[i] as string;
    if (c === "'") {
      const end = text.indexOf("'", i + 1);
      word = (word ?? "") + text.slice(i + 1, end < 0 ? undefined : end);
      i = end < 0 ? text.length : end;
    } else if (c === '"') {
      let k = i + 1;
      let s = "";
      for (; k < text.length && text[k] !== '"'; k++) s += text[k] === "\\" && /["\\$`]/.test(text[k + 1] ?? "") ? text[++k] : text[k];
      word = (word ?? "") + s;
      i = k;
    } else if (c === "\\") {
      word = (word ?? "") + (text[i + 1] === "\n" ? "" : (text[i + 1] ?? ""));
      i++;
    } else if (/[;&|)\n]/.test(c)) {
      break;
    } else if (/\s/.test(c)) {
      if (word !== null) out.push(word);
      word = null;
    } else {
      word = (word ?? "") + c;
    }
  }
  if (word !== null) out.push(word);
  return out;
}

// Variables whose value is a command something runs.
const COMMAND_VARS = new Set([
  "PROMPT_COMMAND",
  "PAGER",
  "EDITOR",
  "VISUAL",
  "MANPAGER",
  "GIT_PAGER",
  "GIT_EDITOR",
  "GIT_SSH_COMMAND",
  "GIT_SSH",
  "LESSOPEN",
  "LESSCLOSE",
  "BROWSER",
  "SSH_ASKPASS",
  "SUDO_ASKPASS",
  "GIT_ASKPASS",
  "GIT_EXTERNAL_DIFF",
  "GIT_PROXY_COMMAND",
]);
// Variables that are lists of places code is loaded from: every entry must be a place only root changes.
const PLACE_LIST =
  /^(PATH|LD_[A-Z_]+|BASH_ENV|ENV|PYTHONPATH|PYTHONHOME|PYTHONSTARTUP|NODE_PATH|PERL5LIB|GIT_EXEC_PATH|OPENSSL_CONF|APT_CONFIG)$/;

/** A variable set for what runs later: risky names are judged by the places and code they name. */
export function variable(name: string, value: string, j: ContentJudge, where: string): Mark[] {
  // sulogin then opens a root shell on the console with no password asked (review 50).
  if (name === "SYSTEMD_SULOGIN_FORCE")
    return [mark(4, `${where} sets SYSTEMD_SULOGIN_FORCE: the emergency and rescue shells open for root with no password`)];
  if (!riskyAssignment(name)) return [];
  const out: Mark[] = [mark(3, `${where} sets ${name} for what runs later`)];
  // Review 51: the loader's variables load what they name into every program run with them, root's daemons too: a
  // library outside the library trees (`/var/lib/foo/x.so`, not there yet or staged earlier as plain data) is code
  // no one judged, wherever it lies. /usr/local/lib is refused as a place to write (runs-later.ts), so it counts.
  if (/^LD_(?:PRELOAD|AUDIT|LIBRARY_PATH)$/.test(name)) {
    const foreign = value
      .split(/[\s:'"]+/)
      .filter((t) => t.includes("/"))
      .find((t) => !/^\/(?:usr\/(?!local\/)|usr\/local\/lib(?:\/|$)|lib(?:32|64|x32)?(?:\/|$))/.test(t) || t.includes(".."));
    if (foreign) out.push(mark(4, `${where} sets ${name} naming ${foreign}, outside the library trees`));
  }
  if (PLACE_LIST.test(name)) {
    // An empty entry of a search list (`::`, a leading or trailing `:`) is the working directory.
    const list = unquote(value);
    if (list !== "" && /^(PATH|LD_LIBRARY_PATH|PYTHONPATH|NODE_PATH|PERL5LIB)$/.test(name) && /(^|:)\s*(:|$)/.test(list))
      out.push(mark(4, `${where} sets ${name} with an empty entry: the working directory, not a place only root can change`));
    for (const entry of value.split(/[:\s]+/).filter(Boolean)) {
      if (name === "PATH" && /^\$\{?PATH\}?$/.test(entry)) continue;
      if (!rootOwnedPlace(entry)) out.push(mark(4, `${where} sets ${name} to include ${entry}, not a place only root can change`));
    }
  } else {
    for (const token of value.split(/[\s:=,;'"]+/).filter((t) => t.startsWith("/"))) {
      if (!rootOwnedPlace(token)) out.push(mark(4, `${where} sets ${name} naming ${token}, not a place only root can change`));
    }
  }
  if (COMMAND_VARS.has(name)) out.push(j.code(value.replace(/^\s*\|+/, ""), `${where} ${name}`));
  return out;
}

export const unquote = (v: string): string => v.trim().replace(/^"(.*)"$|^'(.*)'$/s, "$1$2");
const ENV_LINE = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*)$/;

/**
 * Names that, set for every session, choose code, configuration, trust or a
 * route for what root runs (VIMINIT, OPENSSL_CONF, SSL_CERT_FILE,
 * https_proxy, DOTNET_STARTUP_HOOKS, PIP_INDEX_URL, MANPAGER, JAVA_HOME, PYTHONWARNINGS — a dotted category is a
 * module Python imports …):
 * refused in the session environment files, whatever their value. PATH and
 * the loader's variables are judged by where they point (`variable`).
 */
export const SESSION_RISKY =
  /(INIT|CONF|CONFIG|RC|PROXY|CERT|_CA|CA_|TLS|SSL|HOOK|EDITOR|PAGER|BROWSER|INDEX|TRUSTED|REGISTRY|HOME|OPT|OPTS|OPTIONS|FLAGS|WRAPPER|PRELOAD|LIBRARY|ALIASES|DB|KEY|SSH|DIFF|SHELL|ENV|STARTUP|PLUGIN|DIR|FILE|_URL|GCONV|LOCPATH|NLSPATH|PYTHONWARNINGS)/i;

/** The directories of a stock PATH: any other in the session environment of every login (root's too) shadows their programs. */
const SYSTEM_PATH = new Set([...ROOT_PATH, "/usr/games", "/usr/local/games", "/snap/bin", "$PATH", "${PATH}"]);

function environment(text: string, j: ContentJudge, path = ""): Mark[] {
  const out: Mark[] = [j.code(text, "content")];
  const everyone = /^\/(?:etc|run)\/environment(?:$|\.d\/)/.test(path);
  for (const line of lines(text)) {
    const m = ENV_LINE.exec(line);
    if (!m || comment(line)) continue;
    const name = m[1] as string;
    const extra =
      name === "PATH" && everyone
        ? unquote(m[2] as string)
            .split(":")
            .find((d) => !SYSTEM_PATH.has(d.replace(/\/+$/, "")))
        : undefined;
    if (extra !== undefined)
      out.push(
        mark(4, `PATH adds ${extra || "the working directory"} for every session: its programs shadow the system's, root's logins too`),
      );
    out.push(...variable(name, unquote(m[2] as string), j, "a line"));
    if (name !== "PATH" && SESSION_RISKY.test(name))
      out.push(mark(4, `a line sets ${name} for every session: it chooses code, configuration, trust or a route for what root runs`));
  }
  return out;
}

/** cron's command field: an unescaped % ends the command and the rest is its stdin — judged as code too. */
const cronCommand = (c: string): string => c.replace(/\\%|%/g, (m) => (m === "%" ? "\n" : "%"));
const FIELD = "[0-9A-Za-z*?,/#-]+";
const TIMES = `(?:@[a-z]+|(?:${FIELD}\\s+){4}${FIELD})`;
const SYSTEM_LINE = new RegExp(`^\\s*${TIMES}\\s+\\S+\\s+(.*)$`);
const USER_LINE = new RegExp(`^\\s*${TIMES}\\s+(.*)$`);
const ANACRON_LINE = /^\s*\S+\s+\S+\s+\S+\s+(.*)$/;
const CRON_SHELLS = /^\/(usr\/)?bin\/(sh|bash|dash)$/;

function cronTable(pattern: RegExp, what: string): Reader {
  return (text, j) => {
    const out: Mark[] = [];
    for (const line of lines(text)) {
      if (comment(line)) continue;
      const env = ENV_LINE.exec(line);
      if (env) {
        const [name, value] = [env[1] as string, unquote(env[2] as string)];
        if (name === "SHELL" && !CRON_SHELLS.test(value)) out.push(mark(4, `${what} runs its commands with ${value}`));
        out.push(...variable(name, value, j, what));
        continue;
      }
      const m = pattern.exec(line);
      if (!m) out.push(mark(2, `a line of ${what} the judge does not read: judged whole`));
      out.push(j.code(cronCommand(m ? (m[1] as string) : line), `${what} command`));
    }
    return out;
  };
}

/**
 * Unit settings that change what the unit's programs see, load or read:
 * another file bound over a program or library, another root, an image,
 * input from a file or inline text.
 */
export const UNIT_VIEW_KEYS =
  /^(Bind(ReadOnly)?Paths|RootDirectory|RootImage|RootImageOptions|RootHash|RootVerity|MountImages|ExtensionImages|ExtensionDirectories|TemporaryFileSystem|StandardInputText|StandardInputData)$/;

/**
 * A comment line right after a line ending in a backslash: systemd skips the
 * comment and joins the continued line with what follows it, which a reader
 * that stops at the comment never sees as part of the value.
 */
export function commentInContinuation(text: string): Mark | null {
  const all = lines(text);
  const at = all.findIndex((l, i) => i > 0 && /^\s*[#;]/.test(l) && /\\$/.test(all[i - 1] as string));
  return at < 0 ? null : mark(4, `line ${at + 1}: a comment inside a continued line — systemd skips it and joins what follows`);
}

/** A unit that pulls in, triggers or acts as reboot, poweroff, halt, kexec, rescue or emergency (a timer could do it every minute). */
const STOPS_MACHINE =
  /^(Unit|OnFailure|OnSuccess|Wants|Requires|Requisite|BindsTo|PartOf|Upholds|PropagatesStopTo|Conflicts)=.*\b(reboot|poweroff|halt|kexec|soft-reboot|rescue|emergency|ctrl-alt-del|exit)\.target\b|^[A-Za-z]*Action=(reboot|poweroff|halt|kexec|soft-reboot|exit)/;

/** A getty (agetty, mingetty, …) and its options that log in without a password: root autologin, no login, another login program. */
const GETTY = /^\S*\/?(a|min|m|f|mg|q)?getty\s/;
const OPEN_LOGIN = /\s(-a\s*|--autologin[=\s]+)root\b|\s(-n|--skip-login)\b|\s(-l\s*|--login-program[=\s]+)(?!\S*\/login\b)\S/;

/** A word starting with `#` in a command systemd or udev splits itself: an argument to them, a comment to a shell's reading. */
const HASH_WORD = /(^|\s)#/;
/** The output of a unit written to a file, as root, with content no one judged. */
const OUTPUT_FILE = /^(file|append|truncate):/;
/** …except a log file under /var/log (no `..`, no specifier). */
const LOG_FILE = /^(file|append|truncate):\/var\/log\/(?!.*(\.\.|%))[^\s]+$/;
/** Sockets of daemons that act as root for whoever may connect (docker, containerd, podman, libvirt, LXD/Incus, snapd, D-Bus). */
const ROOT_SOCKET =
  /^\/(var\/)?run\/(docker(\.sock|\/)|containerd\/|podman\/|libvirt\/|incus\/|lxd\/|snapd(-snap)?\.socket|dbus\/system_bus_socket)|^\/var\/(lib|snap)\/(lxd|incus)\//;

/** A unit's socket settings that let others in: group- or world-writable, handed to a user or group, a root daemon's socket. */
function socketSetting(key: string, value: string): Mark | null {
  if (key === "SocketMode" && (!/^[0-7]{3,4}$/.test(value) || Number.parseInt(value, 8) & 0o002))
    return mark(4, `SocketMode=${value}: lets users other than root connect`);
  if ((key === "SocketUser" || key === "SocketGroup") && !["root", "0", ""].includes(value))
    return mark(4, `${key}=${value}: hands the socket to ${value}`);
  if (/^Listen(Stream|Datagram|SequentialPacket)$/.test(key) && ROOT_SOCKET.test(value))
    return mark(4, `${key}=${value}: the socket of a daemon that acts as root for whoever connects`);
  return null;
}

/** The system manager's specifiers with a fixed value (systemd.unit(5)); others (%i, %n …) are left as written. */
const SPECIFIERS: Record<string, string> = {
  h: "/root",
  T: "/tmp",
  V: "/var/tmp",
  t: "/run",
  S: "/var/lib",
  C: "/var/cache",
  L: "/var/log",
  E: "/etc",
  u: "root",
  U: "0",
  "%": "%",
};
const withSpecifiers = (v: string): string => v.replace(/%([A-Za-z%])/g, (m, c: string) => SPECIFIERS[c] ?? m);
/** systemd's unescaping of a unit-name part: `-` is `/`, `\xHH` a byte. */
const unescapeUnit = (v: string): string =>
  v.replace(/-/g, "/").replace(/\\x([0-9a-fA-F]{2})/g, (_, h: string) => String.fromCharCode(Number.parseInt(h, 16)));
/**
 * The specifiers the unit's file and name decide (%y %Y %n %N %p %P %j %J %f %i %I), from where the file is (a drop-in:
 * its unit's name). A template's instance is chosen by whoever starts it — a timer's or path unit's Unit=, a link in a
 * .wants directory — so it is read as `tmp` (%I, which may climb, as `../../../../../../tmp/x`): a place users write.
 */
function unitNameSpecifiers(path: string): Record<string, string> {
  const unit = /\/([^/]+)\.d\/[^/]+$/.exec(path)?.[1] ?? posix.basename(path);
  const dot = unit.lastIndexOf(".");
  const stem = dot > 0 ? unit.slice(0, dot) : unit;
  const suffix = dot > 0 ? unit.slice(dot) : "";
  const at = stem.indexOf("@");
  const prefix = at < 0 ? stem : stem.slice(0, at);
  const template = at >= 0 && stem.slice(at + 1) === "";
  const instance = at < 0 ? "" : template ? "tmp" : stem.slice(at + 1);
  const last = prefix.slice(prefix.lastIndexOf("-") + 1);
  const name = at < 0 ? stem : `${prefix}@${instance}`;
  // Unescaped, an instance may climb (`x@..-..-tmp-x.service`: ../../tmp/x): read as one that climbs to a file in /tmp.
  const I = template ? "../../../../../../tmp/x" : unescapeUnit(instance);
  return {
    y: path,
    Y: posix.dirname(path),
    n: `${name}${suffix}`,
    N: name,
    p: prefix,
    P: unescapeUnit(prefix),
    j: last,
    J: unescapeUnit(last),
    i: instance,
    I,
    // %f is a path systemd hands over as written; the kernel resolves `/../../tmp/x` as /tmp/x, and so does the judge.
    f: at < 0 ? `/${unescapeUnit(prefix)}` : posix.resolve("/", I),
  };
}
/** A value as one shell word that the judge's shell reading takes literally. */
const quoted = (v: string): string => `'${v.replace(/'/g, "'\\''")}'`;

/** The unit's own Environment= assignments (later ones win), specifiers resolved: what systemd substitutes into Exec lines. */
function unitEnvironment(all: string[]): Map<string, string> {
  const env = new Map<string, string>();
  for (const line of all) {
    const m = /^\s*Environment\s*=(.*)$/.exec(line);
    if (!m) continue;
    for (const w of shellWords((m[1] as string).replace(/[;&|)]/g, " "))) {
      const i = w.indexOf("=");
      if (i > 0) env.set(w.slice(0, i), withSpecifiers(w.slice(i + 1)));
    }
  }
  return env;
}

/**
 * An Exec command with the unit's own variables and fixed specifiers put in
 * as systemd does (`${X}` one word, `$X` split at whitespace; `$$X` is `$X`
 * for a shell it starts, which expands it from the environment),
 * each word quoted so the shell reading takes it literally (or, `raw`, as
 * plain text, for a value inside a shell's script); null when nothing
 * changes. A variable the unit does not define (a drop-in's, an
 * EnvironmentFile's) stays as written: the command is judged both ways.
 */
function substituted(command: string, env: ReadonlyMap<string, string>, raw = false, names: Record<string, string> = {}): string | null {
  const out = withSpecifiers(command.replace(/%([yYnNpPjJfiI])/g, (m, c: string) => names[c] ?? m)).replace(
    /\$\$?\{([A-Za-z_][A-Za-z0-9_]*)\}|\$\$?([A-Za-z_][A-Za-z0-9_]*)|\$\$/g,
    (m, braced?: string, bare?: string) => {
      if (m === "$$") return m;
      const value = env.get((braced ?? bare) as string);
      if (value === undefined) return m;
      if (raw) return value;
      return braced !== undefined ? quoted(value) : value.split(/\s+/).filter(Boolean).map(quoted).join(" ");
    },
  );
  return out === command ? null : out;
}

/** A C-style escape systemd decodes in Exec and Environment values (`/tm\x70` is /tmp), which a shell reading keeps as other text. */
const C_ESCAPE = /\\(x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|[0-7]{3}|[abfnrtvs])/;

/** Path unit settings naming what it watches: whoever may write there decides when root starts the unit it triggers. */
const PATH_WATCH = /^(PathExists|PathExistsGlob|PathChanged|PathModified|DirectoryNotEmpty)$/;
/** Places users write (scratch, homes, their runtime and lock directories, crash dumps and mail spools). */
/** Programs that, given no script, run what comes on their standard input. */
export const READS_CODE_FROM_STDIN =
  /^(sh|bash|dash|ash|ksh|mksh|zsh|fish|busybox|python[0-9.]*|perl[0-9.]*|ruby[0-9.]*|node(js)?|php[0-9.]*|lua[0-9.]*|tclsh[0-9.]*|awk|gawk|mawk|env)$/;

const USER_WRITES = /^\/(tmp|var\/tmp|dev\/shm|run\/user|run\/lock|var\/lock|var\/crash|var\/mail|home)(\/|$)/;

/**
 * A command run from / (a system unit's working directory when it names none) with its relative words naming places
 * users write made absolute (`install tmp/x /opt/x` reads /tmp/x); null when there are none.
 */
function fromRoot(command: string): string | null {
  const out = command.replace(
    /(^|[\s'"=:,])(?:\.\.?\/)*((?:tmp|var\/tmp|dev\/shm|run\/user|run\/lock|var\/lock|var\/crash|var\/mail|home)(?=\/|[\s'";|&)]|$))/g,
    "$1/$2",
  );
  return out === command ? null : out;
}

/**
 * The place a template instance's name stands for, when users write there (`x@-tmp-x.service`, `x@tmp.service`: the
 * template's %I and %f are /tmp/x and /tmp); `home` alone (only root writes /home itself) aside.
 */
export function instancePlace(name: string): string | null {
  const m = /^[^/@\s]+@([^/\s]+)\.[a-z]+$/.exec(posix.basename(name));
  if (!m?.[1] || m[1] === "home") return null;
  const place = posix.normalize(`/${unescapeUnit(m[1]).replace(/^\/+/, "")}`);
  return USER_WRITES.test(place) ? place : null;
}
/** Keys naming units started (or to be started) with this one. */
const STARTS_UNITS = /^(Unit|Wants|Requires|Requisite|BindsTo|PartOf|Upholds|OnFailure|OnSuccess|Also|WantedBy|RequiredBy|UpheldBy)$/;

/**
 * Whether a value names a place users write, in any spelling systemd or a shell reads as one (`//tmp`, `/var/../tmp`,
 * and relative words, which a unit run from / reads under /); /home itself aside (only root writes it).
 */
function namesUserPlace(value: string): boolean {
  return value
    .split(/[\s:=,'"]+/)
    .filter(Boolean)
    .some((t) => {
      const p = posix.resolve("/", t);
      return p !== "/home" && USER_WRITES.test(p);
    });
}

/** systemd units: Exec*= values with their -@:+! prefixes stripped; Environment= and EnvironmentFile= by what they name. */
function systemd(text: string, j: ContentJudge, path = ""): Mark[] {
  const out: Mark[] = [];
  const continued = commentInContinuation(text);
  if (continued) out.push(continued);
  const all = joined(text).filter((l) => !/^\s*([#;[]|$)/.test(l));
  const env = unitEnvironment(all);
  const names = unitNameSpecifiers(path);
  // A value naming a place users write, in a unit that runs as root: an Exec line elsewhere (a drop-in, the unit a drop-in
  // extends) that uses the variable is judged without it. Temporary-directory variables, units run as another user and a
  // home's own user units aside.
  const user = all
    .map((l) => /^\s*User\s*=\s*(\S*)/.exec(l)?.[1])
    .filter((u) => u !== undefined)
    .pop();
  const home = /^\/home\/[^/]+\//.test(path);
  const rootUnit = !home && (user === undefined || user === "" || user === "root" || user === "0");
  // Where its commands run: relative words are paths there (/ when it names none; a home's user unit: that home).
  const workDir = all
    .map((l) => /^\s*WorkingDirectory\s*=\s*-?(\S*)/.exec(l)?.[1])
    .filter((d) => d !== undefined)
    .pop();
  const fromSlash = !home && (workDir === undefined || workDir === "" || workDir === "/");
  if (rootUnit && workDir && workDir !== "~" && USER_WRITES.test(posix.resolve("/", withSpecifiers(workDir))))
    out.push(
      mark(4, `WorkingDirectory=${workDir}: root's commands run in a place users write — their relative paths are that user's files`),
    );
  if (rootUnit)
    for (const [name, value] of env)
      if (!/^(TMPDIR|TMP|TEMP|TEMPDIR)$/.test(name) && namesUserPlace(value))
        out.push(mark(4, `Environment=${name}=${value}: names a place users write, for root's commands here or in another unit file`));
  // StandardInput=socket (an Accept= socket's connection), a terminal or a passed fd: an interpreter started with no
  // script reads its code from there — whoever connects types root's commands (`ExecStart=/bin/sh -i`).
  const input = all
    .map((l) => /^\s*StandardInput\s*=\s*(\S*)/.exec(l)?.[1])
    .filter((v) => v !== undefined)
    .pop();
  if (input !== undefined && /^(socket|tty|fd)/.test(input))
    for (const line of all) {
      const exec = /^\s*Exec\w*\s*=\s*[-@:+!|]*(\S+)/.exec(line);
      const program = exec ? posix.basename(exec[1] as string) : "";
      if (READS_CODE_FROM_STDIN.test(program))
        out.push(mark(4, `StandardInput=${input} with ${program}: it reads the commands it runs as root from there`));
    }
  for (const line of all) {
    if (/^\s*([#;[]|$)/.test(line)) continue;
    const eq = line.indexOf("=");
    if (eq < 0) continue;
    const key = line.slice(0, eq).trim();
    const value = line.slice(eq + 1).trim();
    if (!home) out.push(...unitGrantMarks(path, key, value));
    if (STOPS_MACHINE.test(`${key}=${value}`))
      out.push(mark(4, `${key}=${value}: reboots, powers off or isolates the machine when it fires`));
    if (STARTS_UNITS.test(key))
      for (const unit of value.split(/\s+/)) {
        const place = instancePlace(unit);
        if (place) out.push(mark(4, `${key}=${unit}: an instance whose name stands for ${place}, a place users write`));
      }
    if ((/^Exec/.test(key) || key === "Environment") && C_ESCAPE.test(value))
      out.push(mark(4, `${key}=: a C-style escape, which systemd decodes (\\x70 is p) and the judge's reading does not`));
    if (key === "UMask" && (!/^[0-7]{1,4}$/.test(value) || !(parseInt(value, 8) & 0o002)))
      out.push(mark(4, `UMask=${value}: the files the unit's programs create are writable by anyone`));
    const weak = home ? null : unitWeakening(key, value, /\.d\/[^/]+\.conf$/.test(path));
    if (weak) out.push(mark(4, `${key}=${value}: ${weak} — the unit's own protection made weaker, for a person to decide`));
    if (key === "ExecSearchPath") out.push(...variable("PATH", value, j, key));
    else if (UNIT_VIEW_KEYS.test(key) || (key === "StandardInput" && /^(file:|data)/.test(value)))
      out.push(mark(4, `${key}=: changes what the unit's programs see, load or read as input`));
    else if (/^Exec/.test(key) && key !== "ExecPaths") {
      const prefix = /^[-@:+!|]*/.exec(value)?.[0] ?? "";
      let command = value.slice(prefix.length);
      // `@`: the word after the program is its argv[0], not an argument (`@/bin/sh sh /tmp/evil` runs /tmp/evil).
      if (prefix.includes("@")) command = command.replace(/^(\S+)\s+("[^"]*"|'[^']*'|\S+)/, "$1");
      if (HASH_WORD.test(command)) out.push(mark(4, `${key}=: a word starting with # is an argument to systemd, not a comment`));
      if (GETTY.test(command) && OPEN_LOGIN.test(command))
        out.push(mark(4, `${key}=: a getty that logs root in, or starts a shell, with no password asked`));
      if (command) out.push(j.code(command, key));
      // From / (no WorkingDirectory=), a relative word is a path under / (`install tmp/x /opt/x` reads /tmp/x).
      const absolute = fromSlash ? fromRoot(command) : null;
      if (absolute) out.push(j.code(absolute, `${key} (run from /)`));
      // `:` turns substitution off; otherwise the unit's own values are what runs (Environment=D=/tmp + install ${D}/x).
      // Twice: each value as literal words (as systemd hands them over), and as plain text (as a shell it starts reads a
      // value put inside its script: sh -c 'install ${A}${B}/x …').
      // With `:` only the specifiers are put in (systemd resolves them whatever the prefix).
      const noVariables = prefix.includes(":");
      for (const raw of noVariables ? [false] : [false, true]) {
        const real = substituted(command, noVariables ? new Map() : env, raw, names);
        if (real) out.push(j.code(real, `${key} (with the unit's Environment= values and specifiers${raw ? ", as text" : ""})`));
        const realAbsolute = real && fromSlash ? fromRoot(real) : null;
        if (realAbsolute) out.push(j.code(realAbsolute, `${key} (with the unit's values, run from /)`));
      }
    } else if (PATH_WATCH.test(key)) {
      const watched = withSpecifiers(value);
      // A glob in a directory part (`/[t]mp/x`, `/*/x.job`) matches places the literal part does not name.
      if (!rootOwnedPlace(watched.replace(/[*?[].*$/, "")) || USER_WRITES.test(watched) || /[*?[][^/]*\//.test(watched))
        out.push(mark(4, `${key}=${value}: a user who may write there decides when root starts the unit it triggers`));
    } else if (key === "DirectoryMode" && (!/^[0-7]{1,4}$/.test(value) || Number.parseInt(value, 8) & 0o022)) {
      out.push(mark(4, `DirectoryMode=${value}: the directories a path unit makes are writable by others`));
    } else if ((key === "StandardOutput" || key === "StandardError") && OUTPUT_FILE.test(value) && !LOG_FILE.test(value)) {
      out.push(mark(4, `${key}=${value}: writes the unit's output there as root, content no one judged`));
    } else if (/^LoadCredential(Encrypted)?$/.test(key)) {
      const source = value.slice(value.indexOf(":") + 1);
      if (source.includes("/") && (secretPath(source) || !rootOwnedPlace(source)))
        out.push(mark(4, `${key}=${value}: hands a secret (or a file others write) to the unit`));
    } else if (
      key === "What" &&
      value.startsWith("/") &&
      !value.startsWith("/dev/") &&
      !rootOwnedPlace(value) &&
      !/^\/[^/]+$/.test(value)
    ) {
      // A mount's or swap's source in a user's place: their image (set-id programs and all) or their view of files, or memory swapped to them.
      out.push(mark(4, `What=${value}: mounts or swaps onto a file or directory a user other than root may write`));
    } else if (socketSetting(key, value)) {
      out.push(socketSetting(key, value) as Mark);
    } else if (key === "Environment") {
      for (const w of shellWords(value.replace(/[;&|)]/g, " "))) {
        const i = w.indexOf("=");
        if (i > 0) out.push(...variable(w.slice(0, i), w.slice(i + 1), j, key));
      }
    } else if (key === "EnvironmentFile") {
      // The name's specifiers put in: an unescaped instance (%I, %f) may climb out of root's tree.
      const file = withSpecifiers(value.replace(/^-/, "").replace(/%([yYnNpPjJfiI])/g, (m, c: string) => names[c] ?? m));
      if (!rootOwnedPlace(posix.normalize(file)) || /\.\./.test(file))
        out.push(mark(4, `EnvironmentFile=${file}: not a place only root can change`));
    }
  }
  return out;
}

/**
 * The files a unit or drop-in at `path` loads its environment from (EnvironmentFile=, `-` dropped), as patterns:
 * specifiers its name decides put in, a template's instance (and any other specifier) standing for any name.
 */
export function environmentFiles(text: string, path: string): RegExp[] {
  const names = unitNameSpecifiers(path);
  const out: RegExp[] = [];
  for (const line of joined(text)) {
    const m = /^\s*EnvironmentFile\s*=\s*(.*)$/.exec(line);
    if (!m?.[1]) continue;
    const value = m[1].trim().replace(/^-/, "");
    const parts = value.split(/(%[A-Za-z%])/).map((part, i) => {
      if (i % 2 === 0) return part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
      const c = part.slice(1);
      const known = /[iI]/.test(c) && path.includes("@.") ? undefined : (SPECIFIERS[c] ?? names[c]);
      return known === undefined ? "[^/]*" : known.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    });
    out.push(new RegExp(`^${parts.join("")}$`));
  }
  return out;
}

/**
 * An environment file a root unit loads (named by a unit in the same diff, or /etc/default/*, which services' units
 * load): its values go into the unit's Exec lines (`install ${D}/x /opt/x`), so a value naming a place users write is
 * refused as a unit's own Environment= value naming one is. Temporary-directory variables aside.
 */
export function environmentFileMarks(text: string): Mark[] {
  const out: Mark[] = [];
  for (const line of joined(text)) {
    const m = ENV_LINE.exec(line);
    if (!m || comment(line) || /^(TMPDIR|TMP|TEMP|TEMPDIR)$/.test(m[1] as string)) continue;
    const value = (m[2] as string).trim();
    if (C_ESCAPE.test(value)) out.push(mark(4, `${m[1]}=: an escape systemd decodes in an environment file`));
    if (namesUserPlace(value)) out.push(mark(4, `${m[1]}=${value}: names a place users write, for a root unit's commands`));
    if (/^(PATH|LD_LIBRARY_PATH|PYTHONPATH|NODE_PATH|PERL5LIB)$/.test(m[1] as string) && /(^|:)\s*(:|$)/.test(unquote(value)))
      out.push(mark(4, `${m[1]}=${value}: an empty entry is the working directory, for a root unit's commands`));
  }
  return out;
}

/**
 * logrotate moves each file a block names away and (create) makes it anew,
 * owned as the block says: a file whose content runs later, or one whose
 * change is refused, is no log to rotate. Rotated copies land in `olddir`;
 * `compressoptions` are words handed to the compressor.
 */
function logrotatePlaces(t: string, words: string[], block: boolean, j: ContentJudge, rotated: string[]): Mark[] {
  const out: Mark[] = [];
  if (!block && /^["/]/.test(t)) {
    rotated.length = 0;
    for (const spec of t.replace(/\{.*$/, "").trim().split(/\s+/).filter(Boolean)) {
      const path = spec.replace(/^"(.*)"$/, "$1");
      rotated.push(path);
      const refused = path.startsWith("/") ? j.later("write", path, true).filter((m) => m.tier === 4) : [];
      out.push(...refused.map((m) => mark(4, `rotates ${path}: ${m.text}`)));
    }
  }
  const [directive = "", arg = ""] = words;
  // `su USER GROUP`: logrotate acts on the files as that user (a global one, for every block after it).
  if (directive === "su" && !/^(root|0)$/.test(arg) && (!block || rotated.some((p) => !/^\/var\/log\/(?!.*\.\.)/.test(p))))
    out.push(mark(4, `su ${arg}: files root owns${block ? "" : " (every block after this line)"} are rotated as ${arg}`));
  // Which names of logrotate.d are read or skipped (a tabooext without "+" replaces the whole list).
  if (/^(tabooext|taboopat)$/.test(directive)) out.push(mark(4, `${directive}: changes which files of logrotate.d logrotate reads`));
  if (/^(createolddir|olddir)$/.test(directive) && ((arg.startsWith("/") && !/^\/var\/log\/[^.]/.test(arg)) || arg.includes("..")))
    out.push(mark(4, `${directive} ${arg}: rotated logs land outside /var/log`));
  // `createolddir MODE`: root then moves logs into a directory others may write (and plant links in).
  if (directive === "createolddir" && /^[0-7]{3,4}$/.test(arg) && Number.parseInt(arg, 8) & 0o022)
    out.push(mark(4, `createolddir ${arg}: the directory of rotated logs is writable by others`));
  if (directive === "compressoptions" && !/^(-[A-Za-z0-9]+\s*)*$/.test(t.slice(directive.length).trim()))
    out.push(mark(4, "compressoptions hands the compressor words other than flags"));
  return out;
}

function logrotate(text: string, j: ContentJudge): Mark[] {
  const out: Mark[] = [];
  let script: { kind: string; body: string[] } | null = null;
  let block = false;
  const rotated: string[] = [];
  for (const line of lines(text)) {
    const t = line.trim();
    if (script) {
      if (t === "endscript") {
        out.push(j.code(script.body.join("\n"), `${script.kind} script`));
        script = null;
      } else script.body.push(line);
      continue;
    }
    const words = t.split(/\s+/);
    if (!t.startsWith("#")) out.push(...logrotatePlaces(t, words, block, j, rotated));
    // `mail ADDRESS`: the logs (auth.log with them) are mailed there when rotated.
    const mailed = t.startsWith("#") ? undefined : /(?:^|[\s{;])mail\s+"?([^\s"}]+)/.exec(t)?.[1];
    if (mailed && !/^root(@localhost)?$/.test(mailed)) out.push(mark(4, `mail ${mailed}: root's logs are sent to another`));
    if (t.includes("{")) block = true;
    if (t.includes("}")) block = false;
    if (/^(prerotate|postrotate|firstaction|lastaction|preremove)$/.test(words[0] ?? "")) script = { kind: words[0] as string, body: [] };
    else if (words[0] === "create" && /^[0-7]{3,4}$/.test(words[1] ?? "") && Number.parseInt(words[1] as string, 8) & 0o022)
      out.push(mark(4, `create ${words[1]}: the rotated file is writable by others`));
    else if (/^(compresscmd|uncompresscmd|include)$/.test(words[0] ?? "") && words[1]?.includes("/") && !rootOwnedPlace(words[1])) {
      out.push(mark(4, `${words[0]} ${words[1]}: not a place only root can change`));
    } else if (words[0] === "include" && words[1] && !ownConfiguration(words[1], "logrotate")) {
      // What it includes is read as logrotate's configuration, scripts and all: only logrotate's own was judged so.
      out.push(mark(4, `include ${words[1]}: not logrotate's own configuration (never judged as such)`));
    }
  }
  if (script) out.push(j.code(script.body.join("\n"), `${script.kind} script without endscript`));
  return out;
}

function udev(text: string, j: ContentJudge): Mark[] {
  const out: Mark[] = [];
  const continued = commentInContinuation(text);
  if (continued) out.push(continued);
  for (const line of joined(text)) {
    if (comment(line)) continue;
    // PROGRAM runs in a match too (`PROGRAM=="/x", RESULT=="y"`, the canonical form): its == and != run it as well.
    for (const m of line.matchAll(/\b(RUN|PROGRAM|IMPORT)(?:\{([^}]*)\})?\s*(?:==|!=|\+=|:=|=)\s*"((?:[^"\\]|\\.)*)"/g)) {
      const [key, type, value] = [m[1] as string, m[2], m[3] as string];
      if (key === "RUN" && type === "builtin") continue;
      // IMPORT{file} reads KEY=value pairs (ENV, and through them RUN's environment) from any file.
      if (key === "IMPORT" && type === "file")
        out.push(mark(4, `IMPORT{file}="${value}": settings read from a file the judge does not see`));
      if (key === "IMPORT" && type !== "program") continue;
      if (HASH_WORD.test(value)) out.push(mark(4, `${key}="${value}": a word starting with # is an argument to udev, not a comment`));
      out.push(j.code(value, `${key}${type ? `{${type}}` : ""}`));
    }
    // udev 249 and later decode C escapes in e"…" strings (`RUN+=e"/tm\x70/x"`): a value not in plain quotes is not read here.
    for (const m of line.matchAll(/\b(RUN|PROGRAM|IMPORT)(\{[^}]*\})?\s*(?:==|!=|\+=|:=|-=|=)\s*(?![="])(\S{0,40})/g))
      out.push(mark(4, `${m[1]}${m[2] ?? ""}=${m[3]}…: a value in a form the judge does not read (udev decodes e"…" escapes)`));
    // A group or owner given raw disks or memory can read and write every file.
    if (
      /\b(GROUP|OWNER)\s*:?=/.test(line) &&
      /\b(SUBSYSTEM|KERNEL)=="[^"]*(block|sd|nvme|vd|hd|xvd|mmcblk|dm-|md|loop|mem|kmem|port)/.test(line)
    )
      out.push(mark(4, "gives a group or user raw disks or memory"));
    // A device writable by anyone, or set-id (`MODE="0666"`); a value not in octal is not read here.
    for (const m of line.matchAll(/\bMODE\s*(?:\+=|:=|=)\s*"([^"]*)"/g))
      if (!/^[0-7]{3,4}$/.test(m[1] as string) || (parseInt(m[1] as string, 8) & 0o6002) !== 0)
        out.push(mark(4, `MODE="${m[1]}": devices writable by anyone, or set-id`));
    // SYSCTL{key}= sets a kernel parameter when a device appears (kernel.core_pattern names a program).
    if (/\bSYSCTL\{/.test(line)) out.push(mark(4, "SYSCTL{…}: sets kernel parameters when a device appears"));
  }
  return out;
}

function modprobe(text: string, j: ContentJudge): Mark[] {
  const out: Mark[] = [];
  for (const line of joined(text)) {
    const m = /^\s*(install|remove)\s+\S+\s+(.*)$/.exec(line);
    if (!m) continue;
    out.push(j.code(m[2] as string, `modprobe ${m[1]}`));
    // Review 50: a program by path outside the packaged trees runs as root at the module's autoload, unread.
    for (const p of (m[2] as string).matchAll(/(?:^|[;&|(]\s*)(\S*\/\S*)/g)) {
      const bad = unpackaged(p[1] as string);
      if (bad) out.push(mark(4, `modprobe ${m[1]} runs ${bad}, a program outside the packaged trees, as root`));
    }
  }
  return out;
}

function authorizedKeys(text: string, j: ContentJudge): Mark[] {
  const out: Mark[] = [];
  const unescaped = (s: string) => s.replace(/\\(.)/g, "$1");
  for (const line of lines(text)) {
    if (comment(line)) continue;
    for (const m of line.matchAll(/(?:^|,)\s*command="((?:[^"\\]|\\.)*)"/gi))
      out.push(j.code(unescaped(m[1] as string), "command= option"));
    for (const m of line.matchAll(/(?:^|,)\s*environment="((?:[^"\\]|\\.)*)"/gi)) {
      const v = unescaped(m[1] as string);
      const i = v.indexOf("=");
      if (i > 0) out.push(...variable(v.slice(0, i), v.slice(i + 1), j, "environment= option"));
    }
  }
  return out;
}

function ldSoConf(text: string): Mark[] {
  const out: Mark[] = [];
  for (const raw of lines(text)) {
    const line = raw.replace(/#.*$/, "").trim();
    if (!line) continue;
    const inc = /^include\s+(.*)$/.exec(line);
    for (const entry of inc ? (inc[1] as string).split(/\s+/) : [line]) {
      const place = inc && !entry.startsWith("/") ? posix.join("/etc", entry) : entry;
      const dir = place.replace(/\/[^/]*[*?[][^/]*$/, "");
      if (!rootOwnedPlace(dir))
        out.push(mark(4, `${inc ? "includes" : "loads libraries from"} ${entry}: not a place only root can change`));
      // An included file's lines are library directories: only the loader's own configuration was judged as such.
      else if (inc && !ownConfiguration(place, "ld-so-conf"))
        out.push(mark(4, `includes ${entry}: not the loader's own configuration (never judged as such)`));
    }
  }
  return out;
}

/** git settings whose value is a command git runs (through a shell when it has spaces). */
const GIT_COMMAND =
  /^(fsmonitor|sshcommand|pager|editor|askpass|textconv|clean|smudge|process|helper|program|gitproxy|command|uploadpack|receivepack|cmd|external|externaldiff|driver|sequenceeditor|packobjectshook|alternaterefscommand|sendmailcmd|smtpserver|defaultkeycommand|difffilter|tocmd|cccmd|httpd)$/;
/** The host a git URL (or a `[url "…"]` header) names, lower-cased; "" when none can be told. */
export function gitHost(url: string): string {
  const u = url
    .replace(/^\s*url\s*/i, "")
    .trim()
    .replace(/^"|"$/g, "");
  const m = /^[a-z][a-z0-9+.-]*:\/\/(?:[^/@]*@)?(\[[^\]]*\]|[^/:?#]*)/i.exec(u) ?? /^(?:[^/@:]*@)?([^/:]+):/.exec(u);
  return (m?.[1] ?? "").toLowerCase();
}

/** A leading `~` (the reader's home, `self`) or `~user` (that user's: nano and git expand both). */
const tilde = (v: string, self = "/root"): string =>
  v.replace(/^~([a-z_][a-z0-9_-]*)?(?=\/|$)/, (_m, u?: string) => (u === undefined ? self : u === "root" ? "/root" : `/home/${u}`));

/** Where a git URL (or its prefix) leads: host and path (`git@github.com:corp/` and `https://github.com/corp/` alike). */
export function gitSite(url: string): string {
  const u = url
    .replace(/^\s*url\s*/i, "")
    .trim()
    .replace(/^"|"$/g, "");
  const m = /^[a-z][a-z0-9+.-]*:\/\/(?:[^/@]*@)?(?:\[[^\]]*\]|[^/:?#]*)(?::\d*)?(.*)$/i.exec(u) ?? /^(?:[^/@:]*@)?[^/:]+:(.*)$/.exec(u);
  const path = (m?.[1] ?? u).replace(/^\/+|\/+$/g, "").replace(/\.git$/, "");
  return `${gitHost(url)}/${path}`;
}

/** git settings whose value is where git finds programs or hooks, or what it trusts (attributes choose filters and drivers). */
const GIT_PLACE = /^(hookspath|templatedir|exec-path|attributesfile|excludesfile|worktree|allowedsignersfile|revocationfile)$/;

/**
 * git configuration: a section header may carry a setting on its own line
 * (`[core] fsmonitor = x`); programs are judged as code, hook and template
 * directories must be root's, and includes, protocol switches, `safe.directory`
 * (obey others' repositories) and ext:: URLs are refused.
 */
function gitconfig(text: string, j: ContentJudge, path = ""): Mark[] {
  const out: Mark[] = [];
  // A home's own configuration may name that home's attributes and excludes files.
  const home = /^\/home\/[^/]+\//.exec(path)?.[0];
  let section = "";
  let subsection = "";
  for (const line of joined(text)) {
    let entry = line.trim();
    if (/^[#;]/.test(entry)) continue;
    const header = /^\[([^\]]*)\](.*)$/.exec(entry);
    if (header) {
      section = (header[1] ?? "").trim().split(/[\s.]/)[0]?.toLowerCase() ?? "";
      subsection = header[1] ?? "";
      if (section === "include" || section === "includeif") out.push(mark(4, "includes other git configuration the judge does not see"));
      entry = (header[2] ?? "").trim();
      if (!entry || /^[#;]/.test(entry)) continue;
    }
    const eq = entry.indexOf("=");
    const name = (eq < 0 ? entry : entry.slice(0, eq)).trim().toLowerCase();
    const value = unquote(eq < 0 ? "" : entry.slice(eq + 1).replace(/\s[#;].*$/, ""));
    const where = `${section}.${name}`;
    if (section === "safe" && name === "directory")
      out.push(mark(4, `${where}: git then obeys the configuration of repositories others own`));
    // git's defence against bare repositories embedded in a clone (whose config names programs git runs).
    else if (section === "safe" && name === "barerepository" && !/^explicit$/i.test(value))
      out.push(mark(4, `${where} ${value}: git then obeys bare repositories embedded in what it clones`));
    else if (/^(insteadof|pushinsteadof)$/.test(name) && section === "url" && gitSite(header?.[1] ?? subsection) !== gitSite(value))
      out.push(mark(4, `${where} ${value}: git fetches or pushes another host's (or owner's) repository in its stead`));
    else if ((section === "http" || section === "remote") && name === "proxy" && value)
      out.push(mark(4, `${where} ${value}: git's traffic (and the credentials it sends) goes through that host`));
    else if (section === "http" && name === "sslverify" && /^(false|no|off|0)$/i.test(value))
      out.push(mark(4, `${where}: git no longer checks whom it talks to`));
    else if (section === "http" && /^(sslcainfo|sslcapath)$/.test(name) && !rootOwnedPlace(tilde(value)))
      out.push(mark(4, `${where} ${value}: git trusts certificates from a place others may write`));
    // Cookies sent with every request are read from that file (and root's own written there with http.saveCookies).
    else if (
      section === "http" &&
      name === "cookiefile" &&
      !rootOwnedPlace(tilde(value)) &&
      !(home && tilde(value, home.slice(0, -1)).startsWith(home))
    )
      out.push(mark(4, `${where} ${value}: git's cookies come from (and are saved to) a place others may write`));
    else if (section === "protocol" || /ext::/.test(value)) out.push(mark(4, `${where}: lets git run a transport's command`));
    else if (section === "alias" && value.startsWith("!")) out.push(j.code(value.slice(1), `alias ${name}`));
    // `git submodule update` runs a `!command` update mode given anywhere but .gitmodules.
    else if (section === "submodule" && name === "update" && value.startsWith("!")) out.push(j.code(value.slice(1), where));
    // Headers root's git (or the system's) sends with every request: a credential or an identity for any host it reaches.
    else if (section === "http" && name === "extraheader" && (path === "/etc/gitconfig" || path.startsWith("/root/")))
      out.push(mark(4, `${where}: a header root's git sends with every request`));
    // `store --file X` / `cache --socket X`: root's credentials saved to, or served from, that place.
    else if (
      section === "credential" &&
      name === "helper" &&
      /--(file|socket)[=\s]+(\S+)/.test(value) &&
      !rootOwnedPlace(tilde(/--(?:file|socket)[=\s]+(\S+)/.exec(value)?.[1] ?? "")) &&
      !(home && tilde(/--(?:file|socket)[=\s]+(\S+)/.exec(value)?.[1] ?? "", home.slice(0, -1)).startsWith(home))
    )
      out.push(mark(4, `${where} ${value}: git's credentials saved to, or served from, a place others may write`));
    else if (GIT_COMMAND.test(name) || section === "pager" || (name === "path" && /^(difftool|mergetool|browser|man|gpg)$/.test(section)))
      out.push(value && !/^(true|false)$/i.test(value) ? j.code(value, where) : mark(0, where));
    else if (
      GIT_PLACE.test(name) &&
      !rootOwnedPlace(tilde(value)) &&
      !(
        home &&
        /^(attributesfile|excludesfile|worktree|allowedsignersfile|revocationfile)$/.test(name) &&
        tilde(value, home.slice(0, -1)).startsWith(home)
      )
    )
      out.push(mark(4, `${where} ${value}: not a place only root can change`));
  }
  return out;
}

/**
 * nano's configuration: `set speller`/`set linter`/`set formatter`, a syntax's
 * `linter`/`formatter` (also through `extendsyntax`) are commands nano runs as
 * whoever edits (root too): judged as code; `include` must name root's files.
 */
function nanorc(text: string, j: ContentJudge): Mark[] {
  const out: Mark[] = [];
  for (const line of lines(text)) {
    const t = line.trim();
    if (comment(t)) continue;
    const cmd =
      /^set\s+(speller|linter|formatter)\s+(.*)$/i.exec(t) ??
      /^(linter|formatter)\s+(.*)$/i.exec(t) ??
      /^extendsyntax\s+\S+\s+(linter|formatter)\s+(.*)$/i.exec(t);
    if (cmd) out.push(j.code(unquote(cmd[2] as string), `nano's ${cmd[1]}`));
    const inc = /^include\s+(.*)$/i.exec(t);
    if (inc) {
      const path = tilde(unquote(inc[1] as string));
      if (!rootOwnedPlace(path.replace(/\/[^/]*[*?[][^/]*$/, "")))
        out.push(mark(4, `include ${path}: nano reads (and runs the linters of) files from a place others may write`));
    }
  }
  return out;
}

/** Groups that are root, or that read or write what root keeps (sudo, disks, logs, shadow, the container daemons, /usr/local). */
const PRIVILEGED_GROUP =
  /^(0|root|sudo|wheel|admin|adm|shadow|disk|kmem|docker|lxd|incus|libvirt|kvm|systemd-journal|staff|src|sys|tty|lpadmin|netdev)$/;

/** adduser.conf and /etc/default/useradd: the skeleton must be root's, and new users join no privileged group. */
function accountDefaults(text: string): Mark[] {
  const out: Mark[] = [];
  for (const line of lines(text)) {
    const m = ENV_LINE.exec(line);
    if (!m || comment(line)) continue;
    const [name, value] = [(m[1] as string).toUpperCase(), unquote(m[2] as string)];
    if (name === "SKEL" && !rootOwnedPlace(value))
      out.push(mark(4, `SKEL=${value}: new users' start-up files are copied from a place others may write`));
    if (/^(EXTRA_GROUPS|GROUPS|GROUP|USERS_GID|USERS_GROUP)$/.test(name)) {
      const bad = value.split(/[\s,]+/).filter((g) => PRIVILEGED_GROUP.test(g));
      if (bad.length > 0) out.push(mark(4, `${name}=${value}: new users join ${bad.join(", ")}`));
    }
  }
  return out;
}

/** The readers of the formats named in runs-later.ts but for the system configuration ones (manifest-effects-configs.ts). */
export const CONTENT_READERS = {
  script,
  program: script,
  rc,
  environment,
  cron: cronTable(SYSTEM_LINE, "the crontab"),
  "user-crontab": cronTable(USER_LINE, "the crontab"),
  anacrontab: cronTable(ANACRON_LINE, "anacrontab"),
  systemd,
  logrotate,
  udev,
  modprobe,
  "authorized-keys": authorizedKeys,
  "ld-so-conf": ldSoConf,
  gitconfig,
  nanorc,
  "account-defaults": accountDefaults,
} satisfies Partial<Record<Format, Reader>>;
