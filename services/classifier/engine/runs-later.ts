// Files whose content runs later: which paths they are, in what format their
// content is read, and whether what they run runs as root. The manifest judge
// (manifest-effects.ts) judges such a file by its content as the commands it
// will run; this module only names them. Pure string work, like paths.ts.
import picomatch from "picomatch";
import { inside, scratch, systemPath } from "./paths.js";
import { FIRST_PLACES, MORE_PLACES } from "./runs-later-places.js";
import { GRANT_PLACES } from "./runs-later-grants.js";
import { LOADER_PLACES } from "./runs-later-loaders.js";

/** How the content of a runs-later file is read (runs-later-content.ts). */
export type Format =
  | "refuse" // any change is tier 4: content does not matter
  | "script" // run as a program: shebang, shell text judged as code
  | "program" // an executable on root's PATH: like script, only when executable
  | "rc" // sourced by a shell: whole text as code, alias bodies as code
  | "environment" // NAME=VALUE read into every session
  | "cron" // /etc/crontab format: 5 time fields, a user, a command
  | "user-crontab" // crontab(5): 5 time fields, a command
  | "anacrontab"
  | "systemd" // unit, timer, drop-in: Exec*= values; executables there are scripts
  | "apt" // apt.conf: *::Pre-Invoke / Post-Invoke / Pre-Install-Pkgs values
  | "logrotate" // prerotate … endscript scripts
  | "udev" // RUN+= / PROGRAM= / IMPORT{program}= values
  | "modprobe" // install / remove commands
  | "authorized-keys" // command= and environment= options
  | "ld-so-conf" // library directories every program searches
  | "tmpfiles" // files systemd-tmpfiles creates, writes, links or removes at every boot
  | "sysctl" // programs the kernel runs (core_pattern |…, modprobe, poweroff_cmd)
  | "binfmt" // interpreters the kernel runs for matching files
  | "apt-sources" // package sources: what root installs later
  | "gitconfig" // git configuration: the programs git starts (fsmonitor, pager, hooksPath, aliases with !, filters …)
  | "nanorc" // nano's configuration: speller, linter and formatter commands, includes
  | "account-defaults" // adduser.conf, /etc/default/useradd: where new homes are copied from, groups new users join
  | "supervisor" // supervisord's programs (command=, directory=, environment=), started as root
  | "service-hooks"; // daemons' hook lines: wg-quick's PostUp, OpenVPN's up/down, (x)inetd's servers, keepalived's notify, rsyncd's exec

export interface RunsLater {
  format: Format;
  /** What the file is, for the verdict's reason. */
  what: string;
  /** What it runs runs as root (not as the owner of a home, a repository or a user crontab). */
  asRoot: boolean;
}

export interface Entry {
  globs: string[];
  format: Format;
  what: string;
  /** "user": runs as whoever owns it (a home, a repository, a user crontab) — as root under /root. */
  runsAs: "root" | "user";
  ignore?: string[];
}

/** Directories on root's PATH: a program added or replaced here is what root runs by that name. */
export const ROOT_PATH = ["/usr/local/sbin", "/usr/local/bin", "/usr/sbin", "/usr/bin", "/sbin", "/bin"];

