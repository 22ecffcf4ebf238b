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
import { lstat } from "./host-paths.js";
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
  "--allow-downgrades",
  "--allow-change-held-packages",
  "--no-remove",
]);

/** A package name, with a version (`=1.2-3`), an architecture (`:amd64`) or a release (`/bookworm-backports`) of the configured sources. */
const PACKAGE = /^[a-z0-9][a-z0-9+.-]*(?::[a-z0-9-]+)?(?:=[A-Za-z0-9.+~:-]+|\/[a-z0-9.-]+)?$/;

/** A package run's words: apt's subcommand, options from the short list, package names. */
export function packageRunPlain(cmd: SimpleCommand): boolean {
  const [, ...args] = cmd.words;
  let sub = false;
  for (let i = 0; i < args.length; i++) {
    const t = (args[i] as Word).text;
    if (t === "-t" || t === "--target-release" || t === "--default-release") {
      // A release of the configured sources (`-t bookworm-backports`).
      if (!/^[a-z0-9.-]+$/.test(args[++i]?.text ?? "")) return false;
    } else if (t.startsWith("--")) {
      if (!APT_SAFE_OPTIONS.has(t)) return false;
    } else if (t.startsWith("-")) {
      // A cluster of apt's safe short flags (`-qy`); -o and -c never.
      if (t.length < 2 || ![...t.slice(1)].every((c) => "yqfmVud".includes(c))) return false;
    } else if (!sub) sub = /^[a-z-]+$/.test(t);
    else if (!PACKAGE.test(t)) return false;
  }
  return sub;
}

/** Programs that run or load a file or a script they are given, or read their configuration from the cwd: never a live action. */
const FILE_CONSUMERS = new Set(["crontab", "at", "batch", "insmod", "kexec", "wg-quick", "dhclient", "update-alternatives", "caddy"]);

/** An address with a prefix length (`10.0.0.0/8`, `fd00::/64`), not a path. */
const CIDR = /^[0-9A-Fa-f:.]+\/\d{1,3}$/;

/** A unit, service, container, module or interface name: no path, no glob, no option. */
const NAME = /^[A-Za-z0-9@:._+-]+$/;

/** Does any short-option cluster (`-qH`, `-tcFILE`) or long option (by prefix: `--hos=`) in `args` hold one of these? */
function hasOption(args: readonly Word[], letters: string, longs: readonly string[]): boolean {
  return args.some((w) => {
    const t = w.text;
    if (t.startsWith("--")) {
      const name = t.slice(2).split("=")[0] ?? "";
      return name.length > 0 && longs.some((l) => l.startsWith(name) || name.startsWith(l));
    }
    return t.startsWith("-") && t.length > 1 && [...t.slice(1)].some((c) => letters.includes(c));
  });
}

/** Only options from this list (clusters split into letters), every other word a name. */
function namesWithOptions(args: readonly Word[], letters: string, longs: ReadonlySet<string>): boolean {
  return args.every((w) => {
    const t = w.text;
    if (t.startsWith("--")) return longs.has(t);
    if (t.startsWith("-")) return t.length > 1 && [...t.slice(1)].every((c) => letters.includes(c));
    return NAME.test(t);
  });
}

const SYSTEMCTL_LONGS = new Set([
  "--no-block",
  "--now",
  "--quiet",
  "--no-pager",
  "--no-reload",
  "--force",
  "--no-ask-password",
  "--runtime",
  "--no-legend",
]);
const MODPROBE_LONGS = new Set(["--remove", "--verbose", "--quiet", "--all", "--first-time"]);

