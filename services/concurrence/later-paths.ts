// Files whose content runs later: which paths hold commands that something
// else will run (cron, systemd, a login shell, git, apt, udev, modprobe,
// logrotate, the boot), in which format, as whom and where. A change of such
// a file is judged by its content as the commands it will run (later.ts),
// and only root may own or write what runs as root.
import { posix } from "node:path";
import type { TierNumber } from "../shared/tier.js";
import {
  EVENT_SCRIPT,
  EVENT_SCRIPT_MORE,
  FOREIGN_CODE_MORE,
  FOREIGN_TOOL_CODE,
  MORE_DAEMON_CONFIG,
  MORE_DAEMON_DATA,
  SOURCED_SHELL,
} from "./later-places.js";
import { GRANT_CONFIG, GRANT_FILE } from "./daemon-grants.js";
import { homeOf } from "./paths.js";

export type LaterKind =
  | "crontab" // /etc/crontab, /etc/cron.d: schedule, user, command
  | "user-crontab" // /var/spool/cron: schedule, command (the file's owner runs it)
  | "anacrontab"
  | "shell" // the whole text is sh: scripts, rc and profile files, hooks, at jobs
  | "foreign-code" // csh, fish, Python start-up files: not sh, not judged
  | "unit" // systemd units, drop-ins and manager config, autostart .desktop files
  | "environment" // NAME=value lines read by pam_env or systemd
  | "udev"
  | "modprobe"
  | "logrotate"
  | "apt-conf"
  | "apt-lines" // cron-apt's action.d: apt-get's arguments, one run a line
  | "apt-sources"
  | "sysctl"
  | "tmpfiles"
  | "gitconfig"
  | "nanorc" // nano: speller, linter and formatter commands, includes
  | "account-defaults" // adduser.conf, /etc/default/useradd: the skeleton new homes are copied from, new users' groups
  | "supervisor" // supervisord's ini files: the programs it starts as root
  | "daemon-hooks"; // wg-quick's PostUp, OpenVPN's up/down, (x)inetd's servers, keepalived's notify, rsyncd's exec

export interface Later {
  kind: LaterKind;
  /** The least tier a change there has (0: only what it says decides). */
  floor: TierNumber;
  /** Who runs it ("" for root). */
  runAs: string;
  /** Where it runs, when known. */
  cwd: string | undefined;
  /** It runs as root: only root may own or write it. */
  rootRun: boolean;
}

const SHELL_RC = new Set([
  ".bashrc",
  ".bash_profile",
  ".bash_login",
  ".bash_logout",
  ".profile",
  ".bash_aliases",
  ".zshrc",
  ".zshenv",
  ".zprofile",
  ".zlogin",
  ".zlogout",
  ".kshrc",
  ".mkshrc",
  ".xprofile",
  ".xsessionrc",
  ".xinitrc",
  ".xsession",
]);
const FOREIGN_RC = new Set([".cshrc", ".tcshrc", ".login", ".logout"]);

const SYSTEM_SHELL_FILE =
  /^\/etc\/(profile|bash_completion|bash\.bashrc|bash\.bash_logout|bashrc|zshrc|zprofile|zshenv|zlogin|zlogout|rc\.local|mkshrc|ksh\.kshrc|rc\.conf|xprofile)$/;
const SYSTEM_SHELL_DIR =
  /^\/etc\/(profile\.d|bash_completion\.d|zsh|init\.d|rc[0-6S]\.d|update-motd\.d|default(?!\/grub\.d\/)|zfs\/zed\.d|sysconfig|conf\.d|network\/if-[a-z-]+\.d|NetworkManager\/dispatcher\.d|dhcp\/dhclient-(enter|exit)-hooks\.d|ppp\/ip-[a-z-]+\.d|cron\.(?!d\/)[^/]+)\/./;
/** Programs in root's PATH: `/usr/local/bin/x` runs whenever root types x. */
const PATH_PROGRAM = /^\/(usr\/(local\/)?)?s?bin\/[^/]+$/;
const USER_CRONTAB = /^\/var\/spool\/cron\/(?:crontabs\/|tabs\/)?([^/]+)$/;

/** In a home, what a tool loads as code or instructions: Claude Code's memory, commands and settings, CLI plugins,
 * kubectl's exec credentials, editor and tmux start-up, direnv, readline macros, npx's cache, Maven's mirrors, pyenv, container registries. */