// First match wins: the specific entries come before the wide ones.
const TABLE: Entry[] = [
  ...FIRST_PLACES,
  ...GRANT_PLACES,
  ...LOADER_PLACES,
  { format: "refuse", runsAs: "root", what: "the dynamic loader's preload list: code every program loads", globs: ["/etc/ld.so.preload"] },
  {
    format: "refuse",
    runsAs: "root",
    what: "sshd's options, the default boot target, readline's macros for every shell, systemd's own and its daemons' configuration (limits and environment of every unit, journald, networkd, resolved), drop-ins for every unit of a type",
    globs: [
      "/etc/default/ssh",
      "/etc/systemd/system/default.target",
      "/etc/inputrc",
      "/etc/systemd/*.conf",
      "/etc/systemd/*.conf.d/**",
      "/root/.config/systemd/*.conf",
      "/root/.config/systemd/*.conf.d/**",
      "/etc/systemd/network/**",
      // Type-wide drop-ins (`service.d/*.conf` applies to every service) in each of the managers' unit directories.
      "/etc/systemd/@(system|user|system.control|user.control)/@(service|socket|timer|target|mount|path|slice|scope|swap|automount|device).d/**",
      "/run/systemd/@(system|user|system.control|user.control|transient)/@(service|socket|timer|target|mount|path|slice|scope|swap|automount|device).d/**",
      "/usr/local/lib/systemd/@(system|user)/@(service|socket|timer|target|mount|path|slice|scope|swap|automount|device).d/**",
      "/usr/lib/systemd/@(system|user)/@(service|socket|timer|target|mount|path|slice|scope|swap|automount|device).d/**",
      "/lib/systemd/@(system|user)/@(service|socket|timer|target|mount|path|slice|scope|swap|automount|device).d/**",
    ],
  },
  {
    format: "refuse",
    runsAs: "root",
    what: "sudo's (or doas') rules and plugins",
    globs: ["/etc/sudoers", "/etc/sudoers.d/**", "/etc/sudo.conf", "/etc/doas.conf"],
  },
  { format: "refuse", runsAs: "root", what: "PAM's configuration (pam_exec runs programs at every login)", globs: ["/etc/pam.d/**"] },
  {
    format: "refuse",
    runsAs: "root",
    what: "fish's and csh's start-up files (config.fish, conf.d, csh.cshrc: every such shell runs them, root's too), in a syntax not read here",
    globs: [
      "/etc/fish/**",
      "/usr/share/fish/vendor_conf.d/**",
      "/usr/local/share/fish/vendor_conf.d/**",
      "/etc/csh.cshrc",
      "/etc/csh.login",
      "/etc/csh.logout",
    ],
  },
  {
    format: "refuse",
    runsAs: "user",
    what: "a home's fish or csh start-up files, in a syntax not read here",
    globs: ["**/.config/fish/**", "**/.cshrc", "**/.tcshrc", "**/.login", "**/.logout"],
  },
  {
    format: "refuse",
    runsAs: "root",
    what: "programs root's tools start for a file or a package, in forms not read here (mailcap's viewers, less's input preprocessor and key bindings, apt-listchanges' configuration)",
    globs: [
      "/etc/mailcap",
      "/etc/mailcap.order",
      "/usr/local/etc/mailcap",
      "/etc/sysless",
      "/etc/syslesskey",
      "/usr/local/etc/sysless",
      "/usr/local/etc/syslesskey",
      "/etc/apt/listchanges.conf",
      "/etc/apt/listchanges.conf.d/**",
    ],
  },
  {
    format: "refuse",
    runsAs: "user",
    what: "programs a user's tools start for a file (mailcap's viewers, less's input preprocessor and key bindings), in forms not read here",
    globs: ["**/.mailcap", "**/.less", "**/.lesskey", "**/.config/lesskey"],
  },
  {
    format: "account-defaults",
    runsAs: "root",
    what: "what new accounts get (the skeleton their home is copied from, the groups they join)",
    globs: ["/etc/adduser.conf", "/etc/default/useradd"],
  },
  {
    format: "nanorc",
    runsAs: "root",
    what: "nano's configuration (its speller, linter and formatter run as whoever edits)",
    globs: ["/etc/nanorc", "/usr/share/nano/**", "/usr/local/share/nano/**"],
  },
  { format: "nanorc", runsAs: "user", what: "a user's nano configuration", globs: ["**/.nanorc", "**/.config/nano/**"] },
  {
    format: "refuse",
    runsAs: "root",
    what: "polkit rules: who may act as root",
    globs: [
      // rules.d, localauthority.conf.d (AdminIdentities=), actions' defaults (allow_any).
      "/etc/polkit-1/**",
      "/usr/share/polkit-1/**",
      "/var/lib/polkit-1/**",
      // polkit 125 and later read these too.
      "/run/polkit-1/**",
      "/usr/local/share/polkit-1/**",
      "/etc/polkit-1/localauthority/**",
      "/var/lib/polkit-1/localauthority/**",
    ],
  },
  {
    format: "refuse",
    runsAs: "root",
    what: "what the loader, the boot, logins, root's tools and the access-control policy trust, in forms not read here (the loader's cache, the kernel's command line, grub's scripts, the EFI partition, subordinate ids, PAM's and login's tables, sshd's keys and CAs, the ssh client's ProxyCommand and Match exec, AppArmor and SELinux policy, man's programs, emacs', gdb's and mc's start-up, node's, ruby's, lua's and PHP's system module directories)",
    globs: [
      "/etc/ld.so.cache",
      "/etc/kernel/cmdline",
      "/etc/grub.d/**",
      "/efi/**",
      "/etc/subuid",
      "/etc/subgid",
      "/etc/pam.conf",
      "/etc/securetty",
      "/etc/shells",
      // sshd's trusted CA keys, revoked keys and host keys, the ssh client's configuration and known hosts (sshrc is read below).
      "/etc/ssh/!(sshrc)",
      "/etc/ssh/*/**",
      "/root/.ssh/**",
      "/etc/apparmor/**",
      "/etc/apparmor.d/**",
      "/etc/selinux/**",
      "/etc/manpath.config",
      "/etc/man_db.conf",
      "/etc/emacs/**",
      "/usr/share/emacs/site-lisp/**",
      "/usr/local/share/emacs/site-lisp/**",
      "/etc/gdb/**",
      "/etc/mc/**",
      "/usr/share/nodejs/**",
      "/var/lib/gems/**",
      "/usr/share/rubygems-integration/**",
      "/usr/share/lua/**",
      "/usr/local/share/lua/**",
      "/usr/share/php/**",
    ],
  },
  { format: "refuse", runsAs: "root", what: "the agent's hook settings", globs: ["**/.claude/settings*.json"] },
  {
    format: "refuse",
    runsAs: "root",
    what: "what root's daemons run or trust at the next event: the initramfs systemd-shutdown runs as PID 1, users and groups systemd-sysusers makes, sudo's timestamps (sudo without a password), incron's tables, at jobs",
    globs: [
      "/run/initramfs/**",
      "/etc/sysusers.d/**",
      "/run/sysusers.d/**",
      "/run/sudo/**",
      "/var/run/sudo/**",
      "/var/lib/sudo/**",
      "/var/db/sudo/**",
      "/etc/incron.d/**",
      "/etc/incron.allow",
      "/var/spool/incron/**",
      "/var/spool/at/**",
    ],
  },
  {
    format: "refuse",
    runsAs: "user",
    what: "what an agent or a tool loads as code or instructions (Claude Code's memory and commands, CLI plugins, kubectl's exec credentials, editor and tmux start-up, direnv, npx's cache, Maven's mirrors, pyenv, container registries)",
    globs: [
      "**/.claude/**",
      "**/.claude.json",
      "**/.docker/cli-plugins/**",
      "**/.kube/config",
      "**/.vimrc",
      "**/.vim/**",
      "**/.config/nvim/**",
      "**/.tmux.conf",
      "**/.config/tmux/**",
      "**/.config/direnv/**",
      "**/.direnvrc",
      "**/.inputrc",
      "**/.npm/_npx/**",
      "**/.m2/settings.xml",
      "**/.pyenv/**",
      "**/.config/containers/**",
    ],
  },
  {
    format: "refuse",
    runsAs: "user",
    what: "what a user's tools load as code, a program to start or a package index (npm's node-options and script-shell, cargo's wrappers, pip's index, mail piped to a program, less's filter, psql's and gdb's shell escapes, curl's and wget's defaults, Gradle's init scripts)",
    globs: [
      "**/.npmrc",
      "**/.yarnrc",
      "**/.yarnrc.yml",
      "**/.cargo/config",
      "**/.cargo/config.toml",
      "**/.config/pip/**",
      "**/.pip/**",
      "**/.pydistutils.cfg",
      "**/.forward",
      "**/.lessfilter",
      "**/.psqlrc",
      "**/.curlrc",
      "**/.wgetrc",
      "**/.gemrc",
      "**/.irbrc",
      "**/.gdbinit",
      "**/.config/gdb/**",
      "**/.screenrc",
      "**/.gradle/init.d/**",
      "**/.gradle/init.gradle?(.kts)",
      "**/.mavenrc",
      "**/.sqliterc",
      "**/.hgrc",
      "**/.terraformrc",
      "**/.emacs",
      "**/.emacs.d/**",
    ],
  },
  {
    format: "refuse",
    runsAs: "root",
    what: "what root's daemons and tools run or obey at an event (ifupdown's up/down commands, dhclient's script, cloud-init's boot commands and scripts, acpid's actions, the Docker and containerd daemons' listeners and runtimes, npm's, pip's and gem's system configuration, tmux's and screen's, X sessions)",
    globs: [
      "/etc/network/interfaces",
      "/etc/network/interfaces.d/**",
      "/etc/dhcp/dhclient*.conf",
      "/etc/cloud/**",
      "/var/lib/cloud/**",
      "/etc/acpi/**",
      "/etc/docker/**",
      "/etc/containerd/**",
      "/etc/npmrc",
      "/usr/etc/npmrc",
      "/usr/local/etc/npmrc",
      "/etc/pip.conf",
      "/etc/xdg/pip/**",
      "/etc/gemrc",
      "/etc/tmux.conf",
      "/etc/screenrc",
      "/etc/X11/Xsession",
      "/etc/X11/Xsession.d/**",
      "/etc/X11/xinit/**",
      "/etc/X11/Xreset.d/**",
    ],
  },
  { format: "systemd", runsAs: "root", what: "an autostart entry of every desktop session", globs: ["/etc/xdg/autostart/*.desktop"] },
  { format: "systemd", runsAs: "user", what: "an autostart entry of a desktop session", globs: ["**/.config/autostart/*.desktop"] },
  {
    format: "refuse",
    runsAs: "root",
    what: "Python's library directories (every module there is code whoever imports it runs; it is not shell, so it is not judged)",
    globs: ["**/site-packages/**", "**/dist-packages/**"],
  },
  {
    format: "refuse",
    runsAs: "root",
    what: "root's authorized SSH keys: a login as root",
    globs: ["/root/.ssh/authorized_keys", "/root/.ssh/authorized_keys2"],
  },
  {
    format: "gitconfig",
    runsAs: "root",
    what: "git's system configuration (programs every git starts)",
    globs: ["/etc/gitconfig", "/usr/local/etc/gitconfig"],
  },
  {
    format: "gitconfig",
    runsAs: "user",
    what: "a user's git configuration (programs their git starts)",
    globs: ["/@(root|home/*)/.gitconfig", "/@(root|home/*)/.config/git/config"],
  },
  { format: "cron", runsAs: "root", what: "a system crontab", globs: ["/etc/crontab", "/etc/cron.d/*"] },
  { format: "anacrontab", runsAs: "root", what: "anacron's table", globs: ["/etc/anacrontab"] },
  {
    format: "script",
    runsAs: "root",
    what: "a script run by cron, at boot, at login or on a network or kernel event",
    globs: [
      "/etc/cron.hourly/*",
      "/etc/cron.daily/*",
      "/etc/cron.weekly/*",
      "/etc/cron.monthly/*",
      "/etc/cron.yearly/*",
      "/etc/rc.local",
      "/etc/init.d/*",
      "/etc/rc[0-6S].d/*",
      "/etc/update-motd.d/*",
      "/etc/NetworkManager/dispatcher.d/**",
      "/etc/network/if-*.d/*",
      "/etc/ppp/ip-*.d/*",
      "/etc/kernel/*.d/**",
      "/etc/dhcp/dhclient-*-hooks.d/*",
      "/etc/apcupsd/!(*.conf)",
      "/etc/sysconfig/network-scripts/*",
      "/etc/zfs/zed.d/*",
      "/var/spool/cron/atjobs/*",
      "/etc/ssh/sshrc",
    ],
  },
  { format: "script", runsAs: "user", what: "a script run at every SSH login", globs: ["**/.ssh/rc"] },
  { format: "user-crontab", runsAs: "user", what: "a user's crontab", globs: ["/var/spool/cron/**"] },
  {
    format: "script",
    runsAs: "user",
    what: "a git hook",
    globs: ["**/.git/hooks/**", "**/.husky/**", "**/.git/modules/**/hooks/**", "**/*.git/hooks/**"],
  },
  {
    format: "gitconfig",
    runsAs: "user",
    what: "a repository's git configuration (programs git starts in it: fsmonitor, pager, aliases, hooksPath …)",
    globs: ["**/.git/config", "**/.git/modules/**/config", "**/*.git/config"],
  },
  {
    format: "systemd",
    runsAs: "root",
    what: "systemd configuration (units, timers, drop-ins, generators)",
    globs: ["**/systemd/**"],
    // systemd's own state, not configuration: what it records, not what it runs.
    ignore: [
      "/var/lib/systemd/**",
      "/run/systemd/!(system|user|transient|generator|generator.early|generator.late)/**",
      "/run/systemd/!(system|user|transient|generator|generator.early|generator.late)",
    ],
  },
  {
    format: "rc",
    runsAs: "root",
    what: "a shell start-up file of every login",
    globs: [
      "/etc/profile",
      "/etc/profile.d/**",
      "/etc/bash.bashrc",
      "/etc/bash.bash_logout",
      "/etc/zsh*",
      "/etc/zsh/**",
      "/etc/mkshrc",
      "/etc/ksh.kshrc",
      "/etc/bash_completion",
      "/etc/bash_completion.d/**",
      "/etc/default/*",
      // RHEL's and OpenRC's /etc/default: sourced by init scripts and loaded by units.
      "/etc/sysconfig/*",
      "/etc/conf.d/*",
      // OpenRC's rc.conf, display managers' xprofile, apache2ctl's envvars: sourced as shell.
      "/etc/rc.conf",
      "/etc/xprofile",
      "/etc/apache2/envvars",
    ],
  },
  {
    format: "rc",
    runsAs: "user",
    what: "a shell start-up file",
    globs: [
      "**/.bashrc",
      "**/.profile",
      "**/.bash_profile",
      "**/.bash_login",
      "**/.bash_logout",
      "**/.zshrc",
      "**/.zprofile",
      "**/.zshenv",
      "**/.zlogin",
      "**/.zlogout",
      "**/.bash_aliases",
      "**/.bash_completion",
      "**/.local/share/bash-completion/**",
      "**/.bashrc.d/**",
      "**/.cargo/env",
      "**/.selected_editor",
      "**/.kshrc",
      "**/.mkshrc",
      "**/.xprofile",
      "**/.xsessionrc",
      "**/.xinitrc",
      "**/.xsession",
    ],
  },
  {
    format: "environment",
    runsAs: "root",
    what: "the environment of every session",
    globs: ["/etc/environment", "/etc/environment.d/*", "/run/environment.d/*"],
  },
  {
    format: "environment",
    runsAs: "user",
    what: "a user's session environment",
    globs: ["**/.pam_environment", "**/.config/environment.d/*"],
  },
  {
    format: "apt",
    runsAs: "root",
    what: "APT's configuration (its hooks run as root)",
    globs: ["/etc/apt/apt.conf", "/etc/apt/apt.conf.d/*"],
  },
  {
    format: "logrotate",
    runsAs: "root",
    what: "logrotate's configuration (its scripts run as root)",
    globs: ["/etc/logrotate.conf", "/etc/logrotate.d/*"],
  },
  {
    format: "udev",
    runsAs: "root",
    what: "udev rules (RUN and PROGRAM run as root)",
    globs: ["/etc/udev/rules.d/*", "/run/udev/rules.d/*", "/usr/lib/udev/rules.d/*", "/lib/udev/rules.d/*"],
  },
  {
    format: "modprobe",
    runsAs: "root",
    what: "modprobe configuration (install and remove run commands)",
    globs: ["/etc/modprobe.d/*", "/run/modprobe.d/*", "/usr/lib/modprobe.d/*", "/lib/modprobe.d/*", "/etc/modprobe.conf"],
  },
  {
    format: "authorized-keys",
    runsAs: "user",
    what: "authorized SSH keys (command= runs at login)",
    globs: ["**/.ssh/authorized_keys", "**/.ssh/authorized_keys2"],
  },
  { format: "ld-so-conf", runsAs: "root", what: "the dynamic loader's library path", globs: ["/etc/ld.so.conf", "/etc/ld.so.conf.d/*"] },
  {
    format: "tmpfiles",
    runsAs: "root",
    what: "systemd-tmpfiles configuration (files made at every boot)",
    globs: ["/etc/tmpfiles.d/*", "/run/tmpfiles.d/*", "/usr/lib/tmpfiles.d/*", "/lib/tmpfiles.d/*"],
  },
  {
    format: "sysctl",
    runsAs: "root",
    what: "kernel settings (core_pattern and modprobe name programs)",
    globs: ["/etc/sysctl.conf", "/etc/sysctl.d/*", "/run/sysctl.d/*", "/usr/lib/sysctl.d/*", "/lib/sysctl.d/*"],
  },
  {
    format: "binfmt",
    runsAs: "root",
    what: "binfmt_misc interpreters",
    globs: ["/etc/binfmt.d/*", "/run/binfmt.d/*", "/usr/lib/binfmt.d/*", "/lib/binfmt.d/*"],
  },
  {
    format: "apt-sources",
    runsAs: "root",
    what: "APT package sources (what root installs later)",
    globs: ["/etc/apt/sources.list", "/etc/apt/sources.list.d/*"],
  },
  {
    format: "refuse",
    runsAs: "root",
    what: "code or trust that root's tools load (package maintainer scripts and dpkg's hooks, libraries and language modules, OpenSSL's configuration, CA certificates, APT's keys and pins, D-Bus services, initramfs and pam-auth-update pieces, git templates, vim, rsyslog, audit and firewall rules, sshd's and grub's defaults, the default boot target), not judged by content",
    globs: [
      "/var/lib/dpkg/info/*.@(preinst|postinst|prerm|postrm|config|triggers)",
      "/etc/dpkg/dpkg.cfg",
      "/etc/dpkg/dpkg.cfg.d/**",
      "/etc/perl/**",
      "/usr/share/perl/**",
      "/usr/share/perl5/**",
      "/usr/local/share/perl/**",
      "/etc/python*/**",
      "/lib/**",
      "/lib32/**",
      "/lib64/**",
      "/libx32/**",
      "/usr/lib/**",
      "/usr/lib32/**",
      "/usr/lib64/**",
      "/usr/libx32/**",
      "/usr/libexec/**",
      "/usr/local/lib/**",
      "/usr/local/libexec/**",
      "/etc/ssl/openssl.cnf",
      "/etc/ssl/openssl.cnf.d/**",
      "/etc/ssl/certs/**",
      "/usr/share/ca-certificates/**",
      "/usr/local/share/ca-certificates/**",
      "/etc/ca-certificates.conf",
      "/etc/ca-certificates/**",
      "/etc/pki/**",
      "/etc/apt/trusted.gpg",
      "/etc/apt/trusted.gpg.d/**",
      "/etc/apt/keyrings/**",
      "/usr/share/keyrings/**",
      "/etc/apt/preferences",
      "/etc/apt/preferences.d/**",
      "/etc/dbus-1/**",
      "/usr/share/dbus-1/**",
      "/etc/initramfs-tools/**",
      "/usr/share/initramfs-tools/**",
      "/usr/share/pam-configs/**",
      "/usr/share/git-core/templates/**",
      "/etc/vim/**",
      "/usr/share/vim/**",
      "/etc/needrestart/**",
      "/etc/networkd-dispatcher/**",
      "/etc/rsyslog.conf",
      "/etc/rsyslog.d/**",
      "/etc/audit/**",
      "/etc/nftables.conf",
      "/etc/iptables/**",
      "/etc/ufw/**",
      "/etc/fail2ban/**",
      "/etc/default/ssh",
      "/etc/default/grub.d/**",
      "/etc/systemd/system/default.target",
      "/etc/alternatives/**",
    ],
  },
  {
    format: "service-hooks",
    runsAs: "root",
    what: "a daemon's configuration with commands it runs as root (wg-quick's PostUp, OpenVPN's up/down and plugins, (x)inetd's servers, keepalived's notify scripts, rsyncd's pre-/post-xfer exec, monit's programs, Apache's piped logs, snmpd's extend, aliases' pipes, other daemons' notify programs)",
    globs: [
      "/etc/wireguard/*.conf",
      "/etc/openvpn/**",
      "/etc/xinetd.conf",
      "/etc/xinetd.d/*",
      "/etc/inetd.conf",
      "/etc/keepalived/**",
      "/etc/rsyncd.conf",
      "/etc/monit/**",
      "/etc/monitrc",
      "/etc/monit.d/**",
      "/etc/apache2/**",
      "/etc/httpd/**",
      "/etc/snmp/snmpd.conf",
      "/etc/snmp/snmpd.local.conf",
      "/etc/snmp/snmpd.conf.d/**",
      "/var/lib/snmp/snmpd.conf",
      "/var/lib/net-snmp/snmpd.conf",
      "/etc/apcupsd/apcupsd.conf",
      "/etc/cups/cups-files.conf",
      "/etc/cups/cupsd.conf",
      "/etc/NetworkManager/system-connections/**",
      "/run/NetworkManager/system-connections/**",
      "/etc/wgetrc",
      "/usr/local/etc/wgetrc",
      "/etc/Muttrc",
      "/etc/Muttrc.d/**",
      "/root/.muttrc",
      "/root/.mutt/**",
      "/root/.config/mutt/**",
      "/etc/aliases",
      "/etc/mail/aliases",
      "/etc/NetworkManager/VPN/**",
      "/etc/haproxy/**",
      "/etc/syslog-ng/**",
      "/etc/nginx/**",
      "/etc/smartd.conf",
      "/etc/smartmontools/smartd.conf",
      "/etc/mdadm.conf",
      "/etc/mdadm/mdadm.conf",
      "/etc/nut/**",
      "/etc/dnsmasq.conf",
      "/etc/dnsmasq.d/**",
      "/etc/squid/**",
      "/etc/postfix/**",
      "/etc/exim4/**",
      "/etc/exim/**",
    ],
    // Data these daemons read, not configuration naming programs: postmap's and newaliases' maps, keys and certificates.
    ignore: ["/etc/**/*.@(db|lmdb|cdb|dbm|der|crt|cer|key|pem|p12|pfx|csr|gz|bz2|xz|zst)"],
  },
  {
    format: "supervisor",
    runsAs: "root",
    what: "supervisord's configuration (the programs it starts as root)",
    globs: ["/etc/supervisor/supervisord.conf", "/etc/supervisor/conf.d/**", "/etc/supervisord.conf", "/etc/supervisord.d/**"],
  },
  { format: "rc", runsAs: "root", what: "bash completions every root shell loads", globs: ["/usr/share/bash-completion/**"] },
  ...MORE_PLACES,
  { format: "program", runsAs: "root", what: "a program on root's PATH", globs: ROOT_PATH.map((d) => `${d}/*`) },
  {
    format: "program",
    runsAs: "user",
    what: "a program on a user's PATH",
    globs: ["**/.local/bin/*", "**/.cargo/bin/*", "**/bin/*"].map((g) => g.replace("**", "/@(root|home/*)")),
  },
];

