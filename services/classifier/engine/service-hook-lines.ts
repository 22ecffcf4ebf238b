// More daemons' hook lines (review rt21d), read like manifest-effects-configs.ts's
// HOOK_LINES: certbot's renewal hooks, pppd's connect scripts, dnsmasq under
// NetworkManager, dhcpd's execute(), tcp wrappers' spawn and twist, LightDM's and
// SDDM's scripts, Samba's exec options, lighttpd's include_shell, dovecot's service
// executables, strongSwan's updown, podman's runtimes and OCI hooks, PHP's
// prepended files and extensions, rsnapshot's and procmail's commands, the
// monitoring agents' commands, X's and collectd's module paths, the configuration
// agents' servers, databases' commands and libraries. Each names a program its
// daemon (or a root tool) runs; `[section]` and YAML files whose meaning depends on
// where a key sits (Mercurial, Subversion, borgmatic) and OCI hooks' JSON are read
// whole below.
import { rootOwnedPlace } from "./runs-later.js";
import { comment, lines, type ContentJudge, type Mark, mark } from "./runs-later-content.js";

export interface HookLine {
  file: RegExp;
  line: RegExp;
  served?: boolean;
  place?: boolean;
  /** A `place` naming a daemon's module or Lua code: by absolute path it must be in the packaged library trees. */
  module?: boolean;
  sink?: boolean;
  /** The line itself weakens the host (a write community, a relaxed sandbox): why, or null when its value does not. */
  weak?: (value: string, key: string) => string | null;
}