const HOME_CODE =
  /\/(\.claude\/.|\.claude\.json$|\.docker\/cli-plugins\/.|\.kube\/config$|\.vimrc$|\.vim\/.|\.config\/nvim\/.|\.tmux\.conf$|\.config\/tmux\/.|\.config\/direnv\/.|\.direnvrc$|\.inputrc$|\.npm\/_npx\/.|\.m2\/settings\.xml$|\.pyenv\/.|\.config\/containers\/.|\.config\/fish\/.)/;
/**
 * In a home, what its user's tools load as code, a program to start or a
 * package index (npm's node-options and script-shell, cargo's wrappers and
 * runners, pip's index, mail piped to a program, less's filter, psql's and
 * gdb's shell escapes, curl's and wget's defaults, Gradle's init scripts).
 */
const HOME_TOOL_CODE =
  /\/(\.npmrc|\.yarnrc(\.yml)?|\.cargo\/config(\.toml)?|\.config\/pip\/.+|\.pip\/.+|\.pydistutils\.cfg|\.forward|\.lessfilter|\.psqlrc|\.curlrc|\.wgetrc|\.gemrc|\.irbrc|\.gdbinit|\.config\/gdb\/.+|\.screenrc|\.gradle\/(init\.d\/.+|init\.gradle(\.kts)?)|\.mavenrc|\.sqliterc|\.hgrc|\.terraformrc|\.emacs|\.emacs\.d\/.+|\.mailcap|\.less|\.lesskey|\.config\/lesskey)$/;
/**
 * What root's daemons and tools run or obey at an event, in a form not read
 * here: ifupdown's up/down commands, dhclient's script, cloud-init's boot
 * commands and scripts, acpid's actions, the Docker and containerd daemons'
 * configuration (listeners, runtimes, plugins), npm's, pip's and gem's
 * system configuration, tmux's and screen's, X sessions.
 */
const ROOT_EVENT_CODE =
  /^\/(etc\/network\/interfaces(\.d\/.+)?|etc\/dhcp\/dhclient[^/]*\.conf|etc\/cloud\/.+|var\/lib\/cloud\/.+|etc\/acpi\/.+|etc\/docker\/.+|etc\/containerd\/.+|(usr\/(local\/)?)?etc\/npmrc|etc\/pip\.conf|etc\/xdg\/pip\/.+|etc\/gemrc|etc\/fish\/.+|usr\/(local\/)?share\/fish\/vendor_conf\.d\/.+|etc\/tmux\.conf|etc\/screenrc|(usr\/local\/)?etc\/(mailcap|sysless|syslesskey)|etc\/mailcap\.order|etc\/apt\/listchanges\.conf(\.d\/.+)?|etc\/X11\/(Xsession(\.d\/.+)?|xinit\/.+|Xreset\.d\/.+))$/;
/** Sourced by a home's shells: rustup's env, completions, sensible-editor's choice. */
const HOME_SHELL = /\/(\.cargo\/env|\.bash_completion|\.local\/share\/bash-completion\/.+|\.selected_editor)$/;
/** Programs first on a home's PATH. */
const HOME_PROGRAM = /^\/(root|home\/[^/]+)\/(\.local\/bin|\.cargo\/bin|bin)\/[^/]+$/;

/** The owner of the home a path is in, and that home. */
function homeFor(p: string): { user: string; home: string } | undefined {
  if (p === "/root" || p.startsWith("/root/")) return { user: "", home: "/root" };
  const m = /^\/home\/([^/]+)(\/|$)/.exec(p);
  return m?.[1] ? { user: m[1], home: `/home/${m[1]}` } : undefined;
}

function of(kind: LaterKind, p: string, over: Partial<Later> = {}): Later {
  const home = homeFor(p);
  return {
    kind,
    floor: 3,
    runAs: home?.user ?? "",
    cwd: home?.home,
    rootRun: home === undefined || home.user === "",
    ...over,
  };
}

/** monit, Apache, snmpd, the aliases, NetworkManager's VPN plugins, haproxy, syslog-ng, nginx, smartd, mdadm, NUT, dnsmasq, squid, Postfix, exim. */
const DAEMON_CONFIG =
  /^\/etc\/(monit\/.+|monitrc|monit\.d\/.+|apache2\/.+|httpd\/.+|snmp\/snmpd(\.local)?\.conf(\.d\/.+)?|(mail\/)?aliases|NetworkManager\/VPN\/.+|haproxy\/.+|syslog-ng\/.+|nginx\/.+|(smartmontools\/)?smartd\.conf|(mdadm\/)?mdadm\.conf|nut\/.+|dnsmasq\.conf|dnsmasq\.d\/.+|squid\/.+|postfix\/.+|exim4?\/.+)$/;

