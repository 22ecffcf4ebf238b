// What a path is, judged from first principles: a disk device, a file the
// system cannot boot or authenticate without, a secret, stateful data that
// no scoped undo brings back, a top-level directory, or agent-sudo's own
// keys, state and policies. Three questions: what does writing it do, what
// does destroying it do, and is merely touching it already too much.
import { posix } from "node:path";
import type { Word } from "./lex.js";
import { laterKind, laterKindInside } from "./later-paths.js";
import { type Finding, type JudgeContext, finding } from "./types.js";

export interface ResolvedPath {
  /** Absolute and normalised; for a dynamic or glob word, its static prefix. */
  path: string;
  /** Part of the value is only known at run time ($VAR, $( ), unknown cwd). */
  dynamic: boolean;
  glob: boolean;
  /** Depth of the first component that is dynamic or a glob (Infinity when none). */
  openDepth: number;
}

function globToRegExp(glob: string): RegExp {
  let re = "";
  for (const ch of glob) {
    if (ch === "*") re += "[^/]*";
    else if (ch === "?") re += "[^/]";
    else re += ch.replace(/[.+^${}()|[\]\\]/g, "\\$&");
  }
  return new RegExp(`^${re}(/.*)?$`);
}

/** Patterns: `*` stands for one path component; a match covers everything below it too. */
function matcher(patterns: readonly string[]): (p: string) => boolean {
  const res = patterns.map(globToRegExp);
  return (p) => res.some((r) => r.test(p));
}

const DISK_DEVICE = /^\/dev\/(sd|hd|vd|xvd|nvme|mmcblk|md|dm-|loop|sr|nbd|zd|rbd|mapper\/|disk\/|mem$|kmem$|port$|nvram$|mtd)/;
const HARMLESS_DEVICE = /^\/dev\/(null|zero|full|random|urandom|tty|stdout|stderr|stdin|fd\/|shm\/|pts\/)/;

/**
 * Writing these breaks booting, logging in, authentication or the system's
 * own programs, or hands out identity: accounts, sudo and its timestamps,
 * PAM, SSH, polkit, the loader, binfmt handlers, the agent's hook settings
 * and agent-sudo's own program, state, units and profiles.
 */
const isCritical = matcher([
  "/etc/passwd",
  "/etc/passwd-",
  "/etc/shadow",
  "/etc/shadow-",
  "/etc/group",
  "/etc/group-",
  "/etc/gshadow",
  "/etc/gshadow-",
  "/etc/subuid",
  "/etc/subgid",
  "/etc/sudoers",
  "/etc/sudoers.d",
  "/etc/sudo.conf",
  "/etc/doas.conf",
  "/run/sudo",
  "/var/lib/sudo",
  "/var/db/sudo",
  "/etc/pam.d",
  "/etc/pam.conf",
  "/etc/security",
  "/etc/securetty",
  "/etc/polkit-1",
  "/usr/share/polkit-1",
  // polkit 125 and later read these too; /var/run is /run.
  "/run/polkit-1",
  "/usr/local/share/polkit-1",
  "/var/lib/polkit-1",
  "/var/run/sudo",
  "/etc/fstab",
  "/etc/crypttab",
  "/etc/default/grub",
  "/etc/grub.d",
  "/boot",
  "/efi",
  "/etc/ssh",
  "/root/.ssh",
  "/home/*/.ssh/authorized_keys",
  "/etc/apparmor.d",
  "/etc/apparmor",
  "/etc/ld.so.*",
  "/etc/binfmt.d",
  "/etc/nsswitch.conf",
  "/etc/shells",
  "/etc/login.defs",
  "/etc/systemd/system/agent-sudo*",
  "/etc/systemd/system/*/agent-sudo*",
  "/lib/systemd/system/agent-sudo*",
  "/usr/lib/systemd/system/agent-sudo*",
  "/proc/sysrq-trigger",
  "/bin",
  "/sbin",
  "/usr/bin",
  "/usr/sbin",
  "/lib",
  "/lib64",
  "/usr/lib",
  "/usr/lib64",
  "/usr/libexec",
  "/etc/initramfs-tools",
  "/etc/kernel",
  "/etc/modprobe.d",
  "/opt/agent-sudo",
  "/etc/agent-sudo",
  "/var/lib/agent-sudo",
  "/etc/claude-code",
]);

