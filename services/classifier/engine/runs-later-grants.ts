// Places found in review 50 that no table named, so a write there was only "a system path" (tier 3) in both judges:
// where the host learns who its users are and who may log in as root (nss and PAM backends, Kerberos and rsh trust,
// admin consoles and KDC ACLs), files root's tools source as shell, and the package managers' local state. They join
// runs-later.ts's TABLE right after its first entries (first match wins: /etc/skel's start-up files before `**/.bashrc`).
// Key-level rules for files with everyday benign edits (smb.conf, my.cnf, pg_hba.conf …) are in access-settings.ts.
import type { Entry } from "./runs-later.js";

export const GRANT_PLACES: Entry[] = [
  {
    format: "refuse",
    runsAs: "root",
    what: "where the host's users, groups, passwords and sudo rules come from, or who may log in as root without a password (nslcd, sssd, nss-ldap and pam-ldap, sudo-ldap, the host's Kerberos keytab, root's .k5login and .k5users, rsh's hosts.equiv and root's .rhosts; review 50)",
    globs: [
      "/etc/nslcd.conf",
      "/etc/sssd/**",
      "/etc/libnss-ldap.conf",
      "/etc/libnss-ldap.secret",
      "/etc/pam_ldap.conf",
      "/etc/pam_ldap.secret",
      "/etc/ldap.conf",
      "/etc/sudo-ldap.conf",
      "/etc/nss-ldapd.conf",
      "/etc/krb5.keytab",
      "/root/.k5login",
      "/root/.k5users",
      "/etc/hosts.equiv",
      "/etc/shosts.equiv",
      "/root/.rhosts",
      "/root/.shosts",
    ],
  },
  {
    format: "refuse",
    runsAs: "root",
    what: "who may act as root through a network service with no everyday benign edit (webmin's users and ACLs, the Kerberos KDC's admin ACL, slapd's cn=config database, gitlab-runner's server and executor; review 50)",
    globs: [
      "/etc/webmin/**",
      "/etc/krb5kdc/**",
      "/etc/kadm5.acl",
      "/var/kerberos/krb5kdc/**",
      "/etc/ldap/slapd.d/**",
      "/etc/openldap/slapd.d/**",
      "/etc/gitlab-runner/**",
    ],
  },
  {
    format: "refuse",
    runsAs: "root",
    what: "musl's library path: directories every musl program loads libraries from (review 50)",
    globs: ["/etc/ld-musl-*.path"],
  },
  {
    format: "rc",
    runsAs: "root",
    what: "a file root's tools source as shell (dhcpcd's enter and exit hooks, apticron's and cron-apt's settings, pbuilder's, laptop-mode's; review 50)",
    globs: [
      "/etc/dhcpcd.enter-hook",
      "/etc/dhcpcd.exit-hook",
      "/etc/apticron/apticron.conf",
      "/etc/cron-apt/config",
      "/etc/cron-apt/config.d/**",
      "/etc/pbuilderrc",
      "/root/.pbuilderrc",
      "/etc/laptop-mode/**",
    ],
  },
  {
    // Every new account's start-up files are copied from here: what they run, each new user runs at every login.
    format: "rc",
    runsAs: "root",
    what: "a shell start-up file every new account gets (/etc/skel; review 50)",
    globs: [
      "/etc/skel/.@(bashrc|profile|bash_profile|bash_login|bash_logout|bash_aliases|zshrc|zprofile|zshenv|zlogin|zlogout|kshrc|mkshrc|xprofile|xsessionrc)",
    ],
  },
];