/** Per program, the shapes that may run on the host (null: the generic word check). */
function liveShape(name: string, args: readonly Word[]): boolean | null {
  switch (name) {
    case "systemctl":
      // Verbs and unit names; another host, machine, root, image, user manager, every unit's environment, an editor: not here.
      return (
        namesWithOptions(args, "qf", SYSTEMCTL_LONGS) &&
        !args.some((w) => /^(set-environment|import-environment|unset-environment|edit|link)$/.test(w.text))
      );
    case "modprobe":
      // Module names and parameters (`name=value` without a path); -d, -C, --config pick the caller's files.
      return args.every((w) =>
        w.text.startsWith("--")
          ? MODPROBE_LONGS.has(w.text)
          : w.text.startsWith("-")
            ? [...w.text.slice(1)].every((c) => "rvqa".includes(c))
            : /^[A-Za-z0-9_-]+(=[^/]*)?$/.test(w.text),
      );
    case "nginx":
      return (
        args.length === 0 ||
        (args.length === 1 && /^-[tT]$/.test(args[0]?.text ?? "")) ||
        (args[0]?.text === "-s" && args.length === 2 && NAME.test(args[1]?.text ?? ""))
      );
    case "apachectl":
    case "apache2ctl":
    case "httpd":
      return (
        (args.length === 1 && /^(-t|configtest|graceful|restart|start|stop|graceful-stop|status)$/.test(args[0]?.text ?? "")) ||
        (args.length === 2 && args[0]?.text === "-k" && NAME.test(args[1]?.text ?? ""))
      );
    case "certbot":
      return (
        args[0]?.text === "renew" &&
        args.slice(1).every((w) => /^(-q|--quiet|--no-random-sleep-on-renew|--force-renewal|--dry-run)$/.test(w.text))
      );
    case "tailscale":
      return args.length === 1 && /^(up|down)$/.test(args[0]?.text ?? "");
    case "ip":
    case "tc":
      // `ip netns exec`, `ip vrf exec` (exec and its abbreviations), -batch/-ba/--batch, -force: a command or a file of them.
      // A BPF object (`xdp obj x.o`, `bpf obj`) is code the kernel runs, loaded from a file.
      return (
        !args.some((w) => /^e(x(e(c)?)?)?$|^--?(b|fo)|^(obj|object-file|object-pinned|pinned|bpf|xdp\w*)$/.test(w.text)) &&
        genericWords(args)
      );
    case "fail2ban-client":
      // Reload, status, a ban or an unban: its actions, action scripts and log targets are code and files.
      return (
        (args.length === 1 && /^(reload|restart|start|stop|status|ping)$/.test(args[0]?.text ?? "")) ||
        (args.length === 4 &&
          args[0]?.text === "set" &&
          NAME.test(args[1]?.text ?? "") &&
          /^(banip|unbanip)$/.test(args[2]?.text ?? "") &&
          /^[0-9A-Fa-f:.]+$/.test(args[3]?.text ?? ""))
      );
    case "useradd":
    case "adduser":
    case "usermod":
    case "groupadd":
    case "addgroup":
    case "groupmod":
    case "chsh":
    case "chage":
    case "gpasswd":
    case "userdel":
    case "deluser":
      return accountShape(args);
    case "kill":
    case "pkill":
    case "killall":
      // A signal (`-HUP`, `-9`, `-s TERM`) and process ids or names.
      return args.every((w) => /^-(?:[A-Z][A-Z0-9+-]*|\d+|s|n|x|u|f)$/.test(w.text) || /^[A-Za-z0-9_.@:+-]+$/.test(w.text));
    case "needrestart":
      return args.every((w) => /^-[qbklurv]$|^(a|l|i)$/.test(w.text));
    case "update-ca-certificates":
      return args.every((w) => /^(-f|--fresh|-v|--verbose)$/.test(w.text));
    case "wg":
      return (
        !args.some((w) => /^(setconf|addconf|syncconf)$/.test(w.text)) &&
        !args.some((w, i) => /^(private-key|preshared-key)$/.test(args[i - 1]?.text ?? "") && !w.text.startsWith("/")) &&
        genericWords(args)
      );
    case "sysctl":
      // `-w key=value` with a plain key and value, `-p` (root's /etc/sysctl.conf or /etc/sysctl.d), `--system`.
      return args.every(
        (w) =>
          /^(-w|-q|-e|-p|--system|--write|--quiet)$/.test(w.text) ||
          /^[a-z0-9_]+(\.[a-z0-9_-]+)+=[A-Za-z0-9 ._:,-]*$/.test(w.text) ||
          /^\/etc\/sysctl\.(conf|d\/[A-Za-z0-9._-]+\.conf)$/.test(w.text),
      );
    case "docker":
    case "docker-compose":
      return dockerShape(name, args);
    case "mount":
    case "umount":
    case "swapon":
    case "swapoff":
    case "losetup":
      return mountShape(name, args);
    case "iptables":
    case "ip6tables":
    case "ufw":
    case "firewall-cmd":
    case "nft":
      // Rules carry slashes that are no paths (`22/tcp`, `--limit 5/min`, a netmask); what reads a file or runs a program is not here.
      return (
        !hasOption(args, name === "nft" ? "fI" : "", [
          "modprobe",
          "file",
          "direct",
          "includepath",
          "new-zone-from-file",
          "new-service-from-file",
          "new-ipset-from-file",
          "new-icmptype-from-file",
          "new-helper-from-file",
          "new-policy-from-file",
        ]) &&
        !args.some(
          (w) => /[*?[]/.test(w.text) || w.text === "include" || (w.text.startsWith("/") && !CIDR.test(w.text)) || /=\//.test(w.text),
        )
      );
    case "timedatectl":
      // A zone by name (`Europe/Berlin`), never a path.
      return (
        !hasOption(args, "HM", ["host", "machine"]) &&
        args.every((w) => /^[A-Za-z0-9@:._+-]+(\/[A-Za-z0-9_+-]+)*$/.test(w.text) && !w.text.includes(".."))
      );
    default:
      return null;
  }
}

/**
 * The shadow tools: account and group names, numeric ids, group lists, a
 * comment, a login shell from root's own programs, a home under /home; no
 * chroot or prefix (-R, -P), skeleton (-k), password hash (-p), or home
 * moved elsewhere.
 */
function accountShape(args: readonly Word[]): boolean {
  for (let i = 0; i < args.length; i++) {
    const t = (args[i] as Word).text;
    if (
      /^(-[mMNUrfaeLD]|-aG|--create-home|--no-create-home|--no-user-group|--user-group|--system|--append|--force|--lock|--unlock|--remove)$/.test(
        t,
      )
    ) {
      // -aG takes the groups after it.
      if (t === "-aG") i++;
      continue;
    }
    if (
      /^(-G|-g|--groups|--gid|-u|--uid|-c|--comment|-e|--expiredate|-d|--home|--home-dir|-s|--shell|-l|--login|-n|--new-name|-A|-M|-a)$/.test(
        t,
      )
    ) {
      const value = args[++i]?.text ?? "";
      if (/^(-s|--shell)$/.test(t)) {
        if (!/^\/(?:usr\/)?s?bin\/[A-Za-z0-9_.-]+$/.test(value)) return false;
      } else if (/^(-d|--home|--home-dir)$/.test(t)) {
        if (!/^\/home\/[a-z_][a-z0-9_-]*$/.test(value)) return false;
      } else if (!/^[A-Za-z0-9 ,._@:-]*$/.test(value)) return false;
      continue;
    }
    if (t.startsWith("-")) return false;
    if (!/^[A-Za-z0-9_][A-Za-z0-9_.-]*\$?$/.test(t)) return false;
  }
  return true;
}

/** docker: a container's name after start/stop/restart; compose only with its file named by an absolute path root alone changes. */
function dockerShape(name: string, args: readonly Word[]): boolean {
  const compose = name === "docker-compose" || args[0]?.text === "compose";
  if (!compose) return genericWords(args);
  const rest = name === "docker-compose" ? args : args.slice(1);
  if (hasOption(rest, "", ["project-directory", "env-file", "profile"])) return false;
  const files: string[] = [];
  for (let i = 0; i < rest.length; i++) {
    const t = (rest[i] as Word).text;
    if (t === "-f" || t === "--file") files.push(rest[i + 1]?.text ?? "");
    else if (/^(-f|--file=)/.test(t)) files.push(t.replace(/^(-f|--file=)/, ""));
  }
  // With no -f, compose reads compose.yml from the cwd: the caller's. Only lifecycle verbs, no run, exec, cp.
  const verb = rest.find((w, i) => !w.text.startsWith("-") && !/^(-f|--file|-p|--project-name)$/.test(rest[i - 1]?.text ?? ""));
  if (!verb || !/^(up|down|restart|start|stop|pull|ps)$/.test(verb.text)) return false;
  const after = rest.slice(rest.indexOf(verb) + 1);
  if (
    !after.every((w) => /^(-d|--detach|--remove-orphans|--no-deps|--force-recreate|--wait|--quiet-pull)$/.test(w.text) || NAME.test(w.text))
  )
    return false;
  return files.length > 0 && files.every((f) => f.startsWith("/") && rootOnly(f));
}

/** Mounts: absolute sources and targets (a device, a UUID or LABEL, a remote export), no bind or move, no option file. */
function mountShape(name: string, args: readonly Word[]): boolean {
  // What a mount brings in is a whole file system: not from another host or a loop file, not over /etc, /usr, /boot.
  if (args.some((w) => /loop|ssh|command|helper|x-|^\/\/|^[A-Za-z0-9.-]+:\//.test(w.text))) return false;
  if (name === "mount" && args.some((w) => /^\/(?:etc|usr|boot|bin|sbin|lib\w*|var\/lib|var\/spool|root)(?:\/|$)/.test(w.text)))
    return false;
  if (name === "mount" && (hasOption(args, "BRM", ["bind", "rbind", "move", "make-"]) || args.some((w) => /bind|move/.test(w.text))))
    return false;
  return args.every((w, i) => {
    const t = w.text;
    if (t.startsWith("-") || /^-[to]$/.test(args[i - 1]?.text ?? "")) return !t.includes("..") && !/^-[a-zA-Z]*T|^--fstab/.test(t);
    if (/^(UUID|LABEL|PARTUUID|PARTLABEL)=[A-Za-z0-9_-]+$/.test(t) || /^[A-Za-z0-9.-]+:\//.test(t)) return true;
    return t.startsWith("/") && !t.split("/").includes("..") && !CALLER_PLACE.test(t);
  });
}

/** Places a caller's earlier request may have written or that name another process's view: never what a live action loads. */
const CALLER_PLACE = /^\/(?:tmp|var\/tmp|dev\/shm|dev\/mqueue|home|root|proc|run\/user)(?:\/|$)/;

/** An absolute path only root changes, and no caller's place. */
function rootOnly(path: string): boolean {
  const p = posix.normalize(path);
  // Not /srv, /opt or /var/lib: a tier-2 run commits files there as data, and services and containers write under them.
  return !path.split("/").includes("..") && rootOwnedPlace(p) && !CALLER_PLACE.test(p) && ROOT_ONLY_TREES.test(p);
}

/** The trees only root and the package manager write: programs, libraries, configuration, boot. */
const ROOT_ONLY_TREES = /^\/(?:usr|bin|sbin|lib|lib32|lib64|libx32|etc|boot)(?:\/|$)/;

/**
 * A live action's words: no file outside the places only root can change
 * (a path in an option's value too: `-c=/tmp/x.conf`, also through
 * /proc/1/root), no relative path and no bare name of a file in the cwd, no
 * glob, no program that consumes a file; some programs by an allow-list of
 * their shapes (liveShape).
 */
export function liveActionPlain(cmd: SimpleCommand, cwd: string): boolean {
  const [program, ...args] = cmd.words;
  if (!program) return false;
  const name = posix.basename(program.text);
  if (FILE_CONSUMERS.has(name)) return false;
  if (
    (name === "incus" || name === "lxc") &&
    args.some((w) =>
      /^(config|profile|file|exec|shell|console|storage|image|import|publish)$|^(-c|--config|-p|--profile)(=|$)|raw\.|security\.(privileged|nesting|idmap)/.test(
        w.text,
      ),
    )
  )
    return false;
  // `ss -D FILE` dumps raw socket data into FILE.
  if (name === "ss" && hasOption(args, "D", ["diag"])) return false;
  if (name === "ethtool" && hasOption(args, "f", ["flash"])) return false;
  // A bare word that names a file in the cwd is the caller's file (`nginx -c x.conf`, `modprobe -d r`).
  if (
    cwd !== "" &&
    args.some((w) => !w.text.startsWith("-") && !w.text.includes("/") && w.text !== "." && fileHere(posix.join(cwd, w.text)))
  )
    return false;
  return liveShape(name, args) ?? genericWords(args);
}

/**
 * A live program with no allow-list of its own takes names only: no path
 * (an address with a prefix length is none), no URL, no glob, and no short
 * option longer than one letter — a value may be attached to it (`-Rx`:
 * chroot into the caller's `x`) and which letters take one is not known here.
 */
/** Something this process sees at `path` (one it may not look at counts as not there). */
function fileHere(path: string): boolean {
  const st = lstat(path);
  return st !== null && st !== "unknown";
}

function genericWords(args: readonly Word[]): boolean {
  return args.every((w) => {
    const t = w.text;
    if (/[*?[]/.test(t)) return false;
    if (t.startsWith("--")) return /^--[A-Za-z][A-Za-z0-9-]*(=[A-Za-z0-9@:._+,-]*)?$/.test(t);
    if (t.startsWith("-")) return /^-[A-Za-z0-9]$/.test(t);
    const value = t.includes("=") ? t.slice(t.indexOf("=") + 1) : t;
    return value !== "." && value !== ".." && (!value.includes("/") || CIDR.test(value)) && !value.includes(":/");
  });
}
