// More places whose content runs later as root (review rt21d), read by later-paths.ts's laterKind: run-parts and
// hook directories and files root's tools source (judged as sh), code in languages the concurrence does not read,
// and daemons' configuration naming programs they run (daemon-hooks-more.ts reads their lines). Without them a write
// there was judged only as a system path, which the machine quorum approves.

/** Scripts root runs at an event: certbot's renewal hooks, initramfs updates, resolvconf, smartd, GDM's logins, runit
 * services, pm-utils, wpa_supplicant's actions, pppd's ip-up and ip-down. */
export const EVENT_SCRIPT =
  /^\/etc\/(initramfs\/post-update\.d\/[^/]+|letsencrypt\/renewal-hooks\/.+|resolvconf\/update(-libc)?\.d\/[^/]+|smartmontools\/run\.d\/[^/]+|gdm3\/(Init|PostLogin|PreSession|PostSession)\/[^/]+|(sv|service)\/[^/]+\/(run|finish|check|log\/run)|runit\/[^/]+|pm\/sleep\.d\/[^/]+|wpa_supplicant\/[^/]+\.sh|ppp\/(ip|ipv6|auth)-(up|down))$/;

/** Files root's tools source as sh: dracut's and dkms' configuration, a module's dkms.conf, sysstat's settings, LSB
 * init scripts' logging hooks, debconf's confmodule; dhcpcd's enter and exit hooks, apticron's and cron-apt's settings,
 * pbuilder's, laptop-mode's (review 50); cron-apt's config.d and its per-action settings, actionconf.d (review 51). */
export const SOURCED_SHELL =
  /^\/(etc\/dracut\.conf(\.d\/.+)?|etc\/dkms\/.+|usr\/src\/[^/]+\/dkms\.conf|etc\/sysstat\/sysstat|etc\/lsb-base-logging\.sh|usr\/share\/debconf\/confmodule(\.sh)?|etc\/e2scrub\.conf|etc\/ucf\.conf|etc\/machine-info|etc\/os-release|usr\/lib\/os-release|etc\/dhcpcd\.(enter|exit)-hook|etc\/apticron\/apticron\.conf|etc\/cron-apt\/config|etc\/cron-apt\/(config|actionconf)\.d\/.+|etc\/pbuilderrc|etc\/laptop-mode\/.+\.conf)$/;

/** Code in a language the concurrence does not read: chef-client's Ruby, R's site start-up, apport's Python, the zsh
 * functions root's zsh autoloads (zsh is not sh), upstart's jobs and sysvinit's inittab (run by PID 1). */
export const FOREIGN_TOOL_CODE =
  /^\/(etc\/chef\/.|etc\/R\/.|usr\/share\/apport\/.|etc\/apport\/.|usr\/(local\/)?share\/zsh\/.|etc\/init\/.|etc\/inittab$)/;

/** Review 47: other distributions' and tools' event scripts (RHEL's rc.local and init.d, Alpine's periodic, local.d and
 * apk commit hooks, libvirt's hooks) and files root's tools source as sh (mkinitcpio's configuration and presets, the
 * lsb-release the login message sources, RHEL's /etc/bashrc). */
export const EVENT_SCRIPT_MORE =
  /^\/etc\/(rc\.d\/rc\.local|rc\.d\/init\.d\/[^/]+|periodic\/.+|local\.d\/[^/]+\.(start|stop)|apk\/commit_hooks\.d\/[^/]+|libvirt\/hooks\/.+|mkinitcpio\.conf(\.d\/.+)?|mkinitcpio\.d\/[^/]+\.preset|lsb-release)$/;

