// systemd unit files, drop-ins and manager configuration, and autostart
// .desktop entries. Every Exec line is a command (judged as one, as the
// unit's User= in its WorkingDirectory=); environment they set is judged as
// such; and the few keys that decide which code a unit loads or what a
// mount unit covers are decided here. A line the concurrence cannot read
// is refused: systemd would read it somehow.
import { posix } from "node:path";
import { isLoaderName, judgeAssignment, unquote } from "./assignments.js";
import { commentInContinuation, configLines, HASH_WORD, specifiersAsDynamic } from "./config-lines.js";
import type { Later } from "./later-paths.js";
import { lex, LexError } from "./lex.js";
import { readHostTarget } from "./host-target.js";
import { homeOf, isRootOnlyTree, isSecretPath, placeOf, rootsPlace, USER_WRITABLE } from "./paths.js";
import { type Extracted, extracted, finding } from "./types.js";
import { unitWeakening } from "../shared/unit-weakening.js";

const EXEC = new Set([
  "ExecStart",
  "ExecStartPre",
  "ExecStartPost",
  "ExecCondition",
  "ExecReload",
  "ExecStop",
  "ExecStopPost",
  "Exec",
  "TryExec",
]);
/** Exec* keys that are sandboxing, not commands. */
const NOT_COMMANDS = new Set(["ExecPaths", "NoExecPaths"]);
const ENVIRONMENT = new Set(["Environment", "DefaultEnvironment", "ManagerEnvironment"]);
/** Another file bound over a program or library, another root or image, input from a file or inline text. */
/** A getty (agetty, mingetty, …) and its options that log in without a password: root autologin, no login, another login program. */
const GETTY = /^\S*\/?(a|min|m|f|mg|q)?getty\s/;
const OPEN_LOGIN = /\s(-a\s*|--autologin[=\s]+)root\b|\s(-n|--skip-login)\b|\s(-l\s*|--login-program[=\s]+)(?!\S*\/login\b)\S/;

const UNIT_VIEW_KEYS =
  /^(Bind(ReadOnly)?Paths|RootDirectory|RootImage|RootImageOptions|RootHash|RootVerity|MountImages|ExtensionImages|ExtensionDirectories|TemporaryFileSystem|StandardInputText|StandardInputData)$/;
const KEY_VALUE = /^([A-Za-z][A-Za-z0-9_-]*(?:\[[^\]]*\])?)\s*=\s*(.*)$/;
/** Where a mount unit may mount without covering part of the system. */
const MOUNT_PLACES = /^\/(mnt|media|srv)(\/|$)/;
/** Environment files root alone writes. */
const SYSTEM_ENV_FILE = /^\/(etc|usr|lib)\//;

/** Pulling in, triggering or acting as reboot, poweroff, halt, kexec, rescue or emergency (a timer can do it every minute). */
const STOPS_MACHINE =
  /^(Unit|OnFailure|OnSuccess|Wants|Requires|Requisite|BindsTo|PartOf|Upholds|PropagatesStopTo|Conflicts)=.*\b(reboot|poweroff|halt|kexec|soft-reboot|rescue|emergency|ctrl-alt-del|exit)\.target\b|^[A-Za-z]*Action=(reboot|poweroff|halt|kexec|soft-reboot|exit)/;
/** A unit's output to a log file under /var/log (no `..`, no specifier): the one place output files belong. */
const LOG_FILE = /^(file|append|truncate):\/var\/log\/(?!.*(\.\.|%))\S+$/;
/** Sockets of daemons that act as root for whoever connects: docker, containerd, podman, libvirt, LXD, Incus, snapd, the system bus. */
const ROOT_DAEMON_SOCKET =
  /^\/(var\/)?run\/(docker(\.sock|\/)|containerd\/|podman\/|libvirt\/|incus\/|lxd\/|snapd(-snap)?\.socket|dbus\/system_bus_socket)|^\/var\/(lib|snap)\/(lxd|incus)\//;

