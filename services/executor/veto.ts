// The executor's own danger veto. Written apart from the classifier on
// purpose: whatever the signers said, these never run. Coarse by design —
// it matches on the text with quoting removed, so it may refuse a harmless
// `echo "mkfs"`; it must never let the real thing through.
import { posix } from "node:path";

const TOP_LEVEL = "(?:bin|boot|dev|etc|home|lib|lib32|lib64|libx32|opt|proc|root|run|sbin|srv|sys|usr|var|mnt|media|snap|boot/efi)";
// A target that is `/`, `/*`, `/.`, a top-level system dir (optionally with a
// trailing slash or /*), `~`, `$HOME`/`${HOME}`.
const ROOTISH = `(?:/+\\.?\\*?|/+${TOP_LEVEL}/*\\*?|~/*\\*?|\\$\\{?HOME\\}?/*\\*?)`;
const END = "(?=$|[\\s;&|)])";
// A flag group with a recursive letter anywhere in it: -r, -rf, -fR, -Rfv,
// --recursive and its GNU abbreviations (--rec, --recu …).
const RECURSIVE = "-(?:-rec[a-z]*|[a-zA-Z]*[rR][a-zA-Z]*)\\b";
const RECURSIVE_UPPER = "-(?:-rec[a-z]*|[a-zA-Z]*R[a-zA-Z]*)\\b";

const VETOES: ReadonlyArray<{ name: string; re: RegExp }> = [
  { name: "recursive-delete-of-system-path", re: new RegExp(`\\brm\\b[^;&|]*\\s${RECURSIVE}[^;&|]*\\s${ROOTISH}${END}`) },
  { name: "recursive-delete-of-system-path", re: new RegExp(`\\brm\\b[^;&|]*\\s${ROOTISH}${END}[^;&|]*\\s${RECURSIVE}`) },
  { name: "no-preserve-root", re: /--no-pres[a-z-]*/ },
  {
    name: "recursive-chmod-chown-of-system-path",
    re: new RegExp(`\\b(?:chmod|chown|chgrp)\\b[^;&|]*\\s${RECURSIVE_UPPER}[^;&|]*\\s${ROOTISH}${END}`),
  },
  { name: "make-filesystem", re: /(?:^|[\s;&|(/])mkfs(?:\.[a-z0-9]+)?\b/ },
  { name: "write-onto-block-device", re: /\bof=\/dev\/(?!null\b|zero\b|stdout\b|stderr\b|tty\b)/ },
  { name: "write-onto-block-device", re: />\s*\/dev\/(?:sd|hd|vd|xvd|nvme|mmcblk|dm-|md|loop|disk\/)/ },
  { name: "shred-device", re: /\bshred\b[^;&|]*\/dev\// },
  { name: "fork-bomb", re: /([A-Za-z_:.][\w:.]*)\s*\(\s*\)\s*\{[^}]*\1\s*\|\s*\1\s*&/ },
  { name: "sysrq", re: /\/proc\/sysrq-trigger|\bsysrq\b/ },
];

// Disk tools: every use is refused except these read-only forms, in which
// each word after the tool is one of the listed options or a /dev path (and
// at least one listing option is there: without it fdisk, sfdisk, parted and
// gdisk read editing commands). Anything else on the segment — another
// option, a redirection, a second parted command — refuses it.
const DEV = "/dev/[\\w./:-]+";
const DISK_READ: Record<string, { words: RegExp; needs?: RegExp }> = {
  fdisk: { words: new RegExp(`^(?:-l|--list|-x|--list-details|-lu|${DEV})$`), needs: /^(?:-l|--list|-x|--list-details|-lu)$/ },
  sfdisk: {
    words: new RegExp(`^(?:-l|--list|-d|--dump|-V|--verify|-s|--show-size|-J|--json|-F|--list-free|${DEV})$`),
    needs: /^(?:-[ldVsJF]|--(?:list|dump|verify|show-size|json|list-free))$/,
  },
  parted: { words: new RegExp(`^(?:-l|--list|-m|--machine|-s|--script|print|free|all|devices|${DEV})$`), needs: /^(?:-l|--list|print)$/ },
  gdisk: { words: new RegExp(`^(?:-l|${DEV})$`), needs: /^-l$/ },
  sgdisk: { words: new RegExp(`^(?:-p|--print|-v|--verify|${DEV})$`), needs: /^(?:-p|--print|-v|--verify)$/ },
  wipefs: { words: new RegExp(`^(?:-n|--no-act|-J|--json|-p|--parsable|-i|--noheadings|${DEV})$`) },
};

/** The disk tool used on this text in a form that is not one of its read-only forms, or undefined. */
function diskWrite(text: string): string | undefined {
  for (const m of text.matchAll(/(?:^|[\s;&|(/])(wipefs|fdisk|sfdisk|cfdisk|gdisk|sgdisk|parted|blkdiscard)\b([^;&|()\n]*)/g)) {
    const form = DISK_READ[m[1] as string];
    const words = (m[2] ?? "").trim().split(/\s+/).filter(Boolean);
    if (!form || !words.every((w) => form.words.test(w)) || (form.needs && !words.some((w) => form.needs?.test(w))))
      return "disk-wipe-or-partition";
  }
  return undefined;
}

/** Removes quotes and backslashes so `r''m -rf /` and `\rm` read as `rm`. */
function flatten(command: string): string {
  return command.replace(/['"\\]/g, "").replace(/\s+/g, " ");
}

// In a system directory, a recursive delete of `*`, `.` or `./*` is one of it.
const SYSTEM_CWD = new RegExp(`^${ROOTISH}$`);
const RELATIVE_ALL = new RegExp(
  `\\brm\\b[^;&|]*\\s(?:${RECURSIVE}[^;&|]*\\s(?:\\.?/?\\*|\\.)${END}|(?:\\.?/?\\*|\\.)${END}[^;&|]*\\s${RECURSIVE})`,
);

/**
 * Every directory a part of the command may run in: `cwd`, and wherever a
 * `cd`/`pushd` in it may go ("" when that is not known: `cd "$X"`, `cd -`).
 */
function directories(text: string, cwd: string): string[] {
  const dirs = [cwd];
  for (const m of text.matchAll(/(?:^|[;&|(\n]\s*)(?:cd|pushd|popd)(?:\s+-[LPe@]+)*(?:\s+([^\s;&|)]+))?/g)) {
    const t = m[1];
    if (!t || /^(?:~|\$\{?HOME\}?)/.test(t)) dirs.push("~");
    else if (t.includes("$") || t.includes("`") || t === "-" || m[0].includes("popd")) dirs.push("");
    else dirs.push(t.startsWith("/") ? posix.normalize(t) : cwd ? posix.resolve(cwd, t) : "");
  }
  return dirs.map((d) => (d.length > 1 ? d.replace(/\/+$/, "") : d));
}

/** The name of the veto that refuses this command (run in `cwd`), or undefined. */
export function vetoed(command: string, cwd = ""): string | undefined {
  const text = flatten(command);
  for (const veto of VETOES) if (veto.re.test(text)) return veto.name;
  const disk = diskWrite(text);
  if (disk) return disk;
  if (!RELATIVE_ALL.test(text)) return undefined;
  const dirs = directories(text, cwd || "/");
  if (dirs.some((d) => d === "" || SYSTEM_CWD.test(d))) return "recursive-delete-in-system-dir";
  return undefined;
}