/** Data those daemons read, not configuration naming programs: postmap's and newaliases' maps, keys and certificates. */
const DAEMON_DATA = /\.(db|lmdb|cdb|dbm|der|crt|cer|key|pem|p12|pfx|csr|gz|bz2|xz|zst)$/;

/** What runs the content of `p` later, and how; undefined for a path whose content nothing runs. */
export function laterKind(p: string): Later | undefined {
  // sshd's options (Debian's SSHD_OPTS, RHEL's and OpenRC's OPTIONS: `-o PermitRootLogin=yes`, review 51) and the boot
  // target: read as shell or a unit link they would pass.
  if (/^\/etc\/(default\/ssh|sysconfig\/sshd|conf\.d\/sshd|systemd\/system\/default\.target|inputrc)$/.test(p))
    return of("foreign-code", p);
  // cron-apt's actions: each line is apt-get's arguments, run as root from cron (review 51: `-o DPkg::Pre-Invoke::=…`).
  if (/^\/etc\/cron-apt\/action\.d\/./.test(p)) return of("apt-lines", p);
  // systemd's own and its daemons' configuration, and drop-ins for every unit of a type: no unit's Exec lines.
  if (
    /^\/etc\/systemd\/([^/]+\.conf$|[^/]+\.conf\.d\/.|network\/.|(system|user)\/(service|socket|timer|target|mount|path|slice|scope|swap|automount|device)\.d\/.)/.test(
      p,
    )
  )
    return of("foreign-code", p);
  // Type-wide drop-ins in the managers' other unit directories (/run, /usr/local/lib, /usr/lib, /lib, *.control, transient).
  if (
    /^\/(etc|run|usr\/local\/lib|usr\/lib|lib)\/systemd\/(system|user|system\.control|user\.control|transient)\/(service|socket|timer|target|mount|path|slice|scope|swap|automount|device)\.d\/./.test(
      p,
    )
  )
    return of("foreign-code", p);
  // New accounts' skeleton and groups; nano's commands (run as whoever edits, root too).
  if (/^\/etc\/(adduser\.conf|default\/useradd)$/.test(p)) return of("account-defaults", p);
  if (/^\/etc\/(supervisor\/(supervisord\.conf|conf\.d\/.+)|supervisord\.conf|supervisord\.d\/.+)$/.test(p))
    return of("supervisor", p, { cwd: "/" });
  if (EVENT_SCRIPT.test(p) || SOURCED_SHELL.test(p) || EVENT_SCRIPT_MORE.test(p)) return of("shell", p, { cwd: "/" });
  if (FOREIGN_TOOL_CODE.test(p) || FOREIGN_CODE_MORE.test(p)) return of("foreign-code", p);
  if (MORE_DAEMON_CONFIG.test(p) && !MORE_DAEMON_DATA.test(p)) return of("daemon-hooks", p, { cwd: "/" });
  if (GRANT_CONFIG.test(p)) return of("daemon-hooks", p, { cwd: "/" });
  if (GRANT_FILE.test(p)) return of("foreign-code", p);
  if (/^\/etc\/(wireguard\/[^/]+\.conf|openvpn\/.+|xinetd\.conf|xinetd\.d\/.+|inetd\.conf|keepalived\/.+|rsyncd\.conf)$/.test(p))
    return of("daemon-hooks", p, { cwd: "/" });
  // Daemons whose configuration names programs they run as root, or modules they load (config-formats DAEMON_HOOKS).
  if (/^\/etc\/apache2\/envvars$/.test(p)) return of("shell", p);
  if (DAEMON_CONFIG.test(p) && !DAEMON_DATA.test(p)) return of("daemon-hooks", p, { cwd: "/" });
  // snmpd's persistent file (read as configuration), apcupsd's, cupsd's files, wget's and mutt's system (and root's) settings.
  if (
    /^\/(var\/lib\/(net-)?snmp\/snmpd\.conf|etc\/apcupsd\/apcupsd\.conf|etc\/cups\/cups(-files|d)\.conf|(etc|run)\/NetworkManager\/system-connections\/.+|(usr\/local\/)?etc\/wgetrc|etc\/Muttrc(\.d\/.+)?|root\/\.muttrc|root\/\.mutt\/.+|root\/\.config\/mutt\/.+)$/.test(
      p,
    )
  )
    return of("daemon-hooks", p, { cwd: "/" });
  // apcupsd's event scripts (apccontrol, onbattery, …), run as root.
  if (/^\/etc\/apcupsd\/[^/]+$/.test(p) && !p.endsWith(".conf")) return of("shell", p, { cwd: "/" });
  if (/^\/(etc\/nanorc|usr\/(local\/)?share\/nano\/.+)$/.test(p) || /\/(\.nanorc|\.config\/nano\/.+)$/.test(p)) return of("nanorc", p);
  const base = posix.basename(p);
  const hook = /^(.*)\/\.git\/hooks\/[^/]+$/.exec(p);
  if (hook) return base.endsWith(".sample") ? undefined : of("shell", p, { cwd: hook[1] || "/", rootRun: false });
  if (/\/\.git\/config$/.test(p)) return of("gitconfig", p, { floor: 0, rootRun: false });
  // A bare repository's (`/srv/x.git/config`): git run there as root obeys it.
  if (/\/[^/]+\.git\/config$/.test(p)) return of("gitconfig", p, { floor: 0, rootRun: false });
  // The system's and root's own: what every git root runs reads (only root may own or write them).
  if (/\/\.gitconfig$|\/\.config\/git\/config$|^\/(usr\/local\/)?etc\/gitconfig$/.test(p)) return of("gitconfig", p, { floor: 0 });
  if (/\/systemd\/[^/]*(generators|shutdown|sleep)[^/]*\/./.test(p)) return of("shell", p, { cwd: "/" });
  if (/\/systemd\/./.test(p) || /\/autostart\/[^/]+\.desktop$/.test(p)) return of("unit", p, homeFor(p) ? {} : { cwd: "/" });
  if (p === "/etc/crontab" || p.startsWith("/etc/cron.d/")) return of("crontab", p, { cwd: "/root" });
  if (p === "/etc/anacrontab") return of("anacrontab", p, { cwd: "/root" });
  if (/^\/var\/spool\/(cron\/(atjobs|atspool)|at)\/./.test(p)) return of("shell", p);
  const user = USER_CRONTAB.exec(p)?.[1];
  if (user !== undefined) {
    const runAs = user === "root" ? "" : user;
    return of("user-crontab", p, { runAs, cwd: homeOf(runAs), rootRun: runAs === "" });
  }
  if (SYSTEM_SHELL_FILE.test(p) || SYSTEM_SHELL_DIR.test(p) || PATH_PROGRAM.test(p)) return of("shell", p);
  if (/^\/etc\/csh\.(cshrc|login|logout)$/.test(p) || /\/\.config\/fish\/./.test(p) || FOREIGN_RC.has(base)) return of("foreign-code", p);
  // Every Python start imports .pth (lines starting with `import` run) and *customize; any module there is code whoever imports it runs.
  if (/\/(site|dist)-packages\/./.test(p)) return of("foreign-code", p);
  // What an agent or a tool loads as code or instructions from a home: not sh, not judged.
  if (HOME_CODE.test(p) || HOME_TOOL_CODE.test(p) || ROOT_EVENT_CODE.test(p)) return of("foreign-code", p);
  if (/\/\.git\/modules\/.+\/config$/.test(p)) return of("gitconfig", p, { floor: 0, rootRun: false });
  const bareHook = /^(.*)\/(\.git\/modules\/.+|[^/]+\.git)\/hooks\/[^/]+$/.exec(p);
  if (bareHook) return base.endsWith(".sample") ? undefined : of("shell", p, { cwd: bareHook[1] || "/", rootRun: false });
  if (HOME_SHELL.test(p)) return of("shell", p);
  if (HOME_PROGRAM.test(p)) return of("shell", p);
  if (SHELL_RC.has(base) || /\/\.bashrc\.d\/[^/]+$/.test(p)) return of("shell", p);
  if (p === "/etc/environment" || base === ".pam_environment" || /\/environment\.d\/[^/]+$/.test(p)) return of("environment", p);
  if (/^\/etc\/apt\/apt\.conf(\.d\/.+)?$/.test(p)) return of("apt-conf", p);
  if (/^\/etc\/apt\/sources\.list(\.d\/.+)?$/.test(p)) return of("apt-sources", p);
  if (/^\/etc\/logrotate\.(conf|d\/.+)$/.test(p)) return of("logrotate", p);
  if (/\/udev\/rules\.d\/./.test(p)) return of("udev", p);
  if (/\/modprobe\.d\/./.test(p) || p === "/etc/modprobe.conf") return of("modprobe", p);
  if (/\/sysctl\.d\/./.test(p) || p === "/etc/sysctl.conf") return of("sysctl", p);
  if (/\/tmpfiles\.d\/./.test(p)) return of("tmpfiles", p);
  if (/^\/usr\/share\/bash-completion\/./.test(p)) return of("shell", p);
  if (ROOT_CODE.test(p)) return of("foreign-code", p);
  return undefined;
}

