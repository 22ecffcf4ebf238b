// Daemons' configuration that runs no code of its own but hands out root, or
// lets root run programs from anywhere (review 50): network services
// serving the system's trees as root (Samba, rsyncd), a database server
// running as root without its grants (any local user then writes root's
// files with INTO OUTFILE), agents that run what their servers send (nomad's
// raw_exec, consul's script checks), display managers logging root in, the
// X server's root rights for anybody, a directory client that accepts any
// server, podman's runtimes and postfix's daemons from outside the packaged
// trees. Read line by line like config-formats.ts's DAEMON_HOOKS (these rows
// join them); the files are in GRANT_CONFIG, judged as daemon hooks.
import { unquote } from "./assignments.js";
import type { DaemonHook } from "./daemon-hooks-more.js";

/** Files read here (besides those config-formats.ts and daemon-hooks-more.ts list for their own rows). */
export const GRANT_CONFIG =
  /^\/etc\/(rsyncd\.[^/]+|my\.cnf(\.d\/.+)?|mysql\/.+|postgresql\/.+\/pg_hba\.conf|nomad\.d\/.+|consul\.d\/.+|redis\/.+|vsftpd(\.conf|\/.+)|ldap\/ldap\.conf|gdm3?\/(daemon|custom)\.conf|X11\/Xwrapper\.config|lvm\/lvm(local)?\.conf|iscsi\/iscsid\.conf|ansible\/ansible\.cfg|reportbug\.conf|hdparm\.conf)$|^\/root\/\.selected_editor$/;

/**
 * Files any change of which hands out root or moves authentication elsewhere (judged as code the concurrence does not
 * read): the directory and Kerberos clients nsswitch and PAM may name (users, groups, passwords and sudo rules from
 * another server), principals or hosts allowed in as root, the Kerberos admin ACL and slapd's ACLs, webmin's users,
 * a CI runner's server and executor, FTP's deny list, root's mail and lftp start-up files (shell escapes), musl's
 * library path.
 */
export const GRANT_FILE =
  /^\/(etc\/(nslcd\.conf|sssd\/.+|libnss-ldap\.conf|pam_ldap\.conf|krb5\.keytab|(s?hosts)\.equiv|krb5kdc\/.+|ldap\/slapd\.d\/.+|webmin\/.+|gitlab-runner\/.+|ftpusers|ld-musl-[^/]+\.path)|root\/\.(k5login|k5users|rhosts|shosts|mailrc|lftprc|lftp\/.+))$/;

/** What a distribution packages: programs and libraries root may run from a daemon's configuration. */
const PACKAGED = /^\/(usr\/(?!local\/)[^/]+\/|(s?bin|lib(32|64|x32)?|libexec)\/)/;

