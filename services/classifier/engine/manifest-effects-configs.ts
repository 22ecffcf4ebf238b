// Readers of system configuration that makes root act later, for the
// manifest judge: APT hooks (apt.conf), package sources, systemd-tmpfiles
// (files created, written, linked or removed at every boot), kernel settings
// that name programs (sysctl core_pattern, modprobe, poweroff_cmd) and
// binfmt_misc interpreters. A line that acts on a path is judged like the
// same change in a diff (ContentJudge.later); a program it names must live
// where only root can change it.
import { posix } from "node:path";
import { ownConfiguration, rootOwnedPlace, runsLater } from "./runs-later.js";
import type { Format } from "./runs-later.js";
import { comment, joined, lines, mark, READS_CODE_FROM_STDIN, variable } from "./runs-later-content.js";
import type { ContentJudge, Mark, Reader } from "./runs-later-content.js";
import type { Mode } from "./targets.js";
import { sectionedConfig } from "./manifest-effects-sections.js";
import { unpackaged } from "./packaged.js";
import { type HookLine, MORE_HOOK_LINES, moreHookMarks } from "./service-hook-lines.js";

/** apt.conf values by their full key (`DPkg::Post-Invoke { "cmd"; };`, `APT::Update::Pre-Invoke:: "cmd";`). */
export function aptValues(text: string): [string, string][] | null {
  const clean = text.replace(/\/\*[\s\S]*?\*\//g, " ").replace(/(^|\s)\/\/.*$/gm, "$1");
  const tokens = clean.match(/"[^"]*"|[{};]|#[^\n]*|[^\s{};"]+/g) ?? [];
  const out: [string, string][] = [];
  const stack: string[] = [];
  let key: string | null = null;
  const full = (k: string | null) =>
    [...stack, k ?? ""]
      .join("::")
      .replace(/:{2,}/g, "::")
      .replace(/^::|::$/g, "");
  for (const [i, t] of tokens.entries()) {
    if (t.startsWith("#")) {
      const inc = /^#include\s+"?([^"\s]+)/.exec(t);
      if (inc) out.push(["#include", inc[1] as string]);
      const clear = /^#clear\s+"?([^"\s;]+)/.exec(t);
      if (clear) out.push(["#clear", clear[1] as string]);
      continue;
    }
    if (t === "{") {
      stack.push(key ?? "");
      key = null;
    } else if (t === "}") {
      if (stack.pop() === undefined) return null;
      key = null;
    } else if (t === ";") key = null;
    // A quoted tag (`"DPkg::Post-Invoke" { "cmd"; };`, `"APT::X" "v";`) is a key as apt reads it, not a value.
    else if (t.startsWith('"') && key === null && !/^[;}]?$/.test(tokens[i + 1] ?? "")) key = t.slice(1, -1);
    else if (t.startsWith('"')) {
      out.push([full(key), t.slice(1, -1)]);
      key = null;
    } else if (key === null) key = t;
    else {
      out.push([full(key), t]);
      key = null;
    }
  }
  return stack.length === 0 ? out : null;
}

/** Packages whose security updates must keep coming. */
const VITAL = ["openssl", "libssl3", "libc6", "sudo", "openssh-server", "linux-image-generic", "systemd", "bash"];

/** An Unattended-Upgrade blacklist entry (a Python regex matched at a name's start) that matches a vital package. */
function holdsBackVital(entry: string): boolean {
  try {
    const re = new RegExp(`^(?:${entry})`);
    return VITAL.some((p) => re.test(p));
  } catch {
    return true;
  }
}