const COMPILED = TABLE.map((e) => ({ ...e, test: picomatch(e.globs, { dot: true, ...(e.ignore ? { ignore: e.ignore } : {}) }) }));

/** The runs-later entry for a file or symlink at `path`, or null. */
export function runsLater(path: string): RunsLater | null {
  const e = COMPILED.find((c) => c.test(path));
  if (!e) return null;
  return { format: e.format, what: e.what, asRoot: e.runsAs === "root" || inside(path, "/root") || ROOT_CRONTAB.test(path) };
}

const ROOT_CRONTAB = /^\/var\/spool\/cron\/(?:crontabs\/|tabs\/)?root$/;

/** systemd's configuration roots: its table entry (any `systemd` directory) has no fixed prefix to find them by. */
const SYSTEMD_ROOTS = [
  "/etc/systemd/",
  "/run/systemd/",
  "/usr/lib/systemd/",
  "/lib/systemd/",
  "/usr/local/lib/systemd/",
  "/run/user/0/systemd/",
  "/root/.config/systemd/",
];

/** The fixed part of every root entry's globs (up to the last slash before a special character): where root's later code lives. */
const ROOT_PREFIXES = [
  ...TABLE.filter((e) => e.runsAs === "root")
    .flatMap((e) => e.globs)
    .filter((g) => g.startsWith("/"))
    .map((g) => {
      const fixed = g.slice(0, g.search(/[*?[{(!@+]|$/));
      return fixed.slice(0, fixed.lastIndexOf("/") + 1) || "/";
    }),
  ...SYSTEMD_ROOTS,
];

/**
 * A directory at or above a place whose files root runs later: whoever may
 * write it may rename that place away and put their own in its stead
 * (`/run/udev` owned by a user: `rules.d` replaced).
 */
export function holdsRunsLater(dir: string): boolean {
  const d = dir === "/" ? "/" : `${dir}/`;
  return ROOT_PREFIXES.some((p) => p.startsWith(d));
}

/**
 * A place only root can change: a system tree, not scratch space or a home.
 * What root runs or loads later (an interpreter, a library directory, a
 * symlink's target) must come from such a place.
 */
export function rootOwnedPlace(path: string): boolean {
  if (!path.startsWith("/") || path.includes("$") || /(^|\/)\.\.?(\/|$)/.test(path)) return false;
  if (scratch(path) || inside(path, "/home") || inside(path, "/tmp") || inside(path, "/var/tmp") || inside(path, "/dev/shm")) return false;
  return systemPath(path) || inside(path, "/snap");
}

/**
 * What an include names (a file, a directory, a glob in its last part) is read in `format` where it lies: the
 * format's own configuration, judged as such when written. Anything else was never judged as that (review 47:
 * `include /etc/foo` in logrotate.d, staged at tier 3 with a postrotate script).
 */
export function ownConfiguration(path: string, format: Format): boolean {
  if (!path.startsWith("/") || /(^|\/)\.\.?(\/|$)/.test(path)) return false;
  const fixed = path.replace(/\/[^/]*[*?[][^/]*$/, "");
  if (/[*?[]/.test(fixed)) return false;
  return runsLater(fixed)?.format === format || runsLater(`${fixed}/x`)?.format === format;
}

const PROGRAM_DIRS = picomatch(["**/systemd/*-generators/**", "**/systemd/system-sleep/**", "**/systemd/system-shutdown/**"], {
  dot: true,
});

/**
 * How a regular file's content is read, given its mode (null: it does not
 * run). An executable under systemd's directories is a program (generators,
 * sleep and shutdown hooks); a file on root's PATH runs only when executable.
 */
export function contentFormat(r: RunsLater, path: string, mode: number): Format | null {
  const executable = (mode & 0o111) !== 0;
  if (r.format === "program") return executable ? "program" : null;
  if (r.format === "systemd" && (executable || PROGRAM_DIRS(path))) return "script";
  return r.format;
}
