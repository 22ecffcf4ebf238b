// What may leave the mirror. A package run (apt from the configured
// sources, on the host with package-state undo) and a tier-3 live action
// (restart, reload, a firewall rule) run on the host itself, so their words
// must not carry code or files of the caller's choosing: apt takes only
// options from a short list and package names; a live action names no file
// outside the places only root can change (a unit, config or module the
// caller wrote to /tmp or the workspace earlier is judged nowhere), and the
// programs that consume a file or a script (crontab, at, insmod) or change a
// container host's raw settings never count as live. What fails these checks
// is not refused here: it runs in the mirror, where its diff is judged (and
// most such commands then fail there, with a clear reason).
import { posix } from "node:path";
import { rootOwnedPlace } from "./runs-later.js";
import type { SimpleCommand, Word } from "./types.js";

/** apt's options that change nothing about what it installs or runs. */
const APT_SAFE_OPTIONS = new Set([
  "-y",
  "--yes",
  "--assume-yes",
  "-q",
  "-qq",
  "--quiet",
  "--no-install-recommends",
  "--install-recommends",
  "--no-install-suggests",
  "--install-suggests",
  "-f",
  "--fix-broken",
  "--fix-missing",
  "-m",
  "--only-upgrade",
  "--reinstall",
  "--auto-remove",
  "--autoremove",
  "--purge",
  "--with-new-pkgs",
  "-V",
  "--verbose-versions",
  "--no-upgrade",
  "--show-upgraded",
  "-u",
  "--download-only",
  "-d",
]);

/** A package name, with a version (`=1.2-3`), an architecture (`:amd64`) or a release (`/bookworm-backports`) of the configured sources. */
const PACKAGE = /^[a-z0-9][a-z0-9+.-]*(?::[a-z0-9-]+)?(?:=[A-Za-z0-9.+~:-]+|\/[a-z0-9.-]+)?$/;

/** A package run's words: apt's subcommand, options from the short list, package names. */
export function packageRunPlain(cmd: SimpleCommand): boolean {
  const [, ...args] = cmd.words;
  let sub = false;
  for (const w of args) {
    const t = w.text;
    if (t.startsWith("-")) {
      if (!APT_SAFE_OPTIONS.has(t)) return false;
    } else if (!sub) sub = /^[a-z-]+$/.test(t);
    else if (!PACKAGE.test(t)) return false;
  }
  return sub;
}

/** Programs that run or load a file or a script they are given: never a live action, whatever their rule. */
const FILE_CONSUMERS = new Set(["crontab", "at", "batch", "insmod", "kexec", "wg-quick", "dhclient", "update-alternatives"]);

/** An address with a prefix length (`10.0.0.0/8`, `fd00::/64`), not a path. */
const CIDR = /^[0-9A-Fa-f:.]+\/\d{1,3}$/;

/**
 * A live action's words: no file outside the places only root can change
 * (a path in an option's value too: `-c=/tmp/x.conf`), no relative path, no
 * program that consumes a file, no container host's raw settings or file
 * transfer.
 */
export function liveActionPlain(cmd: SimpleCommand): boolean {
  const [program, ...args] = cmd.words;
  if (!program) return false;
  const name = posix.basename(program.text);
  if (FILE_CONSUMERS.has(name)) return false;
  if (
    (name === "incus" || name === "lxc") &&
    args.some((w) =>
      /^(config|profile|file|exec|shell|console|storage)$|^(-c|--config)(=|$)|raw\.|security\.(privileged|nesting|idmap)/.test(w.text),
    )
  )
    return false;
  // `ip netns exec NS CMD`, `ip vrf exec`, `ip -all netns exec` (exec and its abbreviations) run a command; -batch reads a file of them.
  if ((name === "ip" || name === "tc") && args.some((w) => /^e(x(e(c)?)?)?$|^-(b|batch|force)$/.test(w.text))) return false;
  // `ss -D FILE` dumps raw socket data into FILE; tailscale receiving files, taking another control server or opening SSH.
  if (name === "ss" && args.some((w) => /^-[a-zA-Z]*D|^--di/.test(w.text))) return false;
  if (
    name === "tailscale" &&
    args.some((w) => /^(file|serve|funnel|cert)$|^--(login-server|ssh|advertise-exit-node|exit-node)/.test(w.text))
  )
    return false;
  // certbot's hooks are shell code; its config and work directories decide which hooks run.
  if (name === "certbot" && args.some((w) => /^--(pre|post|deploy|renew-h|manual|con|wor|log)|^-c/.test(w.text))) return false;
  if (name === "ethtool" && args.some((w) => /^(-f|--flash)$/.test(w.text))) return false;
  // systemctl on another host, machine, root or image, for a user manager, or changing every later unit's environment.
  if (
    name === "systemctl" &&
    args.some((w) =>
      /^(-H|-M|--host|--machine|--root|--image|--user|--global)(=|$)|^(set-environment|import-environment|unset-environment|edit|link)$/.test(
        w.text,
      ),
    )
  )
    return false;
  // Mounts and loop devices name what they attach by absolute path; a relative source is the caller's directory.
  if (MOUNTERS.has(name) && args.some((w) => !w.text.startsWith("-") && !w.text.startsWith("/") && !w.text.includes("="))) return false;
  if (name === "mount" && args.some((w) => /^(-B|--bind|--rbind|-R|--move|-M)$|bind/.test(w.text))) return false;
  if (name === "sysctl" && args.some((w, i) => /^(-p|--load)$/.test(w.text) && !(args[i + 1]?.text ?? "").startsWith("/"))) return false;
  // A unit, service or container name with a glob matches units the caller does not name (`systemctl stop ag*`).
  if (args.some((w) => /[*?[]/.test(w.text))) return false;
  if (name === "modprobe" && args.some((w) => /^(-C|--config)(=|$)|^-[a-zA-Z]*C/.test(w.text))) return false;
  // A server's control program given another configuration (`nginx -c F`, `apachectl -f F`, `caddy reload --config F`).
  if (CONFIGURED.has(name) && args.some((w) => /^-[cfpg]$|^--(config|conf|adapter|prefix)/.test(w.text))) return false;
  return args.every((w) => wordNamesRootPlace(w));
}

const MOUNTERS = new Set(["mount", "umount", "losetup", "swapon", "swapoff"]);

const CONFIGURED = new Set(["nginx", "apachectl", "apache2ctl", "httpd", "caddy", "fail2ban-client", "haproxy"]);

function wordNamesRootPlace(w: Word): boolean {
  // An option's or an assignment's value (`-c=/tmp/x`, `ExecStartPre=/tmp/x`) is judged as the word would be.
  const value = w.text.includes("=") ? w.text.slice(w.text.indexOf("=") + 1) : w.text;
  if (!value.includes("/") || CIDR.test(value)) return value !== "..";
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) return true;
  // A relative path is the caller's directory; an absolute one must be a place only root changes, and not root's home.
  if (!value.startsWith("/") || value.split("/").includes("..")) return false;
  const path = posix.normalize(value);
  return rootOwnedPlace(path) && !/^\/root(\/|$)/.test(path);
}
