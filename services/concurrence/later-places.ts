// More places whose content runs later as root (review rt21d), read by later-paths.ts's laterKind: run-parts and
// hook directories and files root's tools source (judged as sh), code in languages the concurrence does not read,
// and daemons' configuration naming programs they run (daemon-hooks-more.ts reads their lines). Without them a write
// there was judged only as a system path, which the machine quorum approves.

/** Scripts root runs at an event: certbot's renewal hooks, initramfs updates, resolvconf, smartd, GDM's logins, runit
 * services, pm-utils, wpa_supplicant's actions, pppd's ip-up and ip-down. */
export const EVENT_SCRIPT =
  /^\/etc\/(initramfs\/post-update\.d\/[^/]+|letsencrypt\/renewal-hooks\/.+|resolvconf\/update(-libc)?\.d\/[^/]+|smartmontools\/run\.d\/[^/]+|gdm3\/(Init|PostLogin|PreSession|PostSession)\/[^/]+|(sv|service)\/[^/]+\/(run|finish|check|log\/run)|runit\/[^/]+|pm\/sleep\.d\/[^/]+|wpa_supplicant\/[^/]+\.sh|ppp\/(ip|ipv6|auth)-(up|down))$/;

/** Files root's tools source as sh: dracut's and dkms' configuration, a module's dkms.conf, sysstat's settings, LSB
 * init scripts' logging hooks, debconf's confmodule. */
export const SOURCED_SHELL =
  /^\/(etc\/dracut\.conf(\.d\/.+)?|etc\/dkms\/.+|usr\/src\/[^/]+\/dkms\.conf|etc\/sysstat\/sysstat|etc\/lsb-base-logging\.sh|usr\/share\/debconf\/confmodule(\.sh)?)$/;

/** Code in a language the concurrence does not read: chef-client's Ruby, R's site start-up, apport's Python, the zsh
 * functions root's zsh autoloads (zsh is not sh), upstart's jobs and sysvinit's inittab (run by PID 1). */
export const FOREIGN_TOOL_CODE =
  /^\/(etc\/chef\/.|etc\/R\/.|usr\/share\/apport\/.|etc\/apport\/.|usr\/(local\/)?share\/zsh\/.|etc\/init\/.|etc\/inittab$)/;

/** Daemons' and root tools' configuration naming programs they run as root (daemon-hooks-more.ts). */
export const MORE_DAEMON_CONFIG =
  /^\/(etc\/letsencrypt\/(renewal\/.+|cli\.ini)|etc\/ppp\/(options[^/]*|peers\/.+)|etc\/NetworkManager\/dnsmasq(-shared)?\.d\/.+|etc\/dhcp\/dhcpd[^/]*\.conf|etc\/hosts\.(allow|deny)|etc\/lightdm\/.+|etc\/sddm\.conf(\.d\/.+)?|etc\/samba\/.+|etc\/lighttpd\/.+|etc\/dovecot\/.+|etc\/ipsec\.(conf|d\/.+)|etc\/strongswan\.(conf|d\/.+)|etc\/swanctl\/.+|(etc|usr\/share)\/containers\/.+|etc\/php\/.+|etc\/mercurial\/.+|etc\/subversion\/.+|etc\/rsnapshot\.conf|etc\/procmailrc|etc\/borgmatic(\.d)?\/.+|etc\/zabbix\/.+|etc\/nagios\/.+|etc\/collectd(\.conf|\/.+)|etc\/X11\/xorg\.conf(\.d\/.+)?|etc\/salt\/.+|etc\/puppet(labs)?\/.+|etc\/kernel-img\.conf|etc\/mysql\/.+|etc\/postgresql\/.+)$/;

/** Data those daemons read, not configuration naming programs: keys, certificates, databases. */
export const MORE_DAEMON_DATA = /\.(db|tdb|ldb|lmdb|cdb|dbm|der|crt|cer|key|pem|p12|pfx|csr|gz|bz2|xz|zst)$/;