function apt(text: string, j: ContentJudge): Mark[] {
  const values = aptValues(text);
  if (values === null) return [mark(4, "APT configuration the judge cannot parse: cannot judge what runs later")];
  const out: Mark[] = [];
  for (const [full, value] of values) {
    // `Binary::apt::X` is X for the apt binary only.
    const key = full.replace(/^binary::[^:]+::/i, "");
    if (key === "#clear" && /^(unattended-upgrade|apt::periodic)/i.test(value)) {
      out.push(mark(4, `#clear ${value}: empties what automatic security updates install or when they run`));
    } else if (key === "#include" || /^(rootdir|dir(::.*)?|dpkg::chroot-directory)$/i.test(key)) {
      // RootDir prefixes every Dir (configuration, keys, lists, dpkg's status); Dir::State and Dir::Cache hold the
      // package lists and archives apt trusts once downloaded; dpkg runs chrooted into Chroot-Directory.
      if (value.startsWith("/") && !rootOwnedPlace(value) && !/^\/var\/(cache|lib)\/apt(\/[^.][^/]*)*\/?$/.test(value))
        out.push(mark(4, `${full} ${value}: not a place only root can change`));
      // An included file's hooks run as root: only APT's own configuration was judged as such.
      else if (key === "#include" && !ownConfiguration(value.startsWith("/") ? value : `/etc/apt/${value}`, "apt"))
        out.push(mark(4, `#include ${value}: not APT's own configuration (never judged as such)`));
    } else if (/^apt::(solver|planner)$/i.test(key) && value.includes("/")) {
      // An absolute solver or planner name is run as it is (flCombine keeps an absolute path).
      out.push(...(rootOwnedPlace(value) ? [j.code(value, full)] : [mark(4, `${full} ${value}: not a place only root can change`)]));
    } else if (/::options(::.*)?$/i.test(key) && /--force-(?!conf(old|new|def|miss)\b)|--(root|instdir|admindir)\b/.test(value)) {
      out.push(mark(4, `${full} ${value}: forces dpkg past its checks, or points it at another root`));
    } else if (/^apt::compressor::[^:]+::binary$/i.test(key)) {
      // apt forks a compressor's Binary for every archive it has no library for.
      out.push(...program(value, full, j));
    } else if (/^unattended-upgrade::package-blacklist$/i.test(key) && holdsBackVital(value)) {
      out.push(mark(4, `${full} "${value}": holds back security updates of vital packages`));
    } else if (/^apt::sandbox::user$/i.test(key) && /^(root|0)$/.test(value.trim())) {
      out.push(mark(4, `${full} ${value}: apt's download methods parse what the network sends as root`));
    } else if (/invoke|install-pkgs|auto-?detect|command$|::path$/i.test(key)) {
      if (/::path$/i.test(key)) out.push(...variable("PATH", value, j, key));
      else out.push(j.code(value, key));
    } else if (/::proxy$|::proxy::/i.test(key)) {
      out.push(mark(4, `${key} ${value}: routes APT's downloads, and auth.conf's credentials, through another host`));
    } else if (
      /^apt::periodic::(enable|unattended-upgrade|update-package-lists)$/i.test(key) &&
      /^(0|false|no|off|)$/i.test(value.trim())
    ) {
      out.push(mark(4, `${key} "${value}": switches off automatic security updates`));
    } else if (/unauthenticated|insecure|allow-?weak|check-valid-until|check-date|verify-(peer|host)|::trusted$|signed-by/i.test(key)) {
      out.push(mark(4, `${key}: changes APT's signature or certificate checks`));
    } else if (/^dpkg::tools::options::/i.test(key)) {
      const tool = key.replace(/^dpkg::tools::options::/i, "").replace(/::[^/]*$/, "");
      if (!rootOwnedPlace(tool)) out.push(mark(4, `${key}: runs ${tool} with every package, not a place only root can change`));
    }
  }
  return out;
}

/** A package source whose packages are not verified: what it installs later runs as root. */
function aptSources(text: string): Mark[] {
  const insecure =
    /\b(trusted|allow-insecure|allow-weak|allow-downgrade-to-insecure)\s*=\s*yes\b|^\s*(Trusted|Allow-Insecure|Allow-Weak|Allow-Downgrade-To-Insecure)\s*:\s*yes\b/im;
  if (insecure.test(text)) return [mark(4, "a package source APT does not verify: what it installs runs as root")];
  // deb822's Signed-By may hold the key itself: a new source with its own key is a new root of trust.
  if (/BEGIN PGP PUBLIC KEY BLOCK|^\s*Signed-By\s*:\s*$/im.test(text))
    return [mark(4, "a package source that carries its own signing key: a new root of trust for what root installs")];
  return [];
}

const TMPFILES_LINE = /^\s*(\S+)\s+(\S+)(?:\s+(\S+))?(?:\s+(\S+))?(?:\s+\S+)?(?:\s+\S+)?(?:\s+(.*))?$/;

/** What a tmpfiles.d type letter does to its path (null: nothing; "special": a device node or fifo). */
function tmpfilesMode(letter: string): Mode | "special" | "attrs" | null {
  if ("xX".includes(letter)) return null;
  if ("cbp".includes(letter)) return "special";
  if (letter === "r") return "delete";
  if ("RDe".includes(letter)) return "tree";
  // `m` is the old spelling of `z`.
  if (letter === "z" || letter === "m") return "perm";
  if (letter === "Z") return "perm-tree";
  if ("tTaAhH".includes(letter)) return "attrs";
  return "fFwdvqQLC".includes(letter) ? "write" : null;
}