/** What a socket setting opens to others, if anything. */
function socketGrant(key: string, value: string): string | undefined {
  if (key === "SocketMode" && (!/^[0-7]{3,4}$/.test(value) || parseInt(value, 8) & 0o002))
    return `lets users other than root connect (mode ${value})`;
  if ((key === "SocketUser" || key === "SocketGroup") && !["root", "0", ""].includes(value)) return `hands the socket to ${value}`;
  if (/^Listen(Stream|Datagram|SequentialPacket)$/.test(key) && ROOT_DAEMON_SOCKET.test(value))
    return `listens on ${value}, the socket of a daemon that acts as root for whoever connects`;
  return undefined;
}

/** The words of a systemd value (quotes as in the shell, which is close enough to systemd's). */
function valueWords(value: string): string[] | undefined {
  try {
    return lex(value).commands.flatMap((c) => c.words.map((w) => w.text));
  } catch (err) {
    if (err instanceof LexError) return undefined;
    throw err;
  }
}

/** The path a mount unit's name stands for (systemd-escape --path). */
function unitPath(name: string): string {
  const body = name.replace(/\.(auto)?mount$/, "");
  if (body === "-") return "/";
  return `/${body.replace(/-/g, "/").replace(/\\x([0-9a-fA-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)))}`;
}