/** The same, wherever the home or repository they sit in is. */
const CRITICAL_ANYWHERE = [
  /\/authorized_keys2?$/,
  /\/\.ssh(\/|$)/,
  /\/\.[rs]hosts$/,
  /\/\.claude\/settings[^/]*\.json$/,
  /\/\.claude\/hooks(\/|$)/,
  /\/\.claude\.json$/,
  /\/systemd\/(.*\/)?agent-sudo[^/]*(\/|$)/,
];

function isCriticalAnywhere(p: string): boolean {
  return isCritical(p) || CRITICAL_ANYWHERE.some((r) => r.test(p));
}

/** Reading these reveals credentials; a command that names them is refused. */
const isSecret = matcher([
  "/etc/shadow",
  "/etc/gshadow",
  "/etc/ssh/ssh_host_*_key",
  "/root/.ssh/id_*",
  "/home/*/.ssh/id_*",
  "/root/.vault-token",
  "/home/*/.vault-token",
  "/root/.gnupg",
  "/home/*/.gnupg",
  "/root/.aws",
  "/home/*/.aws",
  "/root/.docker/config.json",
  "/home/*/.docker/config.json",
  "/etc/agent-sudo",
  "/var/lib/agent-sudo",
]);

/** A path that holds credentials, or lies in a tree that does. */
export function isSecretPath(p: string): boolean {
  return isSecret(p) || isSecretDir(p);
}

/** Stateful data: a restart can lose it, a delete cannot be undone by a scoped undo. */
const isStateful = matcher([
  "/var/lib/docker",
  "/var/lib/containerd",
  "/var/lib/postgresql",
  "/var/lib/mysql",
  "/var/lib/mariadb",
  "/var/lib/vault",
  "/var/lib/incus",
  "/var/lib/lxd",
  "/var/lib/redis",
  "/var/lib/mongodb",
  "/opt/appdata",
  "/data",
]);

/** Directories holding secrets: a glob or run-time name inside them may reach one. */
const isSecretDir = matcher(["/etc/ssh", "/root/.ssh", "/home/*/.ssh", "/root/.gnupg", "/home/*/.gnupg"]);

/** Top-level directories whose second level is the system itself. */
const SYSTEM_TOP = new Set([
  "etc",
  "usr",
  "var",
  "boot",
  "bin",
  "sbin",
  "lib",
  "lib32",
  "lib64",
  "libx32",
  "opt",
  "srv",
  "root",
  "home",
  "snap",
  "data",
  "dev",
  "proc",
  "sys",
  "run",
]);

/** Top-level directories whose every direct entry is identity, code or a home: even a single file there is not removed. */
const WHOLE_ENTRY_TOP = new Set(["etc", "usr", "boot", "bin", "sbin", "lib", "lib32", "lib64", "libx32", "root", "home"]);

/** Where a path of a diff lies: throw-away space, the system's own tree, or anywhere else (homes, unknown places). */
export type Place = "scratch" | "system" | "elsewhere";

const SCRATCH = /^\/(tmp|var\/tmp|dev\/shm)\/./;
// Root's home is the system's: what is there, root runs or reads as its own configuration.
const SYSTEM_TREE = /^\/(etc|usr|var|opt|srv|boot|efi|bin|sbin|lib|lib32|lib64|libx32|run|snap|root)(\/|$)|^\/(tmp|home)?$/;

/** Where users write: scratch space, homes, their runtime and lock directories, crash dumps, mail spools. */
export const USER_WRITABLE = /^\/(tmp|var\/tmp|dev\/shm|run\/user|run\/lock|var\/lock|var\/crash|var\/mail|home)(\/|$)/;