/** systemd-tmpfiles' specifiers for the system instance (tmpfiles.d(5)); others are only known at boot. */
const TMPFILES_SPECIFIERS: Record<string, string> = {
  h: "/root",
  S: "/var/lib",
  C: "/var/cache",
  L: "/var/log",
  t: "/run",
  T: "/tmp",
  V: "/var/tmp",
  E: "/etc",
  "%": "%",
};

function tmpfilesLine(line: string, j: ContentJudge): Mark[] {
  const [, type = "", written = "", modeField = "-", user = "-", argument = ""] = TMPFILES_LINE.exec(line) ?? [];
  // `L+ %h/.bashrc - - - - /tmp/x`: the path as systemd-tmpfiles expands it (root's home for %h).
  if (/%[^hSCLtTVE%]/.test(written)) return [mark(4, `acts on ${written}, a path only known at boot`)];
  const path = written.replace(/%([hSCLtTVE%])/g, (_m, c: string) => TMPFILES_SPECIFIERS[c] ?? _m);
  const letter = type.replace(/[!+\-=~^$?]/g, "");
  if (letter.length !== 1 || !/^[%/]/.test(path)) return [mark(2, `a tmpfiles line the judge does not read: ${line.trim().slice(0, 80)}`)];
  const op = tmpfilesMode(letter);
  if (op === null) return [];
  if (op === "special") return [mark(4, `creates device node or fifo ${path} at every boot`)];
  // These make a file or link at `path` (the rest make directories or act on what is there).
  const file = "fFwCL".includes(letter);
  const out = j.later(op === "attrs" ? "perm" : op, path, file);
  // `w /proc/sys/kernel/core_pattern - - - - |/tmp/x` is a kernel setting like sysctl.d's.
  if (op === "write" && path.startsWith("/proc/sys/")) out.push(...sysctl(`${path.slice(10).replace(/\//g, ".")} = ${argument}`, j));
  if (op === "attrs") out.push(mark(/capability/.test(argument) ? 4 : 3, `sets ACLs, attributes or xattrs on ${path} at every boot`));
  const bits = /^[~:]*[0-7]{3,4}$/.test(modeField) ? parseInt(modeField.replace(/[~:]/g, ""), 8) : 0;
  // A set-id file made, or an existing one re-permissioned (`z /usr/bin/bash 4755`), at every boot.
  if ((file || "zZm".includes(letter)) && bits & 0o6000) out.push(mark(4, `gives ${path} set-id mode ${modeField} at every boot`));
  // Writable by anyone without the sticky bit (`D /tmp 0777`, `d /run/sudo 0777`): others' entries may be replaced.
  if (!"rR".includes(letter) && bits & 0o002 && (file || !(bits & 0o1000)))
    out.push(mark(4, `makes ${path} writable by anyone (${modeField}) at every boot`));
  // An ACL that lets a user, a group or everyone write (`a+ /etc/cron.d - - - - u:agent:rwx`).
  if ("aA".includes(letter) && /(^|,)\s*(d(efault)?:)?(u(ser)?|g(roup)?|o(ther)?|m(ask)?):(?!root:|0:)[^:,]*:[rX-]*w/.test(argument))
    out.push(mark(4, `an ACL that lets others write ${path}, at every boot`));
  const r = ["-", "root", "0", ""].includes(user) ? null : (runsLater(path) ?? runsLater(`${path}/x`));
  if (r?.asRoot) out.push(mark(4, `hands ${path}, which root runs later (${r.what}), to ${user} at every boot`));
  return out;
}

function tmpfiles(text: string, j: ContentJudge): Mark[] {
  return lines(text)
    .filter((l) => !comment(l))
    .flatMap((l) => tmpfilesLine(l, j));
}

/**
 * The program a command line names: it must live where only root can change it, and (review 50) in the trees packages
 * own — the kernel runs it as root at any crash, with no later judge to read a program staged in /opt; the line is
 * judged as code.
 */
function program(command: string, key: string, j: ContentJudge): Mark[] {
  const exe = command.trim().split(/\s+/)[0] ?? "";
  if (!rootOwnedPlace(exe)) return [mark(4, `${key} names ${exe || "no program"}, not in a place only root can change`)];
  if (unpackaged(exe)) return [mark(4, `${key} names ${exe}, a program outside the packaged trees the kernel runs as root`)];
  return [j.code(command, key)];
}

