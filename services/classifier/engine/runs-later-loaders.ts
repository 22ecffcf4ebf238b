// Places found in review 51 that no table named, so a write there was only "a system path" (tier 3) in both judges:
// sshd's options file on RHEL and OpenRC (`OPTIONS="-o PermitRootLogin=yes"`, as Debian's /etc/default/ssh already
// was), neovim's system start-up and runtime (root's nvim), binfmt-support's formats (imported at boot: an interpreter
// the kernel runs for matching files, with the caller's credentials when asked), audisp's plugins (auditd runs them),
// p11-kit's vendor modules (loaded into TLS clients), and cron-apt's per-action settings (sourced as shell). They join
// runs-later.ts's TABLE right after GRANT_PLACES (first match wins: /etc/sysconfig/sshd before `/etc/sysconfig/*`).
import type { Entry } from "./runs-later.js";

export const LOADER_PLACES: Entry[] = [
  {
    format: "refuse",
    runsAs: "root",
    what: "sshd's command-line options (RHEL's /etc/sysconfig/sshd, OpenRC's /etc/conf.d/sshd: `-o` sets any sshd_config keyword), neovim's system start-up and runtime, binfmt-support's formats, audisp's plugins, p11-kit's vendor modules (review 51)",
    globs: [
      "/etc/sysconfig/sshd",
      "/etc/conf.d/sshd",
      "/etc/xdg/nvim/**",
      "/usr/share/nvim/**",
      "/usr/local/share/nvim/**",
      "/usr/share/binfmts/**",
      "/var/lib/binfmts/**",
      "/etc/audisp/**",
      "/usr/share/p11-kit/modules/**",
      "/usr/local/share/p11-kit/modules/**",
    ],
  },
  {
    format: "rc",
    runsAs: "root",
    what: "cron-apt's per-action settings, sourced as shell by its root cron job (review 51)",
    globs: ["/etc/cron-apt/actionconf.d/**"],
  },
];
