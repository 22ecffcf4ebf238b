// What every command's envelope hides: agent-sudo's own state (this stack's
// state dir and the other stacks' on the host — keys, tokens, database URL,
// AppRole secret, journal, spool, undo store) and the configured secret
// paths. Globs (`*` within one segment) are expanded against the host each
// time a command starts, so a home created later is covered. A link a glob
// matches is followed only to its owner's own files (a user's `~/.ssh ->
// ~/dotfiles/ssh`; never `~/.ssh -> /etc`, which must not hide /etc);
// a path named literally that is a link root made in a directory only root
// writes (a state dir moved to another disk, `/etc/ssl/private -> /srv/pki`)
// is masked where it leads: skipping it would show what it was to hide.
import { readdirSync, readFileSync, realpathSync, type Stats } from "node:fs";
import { dirname, join, posix } from "node:path";
import { tryLstat } from "../fs-probe.js";

/** Data and secret paths no command sees (config `envelope.masks`). */
export const DEFAULT_SECRET_MASKS = [
  "/var/lib/postgresql",
  "/var/lib/docker",
  "/var/lib/containerd",
  "/var/lib/incus",
  "/var/lib/lxd",
  "/var/lib/mysql",
  "/root/.ssh",
  "/home/*/.ssh",
  "/root/.gnupg",
  "/home/*/.gnupg",
  "/etc/shadow",
  "/etc/shadow-",
  "/etc/gshadow",
  "/etc/gshadow-",
  "/etc/ssh/ssh_host_*_key",
  "/etc/ssl/private",
  "/etc/vault.d",
  "/etc/openbao",
  "/var/lib/vault",
  "/var/lib/openbao",
  "/opt/vault",
  "/opt/openbao",
  "/etc/secrets",
  "/run/secrets",
];

/** agent-sudo state dirs besides this stack's own (config `envelope.state_dirs`). */
export const DEFAULT_STATE_DIRS = ["/var/lib/agent-sudo", "/root/.agent-sudo", "/etc/agent-sudo"];

/** A mask that exists: a directory gets an empty directory, anything else an empty file. */
export interface Mask {
  path: string;
  dir: boolean;
}

function under(path: string, prefix: string): boolean {
  return prefix === "/" || path === prefix || path.startsWith(`${prefix}/`);
}

export function isUnder(path: string, prefix: string): boolean {
  return under(path, prefix);
}

/** A glob segment's expression (a pure function of its text: kept). */
const segmentRes = new Map<string, RegExp>();
function segmentRe(seg: string): RegExp {
  let re = segmentRes.get(seg);
  if (re === undefined) {
    re = new RegExp(`^${seg.split("*").map(escapeRe).join("[^/]*")}$`);
    if (segmentRes.size > 256) segmentRes.clear();
    segmentRes.set(seg, re);
  }
  return re;
}

function escapeRe(s: string): string {
  return s.replace(/[.+?^${}()|[\]\\]/g, "\\$&");
}

/** A mask glob as a regular expression matching the path and everything below it. */
export function globPrefixRe(pattern: string): RegExp {
  return new RegExp(`^${pattern.split("*").map(escapeRe).join("[^/]*")}(/|$)`);
}

/**
 * Expands mask globs against `root`. Paths with a newline are left out (no
 * envelope word can carry them; a user who makes such a home gains nothing:
 * the glob's other matches are still masked and a newline path is no secret
 * of ours).
 */
export function expandMasks(patterns: readonly string[], root = "/"): Mask[] {
  const found = new Map<string, Mask>();
  // Listings read once per call (`/home/*/.ssh` and `/home/*/.gnupg` list /home at the same instant).
  const listings = new Map<string, string[]>();
  for (const pattern of patterns) {
    let paths = ["/"];
    for (const seg of pattern.split("/").filter(Boolean)) {
      const next: string[] = [];
      for (const base of paths) {
        if (!seg.includes("*")) {
          next.push(join(base, seg));
          continue;
        }
        const re = segmentRe(seg);
        let names = listings.get(base);
        if (names === undefined) {
          try {
            names = readdirSync(join(root, base));
          } catch {
            names = [];
          }
          listings.set(base, names);
        }
        for (const n of names) if (re.test(n)) next.push(join(base, n));
      }
      paths = next;
    }
    for (const p of paths) {
      const st = p.includes("\n") ? undefined : tryLstat(join(root, p));
      if (!st) continue;
      const real = st.isSymbolicLink() ? rootsLink(p, st, root, pattern) : p;
      const rst = real === p ? st : real === null ? undefined : tryLstat(real);
      if (real === null || !rst || rst.isSymbolicLink() || real.includes("\n")) continue;
      found.set(real, { path: real, dir: rst.isDirectory() });
    }
  }
  // The same directory or file reachable through another mount (a bind mount's source, a second mount of
  // the disk) is masked there too: a mask is by path, and the other path would show what it hides.
  if (root === "/" && found.size > 0) {
    const info = mountinfo();
    for (const m of [...found.values()])
      for (const alias of mountAliases(m.path, info)) {
        const st = alias.includes("\n") ? undefined : tryLstat(alias);
        if (st && !st.isSymbolicLink() && st.isDirectory() === m.dir) found.set(alias, { path: alias, dir: m.dir });
      }
  }
  // A mask inside another mask is already covered.
  const all = [...found.values()].sort((a, b) => a.path.length - b.path.length);
  return all.filter((m, i) => !all.slice(0, i).some((o) => o.dir && under(m.path, o.path)));
}