/** Kernel settings that are protections: setting them at all from a diff is refused (a person does it). */
export const SECURITY_SYSCTL =
  /^(fs\.protected_[a-z]+|fs\.suid_dumpable|kernel\.(yama\.ptrace_scope|kptr_restrict|dmesg_restrict|randomize_va_space|unprivileged_bpf_disabled|kexec_load_disabled|modules_disabled|sysrq|perf_event_paranoid)|vm\.mmap_min_addr|user\.max_user_namespaces)$/;

/** Where a core dump must not land: root's configuration, programs, home and spools. */
const ROOT_DUMP_PLACE = /^\/(etc|usr|boot|root|bin|sbin|lib[^/]*|opt|var\/spool|var\/lib)\//;

function sysctl(text: string, j: ContentJudge): Mark[] {
  const out: Mark[] = [];
  for (const raw of lines(text)) {
    const line = raw.replace(/^\s*-/, "");
    if (/^\s*([#;]|$)/.test(line) || !line.includes("=")) continue;
    const key = line.slice(0, line.indexOf("=")).trim().replace(/\//g, ".");
    const value = line.slice(line.indexOf("=") + 1).trim();
    // systemd-sysctl takes glob keys (`kernel.core_patter?`): which settings the line sets is not known here.
    if (/[*?[]/.test(key)) out.push(mark(4, `${key}: a pattern key, so the settings it sets are not known here`));
    else if (SECURITY_SYSCTL.test(key)) out.push(mark(4, `${key}: turns off a kernel protection`));
    // Written to /proc/sys/fs/binfmt_misc/register: an interpreter the kernel runs for every matching file executed.
    else if (key === "fs.binfmt_misc.register")
      out.push(mark(4, `${key}: registers an interpreter the kernel runs for every matching file (binfmt.d's job, judged there)`));
    else if (key === "kernel.core_pattern" && value.startsWith("|")) out.push(...program(value.slice(1), key, j));
    // `@` and `@@` (Linux 6.16+): the kernel sends every crashing process's memory to whoever listens on that socket.
    else if (key === "kernel.core_pattern" && value.startsWith("@"))
      out.push(mark(4, `${key} = ${value}: hands every crashing process's memory (root's too) to a socket's listener`));
    // A set-id program's dump is written as root: into root's trees it is a file others' memory decides.
    else if (key === "kernel.core_pattern" && value.startsWith("/") && ROOT_DUMP_PLACE.test(value))
      out.push(mark(4, `${key} = ${value}: core dumps written into root's own trees`));
    else if (key === "kernel.poweroff_cmd") out.push(...program(value, key, j));
    else if ((key === "kernel.modprobe" || key === "kernel.hotplug") && value && (!rootOwnedPlace(value) || unpackaged(value)))
      out.push(mark(4, `${key} names ${value}, not a packaged program (the kernel runs it as root)`));
  }
  return out;
}

/** `:name:type:offset:magic:mask:interpreter:flags` — the kernel runs the interpreter for every matching file. */
function binfmt(text: string): Mark[] {
  const out: Mark[] = [];
  for (const line of joined(text)) {
    if (/^\s*([#;]|$)/.test(line)) continue;
    const t = line.trim();
    const fields = t.split(t[0] as string);
    const interp = fields[6] ?? "";
    if (fields.length < 8) out.push(mark(2, `a binfmt line the judge does not read: ${t.slice(0, 80)}`));
    else if (!rootOwnedPlace(interp)) out.push(mark(4, `registers ${interp || "no interpreter"}, not in a place only root can change`));
    // C: the interpreter runs with the credentials of the file it runs — a set-id file's owner, root (review 50).
    else if (/C/.test(fields[7] ?? "") && unpackaged(interp))
      out.push(mark(4, `registers ${interp} with the C flag: a program outside the packaged trees run with set-id files' credentials`));
  }
  return out;
}

/** Variables that choose the code a program loads (the loader's, the interpreters', a shell's start-up file). */
const LOADS_CODE =
  /^(LD_[A-Z_]+|BASH_ENV|ENV|PATH|PYTHON(PATH|STARTUP|HOME)|PERL5(LIB|OPT)|PERLLIB|RUBY(LIB|OPT)|NODE_(OPTIONS|PATH)|GCONV_PATH)$/;

/**
 * supervisord's configuration (ini): every `command=` of a program, event listener or FastCGI program is started by
 * supervisord, which runs as root (`user=` drops to another user only if supervisord may: read as root here).
 * `directory=` is where relative words are read from, `environment=` what the program loads, `[include] files=` more
 * configuration.
 */
function supervisor(text: string, j: ContentJudge): Mark[] {
  const out: Mark[] = [];
  let section = "";
  // An indented line continues the value above it (Python's configparser).
  const logical: string[] = [];
  for (const raw of lines(text)) {
    if (/^\s+\S/.test(raw) && logical.length > 0 && !/^\s*[#;]/.test(raw)) logical[logical.length - 1] += ` ${raw.trim()}`;
    else logical.push(raw);
  }
  for (const raw of logical) {
    const line = raw.trim();
    if (/^[#;]/.test(line) || line === "") continue;
    const head = /^\[([^\]]*)\]/.exec(line);
    if (head) {
      section = (head[1] ?? "").trim().toLowerCase();
      continue;
    }
    const m = /^([A-Za-z_][\w.-]*)\s*[=:]\s*(.*)$/.exec(line);
    if (!m) {
      out.push(mark(4, `a supervisord line the judge does not read (a continued value?): ${clipped(line)}`));
      continue;
    }
    const [key, value] = [(m[1] as string).toLowerCase(), (m[2] as string).replace(/\s+;.*$/, "")];
    if (key === "command") {
      // supervisord puts %(ENV_X)s in from its own environment: a value only known when it starts.
      if (/%\(ENV_/.test(value)) out.push(mark(4, `[${section}] command=${clipped(value)}: expands values only known when it starts`));
      const exe = value.trim().split(/\s+/)[0] ?? "";
      if (exe.includes("/") && !rootOwnedPlace(exe))
        out.push(mark(4, `[${section}] runs ${clipped(exe)}, not in a place only root can change`));
      out.push(j.code(value, `supervisord [${section}] command`));
    }
    if (key === "directory" && !rootOwnedPlace(value.trim()))
      out.push(mark(4, `[${section}] directory=${clipped(value)}: its program's relative words are read from a place users may write`));
    if (key === "environment")
      for (const pair of value.matchAll(/([A-Za-z_]\w*)\s*=/g))
        if (LOADS_CODE.test(pair[1] as string))
          out.push(mark(4, `[${section}] environment sets ${pair[1]}, which chooses the code the program loads`));
    if (section === "include" && key === "files")
      for (const f of value.trim().split(/\s+/))
        if (f.startsWith("/") && !/^\/etc\/[^.]/.test(f))
          out.push(mark(4, `[include] files=${clipped(f)}: configuration from outside /etc`));
  }
  return out;
}

const clipped = (s: string): string => (s.length > 80 ? `${s.slice(0, 80)}…` : s);

const MONIT = /^\/etc\/(monit\/|monitrc$|monit\.d\/)/;
const APACHE = /^\/etc\/(apache2|httpd)\//;
const SNMPD = /^\/(etc\/snmp\/snmpd(\.local)?\.conf(\.d\/.+)?|var\/lib\/(net-)?snmp\/snmpd\.conf)$/;
const CUPS_FILES = /^\/etc\/cups\/cups-files\.conf$/;
const WGETRC = /^\/(usr\/local\/)?etc\/wgetrc$/;
const MUTTRC = /^\/(etc\/Muttrc(\.d\/.+)?|root\/\.muttrc|root\/\.mutt\/.+|root\/\.config\/mutt\/.+)$/;
/** wget's settings that send root's files, write its downloads elsewhere, or trust another's server (names as wget reads them). */
const WGET_WEAK: Record<string, (v: string) => boolean> = {
  outputdocument: () => true,
  postfile: () => true,
  bodyfile: () => true,
  dirprefix: () => true,
  logfile: () => true,
  savecookies: () => true,
  httpproxy: () => true,
  httpsproxy: () => true,
  ftpproxy: () => true,
  useaskpass: () => true,
  cacertificate: () => true,
  cadirectory: () => true,
  checkcertificate: (v) => /^(off|no|0|false)$/i.test(v),
  contentdisposition: (v) => /^(on|yes|1|true)$/i.test(v),
  trustservernames: (v) => /^(on|yes|1|true)$/i.test(v),
};
const ALIASES = /^\/etc\/(mail\/)?aliases$/;

/**
 * Daemons' hook lines: what each file's daemon runs as root. wg-quick's PreUp/PostUp/PreDown/PostDown (bash), OpenVPN's
 * up/down/route-up/ipchange/client-connect/learn-address/auth-user-pass-verify/tls-verify commands and plugins,
 * xinetd's server, inetd.conf's server and arguments (a network service per connection), keepalived's notify and
 * check scripts, rsyncd's pre-/post-xfer exec; monit's exec and start/stop/restart programs and program checks,
 * Apache's piped logs (`ErrorLog "|…"`, `|$` through a shell), RewriteMap prg: and modules, snmpd's extend/exec/pass,
 * the aliases' pipes, NetworkManager's VPN plugin programs, haproxy's external checks and Lua, syslog-ng's program(), nginx's
 * modules, smartd's -M exec, mdadm's and NUT's notify programs, dnsmasq's dhcp-script, squid's helpers, Postfix's
 * mailbox_command and pipe argv, exim's pipe transports. `place`: a library loaded, or a list read: it must be root's.
 * `sink`: a file the daemon appends to as root.
 */
const HOOK_LINES: HookLine[] = [
  { file: /^\/etc\/wireguard\//, line: /^\s*(PreUp|PostUp|PreDown|PostDown)\s*=\s*(.*)$/i },
  {
    file: /^\/etc\/openvpn\//,
    line: /^\s*-{0,2}(up|down|route-up|route-pre-down|ipchange|client-connect|client-disconnect|learn-address|auth-user-pass-verify|tls-verify)\s+(.*)$/,
  },
  { file: /^\/etc\/openvpn\//, line: /^\s*-{0,2}(plugin)\s+(.*)$/, place: true },
  { file: /^\/etc\/xinetd\.(conf|d\/)/, line: /^\s*(server)\s*\+?=\s*(.*)$/, served: true },
  { file: /^\/etc\/inetd\.conf$/, line: /^\s*(?!#)\S+\s+\S+\s+\S+\s+\S+\s+(\S+)\s+(.*)$/, served: true },
  // keepalived's blocks may sit on one line: `vrrp_script chk { script "/usr/bin/pgrep nginx" }`.
  { file: /^\/etc\/keepalived\//, line: /(?:^|[\s{])(notify\w*|script)\s+("[^"]*"|[^\s}]+)/ },
  { file: /^\/etc\/rsyncd\.conf$/, line: /^\s*((?:pre|post)-xfer\s+exec)\s*=\s*(.*)$/ },
  { file: MONIT, line: /(?:^|\s)(exec|(?:start|stop|restart)\s+program\s*=)\s*("[^"]*"|\S+)/i },
  { file: MONIT, line: /^\s*check\s+program\s+\S+\s+(with\s+path)\s+("[^"]*"|\S+)/i },
  { file: APACHE, line: /^\s*(ErrorLog|CustomLog|TransferLog|GlobalLog|ForensicLog|CookieLog|RewriteLog|ScriptLog)\s+"?\|+\$?([^"]*)/i },
  { file: APACHE, line: /^\s*(RewriteMap)\s+\S+\s+"?prg:([^"]*)/i },
  { file: APACHE, line: /^\s*(LoadModule\s+\S+|LoadFile)\s+"?([^"\s]+)/i, place: true, module: true },
  { file: SNMPD, line: /^\s*(extend-sh|extendfix|extend|execfix|exec|sh)\s+(?:\.?\d[\d.]*\s+)?\S+\s+(.*)$/ },
  { file: SNMPD, line: /^\s*(pass_persist|pass)\s+(?:-p\s+\d+\s+)?\S+\s+(.*)$/ },
  { file: ALIASES, line: /(?:^[^#:\s][^:]*:|,)\s*"?(\|)\s*([^",]*)/ },
  { file: ALIASES, line: /(?:^[^#:\s][^:]*:|,)\s*"?(:include:)\s*([^",\s]*)/, place: true },
  { file: ALIASES, line: /(?:^[^#:\s][^:]*:|,)\s*"?()(\/[^",\s]*)/, sink: true },
  { file: /^\/etc\/NetworkManager\/VPN\/./, line: /^\s*(program|auth-dialog)\s*=\s*(.*)$/ },
  { file: /^\/etc\/NetworkManager\/VPN\/./, line: /^\s*(plugin|properties)\s*=\s*(.*)$/, place: true },
  { file: /^\/etc\/haproxy\//, line: /^\s*(external-check\s+command)\s+(.*)$/ },
  { file: /^\/etc\/haproxy\//, line: /^\s*(lua-load(?:-per-thread)?|lua-prepend-path)\s+"?([^"\s]+)/, place: true, module: true },
  { file: /^\/etc\/syslog-ng\//, line: /(?:^|[\s{;])(program)\s*\(\s*("[^"]*"|'[^']*'|[^)\s]+)/ },
  { file: /^\/etc\/nginx\//, line: /^\s*(load_module)\s+"?([^";\s]+)/, place: true, module: true },
  { file: /^\/etc\/(smartmontools\/)?smartd\.conf$/, line: /\s(-M\s+exec)\s+("[^"]*"|\S+)/ },
  { file: /^\/etc\/(mdadm\/)?mdadm\.conf$/, line: /^\s*(PROGRAM)\s+(.*)$/ },
  { file: /^\/etc\/nut\//, line: /^\s*(NOTIFYCMD|SHUTDOWNCMD|CMDSCRIPT)\s+(.*)$/ },
  { file: /^\/etc\/dnsmasq\.(conf|d\/.)/, line: /^\s*(dhcp-script|dhcp-luascript)\s*=\s*(.*)$/ },
  { file: /^\/etc\/squid\//, line: /^\s*(\w+_program|auth_param\s+\S+\s+program|external_acl_type\s+.*?(?=\s\/))\s+(.*)$/ },
  { file: /^\/etc\/postfix\//, line: /^\s*(mailbox_command|\S*_command)\s*=\s*(.*)$/ },
  { file: /^\/etc\/postfix\/master\.cf$/, line: /\s(argv)=(.*)$/ },
  { file: /^\/etc\/exim4?\//, line: /^\s*(command)\s*=\s*(.*)$/ },
  // Write access to snmpd: whoever knows the community (or user) sets NET-SNMP-EXTEND-MIB's commands, run as root.
  { file: SNMPD, line: /^\s*(rwcommunity6?|rwuser)\s*(.*)$/i, weak: () => "write access to snmpd, which runs the commands it is sent" },
  { file: SNMPD, line: /^\s*(authcommunity|authuser)\s+(\S+)/i, weak: (v) => (/write/i.test(v) ? "write access to snmpd" : null) },
  {
    file: SNMPD,
    line: /^\s*(access)\s+((?:\S+\s+){6}\S+)/i,
    weak: (v) => (!/^none$/i.test(v.split(/\s+/)[6] ?? "none") ? "a write view in snmpd's access" : null),
  },
  // apcupsd runs the event scripts of its SCRIPTDIR as root.
  { file: /^\/etc\/apcupsd\/apcupsd\.conf$/, line: /^\s*(SCRIPTDIR|PWRFAILDIR|NOLOGINDIR)\s+"?([^"\s]+)/i, place: true },
  // cupsd: its administrators, its sandbox, file: printers written as root, the programs and files it runs or writes.
  {
    file: CUPS_FILES,
    line: /^\s*(SystemGroup)\s+(.*)$/i,
    weak: (v) =>
      v.split(/\s+/).some((g) => !/^(root|sys|lpadmin|wheel|admin)$/.test(g)) ? "makes a group's members cupsd's administrators" : null,
  },
  { file: CUPS_FILES, line: /^\s*(Sandboxing)\s+(\S+)/i, weak: (v) => (/^relaxed$/i.test(v) ? "relaxes cupsd's sandbox" : null) },
  {
    file: CUPS_FILES,
    line: /^\s*(FileDevice)\s+(\S+)/i,
    weak: (v) => (/^(yes|on|true)$/i.test(v) ? "printers that write any file" : null),
  },
  { file: CUPS_FILES, line: /^\s*(User|Group)\s+(\S+)/i, weak: (v) => (/^(root|0)$/i.test(v) ? "cupsd's helpers run as root" : null) },
  {
    file: CUPS_FILES,
    line: /^\s*(ServerBin|ServerRoot|DataDir|DocumentRoot|TempDir|RequestRoot|CacheDir|StateDir)\s+"?([^"\s]+)/i,
    place: true,
  },
  {
    file: CUPS_FILES,
    line: /^\s*(ErrorLog|AccessLog|PageLog)\s+"?([^"\s]+)/i,
    weak: (v) => (v.startsWith("/") && !MAIL_SINK.test(v) ? "cupsd writes its log there as root" : null),
  },
  {
    file: CUPS_FILES,
    line: /^\s*(\w*Perm)\s+(\S+)/i,
    weak: (v) => (!/^[0-7]{1,4}$/.test(v) || parseInt(v, 8) & 0o002 ? "files cupsd makes writable by anyone" : null),
  },
  // wget's system settings, for root's later downloads (names are case-, `_`- and `-`-insensitive).
  {
    file: WGETRC,
    line: /^\s*([A-Za-z_-]+)\s*=\s*(.*)$/,
    weak: (v, k) =>
      WGET_WEAK[k.toLowerCase().replace(/[-_]/g, "")]?.(v.trim()) ? "root's downloads sent, written or fetched elsewhere" : null,
  },
  // mutt: backquotes and `source "cmd|"` run commands whenever the file is read; the programs it starts.
  { file: MUTTRC, line: /(`)([^`]*)`/ },
  {
    file: MUTTRC,
    line: /^\s*(source)\s+["']?([^"'|]*)\|/,
    weak: () => "mutt reads a program's output as its configuration, whose backquotes run commands",
  },
  { file: MUTTRC, line: /^\s*(source)\s+["']?([^"'\s|]+)["']?\s*$/, place: true },
  {
    file: MUTTRC,
    line: /^\s*set\s+(?:\S+\s+)*?(sendmail|editor|visual|shell|inews|ispell|mixmaster|display_filter|tunnel|preconnect|\w+_command)\s*=\s*("[^"]*"|'[^']*'|\S+)/,
  },
  { file: MUTTRC, line: /^\s*set\s+(?:\S+\s+)*?(signature)\s*=\s*["']?([^"'|]*)\|/ },
];

/** Where these daemons read more configuration, or run their relative hooks from: it must be root's. */
const HOOK_INCLUDES =
  /^\s*(?:-{0,2}(?:config|cd|tmp-dir)\s+|include(?:dir|file|optional)?\s+|&(?:include|merge)\s+|@include\s+)"?([^"\s]+)/i;

/** The trees packages keep libraries and daemons' modules in (not /usr/local). */
const PACKAGED_LIBRARY = /^\/(?:usr\/(?!local\/)|lib(?:32|64|x32)?\/)/;

/** Where a daemon's file sink may lie: mail spools, logs, nowhere. */
const MAIL_SINK = /^\/(dev\/null$|var\/(spool\/)?mail\/|var\/log\/)/;

function serviceHooks(text: string, j: ContentJudge, path?: string): Mark[] {
  const rules = [...HOOK_LINES, ...MORE_HOOK_LINES].filter((h) => h.file.test(path ?? ""));
  const out: Mark[] = [...sectionedConfig(text, path ?? ""), ...moreHookMarks(text, path ?? "", j)];
  for (const line of joined(text)) {
    if (/^\s*[#;]/.test(line)) continue;
    const inc = HOOK_INCLUDES.exec(line)?.[1];
    if (inc?.startsWith("/") && !rootOwnedPlace(inc.replace(/\/[^/]*[*?[][^/]*$/, "")))
      out.push(mark(4, `${clipped(line.trim())}: configuration or hooks from a place others may write`));
    for (const h of rules) {
      const m = h.line.exec(line);
      if (!m) continue;
      const [key, raw] = [(m[1] as string).replace(/\s+/g, " "), (m[2] as string).trim()];
      const value = /^"[^"]*"$|^'[^']*'$/.test(raw) ? raw.slice(1, -1) : raw;
      const program = value.split(/\s+/)[0] ?? "";
      if (h.weak) {
        const why = h.weak(value, key);
        if (why) out.push(mark(4, `${clipped(line.trim())}: ${why}`));
        continue;
      }
      if (h.place) {
        if (program.startsWith("/") && !rootOwnedPlace(program))
          out.push(mark(4, `${key} ${clipped(program)}: loaded or read from a place others may write`));
        // Review 49: `load_module /opt/foo/x.so`, a binary committed there earlier as "a system path", ran in root's
        // daemon unjudged. A name the daemon resolves in its own module directory (`modules/x.so`, `redis.so`) is its own.
        else if (h.module && program.startsWith("/") && !PACKAGED_LIBRARY.test(posix.normalize(program)))
          out.push(mark(4, `${key} ${clipped(program)}: a module or code from outside the packaged library trees, which no judge read`));
        continue;
      }
      if (h.sink) {
        if (!MAIL_SINK.test(program)) out.push(mark(4, `${clipped(line.trim())}: appends what others send to ${clipped(program)}`));
        continue;
      }
      if (program.startsWith("/") && !rootOwnedPlace(program))
        out.push(mark(4, `${key} runs ${clipped(program)}, not in a place only root can change`));
      // A network service whose program is an interpreter reads the connection as its code.
      if (h.served && READS_CODE_FROM_STDIN.test(program.split("/").pop() ?? ""))
        out.push(mark(4, `${key} ${clipped(value)}: serves an interpreter on the network, as root`));
      out.push(j.code(value, `${path ?? "hook"}: ${key}`));
    }
  }
  return out;
}

/** The readers of the system configuration formats of runs-later.ts. */
export const CONFIG_READERS = {
  apt,
  "apt-sources": aptSources,
  tmpfiles,
  sysctl,
  binfmt,
  supervisor,
  "service-hooks": serviceHooks,
} satisfies Partial<Record<Format, Reader>>;
