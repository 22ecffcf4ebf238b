// The executor's own danger veto. Written apart from the classifier on
// purpose: whatever the signers said, these never run. Coarse by design —
// it matches on the text with quoting removed, so it may refuse a harmless
// `echo "mkfs"`; it must never let the real thing through.

const TOP_LEVEL = "(?:bin|boot|dev|etc|home|lib|lib32|lib64|libx32|opt|proc|root|run|sbin|srv|sys|usr|var|mnt|media|snap|boot/efi)";
// A target that is `/`, `/*`, `/.`, a top-level system dir (optionally with a
// trailing slash or /*), `~`, `$HOME`/`${HOME}`.
const ROOTISH = `(?:/+\\.?\\*?|/+${TOP_LEVEL}/*\\*?|~/*\\*?|\\$\\{?HOME\\}?/*\\*?)`;
const END = "(?=$|[\\s;&|)])";

const VETOES: ReadonlyArray<{ name: string; re: RegExp }> = [
  { name: "recursive-delete-of-system-path", re: new RegExp(`\\brm\\b[^;&|]*\\s-(?:-recursive|[a-zA-Z]*[rR])\\b[^;&|]*\\s${ROOTISH}${END}`) },
  { name: "recursive-delete-of-system-path", re: new RegExp(`\\brm\\b[^;&|]*\\s${ROOTISH}${END}[^;&|]*\\s-(?:-recursive|[a-zA-Z]*[rR])\\b`) },
  { name: "no-preserve-root", re: /--no-preserve-root\b/ },
  { name: "recursive-chmod-chown-of-system-path", re: new RegExp(`\\b(?:chmod|chown|chgrp)\\b[^;&|]*\\s-(?:-recursive|[a-zA-Z]*R)\\b[^;&|]*\\s${ROOTISH}${END}`) },
  { name: "make-filesystem", re: /(?:^|[\s;&|(/])mkfs(?:\.[a-z0-9]+)?\b/ },
  { name: "disk-wipe-or-partition", re: /(?:^|[\s;&|(/])(?:wipefs|fdisk|sfdisk|cfdisk|gdisk|sgdisk|parted|blkdiscard)\b/ },
  { name: "write-onto-block-device", re: /\bof=\/dev\/(?!null\b|zero\b|stdout\b|stderr\b|tty\b)/ },
  { name: "write-onto-block-device", re: />\s*\/dev\/(?:sd|hd|vd|xvd|nvme|mmcblk|dm-|md|loop|disk\/)/ },
  { name: "shred-device", re: /\bshred\b[^;&|]*\/dev\// },
  { name: "fork-bomb", re: /([A-Za-z_:.][\w:.]*)\s*\(\s*\)\s*\{[^}]*\1\s*\|\s*\1\s*&/ },
  { name: "sysrq", re: /\/proc\/sysrq-trigger|\bsysrq\b/ },
];

/** Removes quotes and backslashes so `r''m -rf /` and `\rm` read as `rm`. */
function flatten(command: string): string {
  return command.replace(/['"\\]/g, "").replace(/\s+/g, " ");
}

/** The name of the veto that refuses this command, or undefined. */
export function vetoed(command: string): string | undefined {
  const text = flatten(command);
  for (const veto of VETOES) if (veto.re.test(text)) return veto.name;
  return undefined;
}