/**
 * Where a link named literally (no glob) leads, when root made it where only
 * root writes: the link is root's and its directory is root's and writable by
 * no one else. Else null (not followed). Only against the host's own root.
 */
function rootsLink(path: string, st: Stats, root: string, pattern: string): string | null {
  if (root !== "/") return null;
  // A user's own link to their own files (`~/.ssh -> ~/dotfiles/ssh`, stow, chezmoi): hiding it hides only theirs.
  if (pattern.includes("*") || st.uid !== 0) return ownersLink(path, st);
  const parent = tryLstat(dirname(path));
  if (!parent?.isDirectory() || parent.uid !== 0 || (parent.mode & 0o022) !== 0) return null;
  try {
    return realpathSync(path);
  } catch {
    return null;
  }
}

function mountinfo(): string {
  try {
    return readFileSync("/proc/self/mountinfo", "utf8");
  } catch {
    return "";
  }
}

/** A field of /proc/self/mountinfo as a path: the kernel writes space, tab, newline and backslash as octal escapes. */
export const octal = (field: string): string =>
  field.replace(/\\([0-7]{3})/g, (_m, o: string) => String.fromCharCode(Number.parseInt(o, 8)));

/**
 * The other paths at which `path` is mounted (mountinfo's text): the mount
 * that holds it gives its device and its path inside that file system; every
 * other mount of the same device whose root lies above that path shows it
 * too, at its mount point plus the rest of the path.
 */
export function mountAliases(path: string, info: string): string[] {
  const mounts: { dev: string; root: string; point: string }[] = [];
  const out = new Set<string>();
  for (const line of info.split("\n")) {
    const f = line.split(" ");
    if (f.length < 5 || !f[2] || !f[3] || !f[4]) continue;
    const point = octal(f[4]);
    mounts.push({ dev: f[2], root: octal(f[3]), point });
    // An overlay shows its layers' trees at its mount point (not the sandbox's own trial overlays).
    const [fsType, source, options] = (line.split(" - ")[1] ?? "").split(" ");
    if (fsType === "overlay" && source !== "agent-sudo-trial" && source !== "agent-sudo-scratch")
      for (const [, key, value] of (options ?? "").matchAll(/(?:^|,)(lowerdir|upperdir)=([^,]*)/g))
        for (const layer of key === "lowerdir" ? (value ?? "").split(":") : [value ?? ""]) {
          const dir = octal(layer).replace(/\\(.)/g, "$1");
          if (!dir.startsWith("/")) continue;
          if (under(path, dir)) out.add(posix.join(point, path.slice(dir.length)));
          else if (under(dir, path)) out.add(point);
        }
  }
  // The mount that holds `path`: the deepest mount point above it (the last listed of equals: it is on top).
  let holder: (typeof mounts)[number] | undefined;
  for (const m of mounts) if (under(path, m.point) && (!holder || m.point.length >= holder.point.length)) holder = m;
  if (!holder) return [];
  const inFs = posix.join(holder.root, holder.point === "/" ? path : path.slice(holder.point.length));
  for (const m of mounts) {
    if (m === holder || m.dev !== holder.dev) continue;
    // A mount of a tree above it shows it below its mount point; a mount of a part of it shows that part.
    if (under(inFs, m.root)) out.add(posix.join(m.point, m.root === "/" ? inFs : inFs.slice(m.root.length)));
    else if (under(m.root, inFs)) out.add(m.point);
  }
  out.delete(path);
  return [...out];
}

/** Where a non-root user's link leads when what it leads to is theirs too (never root's, never another's). */
function ownersLink(path: string, st: Stats): string | null {
  if (st.uid === 0) return null;
  try {
    const real = realpathSync(path);
    const target = tryLstat(real);
    return target && target.uid === st.uid ? real : null;
  } catch {
    return null;
  }
}

/** Every path a command's envelope masks on this host now: state dirs first, then secrets. */
export function hostMasks(o: { home: string; stateDirs: readonly string[]; secrets: readonly string[] }): string[] {
  return expandMasks([o.home, ...o.stateDirs, ...o.secrets]).map((m) => m.path);
}