/** The system manager's specifiers whose value is fixed (systemd.unit(5)); the rest (%i, %n …) stay run-time values. */
const FIXED_SPECIFIER: Record<string, string> = {
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
const fixedSpecifiers = (v: string): string => v.replace(/%([A-Za-z%])/g, (m, c: string) => FIXED_SPECIFIER[c] ?? m);
/** systemd's unescaping of a unit name part (`-` is `/`, `\xHH` a byte). */
const unescapeName = (v: string): string =>
  v.replace(/-/g, "/").replace(/\\x([0-9a-fA-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
/**
 * The specifiers a unit's name and file decide (%n %N %p %P %j %J %i %I %f %y %Y), from where the file is. A template's
 * instance is chosen by whoever starts it (a timer's or path unit's Unit=, a link in a .wants directory, systemctl):
 * judged as the instance `tmp` (%I, which may climb: `../../../../../../tmp`), a place users write.
 */
function nameSpecifiers(path: string): Record<string, string> {
  const dropIn = /\/([^/]+)\.d\/[^/]+$/.exec(path)?.[1];
  const unit = dropIn ?? posix.basename(path);
  const dot = unit.lastIndexOf(".");
  const [stem, suffix] = dot > 0 ? [unit.slice(0, dot), unit.slice(dot)] : [unit, ""];
  const at = stem.indexOf("@");
  const prefix = at >= 0 ? stem.slice(0, at) : stem;
  const instance = at < 0 ? "" : stem.slice(at + 1) || "tmp";
  const name = at >= 0 ? `${prefix}@${instance}` : stem;
  const last = prefix.slice(prefix.lastIndexOf("-") + 1);
  const out: Record<string, string> = {
    n: `${name}${suffix}`,
    N: name,
    p: prefix,
    P: unescapeName(prefix),
    j: last,
    J: unescapeName(last),
    i: instance,
    // Unescaped, an instance may climb (`x@..-..-tmp.service`: ../../tmp): read as one that climbs to /tmp.
    I: at >= 0 && !stem.slice(at + 1) ? "../../../../../../tmp" : unescapeName(instance),
    y: path,
    Y: posix.dirname(path),
  };
  out.f = at >= 0 ? `/${out.I}` : `/${out.P}`;
  return out;
}
/** One shell word the lexer takes literally. */
const literal = (v: string): string => `'${v.replace(/'/g, "'\\''")}'`;

/**
 * An Exec command as systemd runs it with the unit's own Environment= values
 * (`${X}`: one argument, `$X`: split at whitespace, `$$X`: `$X` for a shell it
 * starts, which expands it from the environment) and the
 * fixed specifiers (`raw`: each value as plain text, as a shell reads it inside
 * its script), or undefined when that changes nothing. A variable set
 * elsewhere (a drop-in, an EnvironmentFile) stays a run-time value.
 */
function withUnitValues(
  command: string,
  env: ReadonlyMap<string, string>,
  raw = false,
  names: Record<string, string> = {},
): string | undefined {
  const out = fixedSpecifiers(command.replace(/%([nNpPjJiIfyY])/g, (m, c: string) => names[c] ?? m)).replace(
    /\$\$?\{([A-Za-z_][A-Za-z0-9_]*)\}|\$\$?([A-Za-z_][A-Za-z0-9_]*)|\$\$/g,
    (m, braced?: string, bare?: string) => {
      if (m === "$$") return m;
      const value = env.get((braced ?? bare) as string);
      if (value === undefined) return m;
      if (raw) return value;
      return braced !== undefined ? literal(value) : value.split(/\s+/).filter(Boolean).map(literal).join(" ");
    },
  );
  return out === command ? undefined : out;
}

/**
 * The place a template instance's name stands for, when it is one users write (`x@-tmp-x.service`, `x@tmp.service`:
 * the template's %I and %f are /tmp/x and /tmp); `home` alone (only root writes /home itself) aside.
 */
export function instanceUserPlace(name: string): string | undefined {
  const m = /^[^/@\s]+@([^/\s]+)\.[a-z]+$/.exec(posix.basename(name));
  if (!m?.[1] || m[1] === "home") return undefined;
  const place = `/${unescapeName(m[1]).replace(/^\/+/, "")}`;
  return USER_WRITABLE.test(posix.normalize(place)) ? place : undefined;
}
/** Keys naming units to start (or have started) with this one. */
const STARTS_UNITS = /^(Unit|Wants|Requires|Requisite|BindsTo|PartOf|Upholds|OnFailure|OnSuccess|Also|WantedBy|RequiredBy|UpheldBy)$/;

/**
 * A command run from / (a system unit's working directory when it names none) with its relative words naming places
 * users write made absolute (`install tmp/x /opt/x` reads /tmp/x); undefined when there are none.
 */
function fromRoot(command: string): string | undefined {
  const out = command.replace(
    /(^|[\s'"=:,])(?:\.\.?\/)*((?:tmp|var\/tmp|dev\/shm|run\/user|run\/lock|var\/lock|var\/crash|var\/mail|home)(?=\/|[\s'";|&)]|$))/g,
    "$1/$2",
  );
  return out === command ? undefined : out;
}

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
      return p !== "/home" && USER_WRITABLE.test(p);
    });
}

/** What a path unit watches: whoever writes there decides when root starts the unit it triggers. */
const WATCH_KEYS = new Set(["PathExists", "PathExistsGlob", "PathChanged", "PathModified", "DirectoryNotEmpty"]);

export function unitFileCommands(text: string, path: string, later: Later): Extracted {
  const out = extracted();
  const continued = commentInContinuation(text);
  if (continued !== undefined)
    out.findings.push(finding(4, `line ${continued}: a comment inside a continued line, which systemd skips to join what follows`));
  const entries: Array<{ key: string; value: string; where: string }> = [];
  for (const line of configLines(text)) {
    if (/^\[[^\]]+\]$/.test(line.text)) continue;
    const m = KEY_VALUE.exec(line.text);
    if (!m?.[1]) {
      out.findings.push(finding(4, `line ${line.n}: not a unit setting the concurrence can read`));
      continue;
    }
    entries.push({ key: m[1], value: (m[2] ?? "").trim(), where: `${m[1]}= (line ${line.n})` });
  }
  const last = (key: string) => entries.filter((e) => e.key === key).pop()?.value;
  const user = last("User");
  const runAs = user === undefined ? later.runAs : user === "root" || user === "0" ? "" : user;
  const dir = last("WorkingDirectory")?.replace(/^-/, "");
  const cwd = dir === undefined ? later.cwd : dir === "~" ? homeOf(runAs) : dir.startsWith("/") && !dir.includes("%") ? dir : undefined;
  // The unit's own Environment= values, later ones winning: systemd puts them into the Exec lines.
  const names = nameSpecifiers(path);
  const env = new Map<string, string>();
  for (const e of entries.filter((x) => x.key === "Environment"))
    for (const w of valueWords(e.value) ?? []) {
      const eq = w.indexOf("=");
      if (eq > 0) env.set(w.slice(0, eq), fixedSpecifiers(w.slice(eq + 1)));
    }
  // A root unit's variable naming a place users write: Exec lines in another file (a drop-in, or the unit a drop-in
  // extends) that use it are judged without its value. Temporary-directory variables aside.
  if (runAs === "")
    for (const [name, value] of env)
      if (!/^(TMPDIR|TMP|TEMP|TEMPDIR)$/.test(name) && namesUserPlace(value))
        out.findings.push(
          finding(4, `Environment=${name}=${value}: names a place users write, for root's commands here or in another unit file`),
        );
  const dropIn = /\.d\/[^/]+\.conf$/.test(path);
  for (const { key, value, where } of entries) {
    const weak = path.startsWith("/home/") ? null : unitWeakening(key, value, dropIn);
    if (weak) out.findings.push(finding(4, `${where}: ${weak} (${key}=${value}) — the unit's own protection made weaker`));
    if (STOPS_MACHINE.test(`${key}=${value}`))
      out.findings.push(finding(4, `${where}: reboots, powers off or isolates the machine when it fires`));
    if (STARTS_UNITS.test(key))
      for (const unit of value.split(/\s+/)) {
        const place = instanceUserPlace(unit);
        if (place) out.findings.push(finding(4, `${where}: starts ${unit}, whose instance names ${place}, a place users write`));
      }
    // systemd decodes C-style escapes in commands and assignments (`/tm\x70` is /tmp); the lexer reads other text.
    if ((EXEC.has(key) || ENVIRONMENT.has(key)) && /\\(x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|[0-7]{3}|[abfnrtvs])/.test(value))
      out.findings.push(finding(4, `${where}: a C-style escape, which systemd decodes and the judge's lexer does not`));
    if (EXEC.has(key)) {
      // Prefixes: @ (argv[0] follows), - (failure ignored), : (no substitution), + ! !! (privileges), | (through a shell).
      const prefix = /^[-@:+!|]*/.exec(value)?.[0] ?? "";
      let command = value.slice(prefix.length);
      // `@`: the word after the program is its argv[0], not an argument (`@/bin/sh sh /tmp/evil` runs /tmp/evil).
      if (prefix.includes("@")) command = command.replace(/^(\S+)\s+("[^"]*"|'[^']*'|\S+)/, "$1");
      // `+` and `!` run the line with full privileges, User= and Group= not applied (`!!` does so only without ambient capabilities).
      const lineRunAs = prefix.includes("+") || /(^|[^!])!([^!]|$)/.test(prefix) ? "" : runAs;
      if (HASH_WORD.test(command))
        out.findings.push(finding(4, `${where}: a word starting with # is an argument to systemd, a comment to the judge`));
      if (GETTY.test(command) && OPEN_LOGIN.test(command))
        out.findings.push(finding(4, `${where}: a getty that logs root in, or starts a shell, with no password asked`));
      // From / (no WorkingDirectory=), a relative word is a path under / (`install tmp/x /opt/x` reads /tmp/x).
      const push = (text: string, at: string) => {
        out.commands.push({ text: specifiersAsDynamic(text), where: at, runAs: lineRunAs, cwd });
        const absolute = cwd === "/" ? fromRoot(text) : undefined;
        if (absolute) out.commands.push({ text: specifiersAsDynamic(absolute), where: `${at}, run from /`, runAs: lineRunAs, cwd });
      };
      if (command) push(command, where);
      // Judged a second time as it runs with the unit's own values (`:` turns substitution off): Environment=D=/tmp + install ${D}/x.
      // Each value as literal words (as systemd passes them), and as plain text (inside a shell's script: sh -c '… ${A}${B}/x').
      // The unit's name and file specifiers are put in too (a template's instance as `tmp`: whoever starts it chooses it).
      // With `:` only the specifiers are put in (systemd resolves them whatever the prefix).
      const noVariables = prefix.includes(":");
      for (const raw of noVariables ? [false] : [false, true]) {
        const real = withUnitValues(command, noVariables ? new Map() : env, raw, names);
        if (real) push(real, `${where} with the unit's values`);
      }
    } else if (WATCH_KEYS.has(key)) {
      const watched = fixedSpecifiers(value);
      // A glob in a directory part (`/[t]mp/x`, `/*/x.job`) matches places the literal part does not name.
      if (!rootsPlace(watched.replace(/[*?[].*$/, "")) || /[*?[][^/]*\//.test(watched))
        out.findings.push(finding(4, `${where}: a user who may write ${watched} decides when root starts the unit it triggers`));
    } else if (key === "UMask" && (!/^[0-7]{1,4}$/.test(value) || !(parseInt(value, 8) & 0o002))) {
      out.findings.push(finding(4, `${where}: the files the unit's programs create are writable by anyone (UMask=${value})`));
    } else if (key === "DirectoryMode" && (!/^[0-7]{1,4}$/.test(value) || parseInt(value, 8) & 0o022)) {
      out.findings.push(finding(4, `${where}: the directories the path unit makes are writable by others (${value})`));
    } else if ((key === "StandardOutput" || key === "StandardError") && /^(file|append|truncate):/.test(value) && !LOG_FILE.test(value)) {
      out.findings.push(
        finding(4, `${where}: writes the unit's output to ${value.replace(/^[a-z]+:/, "")} as root, content no one judged`),
      );
    } else if (/^LoadCredential(Encrypted)?$/.test(key)) {
      const source = value.slice(value.indexOf(":") + 1);
      if (source.includes("/") && (isSecretPath(source) || placeOf(source) !== "system"))
        out.findings.push(finding(4, `${where}: hands ${source} to the unit's programs`));
    } else if (socketGrant(key, value)) {
      out.findings.push(finding(4, `${where}: ${socketGrant(key, value)}`));
    } else if (UNIT_VIEW_KEYS.test(key) || (key === "StandardInput" && /^(file:|data)/.test(value))) {
      out.findings.push(finding(4, `${where}: changes what the unit's programs see, load or read as input`));
    } else if (key.startsWith("Exec") && !NOT_COMMANDS.has(key)) {
      out.findings.push(finding(4, `${where}: changes where or how the unit's programs are found`));
    } else if (ENVIRONMENT.has(key)) {
      const words = valueWords(value);
      if (!words) out.findings.push(finding(4, `${where}: cannot take the assignments apart`));
      for (const w of words ?? []) {
        const eq = w.indexOf("=");
        out.findings.push(
          eq > 0 ? judgeAssignment(w.slice(0, eq), w.slice(eq + 1), where) : finding(4, `${where}: ${w} is not an assignment`),
        );
      }
    } else if (key === "PassEnvironment") {
      const loader = value.split(/\s+/).find(isLoaderName);
      if (loader) out.findings.push(finding(4, `${where}: passes ${loader}, which changes what code runs`));
    } else if (key === "EnvironmentFile") {
      // A name specifier that holds no `/` (%i, %p, %n …; not the unescaped %I, %P, %J, %f) keeps the file where it is.
      const file = fixedSpecifiers(value.replace(/^-/, "").replace(/%([pnNj])/g, (m, c: string) => names[c] ?? m)).replace(/%i/g, "i");
      if (!SYSTEM_ENV_FILE.test(file) || file.includes("%") || file.includes(".."))
        out.findings.push(finding(4, `${where}: takes its environment from ${file}, outside what root alone writes`));
      else out.findings.push(hostEnvironmentFile(file, where));
    }
  }
  // A mount's or swap's source in a user's place: their image (set-id programs and all), their files, or memory swapped to them.
  const what = last("What");
  if (what?.startsWith("/") && !what.startsWith("/dev/") && placeOf(what) !== "system" && !isRootOnlyTree(what))
    out.findings.push(finding(4, `What=${what}: mounts or swaps onto a file or directory a user other than root may write`));
  if (/\.(auto)?mount$/.test(path)) {
    const where = last("Where") ?? unitPath(posix.basename(path));
    if (!MOUNT_PLACES.test(where)) out.findings.push(finding(4, `mounts over ${where}, part of the system`));
  }
  return out;
}

/**
 * Services' environment files, judged as such when written: /etc/default (useradd's is account defaults, read
 * elsewhere), RHEL's /etc/sysconfig, OpenRC's /etc/conf.d, and `*.env` files under /etc.
 */
export const DEFAULT_ENV_FILE = /^\/etc\/((default|sysconfig|conf\.d)\/(?!useradd$)[^/]+|.+\.env)$/;

/**
 * An EnvironmentFile= elsewhere in /etc (review 47: `/etc/foo/env` committed at tier 3 as "a system path" with
 * LD_PRELOAD in it): what the host holds there is judged as an environment file. The packaged trees are the vendor's.
 */
function hostEnvironmentFile(file: string, where: string) {
  if (!file.startsWith("/etc/") || DEFAULT_ENV_FILE.test(file)) return finding(0, "");
  // A file not there yet is read for loader variables when it is written (unlisted.ts).
  const host = readHostTarget(file);
  if (host.kind === "missing") return finding(0, "");
  if (host.kind !== "text") return finding(4, `${where}: takes its environment from ${file}, which the concurrence cannot read as text`);
  return environmentFileFindings(host.text).findings.reduce((a, b) => (b.tier > a.tier ? b : a), finding(0, ""));
}

const asPattern = (v: string): string => v.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * The files a unit or drop-in at `path` loads its environment from (EnvironmentFile=, `-` dropped), as patterns:
 * specifiers its name decides put in, a template's instance (and any other specifier) standing for any name.
 */
export function unitEnvironmentFiles(text: string, path: string): RegExp[] {
  const names = nameSpecifiers(path);
  const template = path.includes("@.");
  const out: RegExp[] = [];
  for (const line of configLines(text)) {
    const m = /^EnvironmentFile\s*=\s*(.*)$/.exec(line.text);
    if (!m?.[1]) continue;
    const parts = m[1]
      .trim()
      .replace(/^-/, "")
      .split(/(%[A-Za-z%])/)
      .map((part, i) => {
        if (i % 2 === 0) return asPattern(part);
        const c = part.slice(1);
        const known = template && /[iI]/.test(c) ? undefined : (FIXED_SPECIFIER[c] ?? names[c]);
        return known === undefined ? "[^/]*" : asPattern(known);
      });
    out.push(new RegExp(`^${parts.join("")}$`));
  }
  return out;
}

/**
 * An environment file a root unit loads (one named by a unit in the same diff, or /etc/default/*, which services'
 * units load): a value naming a place users write is put into the unit's Exec lines (`install ${D}/x /opt/x`), as a
 * unit's own Environment= value naming one would be. Temporary-directory variables aside.
 */
export function environmentFileFindings(text: string): Extracted {
  const out = extracted();
  for (const line of configLines(text)) {
    const m = /^(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*)$/.exec(line.text);
    if (!m?.[1] || /^(TMPDIR|TMP|TEMP|TEMPDIR)$/.test(m[1])) continue;
    const value = (m[2] ?? "").trim();
    if (/\\(x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|[0-7]{3}|[abfnrtvs])/.test(value))
      out.findings.push(finding(4, `line ${line.n}: ${m[1]}: an escape systemd decodes in an environment file`));
    if (namesUserPlace(value))
      out.findings.push(finding(4, `line ${line.n}: ${m[1]}=${value}: names a place users write, for a root unit's commands`));
    // pam_env reads /etc/default/locale and /etc/environment for every login (review 50: LD_PRELOAD there).
    if (isLoaderName(m[1])) out.findings.push(finding(4, `line ${line.n}: sets ${m[1]}, which changes what code runs`));
    const option = daemonOption(m[1], value);
    if (option) out.findings.push(finding(4, `line ${line.n}: ${m[1]}: ${option}`));
  }
  return out;
}

/** Long options whose value is a program or more configuration (`--dhcp-script=`, irqbalance's `--policyscript=`). */
const PROGRAM_OPTION = /(?:^|\s)(--[\w-]*(?:script|program|conf|exec|command|cmd|hook|plugin|module|helper)[\w-]*)(?:=|\s+)\S/i;
/** Short options naming a configuration file or the user to run as (`-f /etc/haproxy/extra.cfg`, `smartd -c`, `-u root`). */
const FILE_OPTION = /(?:^|\s)(-[fcCx])\s*(\/\S*)/;
const ROOT_USER = /(?:^|\s)(?:-u\s*|--user[=\s]\s*)(?:root|0)(?:\s|$)/;

/**
 * A unit's environment file is mostly the daemon's command line (`DNSMASQ_OPTS`, `IRQBALANCE_ARGS`, `CONFIG=`): an
 * option there naming a program, a script or another configuration file runs code as root as surely as a line of the
 * daemon's own configuration would (review 50: `DNSMASQ_OPTS="--dhcp-script=…"` passed where `dhcp-script=` in
 * /etc/dnsmasq.d is refused). Why, or undefined.
 */
function daemonOption(name: string, raw: string): string | undefined {
  const value = unquote(raw);
  const long = PROGRAM_OPTION.exec(value)?.[1];
  if (long) return `${long}: a daemon option naming a program or configuration it runs or reads as root`;
  const short = FILE_OPTION.exec(value);
  if (short) return `${short[1]} ${short[2]}: a daemon option naming a configuration file it reads as root`;
  if (ROOT_USER.test(value)) return "runs the daemon as root instead of its own user";
  // Review 51: a root daemon's API opened on the network without TLS (dockerd -H tcp://…: any caller is root), the
  // kubelet's static pods from another directory or its API for anyone, cron's mail sent through a program.
  if (/(?:^|\s)(?:-H|--host)(?:=|\s*)['"]?(?:tcp|http):\/\//.test(value) && !/--tlsverify/.test(value))
    return "serves the daemon's API over TCP without TLS client certificates: whoever reaches it acts as root";
  const kubelet =
    /(?:^|\s)(--(?:pod-manifest-path|manifest-url|anonymous-auth=true|authorization-mode=AlwaysAllow|enable-debugging-handlers))/.exec(
      value,
    )?.[1];
  if (kubelet) return `${kubelet}: the kubelet runs pods from another place, or serves its API to anyone (root on the node)`;
  const mailer = /(?:^|\s)-m\s*(\/\S+)/.exec(value)?.[1];
  if (mailer) return `-m ${mailer}: a program the daemon runs as root (cron's mailer)`;
  if (/(?:^|\s)-M\s*exec\s+\S/.test(value)) return "-M exec: smartd runs a program as root";
  if (/(?:CONF|CONFIG|SCRIPT|PROGRAM|HOOK|EXEC|COMMAND|CMD)/i.test(name) && /(?:^|[\s=:])\/\S/.test(value))
    return `${value.slice(0, 60)}: names a program or configuration the daemon runs or reads as root`;
  return undefined;
}
