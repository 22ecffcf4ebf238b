// Settings that hand root, or a root-equivalent write, to whoever reaches a network service or sits at the console
// (review 50 §2, §3). These files run no code, so the runs-later readers found nothing in them, yet one key gives
// the host away: a Samba share of /etc forced to root for guests, an rsync module of / run as uid 0 with no auth,
// mysqld as root with no grant tables (`SELECT … INTO OUTFILE '/etc/cron.d/x'`), pg_hba's trust, nomad's raw_exec,
// consul's script checks, redis modules, anonymous FTP writes, LDAP without certificate checks or writable by anyone,
// a display manager logging root in. Each file has everyday benign edits (a share, a tuning value), so it is read
// by key rather than refused whole; the files with none are refused in runs-later-grants.ts.
import { PACKAGED } from "./packaged.js";
import { iniSections, YES } from "./ini-sections.js";
import { comment, lines, type Mark, mark } from "./runs-later-content.js";

const ROOT = /^(?:root|0)$/;
/** Trees whose write by others is root's code or trust: /, configuration, programs, root's home, spools and state. */
const SYSTEM_TREE = /^\/+(?:$|(?:etc|usr|root|boot|bin|sbin|lib\w*|opt|var\/lib|var\/spool)(?:\/|$))/;

const SAMBA = /^\/etc\/samba\/[^/]+\.conf$/;
const RSYNCD = /^\/etc\/rsyncd\.conf$|^\/etc\/rsyncd\.d\/.+\.conf$/;
const MYSQL = /^\/etc\/(?:mysql\/.+\.cnf|my\.cnf|my\.cnf\.d\/.+\.cnf)$/;
const PG_HBA = /^\/(?:etc|var\/lib)\/.+\/pg_hba\.conf$/;
const NOMAD = /^\/etc\/nomad(?:\.d)?\/.+\.(?:hcl|json)$/;
const CONSUL = /^\/etc\/consul(?:\.d)?\/.+\.(?:hcl|json)$/;
const REDIS = /^\/etc\/redis(?:\/.+)?\.conf$/;
const VSFTPD = /^\/etc\/vsftpd(?:\.conf|\/.+\.conf)$/;
const FTPUSERS = /^\/etc\/(?:ftpusers|vsftpd\.ftpusers|vsftpd\/ftpusers)$/;
const SLAPD = /^\/etc\/(?:ldap|openldap)\/(?:slapd\.conf|.+\.ldif)$/;
const LDAP_CLIENT = /^\/etc\/(?:ldap|openldap)\/ldap\.conf$/;
const LIGHTDM = /^\/etc\/lightdm\/.+\.conf$/;
const SDDM = /^\/etc\/sddm\.conf(?:\.d\/.+)?$/;
const GDM = /^\/etc\/gdm3?\/[^/]+\.conf$/;
const XWRAPPER = /^\/etc\/X11\/Xwrapper\.config$/;

/** Files read here, and whether a change with its content not given is refused (a file padded past 64 KiB). */
export function accessFile(path: string): { unseen: boolean } | null {
  if (REDIS.test(path)) return { unseen: false };
  const known = [SAMBA, RSYNCD, MYSQL, PG_HBA, NOMAD, CONSUL, VSFTPD, FTPUSERS, SLAPD, LDAP_CLIENT, LIGHTDM, SDDM, GDM, XWRAPPER];
  return known.some((r) => r.test(path)) ? { unseen: true } : null;
}

function samba(text: string): Mark[] {
  const out: Mark[] = [];
  const sections = iniSections(text);
  const global = sections.find((s) => s.name.toLowerCase() === "global")?.keys;
  for (const { name, keys } of sections) {
    const get = (k: string) => keys.get(k) ?? global?.get(k);
    for (const k of ["force_user", "force_group", "guest_account"])
      if (ROOT.test(keys.get(k) ?? "")) out.push(mark(4, `[${name}] ${k.replace(/_/g, " ")} = root: clients act as root on the share`));
    if ((keys.get("admin_users") ?? "") !== "") out.push(mark(4, `[${name}] admin users: those users act as root on the share`));
    const path = keys.get("path") ?? "";
    const guest = YES.test(get("guest_ok") ?? get("public") ?? "") || YES.test(get("guest_only") ?? "");
    const writable =
      YES.test(get("writable") ?? get("writeable") ?? get("write_ok") ?? "") || /^(?:no|false|0)$/i.test(get("read_only") ?? "");
    if (guest && writable && SYSTEM_TREE.test(path))
      out.push(mark(4, `[${name}] path = ${path}, writable by guests: anyone on the network writes root's tree`));
  }
  return out;
}