/** A literal place only root writes: absolute, no `..`, no variable or specifier, in the system's trees, not where users write. */
export function rootsPlace(p: string): boolean {
  return p.startsWith("/") && !/\.\.|[$%]/.test(p) && placeOf(p) === "system" && !USER_WRITABLE.test(p);
}

export function placeOf(p: string): Place {
  if (SCRATCH.test(p)) return "scratch";
  if (SYSTEM_TREE.test(p)) return "system";
  return "elsewhere";
}

/**
 * Trees that only root may write: the root directory and its top levels,
 * the system's programs and libraries, boot, configuration and root's home.
 * Handing an entry there to another user hands them what root runs.
 */
export function isRootOnlyTree(p: string): boolean {
  return p === "/" || depth(p) === 1 || /^\/(usr|boot|efi|bin|sbin|lib|lib32|lib64|libx32|root)(\/|$)/.test(p);
}

/** Deleting one entry directly in these (a file in /etc, a home in /home) already takes identity, code or a home away. */
export function isWholeEntry(p: string): boolean {
  const parts = p.split("/").filter(Boolean);
  return parts.length <= 2 && WHOLE_ENTRY_TOP.has(parts[0] ?? "");
}

export function homeOf(runAs: string): string {
  return runAs && runAs !== "root" ? `/home/${runAs}` : "/root";
}

/** A literal, absolute path (as in a diff): no dynamic part, no glob. */
export function literalPath(path: string): ResolvedPath {
  return { path, dynamic: false, glob: false, openDepth: Infinity };
}