/** Code or trust root's tools load, in no format the concurrence reads: maintainer scripts, libraries and modules,
 * OpenSSL, CA certificates, APT keys and pins, D-Bus, initramfs, pam-auth-update, git templates, vim, rsyslog,
 * audit and firewall rules, sshd's and grub's defaults, the default boot target, the alternatives. */
const ROOT_CODE = new RegExp(
  "^/(" +
    [
      "var/lib/dpkg/info/[^/]+\\.(preinst|postinst|prerm|postrm|config|triggers)$",
      "etc/dpkg/dpkg\\.cfg($|\\.d/.)",
      "etc/perl/.",
      "usr/(local/)?share/perl5?/.",
      "etc/python[^/]*/.",
      "(usr/(local/)?)?lib(32|64|x32|exec)?/.",
      "etc/ssl/(openssl\\.cnf($|\\.d/.)|certs/.)",
      "usr/(local/)?share/ca-certificates/.",
      "etc/ca-certificates(\\.conf$|/.)",
      "etc/pki/.",
      "etc/apt/(trusted\\.gpg($|\\.d/.)|keyrings/.|preferences($|\\.d/.))",
      "usr/share/keyrings/.",
      "(etc|usr/share)/dbus-1/.",
      "(etc|usr/share)/initramfs-tools/.",
      "usr/share/pam-configs/.",
      "usr/share/git-core/templates/.",
      "(etc|usr/share)/vim/.",
      "etc/(needrestart|networkd-dispatcher|audit|iptables|ufw|fail2ban|rsyslog\\.d|alternatives)/.",
      "etc/(rsyslog\\.conf|nftables\\.conf|default/ssh)$",
      "etc/default/grub\\.d/.",
      // Review 51: neovim's system start-up and runtime (root's nvim), binfmt-support's formats (imported at boot:
      // an interpreter for matching files, with the caller's credentials when asked), audisp's plugins (run by auditd),
      // p11-kit's vendor modules (loaded into TLS clients).
      "(etc/xdg|usr/(local/)?share)/nvim/.",
      "(usr/share|var/lib)/binfmts/.",
      "etc/audisp/.",
      "usr/(local/)?share/p11-kit/modules/.",
      // The loader's cache, the kernel's command line, SELinux policy, man's programs (DEFINE pager …), emacs', gdb's and mc's
      // start-up, node's, ruby's, lua's and PHP's system module directories.
      "etc/(ld\\.so\\.cache|kernel/cmdline|manpath\\.config|man_db\\.conf)$",
      "etc/(selinux|emacs|gdb|mc)/.",
      "usr/(local/)?share/(emacs/site-lisp|lua)/.",
      "usr/share/(nodejs|rubygems-integration|php)/.",
      "var/lib/gems/.",
      // What root's daemons run or trust at the next event: the initramfs systemd-shutdown runs as PID 1, the users and
      // group memberships systemd-sysusers makes (`m agent sudo`), incron's tables.
      "run/initramfs/.",
      "(etc|run)/sysusers\\.d/.",
      "etc/incron\\.(d/.|allow$)",
      "var/spool/incron/.",
      "etc/systemd/system/default\\.target$",
    ].join("|") +
    ")",
);

/** What runs the entries of directory `dir` later (cron.d, profile.d, a PATH directory, a unit directory …). */
export function laterKindInside(dir: string): Later | undefined {
  return laterKind(`${dir === "/" ? "" : dir}/x`);
}

/** A directory whose entries run as root later. */
export function holdsRootRun(dir: string): boolean {
  return laterKindInside(dir)?.rootRun === true;
}