function rsyncd(text: string): Mark[] {
  const out: Mark[] = [];
  const [global, ...modules] = iniSections(text);
  for (const { name, keys } of modules) {
    const get = (k: string) => keys.get(k) ?? global?.keys.get(k);
    const uid = get("uid") ?? "";
    const auth = (get("auth_users") ?? "") !== "";
    const path = keys.get("path") ?? "";
    const writable = /^(?:no|false|0)$/i.test(get("read_only") ?? "yes");
    if (ROOT.test(uid) && !auth) out.push(mark(4, `[${name}] uid = ${uid} with no auth users: anyone on the network acts as root`));
    else if (writable && SYSTEM_TREE.test(path) && (ROOT.test(uid) || !auth))
      out.push(
        mark(4, `[${name}] path = ${path}, writable${auth ? " as root" : " with no auth users"}: root's tree written from the network`),
      );
  }
  return out;
}

/** mysqld's and its wrappers' sections (mysqld_safe reads malloc-lib, ledir, mysqld). */
const MYSQL_SERVER = /^(?:mysqld|mariadbd?|server|galera|mysqld_safe|mariadbd?[-_]safe|mysqld_multi|embedded)(?:[-_.].*)?$/i;

function mysql(text: string): Mark[] {
  const out: Mark[] = [];
  for (const { name, keys } of iniSections(text)) {
    if (!MYSQL_SERVER.test(name)) continue;
    for (const [raw, value] of keys) {
      const key = raw.replace(/^loose_/, "");
      if (key === "user" && ROOT.test(value)) out.push(mark(4, `[${name}] user = root: the server, and every INTO OUTFILE, runs as root`));
      else if (key === "skip_grant_tables" && !/^(?:0|off|false)$/i.test(value))
        out.push(mark(4, `[${name}] skip-grant-tables: anyone who connects is the database's superuser`));
      else if (key === "secure_file_priv" && value === "")
        out.push(mark(4, `[${name}] secure_file_priv empty: the server reads and writes files anywhere it may`));
      else if (
        /^(?:plugin_dir|malloc_lib|ledir|mysqld|init_file|wsrep_notify_cmd|wsrep_provider)$/.test(key) &&
        value.includes("/") &&
        !PACKAGED.test(value)
      )
        out.push(mark(4, `[${name}] ${key} = ${value}: code or commands the server loads from outside the packaged trees`));
      else if (/^(?:plugin_load|plugin_load_add|early_plugin_load)$/.test(key) && value.includes("/"))
        out.push(mark(4, `[${name}] ${key} = ${value}: a plugin by path`));
    }
  }
  return out;
}

function pgHba(text: string): Mark[] {
  return lines(text)
    .filter((l) => !comment(l) && /(?:^|\s)trust(?:\s|$)/.test(l))
    .map((l) => mark(4, `${l.trim()}: trust logs in without a password, as any database user (the superuser too)`));
}

