// What the overlay mirror is made of: one overlay layer per on-disk file
// system of the host (so /home or /var on their own partitions are mirrored
// too, not shown empty), and the masks, expanded against the host.
import { readFileSync } from "node:fs";
import { octal } from "../shared/envelope/masks.js";

/** File systems that hold host content and are mirrored; pseudo and memory file systems are not. */
// overlay too: a host whose `/` is itself overlayfs (a container, a throwaway
// root) is mirrored by stacking on it (two levels, within the kernel's limit).
const DISK_FS = new Set(["ext2", "ext3", "ext4", "xfs", "btrfs", "f2fs", "jfs", "reiserfs", "zfs", "vfat", "exfat", "bcachefs", "overlay"]);
/** Memory file systems mirrored anyway: commands work on files in temp dirs, and an undo plan must cover them. */
const MIRRORED_TMPFS = new Set(["/tmp", "/var/tmp"]);

/** One overlay: the host directory that is its lower layer, and where it appears in the mirror. */
export interface Layer {
  lower: string;
  target: string;
}

export interface MountEntry {
  mountPoint: string;
  fsType: string;
}

/** /proc/self/mountinfo, mount point and type only (octal escapes decoded). */
export function parseMountinfo(text: string): MountEntry[] {
  const out: MountEntry[] = [];
  for (const line of text.split("\n")) {
    if (!line) continue;
    const [left, right] = line.split(" - ");
    const mountPoint = left?.split(" ")[4];
    const fsType = right?.split(" ")[0];
    if (mountPoint && fsType) out.push({ mountPoint: octal(mountPoint), fsType });
  }
  return out;
}

/** Characters an overlay `lowerdir=` or a mount option cannot carry unescaped. */
const UNSAFE = /[,:\\\n]/;

function under(path: string, prefix: string): boolean {
  return prefix === "/" || path === prefix || path.startsWith(`${prefix}/`);
}

/**
 * Layers for a mirror of this host: `/` first, then every on-disk mount
 * below it (parents before children), skipping mounts inside masked or
 * skipped paths. A mount point the overlay options cannot carry is
 * reported, not silently mirrored wrong.
 */
export function hostLayers(
  mountinfo: string,
  masks: readonly string[],
  skip: readonly string[],
): { layers: Layer[]; unmirrored: string[] } {
  const entries = parseMountinfo(mountinfo);
  // The last mount at a path is the visible one.
  const visible = new Map<string, MountEntry>();
  for (const e of entries) visible.set(e.mountPoint, e);
  const layers: Layer[] = [];
  const unmirrored: string[] = [];
  for (const e of [...visible.values()].sort((a, b) => a.mountPoint.length - b.mountPoint.length)) {
    if (!DISK_FS.has(e.fsType) && !(e.fsType === "tmpfs" && MIRRORED_TMPFS.has(e.mountPoint))) continue;
    if (e.mountPoint !== "/" && [...masks, ...skip].some((m) => under(e.mountPoint, m))) continue;
    if (UNSAFE.test(e.mountPoint)) {
      unmirrored.push(e.mountPoint);
      continue;
    }
    // A disk mount hidden under a pseudo file system (e.g. inside /proc) is not part of the mirror.
    if (e.mountPoint !== "/" && !layers.some((l) => l.target === "/")) continue;
    layers.push({ lower: e.mountPoint, target: e.mountPoint });
  }
  if (!layers.some((l) => l.target === "/"))
    throw new Error("the root file system is not on a disk file system the overlay driver mirrors");
  return { layers, unmirrored };
}

export function readHostLayers(masks: readonly string[], skip: readonly string[]): { layers: Layer[]; unmirrored: string[] } {
  return hostLayers(readFileSync("/proc/self/mountinfo", "utf8"), masks, skip);
}

// Masks are shared with the executor's envelopes (services/shared/envelope/masks.ts).
export { expandMasks, globPrefixRe, isUnder, type Mask } from "../shared/envelope/masks.js";