/** Review 47: what the kernel, systemd, the kubelet, k3s, pacman, SUSE's permissions, LXC, busybox cron or Python read
 * as programs or code, in forms the concurrence does not read: request-key's programs, a pyvenv.cfg beside root's
 * python (its `home` picks the standard library), systemd's credential store (tmpfiles.extra at every boot), static pod
 * manifests, pacman's hooks, set-id grants, container hooks, Alpine's crontabs, zsh's system files (zsh is not sh); and
 * trust or code loaded by root's daemons: apk's signing keys, systemd-sysext/confext images, node's module directories
 * above /usr and /opt, libvirt's and LXC's daemon and domain configuration, CNI and CRI-O, rpm's macros, dnf's and
 * yum's plugins, PKCS#11 and GSSAPI modules, nix's daemon, the kubelet's and k3s's configuration (review 47 §2). */
export const FOREIGN_CODE_MORE =
  /^\/(etc\/request-key(\.conf$|\.d\/.)|usr\/(local\/)?(bin\/)?pyvenv\.cfg$|etc\/credstore(\.encrypted)?\/.|etc\/kubernetes\/manifests\/.|var\/lib\/rancher\/k3s\/server\/manifests\/.|etc\/pacman\.d\/hooks\/.|usr\/share\/libalpm\/hooks\/.|etc\/permissions\.local$|var\/lib\/lxc\/[^/]+\/config$|etc\/crontabs\/.|etc\/z(profile|login|shrc|shenv|logout)$|etc\/zsh\/.|etc\/bashrc$|etc\/apk\/keys\/.|(etc|run|var\/lib|usr\/local\/lib)\/(extensions|confexts)\/.|((usr\/(local\/)?|opt\/)?node_modules)\/.|etc\/libvirt\/([^/]+\.conf$|(qemu|lxc)\/.)|etc\/lxc\/.|etc\/cni\/.|opt\/cni\/bin\/.|etc\/crio\/.|etc\/rpm\/.|etc\/dnf\/plugins\/.|etc\/yum\/(pluginconf\.d|post-actions)\/.|etc\/pkcs11\/.|etc\/gss\/.|etc\/nix\/.|var\/lib\/kubelet\/config\.yaml$|etc\/rancher\/.|run\/credstore(\.encrypted)?\/.|etc\/lsyncd\/.|etc\/lsyncd\.conf(\.lua)?$|etc\/gitlab\/gitlab\.rb$|etc\/.+\.lua$)/;

/** Daemons' and root tools' configuration naming programs they run as root (daemon-hooks-more.ts). */
export const MORE_DAEMON_CONFIG =
  /^\/(etc\/letsencrypt\/(renewal\/.+|cli\.ini)|etc\/ppp\/(options[^/]*|peers\/.+)|etc\/NetworkManager\/dnsmasq(-shared)?\.d\/.+|etc\/dhcp\/dhcpd[^/]*\.conf|etc\/hosts\.(allow|deny)|etc\/lightdm\/.+|etc\/sddm\.conf(\.d\/.+)?|etc\/samba\/.+|etc\/lighttpd\/.+|etc\/dovecot\/.+|etc\/ipsec\.(conf|d\/.+)|etc\/strongswan\.(conf|d\/.+)|etc\/swanctl\/.+|(etc|usr\/share)\/containers\/.+|etc\/php\/.+|etc\/mercurial\/.+|etc\/subversion\/.+|etc\/rsnapshot\.conf|etc\/procmailrc|etc\/borgmatic(\.d)?\/.+|etc\/zabbix\/.+|etc\/nagios\/.+|etc\/collectd(\.conf|\/.+)|etc\/X11\/xorg\.conf(\.d\/.+)?|usr\/share\/X11\/xorg\.conf\.d\/.+|etc\/auto\.master(\.d\/.+)?|etc\/salt\/.+|etc\/puppet(labs)?\/.+|etc\/kernel-img\.conf|etc\/mysql\/.+|etc\/postgresql\/.+)$/;

/** Data those daemons read, not configuration naming programs: keys, certificates, databases. */
export const MORE_DAEMON_DATA = /\.(db|tdb|ldb|lmdb|cdb|dbm|der|crt|cer|key|pem|p12|pfx|csr|gz|bz2|xz|zst)$/;