/** A value naming, as a program or a directory of programs, an absolute path outside the packaged trees. */
const unpackaged = (what: string) => (v: string) => {
  const bad = [...v.matchAll(/(?:^|[\s"'[,=])(\/[^\s"',\]]+)/g)].map((m) => m[1] ?? "").find((p) => !PACKAGED.test(p));
  return bad ? `${what} ${bad}, outside the packaged trees: code no one judged` : undefined;
};
const isRoot = (v: string) => /^(root|0)$/i.test(unquote(v).trim());
const yes = (v: string) => /^(yes|on|true|1)$/i.test(unquote(v).trim());
/** The system's own trees (a share or module of them is the host itself). */
const SYSTEM_TREE = /^\/(etc|root|boot|usr|bin|sbin|lib\w*|var|opt|srv\/?$|home\/?$)?\/?$|^\/(etc|root|boot|usr|bin|sbin|lib\w*)\//;

const SAMBA = /^\/etc\/samba\//;
const RSYNCD = /^\/etc\/rsyncd\.[^/]+$/;
const MYSQL = /^\/etc\/(my\.cnf(\.d\/.+)?|mysql\/.+)$/;

export const DAEMON_GRANTS: DaemonHook[] = [
  { file: SAMBA, line: /^\s*(force\s*(?:user|group))\s*=\s*(\S+)/i, weak: (v) => (isRoot(v) ? "serves a share as root" : undefined) },
  { file: SAMBA, line: /^\s*(admin\s*users)\s*=\s*(.+)$/i, weak: () => "makes users root on its shares" },
  {
    file: SAMBA,
    line: /^\s*(path)\s*=\s*(.+)$/i,
    weak: (v) => (SYSTEM_TREE.test(unquote(v).trim()) ? "shares the system's own tree" : undefined),
  },
  { file: RSYNCD, line: /^\s*(uid|gid)\s*=\s*(\S+)/i, weak: (v) => (isRoot(v) ? "serves its modules as root" : undefined) },
  {
    file: RSYNCD,
    line: /^\s*(path)\s*=\s*(.+)$/i,
    weak: (v) => (SYSTEM_TREE.test(unquote(v).trim()) ? "serves the system's own tree" : undefined),
  },
  // (`user = root` is not read here: a [client] section's user is the login name; the classifier reads sections.)
  { file: MYSQL, line: /^\s*(skip[-_]grant[-_]tables)()\s*(?:=\s*\S*)?\s*$/i, weak: () => "turns the server's grants off" },
  {
    file: MYSQL,
    line: /^\s*(secure[-_]file[-_]priv)\s*=\s*(.*)$/i,
    weak: (v) => (unquote(v).trim() === "" ? "lets any SQL user read and write files where the server can" : undefined),
  },
  { file: MYSQL, line: /^\s*(init[-_]file)\s*=\s*(\S+)/i, weak: unpackaged("the server runs SQL at start-up from") },
  {
    file: /^\/etc\/postgresql\/.+\/pg_hba\.conf$/,
    line: /^\s*(\w+)\s+(.*\btrust\b.*)$/,
    weak: () => "lets anyone connect without a password",
  },
  { file: /^\/etc\/nomad\.d\//, line: /(raw_exec)()/, weak: () => "lets nomad's servers run any command on this host, as root" },
  {
    file: /^\/etc\/consul\.d\//,
    line: /"?(enable_(?:local_)?script_checks)"?\s*[=:]\s*(\S+)/,
    weak: (v) => (/true/i.test(v) ? "lets consul run the checks' commands it is sent" : undefined),
  },
  { file: /^\/etc\/consul\.d\//, line: /"?(args)"?\s*[=:]\s*(\[.*)$/, weak: () => "a script check: a command consul runs" },
  { file: /^\/etc\/redis\//, line: /^\s*(loadmodule)\s+(\S+)/i, weak: unpackaged("redis loads a module from") },
  {
    file: /^\/etc\/redis\//,
    line: /^\s*(enable-(?:module|debug)-command)\s+(\S+)/i,
    weak: (v) => (/^(yes|local)$/i.test(v) ? "lets clients load modules or debug the server" : undefined),
  },
  {
    file: /^\/etc\/vsftpd(\.conf|\/.+)$/,
    line: /^\s*(anon_(?:upload|mkdir_write|other_write)_enable)\s*=\s*(\S+)/i,
    weak: (v) => (yes(v) ? "lets anonymous users write" : undefined),
  },
  {
    file: /^\/etc\/ldap\/ldap\.conf$/,
    line: /^\s*(TLS_REQCERT)\s+(\S+)/i,
    weak: (v) => (/^(never|allow)$/i.test(v) ? "accepts any directory server: users and groups from anyone" : undefined),
  },
  {
    file: /^\/etc\/lightdm\//,
    line: /^\s*(autologin-user)\s*=\s*(\S+)/,
    weak: (v) => (isRoot(v) ? "logs root in without a password" : undefined),
  },
  {
    file: /^\/etc\/gdm3?\/(daemon|custom)\.conf$/,
    line: /^\s*((?:Automatic|Timed)Login)\s*=\s*(\S+)/,
    weak: (v) => (isRoot(v) ? "logs root in without a password" : undefined),
  },
  {
    file: /^\/etc\/sddm\.conf(\.d\/.+)?$/,
    line: /^\s*(User)\s*=\s*(\S+)/,
    weak: (v) => (isRoot(v) ? "logs root in without a password" : undefined),
  },
  {
    file: /^\/etc\/X11\/Xwrapper\.config$/,
    line: /^\s*(allowed_users)\s*=\s*(\S+)/,
    weak: (v) => (/^anybody$/i.test(v) ? "lets anybody start the X server (as root where it needs root rights)" : undefined),
  },
  {
    file: /^\/(etc|usr\/share)\/containers\/[^/]+\.conf(\.d\/.+)?$/,
    line: /^\s*([\w-]*(?:runtime|program|conmon|helper|hooks?_dir|init_path|_cmd)[\w-]*)\s*=\s*(.*)$/,
    weak: unpackaged("rootful podman runs"),
  },
  // containers.conf's [engine.runtimes] table: each key is a runtime's name, its value the programs to try.
  {
    file: /^\/(etc|usr\/share)\/containers\/containers\.conf(\.d\/.+)?$/,
    line: /^\s*([\w-]+)\s*=\s*(\[\s*"\/.*)$/,
    weak: unpackaged("rootful podman runs"),
  },
  {
    file: /^\/(etc|usr\/share)\/containers\/registries\.conf(\.d\/.+)?$/,
    line: /^\s*(insecure)\s*=\s*(\S+)/,
    weak: (v) => (yes(v) ? "pulls root's images without checking the registry" : undefined),
  },
  {
    file: /^\/etc\/postfix\/main\.cf$/,
    line: /^\s*(daemon_directory|command_directory|meta_directory|shlib_directory)\s*=\s*(\S+)/,
    weak: unpackaged("postfix's master (root) runs its daemons from"),
  },
  { file: /^\/etc\/lvm\/lvm(local)?\.conf$/, line: /^\s*(\w*executable)\s*=\s*(.*)$/, weak: unpackaged("lvm runs") },
  { file: /^\/etc\/iscsi\/iscsid\.conf$/, line: /^\s*(iscsid\.startup)\s*=\s*(.*)$/ },
  {
    file: /^\/etc\/ansible\/ansible\.cfg$/,
    line: /^\s*(vault_password_file|vault_identity_list)\s*=\s*(.*)$/,
    weak: unpackaged("ansible runs or reads"),
  },
  { file: /^\/etc\/reportbug\.conf$/, line: /^\s*(mta|mua)\s+(.*)$/ },
  // hdparm's `command_line { … }` block runs its lines as root at boot and hotplug; a block is not read here.
  { file: /^\/etc\/hdparm\.conf$/, line: /^\s*(command_line)()/, weak: () => "hdparm runs the block's commands as root" },
  {
    file: MYSQL,
    line: /^\s*(malloc[-_]lib|plugin[-_]dir|ledir|mysqld)\s*=\s*(.*)$/i,
    weak: unpackaged("mysqld loads or runs"),
  },
  // sensible-editor, crontab -e and friends run it for root.
  { file: /^\/root\/\.selected_editor$/, line: /^\s*(SELECTED_EDITOR)\s*=\s*(.*)$/ },
];
