// More daemons' hook lines (review rt21d), read like config-formats.ts's DAEMON_HOOKS: certbot's renewal hooks, pppd's
// connect scripts, dnsmasq under NetworkManager, dhcpd's execute(), tcp wrappers' spawn and twist, LightDM's and
// SDDM's scripts, Samba's exec options, lighttpd's include_shell, dovecot's service executables, strongSwan's updown,
// podman's runtimes, PHP's prepended files and extensions, rsnapshot's and procmail's commands, the monitoring agents'
// commands, X's and collectd's module paths, the configuration agents' servers, databases' commands and libraries.
// Mercurial's and Subversion's `[section]` files, borgmatic's YAML and OCI hooks' JSON are read whole below, and
// dkms.conf's hook scripts (the file itself is judged as sh).
import { unquote } from "./assignments.js";
import { rootsPlace } from "./paths.js";
import { type Extracted, extracted, finding } from "./types.js";

export interface DaemonHook {
  file: RegExp;
  line: RegExp;
  served?: boolean;
  load?: boolean;
  sink?: boolean;
  /** The line itself weakens the host (a write community, a relaxed sandbox): why, or undefined when its value does not. */
  weak?: (value: string, key: string) => string | undefined;
}

/** Every absolute path a value names (a TOML array, a comma- or colon-separated list; not a URL's `//host`). */
const pathsIn = (v: string): string[] => [...v.matchAll(/(?:^|[\s"'[,:=])(\/(?!\/)[^\s"',\]:;]*)/g)].map((m) => m[1] ?? "");
/** Refuses a value naming a path others may write. */
const othersPlace = (what: string) => (v: string) => {
  const bad = pathsIn(v).find((p) => !rootsPlace(p));
  return bad ? `${what} ${bad}, a place others may write` : undefined;
};

/** Refuses a value naming a path outside the trees packages own (not /usr/local): code there was never judged as code. */
const outsidePackaged = (what: string) => (v: string) => {
  const bad = pathsIn(v).find((p) => !/^\/(usr\/(?!local\/)|lib(32|64|x32)?\/)/.test(p) || p.includes(".."));
  return bad ? `${what} ${bad}, outside the packaged trees` : undefined;
};

/** An automounter map that is a program, or a file outside /etc's autofs names (an executable file there is a program map). */
function autofsMap(value: string, key: string): string | undefined {
  const map = key.startsWith("+") ? key.slice(1) : value;
  if (map === "" || /^-(hosts|null|static)$/.test(map)) return undefined;
  const typed = /^([a-z]+)(?:,[a-z]+)?:(.*)$/.exec(map);
  const type = typed?.[1] ?? "";
  const where = typed ? (typed[2] ?? "") : map;
  if (/^(program|exec)$/.test(type)) return `${type} map ${where}: automount runs it as root for every key looked up`;
  if (where.includes("/") && (!/^\/etc\/(auto[^/]*|auto\.master\.d\/[^/]+|autofs\/.+)$/.test(where) || where.includes("..")))
    return `map ${where}: outside /etc's autofs names (an executable map is a program automount runs as root)`;
  return undefined;
}

const CERTBOT = /^\/etc\/letsencrypt\/(renewal\/|cli\.ini$)/;
const PPP = /^\/etc\/ppp\/(options|peers\/)/;
const DNSMASQ = /^\/etc\/NetworkManager\/dnsmasq(-shared)?\.d\//;
const DHCPD = /^\/etc\/dhcp\/dhcpd[^/]*\.conf$/;
const SAMBA = /^\/etc\/samba\//;
const DOVECOT = /^\/etc\/dovecot\//;
const CONTAINERS_CONF = /^\/(etc|usr\/share)\/containers\/[^/]+\.conf(\.d\/.+)?$/;
const PHP = /^\/etc\/php\//;
const PROCMAIL = /^\/etc\/procmailrc$/;
const ZABBIX = /^\/etc\/zabbix\//;
const NAGIOS = /^\/etc\/nagios\//;
const COLLECTD = /^\/etc\/collectd(\.conf$|\/)/;
const PUPPET = /^\/etc\/puppet(labs)?\//;
const MYSQL = /^\/etc\/mysql\//;
const POSTGRES = /^\/etc\/postgresql\//;
const phpKey = (keys: string) => new RegExp(`^\\s*(?:php(?:_admin)?_(?:value|flag)\\[)?(${keys})\\]?\\s*=\\s*(.*)$`, "i");

export const MORE_DAEMON_HOOKS: DaemonHook[] = [
  // certbot renew (root) runs each certificate's saved hooks, and cli.ini's, through a shell.
  { file: CERTBOT, line: /^\s*((?:pre|post|renew|deploy|manual[-_]auth|manual[-_]cleanup)[-_]hook)\s*=\s*(.*)$/i },
  // pppd (root): connect, disconnect, init, welcome and pty commands; plugins and option files it reads.
  // `connect "/usr/sbin/chat -v -f SCRIPT"` (every peers file has one) runs no shell code: its chat script must be root's.
  { file: PPP, line: /^\s*(?!connect\s+"?\/usr\/sbin\/chat(?:\s+[\w/.*+@%-]+)*"?\s*$)(connect|disconnect|init|welcome|pty)\s+(.*)$/ },
  { file: PPP, line: /^\s*(connect)\s+"?\/usr\/sbin\/chat\b.*?\s-f\s+([^\s"]+)/, load: true },
  { file: PPP, line: /^\s*(plugin|file)\s+(\S+)/, load: true },
  { file: DNSMASQ, line: /^\s*(dhcp-script|dhcp-luascript|conf-script)\s*=\s*(.*)$/ },
  {
    file: /^\/etc\/(dnsmasq\.(conf$|d\/)|NetworkManager\/dnsmasq(-shared)?\.d\/)/,
    line: /^\s*(conf-file|conf-dir)\s*=\s*([^,\s]+)/,
    load: true,
  },
  // dhcpd's execute() runs a program as root at an event; one named by an expression is not known.
  { file: DHCPD, line: /(?:^|[\s{;])(execute)\s*\(\s*"([^"]*)"/ },
  { file: DHCPD, line: /(?:^|[\s{;])(execute)\s*\(\s*([^"\s][^,)]*)/, weak: () => "dhcpd runs a program named by an expression" },
  { file: DHCPD, line: /^\s*(include)\s+"([^"]+)"/, load: true },
  // tcp wrappers run spawn and twist commands with /bin/sh (tcpd, rpcbind, vsftpd).
  { file: /^\/etc\/hosts\.(allow|deny)$/, line: /:\s*(spawn|twist)\s+(.*)$/ },
  { file: /^\/etc\/lightdm\//, line: /^\s*([\w-]*-script|[\w-]*-wrapper|xserver-command)\s*=\s*(.*)$/ },
  {
    file: /^\/etc\/sddm\.conf(\.d\/.+)?$/,
    // SDDM's own halt and reboot commands (systemctl poweroff and reboot) are what its buttons are for.
    line: /^\s*(?!(?:Halt|Reboot)Command\s*=\s*\/usr\/bin\/systemctl\s+(?:poweroff|reboot)\s*$)(\w*Command|ServerPath|XauthPath|XephyrPath)\s*=\s*(.*)$/,
  },
  // Samba's names ignore case and spaces (`root preexec`, `rootpreexec`, `add user script`, `panic action` …).
  {
    file: SAMBA,
    // Debian's own `passwd program = /usr/bin/passwd %u` (unix password sync) changes the user's password, as meant.
    line: /^\s*(?!passwd\s*program\s*=\s*\/usr\/bin\/passwd\s+%u\s*$)([a-z][a-z\s]*?(?:script|command|exec|action|program))\s*=\s*(.*)$/i,
  },
  { file: SAMBA, line: /^\s*(include|config\s*file)\s*=\s*(\S+)/i, load: true },
  { file: /^\/etc\/lighttpd\//, line: /^\s*(include_shell)\s+"([^"]*)"/ },
  { file: /^\/etc\/lighttpd\//, line: /^\s*(include)\s+"(\/[^"]*)"/, load: true },
  { file: DOVECOT, line: /^\s*(executable)\s*=\s*(?:script(?:-login)?\s+(?:-\S+\s+)*)?(.*)$/ },
  { file: DOVECOT, line: /^\s*!(include(?:_try)?)\s+(\S+)/, load: true },
  { file: DOVECOT, line: /^\s*(mail_plugin_dir|sieve_\w*bin_dir|sieve_plugin_dir)\s*=\s*(\S+)/, load: true },
  { file: /^\/etc\/(ipsec\.(conf$|d\/)|strongswan\.(conf$|d\/)|swanctl\/)/, line: /^\s*((?:left|right)?updown)\s*[=:]\s*(.*)$/ },
  // containers.conf: runtimes, helpers and hook directories rootful podman runs: every path must be root's.
  {
    file: CONTAINERS_CONF,
    line: /^\s*(?!volumes\b|devices\b|mounts\b|image_copy_tmp_dir\b)([\w-]+)\s*=\s*(.*)$/,
    weak: othersPlace("rootful podman runs or reads"),
  },
  // A file every php run executes first (a relative one is looked up from the working directory too).
  {
    file: PHP,
    line: phpKey("auto_prepend_file|auto_append_file"),
    weak: (v) => {
      const f = unquote(v);
      if (f === "" || /^none$/i.test(f)) return undefined;
      return rootsPlace(f) ? undefined : `every php run executes ${f} first, which others may write`;
    },
  },
  { file: PHP, line: phpKey("(?:zend_)?extension|extension_dir"), load: true },
  { file: PHP, line: phpKey("sendmail_path") },
  { file: /^\/etc\/rsnapshot\.conf$/, line: /^\s*(cmd_\w+|backup_script|backup_exec)\s+(.*)$/ },
  { file: /^\/etc\/rsnapshot\.conf$/, line: /^\s*(include_conf)\s+(\S+)/, load: true },
  // procmail as the MDA reads /etc/procmailrc as root: pipes, `?` conditions and backquotes run commands.
  { file: PROCMAIL, line: /^\s*(\|)\s*(.*)$/ },
  { file: PROCMAIL, line: /^\s*\*\s*!?\s*(\?)\s*(.*)$/ },
  { file: PROCMAIL, line: /(`)([^`]*)`/ },
  { file: PROCMAIL, line: /^\s*(INCLUDERC|SWITCHRC|SHELL|SENDMAIL)\s*=\s*(\S+)/, load: true },
  { file: ZABBIX, line: /^\s*(UserParameter)\s*=\s*[^,]*,(.*)$/ },
  { file: ZABBIX, line: /^\s*(AllowKey)\s*=\s*(system\.run.*)$/, weak: () => "lets the server run any command on this host" },
  { file: ZABBIX, line: /^\s*(EnableRemoteCommands|AllowRoot)\s*=\s*(1)/, weak: () => "lets the agent run commands, or run as root" },
  { file: ZABBIX, line: /^\s*(Include|LoadModulePath|LoadModule)\s*=\s*(\S+)/, load: true },
  { file: NAGIOS, line: /^\s*(command\[[^\]]*\]|command_prefix)\s*=\s*(.*)$/ },
  { file: NAGIOS, line: /^\s*(command_line)\s+(.*)$/ },
  { file: NAGIOS, line: /^\s*(dont_blame_nrpe)\s*=\s*(1)/, weak: () => "lets nrpe's clients pass arguments into its commands" },
  { file: NAGIOS, line: /^\s*(include(?:_dir)?)\s*=\s*(\S+)/, load: true },
  { file: COLLECTD, line: /^\s*(ModulePath|PluginDir|TypesDB|BaseDir|Include)\s+"?([^"\s]+)/i, load: true },
  { file: COLLECTD, line: /^\s*(Exec|NotificationExec)\s+"[^"]*"\s+(.*)$/i },
  {
    file: /^\/etc\/X11\/xorg\.conf(\.d\/.+)?$/,
    line: /^\s*(ModulePath|XkbDir)\s+"([^"]*)"/i,
    weak: othersPlace("Xorg loads modules from"),
  },
  // Review 51: automount runs a program map as root with the key looked up (`/x program:/srv/x`, or any map file that
  // is executable): a map must be a file in /etc's autofs names (an executable one written there is refused in
  // manifest.ts), or a directory service.
  { file: /^\/etc\/auto\.master(\.d\/.+)?$/, line: /^\s*(\/\S*|\+\S*)\s*(\S*)/, weak: autofsMap },
  // Review 51: Xorg runs as root under a display manager (or Xwrapper's needs_root_rights): a module directory or a
  // module named by path outside the packaged trees (`ModulePath "/var/lib/foo"`, `Load "/srv/x.so"`) is code no one judged.
  {
    file: /^\/(etc|usr\/share)\/X11\/xorg\.conf(\.d\/.+)?$/,
    line: /^\s*(ModulePath|Load)\s+"([^"]*)"/i,
    weak: outsidePackaged("Xorg loads modules from"),
  },
  {
    file: /^\/etc\/salt\//,
    line: /^\s*(master\w*|syndic_master|file_roots|pillar_roots|extension_modules|\w+_dirs)\s*:\s*(.*)$/,
    weak: () => "points salt's root agent at another master, or at other code",
  },
  {
    file: PUPPET,
    line: /^\s*(server|server_list|ca_server|report_server|masterport|pluginsource|http_proxy_host)\s*=\s*(.*)$/,
    weak: () => "points puppet's root agent at another server",
  },
  { file: PUPPET, line: /^\s*(prerun_command|postrun_command)\s*=\s*(.*)$/ },
  { file: /^\/etc\/kernel-img\.conf$/, line: /^\s*(\w+_hook)\s*=\s*(.*)$/ },
  {
    file: MYSQL,
    line: /^\s*(malloc[-_]lib|plugin[-_]dir|plugin[-_]load(?:[-_]add)?|ledir|mysqld)\s*=\s*(.*)$/,
    weak: othersPlace("mysqld loads"),
  },
  { file: MYSQL, line: /^\s*!(include(?:dir)?)\s+(\S+)/, load: true },
  {
    file: POSTGRES,
    line: /^\s*(archive_command|restore_command|archive_cleanup_command|recovery_end_command|ssl_passphrase_command)\s*=?\s*'((?:[^']|'')*)'/,
  },
  {
    file: POSTGRES,
    line: /^\s*(shared_preload_libraries|local_preload_libraries|session_preload_libraries|dynamic_library_path)\s*=?\s*'([^']*)'/,
    weak: othersPlace("postgres loads libraries from"),
  },
  { file: POSTGRES, line: /^\s*(include(?:_dir|_if_exists)?)\s*=?\s*'([^']*)'/, load: true },
];

const HGRC = /^\/etc\/mercurial\//;
const SVN = /^\/etc\/subversion\//;
const BORGMATIC = /^\/etc\/borgmatic(\.d)?\//;
const OCI_HOOKS = /^\/(etc|usr\/share)\/containers\/oci\/hooks\.d\/.+\.json$/;

/** Mercurial's hgrc (hooks, extensions, ui's ssh and editor, merge tools) and Subversion's config (helpers, tunnels). */
function sectionCommands(text: string, path: string, out: Extracted): void {
  let section = "";
  text.split("\n").forEach((raw, i) => {
    if (/^\s*[#;]/.test(raw) || raw.trim() === "") return;
    const head = /^\s*\[([^\]]*)\]/.exec(raw);
    if (head) {
      section = (head[1] ?? "").trim().toLowerCase();
      return;
    }
    const inc = /^\s*%include\s+(\S+)/.exec(raw)?.[1];
    if (inc && !rootsPlace(inc))
      out.findings.push(finding(4, `line ${i + 1}: %include ${inc}: configuration from a place others may write`));
    const m = /^\s*([^=\s][^=]*?)\s*=\s*(.*)$/.exec(raw);
    if (!m) return;
    const [key, value] = [(m[1] ?? "").toLowerCase(), (m[2] ?? "").trim()];
    const where = `line ${i + 1} ([${section}] ${key})`;
    const run = (text: string) => out.commands.push({ text, where, runAs: "", cwd: "/" });
    if (HGRC.test(path)) {
      // `python:module.func` imports an installed module; `python:/path/x.py:func` loads that file.
      const file = value.startsWith("python:") ? value.slice(7).replace(/:[^/:]*$/, "") : undefined;
      if (section === "hooks" && file !== undefined) {
        if (file.includes("/") && !rootsPlace(file)) out.findings.push(finding(4, `${where}: a Python hook from a place others may write`));
      } else if (section === "hooks") run(value);
      else if (section === "extensions" && value.includes("/") && !rootsPlace(value.replace(/^!/, "")))
        out.findings.push(finding(4, `${where}: an extension loaded from a place others may write`));
      else if (
        (section === "ui" && /^(ssh|editor|merge|remotecmd)$/.test(key)) ||
        (section === "merge-tools" && key.endsWith(".executable"))
      )
        run(value);
    } else if (section === "tunnels" || (section === "helpers" && key.endsWith("-cmd"))) run(value.replace(/^\$\w+\s+/, ""));
  });
}

/** borgmatic's YAML: every before_*, after_*, on_error and run list (or inline value) is commands root runs. */
function borgmaticCommands(text: string, out: Extracted): void {
  let hook: { indent: number; key: string } | undefined;
  text.split("\n").forEach((raw, i) => {
    if (/^\s*(#|$)/.test(raw)) return;
    const indent = raw.search(/\S/);
    const item = /^\s*-\s+(.*)$/.exec(raw);
    if (hook && item && indent >= hook.indent) {
      out.commands.push({ text: unquote(item[1] ?? ""), where: `line ${i + 1} (${hook.key})`, runAs: "", cwd: "/" });
      return;
    }
    hook = undefined;
    const m = /^\s*(?:-\s+)?(before_\w+|after_\w+|on_error|run)\s*:\s*(.*)$/.exec(raw);
    if (!m) return;
    const value = (m[2] ?? "").trim();
    if (value === "" || value === "|" || value === ">") hook = { indent, key: m[1] ?? "" };
    else out.commands.push({ text: unquote(value.replace(/^\[|\]$/g, "")), where: `line ${i + 1} (${m[1]})`, runAs: "", cwd: "/" });
    if (value === "|" || value === ">")
      out.findings.push(finding(4, `line ${i + 1}: ${m[1]} as a block of text the concurrence does not read`));
  });
}

/** An OCI hook (oci-hooks(5)): podman and CRI-O run its path with its args for every rootful container, as root. */
function ociHookCommands(text: string, out: Extracted): void {
  let hook: { path?: unknown; args?: unknown } | undefined;
  try {
    hook = (JSON.parse(text) as { hook?: { path?: unknown; args?: unknown } }).hook;
  } catch {
    out.findings.push(finding(4, "an OCI hook the concurrence cannot read"));
    return;
  }
  if (!hook) return;
  const args = Array.isArray(hook.args) ? hook.args.slice(1).map(String) : [];
  const quoted = args.map((a) => `'${a.replace(/'/g, "'\\''")}'`).join(" ");
  out.commands.push({ text: `${String(hook.path ?? "")} ${quoted}`.trim(), where: "OCI hook", runAs: "", cwd: "/" });
}

/** The commands and findings of the whole-file readers above, for a file they read. */
export function moreHookCommands(text: string, path: string): Extracted {
  const out = extracted();
  if (HGRC.test(path) || SVN.test(path)) sectionCommands(text, path, out);
  else if (BORGMATIC.test(path)) borgmaticCommands(text, out);
  else if (OCI_HOOKS.test(path)) ociHookCommands(text, out);
  return out;
}

/**
 * dkms.conf's PRE_BUILD, POST_BUILD, PRE_INSTALL, POST_INSTALL, POST_ADD, PRE_REMOVE and POST_REMOVE name scripts of
 * the module's tree that dkms runs as root: one that climbs out of it or lies elsewhere is code no one judged.
 */
export function dkmsHookFindings(text: string, path: string): Extracted {
  const out = extracted();
  if (!/^\/(usr\/src\/[^/]+\/dkms\.conf|etc\/dkms\/.+)$/.test(path)) return out;
  for (const m of text.matchAll(/^\s*((?:PRE|POST)_(?:BUILD|INSTALL|ADD|REMOVE))\s*=\s*(.*)$/gm)) {
    const script = unquote(m[2] ?? "").split(/\s+/)[0] ?? "";
    if (script.includes("..") || script.includes("$") || (script.startsWith("/") && !rootsPlace(script)))
      out.findings.push(finding(4, `${m[1]}=${script}: dkms runs, as root, a script outside the module's tree`));
  }
  return out;
}