export function resolvePath(word: Word, ctx: JudgeContext): ResolvedPath {
  let text = word.text;
  if (word.tilde) text = text.replace(/^~[^/]*/, (t) => (t === "~" ? homeOf(ctx.runAs) : `/home/${t.slice(1)}`));
  let dynamic = word.dynamic;
  // A word that starts with a run-time value can be any path at all.
  if (word.dynamic && /^[$`<>]/.test(text)) return { path: "/", dynamic: true, glob: word.glob, openDepth: 0 };
  if (!text.startsWith("/")) {
    if (ctx.cwd === undefined) dynamic = true;
    text = posix.join(ctx.cwd ?? "/", text);
  }
  const parts = posix.normalize(text).split("/").filter(Boolean);
  const open = parts.findIndex((p) => (dynamic && /[$`]|…/.test(p)) || /[*?[{]/.test(p));
  const openDepth = open < 0 ? (dynamic ? parts.length : Infinity) : open + 1;
  const staticParts = open < 0 ? parts : parts.slice(0, open);
  return { path: `/${staticParts.join("/")}`, dynamic, glob: word.glob, openDepth };
}

function depth(p: string): number {
  return p.split("/").filter(Boolean).length;
}

/** Inside agent-sudo's own keys, state or policies. */
function guarded(p: string, ctx: JudgeContext): boolean {
  return ctx.guardPaths.some((g) => p === g || p.startsWith(`${g}/`));
}

/** An ancestor of agent-sudo's own files (destroying it destroys them). */
function aboveGuard(p: string, ctx: JudgeContext): boolean {
  return ctx.guardPaths.some((g) => g.startsWith(`${p === "/" ? "" : p}/`));
}

/** A path a command merely names: secrets and agent-sudo's own files are off limits. */
export function judgeMention(rp: ResolvedPath, ctx: JudgeContext): Finding {
  if (rp.openDepth === Infinity && isSecret(rp.path)) return finding(4, `touches secret ${rp.path}`);
  if (rp.openDepth !== Infinity && isSecretDir(rp.path)) return finding(4, `may touch secrets in ${rp.path}`);
  if (guarded(rp.path, ctx)) return finding(4, `touches agent-sudo's own keys, state or policies (${rp.path})`);
  return finding(0, "");
}

/** Directories whose entries root runs later; a write (chown -R, chmod -R) of an ancestor reaches them. */
const HOLDS_LATER = [
  "/etc/cron.d",
  "/etc/sudoers.d",
  "/etc/profile.d",
  "/etc/systemd/system",
  "/etc/apt/apt.conf.d",
  "/usr/local/bin",
  "/usr/local/sbin",
  "/usr/bin",
  "/usr/sbin",
  "/usr/lib/systemd/system",
  "/var/spool/cron/crontabs",
  "/root/.bashrc",
];

/** Writing (creating, overwriting, changing) a path. */
export function judgeWrite(rp: ResolvedPath, ctx: JudgeContext): Finding {
  const p = rp.path;
  if (DISK_DEVICE.test(p)) return finding(4, `writes to disk or memory device ${p}`);
  if (HARMLESS_DEVICE.test(p)) return finding(0, "");
  const mention = judgeMention(rp, ctx);
  if (mention.tier === 4) return mention;
  if (guarded(p, ctx)) return finding(4, `writes into agent-sudo's own files (${p})`);
  if (isCriticalAnywhere(p)) return finding(4, `writes ${p}, which the system needs to boot, authenticate or run`);
  if (isStateful(p)) return finding(4, `writes into stateful data ${p}`);
  // Root's later code (cron, a unit, a hook) writing where code runs later: what lands there (a download, a copy
  // of a user's file) is never judged — `curl -o /usr/local/bin/ls`, `cp /tmp/x /etc/cron.d/` every minute.
  if (
    ctx.laterProgram &&
    (ctx.runAs === "" || ctx.runAs === "root") &&
    (laterKind(p) || laterKindInside(p) || HOLDS_LATER.some((d) => d.startsWith(`${p === "/" ? "" : p}/`)))
  )
    return finding(4, `later root code writes ${p}, where code runs later: what lands there is not judged`);
  if (rp.openDepth <= 2)
    return finding(
      4,
      rp.openDepth === 0 ? "writes a path only known at run time" : `writes a path decided at run time near the root (${p}…)`,
    );
  if (p.startsWith("/proc/") || p.startsWith("/sys/")) return finding(3, `changes kernel state via ${p}`);
  if (p.startsWith("/etc/")) return finding(2, `changes configuration ${p}`);
  return finding(1, `writes ${p}`);
}

/** Destroying a path (delete, move away, truncate, shred); `recursive` when whole trees go. */
export function judgeDestroy(rp: ResolvedPath, recursive: boolean, ctx: JudgeContext): Finding {
  const p = rp.path;
  const d = Math.min(depth(p), rp.openDepth === Infinity ? depth(p) : rp.openDepth);
  if (p === "/" && rp.openDepth === Infinity) return finding(4, "destroys the root filesystem");
  if (rp.openDepth === 0) return finding(4, "destroys a path only known at run time");
  if (DISK_DEVICE.test(p)) return finding(4, `destroys device ${p}`);
  const write = judgeWrite(rp, ctx);
  if (write.tier === 4) return { tier: 4, reason: write.reason.replace(/^writes( to| into)?/, "destroys") };
  if (recursive && aboveGuard(p, ctx)) return finding(4, `recursively destroys agent-sudo's own files (under ${p})`);
  if (rp.dynamic && recursive) return finding(4, `recursively destroys a path only known at run time (${p}…)`);
  if (d <= 1) return finding(4, `destroys top-level ${rp.openDepth === Infinity ? p : `${p}…`}`);
  const top = p.split("/").filter(Boolean)[0] ?? "";
  if (recursive && d <= 2 && SYSTEM_TOP.has(top))
    return finding(4, `recursively destroys system directory ${rp.openDepth === Infinity ? p : `${p}/…`}`);
  if (recursive && isStateful(p)) return finding(4, `recursively destroys stateful data ${p}`);
  if (rp.dynamic) return finding(3, `destroys a path only known at run time (${p}…)`);
  return finding(recursive ? 2 : 1, `destroys ${p}`);
}