function nomad(text: string): Mark[] {
  const out: Mark[] = [];
  if (/raw_exec/.test(text) && /\benabled"?\s*[=:]\s*true\b/.test(text))
    out.push(mark(4, "raw_exec enabled: every job's commands run unconfined as the client, root"));
  if (/\ballow_privileged"?\s*[=:]\s*true\b/.test(text)) out.push(mark(4, "allow_privileged: jobs' containers get the host"));
  return out;
}

function consul(text: string): Mark[] {
  const out: Mark[] = [];
  if (/\benable_(?:local_)?script_checks"?\s*[=:]\s*true\b/.test(text))
    out.push(mark(4, "enable_script_checks: whoever may register a check runs commands as the agent"));
  if (/(?:^|[\s{,])"?(?:args|script|handler)"?\s*[=:]/m.test(text)) out.push(mark(4, "a check or watch that runs a command as the agent"));
  return out;
}

function redis(text: string): Mark[] {
  const out: Mark[] = [];
  const settings = lines(text).filter((l) => !comment(l));
  const value = (k: string) =>
    settings
      .map((l) => new RegExp(`^\\s*${k}\\s+(.*)$`, "i").exec(l)?.[1]?.trim())
      .filter(Boolean)
      .pop();
  if (settings.some((l) => /^\s*loadmodule\s/i.test(l))) out.push(mark(4, "loadmodule: code the server loads"));
  for (const k of ["enable-module-command", "enable-debug-command", "enable-protected-configs"])
    if (/^"?(?:yes|local)"?$/i.test(value(k) ?? "")) out.push(mark(4, `${k}: lets clients load code or rewrite where the server writes`));
  if (/^no$/i.test(value("protected-mode") ?? "") && !value("requirepass"))
    out.push(mark(4, "protected-mode no without requirepass: anyone who connects rewrites the server's files"));
  return out;
}

function vsftpd(text: string): Mark[] {
  const out: Mark[] = [];
  for (const l of lines(text)) {
    const m = /^\s*(anon_upload_enable|anon_mkdir_write_enable|anon_other_write_enable|chown_username)\s*=\s*(\S+)/i.exec(l);
    if (m && (YES.test(m[2] as string) || ROOT.test(m[2] as string)))
      out.push(mark(4, `${m[1]}=${m[2]}: anonymous clients write the server's files${ROOT.test(m[2] as string) ? " as root" : ""}`));
  }
  return out;
}

function ftpusers(text: string): Mark[] {
  const names = lines(text).map((l) => l.trim());
  return names.includes("root") ? [] : [mark(4, "root is no longer denied FTP logins")];
}

function slapd(text: string): Mark[] {
  const hit = /\bby\s+(?:\*|anonymous|users)\s+(?:write|manage|[=+][a-z]*w)/i.exec(text);
  return hit ? [mark(4, `${hit[0]}: anyone may change the directory (its users, groups and sudo rules)`)] : [];
}

function ldapClient(text: string): Mark[] {
  const m = /^\s*TLS_REQCERT\s+(never|allow|try)\b/im.exec(text);
  return m ? [mark(4, `TLS_REQCERT ${m[1]}: whoever answers for the directory supplies users, groups and passwords`)] : [];
}

/** A display manager's autologin as root, or X run as root for anybody. */
function console_(path: string, text: string): Mark[] {
  const out: Mark[] = [];
  for (const { name, keys } of iniSections(text)) {
    const autologin = LIGHTDM.test(path)
      ? keys.get("autologin_user")
      : SDDM.test(path)
        ? name.toLowerCase() === "autologin"
          ? keys.get("user")
          : undefined
        : (keys.get("automaticlogin") ?? keys.get("timedlogin"));
    if (autologin !== undefined && ROOT.test(autologin)) out.push(mark(4, `[${name}] logs root in at the console with no password`));
  }
  if (XWRAPPER.test(path) && /^\s*needs_root_rights\s*=\s*yes/im.test(text) && /^\s*allowed_users\s*=\s*anybody/im.test(text))
    out.push(mark(4, "needs_root_rights with allowed_users=anybody: any user starts the X server as root"));
  return out;
}

/** The marks of a settings file read here (accessFile), its text given. */
export function accessMarks(path: string, text: string): Mark[] {
  if (SAMBA.test(path)) return samba(text);
  if (RSYNCD.test(path)) return rsyncd(text);
  if (MYSQL.test(path)) return mysql(text);
  if (PG_HBA.test(path)) return pgHba(text);
  if (NOMAD.test(path)) return nomad(text);
  if (CONSUL.test(path)) return consul(text);
  if (REDIS.test(path)) return redis(text);
  if (VSFTPD.test(path)) return vsftpd(text);
  if (FTPUSERS.test(path)) return ftpusers(text);
  if (SLAPD.test(path)) return slapd(text);
  if (LDAP_CLIENT.test(path)) return ldapClient(text);
  if (LIGHTDM.test(path) || SDDM.test(path) || GDM.test(path) || XWRAPPER.test(path)) return console_(path, text);
  return [];
}