/** Every absolute path a value names (a TOML array, a comma- or colon-separated list; not a URL's `//host`). */
const pathsIn = (v: string): string[] => [...v.matchAll(/(?:^|[\s"'[,:=])(\/(?!\/)[^\s"',\]:;]*)/g)].map((m) => m[1] as string);
/** Why a value naming a path others may write is refused, or null. */
const notRoots = (what: string) => (v: string) => {
  const bad = pathsIn(v).find((p) => !rootOwnedPlace(p));
  return bad ? `${what} ${bad}, a place others may write` : null;
};

const CERTBOT = /^\/etc\/letsencrypt\/(renewal\/|cli\.ini$)/;
const PPP = /^\/etc\/ppp\/(options|peers\/)/;
const DNSMASQ = /^\/etc\/(dnsmasq\.(conf|d\/)|NetworkManager\/dnsmasq(-shared)?\.d\/)/;
const DHCPD = /^\/etc\/dhcp\/dhcpd[^/]*\.conf$/;
const SAMBA = /^\/etc\/samba\//;
const DOVECOT = /^\/etc\/dovecot\//;
const CONTAINERS_CONF = /^\/(etc|usr\/share)\/containers\/[^/]+\.conf(\.d\/.+)?$/;
const PHP = /^\/etc\/php\//;
const PROCMAIL = /^\/etc\/procmailrc$/;
const ZABBIX = /^\/etc\/zabbix\//;
const NAGIOS = /^\/etc\/nagios\//;
const MYSQL = /^\/etc\/mysql\//;
const POSTGRES = /^\/etc\/postgresql\//;
const PHP_KEY = (keys: string) => new RegExp(`^\\s*(?:php(?:_admin)?_(?:value|flag)\\[)?(${keys})\\]?\\s*=\\s*(.*)$`, "i");

export const MORE_HOOK_LINES: HookLine[] = [
  // certbot renew (root) runs the hooks saved with each certificate, and cli.ini's, through a shell.
  { file: CERTBOT, line: /^\s*((?:pre|post|renew|deploy|manual[-_]auth|manual[-_]cleanup)[-_]hook)\s*=\s*(.*)$/i },
  // pppd runs connect, disconnect, init, welcome and pty commands as root, and loads plugins.
  // `connect "/usr/sbin/chat -v -f SCRIPT"` (every peers file has one) runs no shell code: its chat script must be root's.
  { file: PPP, line: /^\s*(?!connect\s+"?\/usr\/sbin\/chat(?:\s+[\w/.*+@%-]+)*"?\s*$)(connect|disconnect|init|welcome|pty)\s+(.*)$/ },
  { file: PPP, line: /^\s*(connect)\s+"?\/usr\/sbin\/chat\b.*?\s-f\s+([^\s"]+)/, place: true },
  { file: PPP, line: /^\s*(plugin|file)\s+(\S+)/, place: true },
  { file: DNSMASQ, line: /^\s*(dhcp-script|dhcp-luascript|conf-script)\s*=\s*(.*)$/ },
  { file: DNSMASQ, line: /^\s*(conf-file|conf-dir)\s*=\s*([^,\s]+)/, place: true },
  // dhcpd's execute() (dhcp-eval(5)): a program it runs as root at an event; an expression in its stead is not read.
  { file: DHCPD, line: /(?:^|[\s{;])(execute)\s*\(\s*"([^"]*)"/ },
  { file: DHCPD, line: /(?:^|[\s{;])(execute)\s*\(\s*([^"\s][^,)]*)/, weak: () => "dhcpd runs a program named by an expression" },
  { file: DHCPD, line: /^\s*(include)\s+"([^"]+)"/, place: true },
  // tcp wrappers (hosts_options(5)) run spawn and twist commands with /bin/sh for tcpd, rpcbind, vsftpd.
  { file: /^\/etc\/hosts\.(allow|deny)$/, line: /:\s*(spawn|twist)\s+(.*)$/ },
  // LightDM's *-script and wrappers, SDDM's commands: run as root around each login.
  { file: /^\/etc\/lightdm\//, line: /^\s*([\w-]*-script|[\w-]*-wrapper|xserver-command)\s*=\s*(.*)$/ },
  {
    file: /^\/etc\/sddm\.conf(\.d\/.+)?$/,
    // SDDM's own halt and reboot commands (systemctl poweroff and reboot) are what its buttons are for.
    line: /^\s*(?!(?:Halt|Reboot)Command\s*=\s*\/usr\/bin\/systemctl\s+(?:poweroff|reboot)\s*$)(\w*Command|ServerPath|XauthPath|XephyrPath)\s*=\s*(.*)$/,
  },
  // Samba: root preexec, *user script, *group script, add machine script, *command … (names ignore case and spaces).
  {
    file: SAMBA,
    // Debian's own `passwd program = /usr/bin/passwd %u` (unix password sync) changes the user's password, as meant.
    line: /^\s*(?!passwd\s*program\s*=\s*\/usr\/bin\/passwd\s+%u\s*$)([a-z][a-z\s]*?(?:script|command|exec|action|program))\s*=\s*(.*)$/i,
  },
  { file: SAMBA, line: /^\s*(include|config\s*file)\s*=\s*(\S+)/i, place: true },
  // lighttpd runs include_shell's command while it reads its configuration, as root.
  { file: /^\/etc\/lighttpd\//, line: /^\s*(include_shell)\s+"([^"]*)"/ },
  { file: /^\/etc\/lighttpd\//, line: /^\s*(include)\s+"(\/[^"]*)"/, place: true },
  // dovecot's master (root) starts its services' executables (through `script`/`script-login` too).
  { file: DOVECOT, line: /^\s*(executable)\s*=\s*(?:script(?:-login)?\s+(?:-\S+\s+)*)?(.*)$/ },
  { file: DOVECOT, line: /^\s*!(include(?:_try)?)\s+(\S+)/, place: true },
  { file: DOVECOT, line: /^\s*(mail_plugin_dir|sieve_\w*bin_dir|sieve_plugin_dir)\s*=\s*(\S+)/, place: true },
  // charon (root) runs the updown script on every SA up or down.
  { file: /^\/etc\/(ipsec\.(conf$|d\/)|strongswan\.(conf$|d\/)|swanctl\/)/, line: /^\s*((?:left|right)?updown)\s*[=:]\s*(.*)$/ },
  // containers.conf: the runtimes, helpers and hook directories rootful podman runs (every path named must be root's).
  {
    file: CONTAINERS_CONF,
    line: /^\s*(?!volumes\b|devices\b|mounts\b|image_copy_tmp_dir\b)([\w-]+)\s*=\s*(.*)$/,
    weak: notRoots("rootful podman runs or reads"),
  },
  // PHP: a file every php run executes first (a relative one is found through include_path: the working directory),
  // extensions it loads, the program mail() runs.
  {
    file: PHP,
    line: PHP_KEY("auto_prepend_file|auto_append_file"),
    weak: (v) => {
      const f = v.trim().replace(/^"(.*)"$|^'(.*)'$/, "$1$2");
      if (f === "" || /^none$/i.test(f)) return null;
      return f.startsWith("/") && rootOwnedPlace(f) ? null : `every php run executes ${f} first, which others may write`;
    },
  },
  { file: PHP, line: PHP_KEY("(?:zend_)?extension"), place: true, module: true },
  { file: PHP, line: PHP_KEY("extension_dir"), place: true },
  { file: PHP, line: PHP_KEY("sendmail_path") },
  // rsnapshot (root cron) runs its cmd_* programs, backup_script and backup_exec.
  { file: /^\/etc\/rsnapshot\.conf$/, line: /^\s*(cmd_\w+|backup_script|backup_exec)\s+(.*)$/ },
  { file: /^\/etc\/rsnapshot\.conf$/, line: /^\s*(include_conf)\s+(\S+)/, place: true },
  // procmail as the MDA reads /etc/procmailrc as root: pipes, `?` conditions and backquotes run commands.
  { file: PROCMAIL, line: /^\s*(\|)\s*(.*)$/ },
  { file: PROCMAIL, line: /^\s*\*\s*!?\s*(\?)\s*(.*)$/ },
  { file: PROCMAIL, line: /(`)([^`]*)`/ },
  { file: PROCMAIL, line: /^\s*(INCLUDERC|SWITCHRC|SHELL|SENDMAIL)\s*=\s*(\S+)/, place: true },
  // zabbix_agentd and nrpe run these commands (as root with AllowRoot, or a root-started agent).
  { file: ZABBIX, line: /^\s*(UserParameter)\s*=\s*[^,]*,(.*)$/ },
  { file: ZABBIX, line: /^\s*(AllowKey)\s*=\s*(system\.run.*)$/, weak: () => "lets the server run any command on this host" },
  { file: ZABBIX, line: /^\s*(EnableRemoteCommands|AllowRoot)\s*=\s*(1)/, weak: () => "lets the agent run commands, or run as root" },
  { file: ZABBIX, line: /^\s*(Include|LoadModulePath|LoadModule)\s*=\s*(\S+)/, place: true },
  { file: NAGIOS, line: /^\s*(command\[[^\]]*\]|command_prefix)\s*=\s*(.*)$/ },
  { file: NAGIOS, line: /^\s*(command_line)\s+(.*)$/ },
  { file: NAGIOS, line: /^\s*(dont_blame_nrpe)\s*=\s*(1)/, weak: () => "lets nrpe's clients pass arguments into its commands" },
  { file: NAGIOS, line: /^\s*(include(?:_dir)?)\s*=\s*(\S+)/, place: true },
  // collectd (root) loads modules from its paths and runs Exec programs.
  { file: /^\/etc\/collectd(\.conf$|\/)/, line: /^\s*(ModulePath|PluginDir|TypesDB|BaseDir|Include)\s+"?([^"\s]+)/i, place: true },
  { file: /^\/etc\/collectd(\.conf$|\/)/, line: /^\s*(Exec|NotificationExec)\s+"[^"]*"\s+(.*)$/i },
  // A root Xorg loads its modules from ModulePath (a comma-separated list).
  { file: /^\/etc\/X11\/xorg\.conf(\.d\/.+)?$/, line: /^\s*(ModulePath|XkbDir)\s+"([^"]*)"/i, weak: notRoots("Xorg loads modules from") },
  // The configuration agents (root) obey whichever server they are pointed at; puppet runs its pre- and post-run commands.
  {
    file: /^\/etc\/salt\//,
    line: /^\s*(master\w*|syndic_master|file_roots|pillar_roots|extension_modules|\w+_dirs)\s*:\s*(.*)$/,
    weak: () => "points salt's root agent at another master, or at other code",
  },
  {
    file: /^\/etc\/puppet(labs)?\//,
    line: /^\s*(server|server_list|ca_server|report_server|masterport|pluginsource|http_proxy_host)\s*=\s*(.*)$/,
    weak: () => "points puppet's root agent at another server",
  },
  { file: /^\/etc\/puppet(labs)?\//, line: /^\s*(prerun_command|postrun_command)\s*=\s*(.*)$/ },
  // kernel-img.conf's hooks (run by the kernel packages' maintainer scripts).
  { file: /^\/etc\/kernel-img\.conf$/, line: /^\s*(\w+_hook)\s*=\s*(.*)$/ },
  // mysqld_safe (root) preloads malloc-lib; plugins and includes must be root's.
  {
    file: MYSQL,
    line: /^\s*(malloc[-_]lib|plugin[-_]dir|plugin[-_]load(?:[-_]add)?|ledir|mysqld)\s*=\s*(.*)$/,
    weak: notRoots("mysqld loads"),
  },
  { file: MYSQL, line: /^\s*!(include(?:dir)?)\s+(\S+)/, place: true },
  // postgres runs these commands and loads these libraries as the user that owns every database.
  {
    file: POSTGRES,
    line: /^\s*(archive_command|restore_command|archive_cleanup_command|recovery_end_command|ssl_passphrase_command)\s*=?\s*'((?:[^']|'')*)'/,
  },
  {
    file: POSTGRES,
    line: /^\s*(shared_preload_libraries|local_preload_libraries|session_preload_libraries|dynamic_library_path)\s*=?\s*'([^']*)'/,
    weak: notRoots("postgres loads libraries from"),
  },
  { file: POSTGRES, line: /^\s*(include(?:_dir|_if_exists)?)\s*=?\s*'([^']*)'/, place: true },
];

const HGRC = /^\/etc\/mercurial\//;
const SVN = /^\/etc\/subversion\//;
const BORGMATIC = /^\/etc\/borgmatic(\.d)?\//;
const OCI_HOOKS = /^\/(etc|usr\/share)\/containers\/oci\/hooks\.d\//;

/**
 * Mercurial's hgrc (hooks, extensions, ui's ssh and editor, merge tools), Subversion's config (helpers, tunnels):
 * what a key runs depends on its section. A Python hook (`python:`) or extension from elsewhere is code not read here.
 */
function sectioned(text: string, path: string, j: ContentJudge): Mark[] {
  const out: Mark[] = [];
  let section = "";
  for (const raw of lines(text)) {
    if (/^\s*[#;]/.test(raw) || raw.trim() === "") continue;
    const head = /^\s*\[([^\]]*)\]/.exec(raw);
    if (head) {
      section = (head[1] ?? "").trim().toLowerCase();
      continue;
    }
    const inc = /^\s*%include\s+(\S+)/.exec(raw)?.[1];
    if (inc && !(inc.startsWith("/") && rootOwnedPlace(inc)))
      out.push(mark(4, `%include ${inc}: configuration from a place others may write`));
    const m = /^\s*([^=\s][^=]*?)\s*=\s*(.*)$/.exec(raw);
    if (!m) continue;
    const [key, value] = [(m[1] as string).toLowerCase(), (m[2] as string).trim()];
    const where = `${path} [${section}] ${key}`;
    if (HGRC.test(path)) {
      // `python:module.func` imports an installed module; `python:/path/x.py:func` loads that file.
      if (section === "hooks" && value.startsWith("python:")) {
        const file = value.slice(7).replace(/:[^/:]*$/, "");
        if (file.includes("/") && !rootOwnedPlace(file)) out.push(mark(4, `${where}: a Python hook from a place others may write`));
      } else if (section === "hooks") out.push(j.code(value, where));
      else if (section === "extensions" && value.includes("/") && !rootOwnedPlace(value.replace(/^!/, "")))
        out.push(mark(4, `${where}: an extension loaded from a place others may write`));
      else if (
        (section === "ui" && /^(ssh|editor|merge|remotecmd)$/.test(key)) ||
        (section === "merge-tools" && key.endsWith(".executable"))
      )
        out.push(j.code(value, where));
    } else if (SVN.test(path)) {
      if (section === "tunnels" || (section === "helpers" && /-cmd$/.test(key))) out.push(j.code(value.replace(/^\$\w+\s+/, ""), where));
    }
  }
  return out;
}

/** borgmatic's YAML: every before_*, after_*, on_error and run list (or inline value) is shell commands root runs. */
function borgmatic(text: string, path: string, j: ContentJudge): Mark[] {
  const out: Mark[] = [];
  let hook: { indent: number; key: string } | null = null;
  for (const raw of lines(text)) {
    if (comment(raw)) continue;
    const indent = raw.search(/\S/);
    const item = /^\s*-\s+(.*)$/.exec(raw);
    if (hook && item && indent >= hook.indent) {
      out.push(j.code(item[1]?.replace(/^(["'])(.*)\1$/, "$2") ?? "", `${path}: ${hook.key}`));
      continue;
    }
    hook = null;
    const m = /^\s*(?:-\s+)?(before_\w+|after_\w+|on_error|run)\s*:\s*(.*)$/.exec(raw);
    if (!m) continue;
    const value = (m[2] as string).trim();
    if (value === "" || value === "|" || value === ">") hook = { indent, key: m[1] as string };
    else out.push(j.code(value.replace(/^\[|\]$/g, "").replace(/^(["'])(.*)\1$/, "$2"), `${path}: ${m[1]}`));
    if (value === "|" || value === ">") out.push(mark(4, `${path}: ${m[1]} as a block of text, not read here`));
  }
  return out;
}

/** An OCI hook (oci-hooks(5)): podman and CRI-O run its path with its args for every rootful container, as root. */
function ociHook(text: string, path: string, j: ContentJudge): Mark[] {
  let hook: { path?: unknown; args?: unknown } | undefined;
  try {
    hook = (JSON.parse(text) as { hook?: { path?: unknown; args?: unknown } }).hook;
  } catch {
    return [mark(4, `${path}: an OCI hook the judge cannot read`)];
  }
  if (!hook) return [];
  const args = Array.isArray(hook.args) ? hook.args.slice(1).map(String) : [];
  const quoted = args.map((a) => `'${a.replace(/'/g, "'\\''")}'`).join(" ");
  return [j.code(`${String(hook.path ?? "")} ${quoted}`.trim(), `${path}: hook`)];
}

/** The marks of the whole-file readers above, for a file they read. */
export function moreHookMarks(text: string, path: string, j: ContentJudge): Mark[] {
  if (HGRC.test(path) || SVN.test(path)) return sectioned(text, path, j);
  if (BORGMATIC.test(path)) return borgmatic(text, path, j);
  if (OCI_HOOKS.test(path) && path.endsWith(".json")) return ociHook(text, path, j);
  return [];
}
