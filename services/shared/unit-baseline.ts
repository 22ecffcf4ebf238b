// Both judges (the classifier's manifest effects, the concurrence) compare a unit file that replaces or extends one
// already on the host with it: one reading of the host's units, one rule. A full unit in /etc, /run or /usr/local
// shadows the vendor's unit of the same name (and an instance's file its template); a drop-in is added to the unit
// and its drop-ins; a rewritten file replaces its old self. Leaving a setting out is its default, so what
// the unit loses is seen only against the host's own: every protection the unit has now (its fragment and drop-ins,
// read from the host at `root`) must stay at least as strong — a flag no weaker, an allow-list no wider, a deny-list
// and the paths it hides or makes read-only no shorter, the same non-root user, devices and addresses no wider, the
// same umask bits. What the diff writes is read from the manifest; only the host's units are read here (64 KiB each).
import { closeSync, fstatSync, openSync, readdirSync, readSync } from "node:fs";
import { posix } from "node:path";

/** The system manager's unit directories, first wins (systemd.unit(5)); a file shadows the same name further down. */
const UNIT_DIRS = [
  "/etc/systemd/system.control",
  "/run/systemd/system.control",
  "/run/systemd/transient",
  "/etc/systemd/system",
  "/run/systemd/system",
  "/usr/local/lib/systemd/system",
  "/usr/lib/systemd/system",
  "/lib/systemd/system",
];
const UNIT = /^[^/]+\.(service|socket|mount|swap)$/;
const MAX_UNIT = 64 * 1024;

function readUnit(root: string, path: string): string | null {
  let fd: number | null = null;
  try {
    fd = openSync(posix.join(root, path), "r");
    const st = fstatSync(fd);
    if (!st.isFile() || st.size === 0 || st.size > MAX_UNIT) return null;
    const buf = Buffer.alloc(st.size);
    return buf
      .subarray(0, readSync(fd, buf, 0, st.size, 0))
      .toString("utf8")
      .replace(/\r\n?/g, "\n");
  } catch {
    return null;
  } finally {
    if (fd !== null) closeSync(fd);
  }
}

function listConf(root: string, dir: string): string[] {
  try {
    return readdirSync(posix.join(root, dir)).filter((f) => f.endsWith(".conf"));
  } catch {
    return [];
  }
}

/** `x@a.service` → `x@.service`; null for a name that is no instance. */
const templateOf = (unit: string): string | null => (/^[^@]+@[^@]+\.[a-z]+$/.test(unit) ? unit.replace(/@[^.]*\./, "@.") : null);

/** The host's fragment for `unit` from `dirs` on (the instance's own name first, then its template), or null. */
function hostFragment(root: string, unit: string, dirs: readonly string[]): string | null {
  for (const name of [unit, templateOf(unit)])
    for (const dir of name ? dirs : []) {
      const text = readUnit(root, `${dir}/${name}`);
      if (text !== null) return text;
    }
  return null;
}

/**
 * The drop-in directories systemd reads for `unit`, most specific first (systemd.unit(5)): its own, its template's,
 * then one for each prefix of its name up to a dash (`a-b-c.service` → `a-b-.service.d`, `a-.service.d`), then the
 * type-wide one (`service.d`).
 */
function dropInNames(unit: string): string[] {
  const type = unit.slice(unit.lastIndexOf(".") + 1);
  const stem = unit.slice(0, unit.lastIndexOf(".")).replace(/@.*$/, "");
  const out = [unit, templateOf(unit)].filter((n): n is string => n !== null);
  for (let dash = stem.lastIndexOf("-"); dash > 0; dash = stem.lastIndexOf("-", dash - 1)) out.push(`${stem.slice(0, dash + 1)}.${type}`);
  return [...out, type];
}

/** The host's drop-ins of `unit` by file name, each from the first directory that has it (a higher directory masks a lower one). */
function hostDropIns(root: string, unit: string): Map<string, string> {
  const out = new Map<string, string>();
  const names = dropInNames(unit);
  for (const dir of UNIT_DIRS)
    for (const name of names) for (const f of listConf(root, `${dir}/${name}.d`)) if (!out.has(f)) out.set(f, `${dir}/${name}.d/${f}`);
  return out;
}

/** At most this many host units are compared with one prefix drop-in; a drop-in reaching more is not judged here. */
const MAX_PREFIX_UNITS = 64;
/** `demo-.service` (the directory `demo-.service.d`): the prefix and type of a drop-in for every unit named `demo-…`. */
const PREFIX_UNIT = /^([^/@]+-)\.(service|socket|mount|swap)$/;

/** The host's units a prefix drop-in applies to: every unit file of the type whose name (before `@`) starts with the prefix. */
function prefixUnits(root: string, prefix: string, type: string): string[] | null {
  const out = new Set<string>();
  for (const dir of UNIT_DIRS) {
    let names: string[];
    try {
      names = readdirSync(posix.join(root, dir));
    } catch {
      continue;
    }
    for (const name of names) {
      const m = /^([^/@]+)(@[^/]*)?\.([a-z]+)$/.exec(name);
      if (m?.[3] !== type || !m[1]?.startsWith(prefix) || m[1] === prefix) continue;
      out.add(name);
      if (out.size > MAX_PREFIX_UNITS) return null;
    }
  }
  return [...out].sort();
}

type Settings = Map<string, string[]>;
function settings(text: string): Settings {
  const out: Settings = new Map();
  for (const line of text.replace(/\\\n/g, " ").split("\n")) {
    const m = /^\s*([A-Za-z][A-Za-z0-9]*)\s*=\s*(.*)$/.exec(line);
    if (!m?.[1]) continue;
    out.set(m[1], [...(out.get(m[1]) ?? []), (m[2] ?? "").trim().replace(/^"(.*)"$/, "$1")]);
  }
  return out;
}
const last = (s: Settings, key: string): string | undefined => s.get(key)?.at(-1);

const bool = (v: string): number => (/^(1|yes|y|true|t|on)$/i.test(v) ? 1 : /^(0|no|n|false|f|off|)$/i.test(v) ? 0 : -1);
const ranked =
  (scale: Record<string, number>, asBool = 1) =>
  (v: string): number =>
    scale[v.toLowerCase()] ?? (bool(v) < 0 ? -1 : bool(v) * asBool);
/** Settings with a strength: higher is more protected (-1: a value not known here). */
const STRENGTH: Record<string, (v: string) => number> = {
  ProtectSystem: ranked({ full: 2, strict: 3 }),
  ProtectHome: ranked({ "read-only": 1, tmpfs: 2 }, 2),
  PrivateTmp: ranked({ disconnected: 1 }),
  PrivateUsers: ranked({ full: 1, identity: 2, self: 4 }, 3),
  ProtectControlGroups: ranked({ private: 1, strict: 2 }),
  ProtectHostname: ranked({ private: 1 }),
  ProtectProc: ranked({ default: 0, ptraceable: 1, noaccess: 2, invisible: 3 }),
  ProcSubset: ranked({ all: 0, pid: 1 }),
};
for (const flag of [
  "NoNewPrivileges",
  "PrivateDevices",
  "PrivateNetwork",
  "PrivateIPC",
  "PrivateMounts",
  "DynamicUser",
  "ProtectKernelTunables",
  "ProtectKernelModules",
  "ProtectKernelLogs",
  "ProtectClock",
  "RestrictSUIDSGID",
  "RestrictRealtime",
  "LockPersonality",
  "MemoryDenyWriteExecute",
  "RemoveIPC",
])
  STRENGTH[flag] = bool;

/** Lists that allow (or, with `~`, deny) what they name; later lines add to or take from the first's kind. */
const POLARITY_LISTS = [
  "SystemCallFilter",
  "SystemCallArchitectures",
  "RestrictAddressFamilies",
  "CapabilityBoundingSet",
  "RestrictFileSystems",
  "RestrictNamespaces",
];
/** Lists of what the unit is kept from: the host's entries must all stay. */
const KEPT_LISTS = [
  "ReadOnlyPaths",
  "ReadOnlyDirectories",
  "InaccessiblePaths",
  "InaccessibleDirectories",
  "NoExecPaths",
  "TemporaryFileSystem",
  "IPAddressDeny",
];

interface Polar {
  mode: "none" | "allow" | "deny";
  plus: Set<string>;
  minus: Set<string>;
}
const item = (w: string): string => w.toLowerCase().replace(/^cap_/, "").replace(/:.*$/, "");
function polar(values: readonly string[], key: string): Polar {
  let p: Polar = { mode: "none", plus: new Set(), minus: new Set() };
  for (const v of values) {
    if (v === "" || (key === "RestrictNamespaces" && bool(v) === 0)) p = { mode: "none", plus: new Set(), minus: new Set() };
    else if ((key === "RestrictNamespaces" && bool(v) === 1) || (key === "RestrictAddressFamilies" && v === "none"))
      p = { mode: "allow", plus: new Set(), minus: new Set() };
    else {
      const deny = v.startsWith("~");
      const words = v.replace(/^~/, "").split(/\s+/).filter(Boolean).map(item);
      if (p.mode === "none") p = { mode: deny ? "deny" : "allow", plus: new Set(words), minus: new Set() };
      const [add, take] = (p.mode === "deny") === deny ? [p.plus, p.minus] : [p.minus, p.plus];
      for (const w of words) add.add(w), take.delete(w);
    }
  }
  return p;
}
const within = (a: ReadonlySet<string>, b: ReadonlySet<string>): boolean => [...a].every((x) => b.has(x));
function polarWeaker(was: Polar, now: Polar): boolean {
  if (was.mode === "none") return false;
  if (now.mode !== was.mode) return true;
  return was.mode === "allow"
    ? !within(now.plus, was.plus) || !within(was.minus, now.minus)
    : !within(was.plus, now.plus) || !within(now.minus, was.minus);
}

/** The entries of a list (an empty value resets it), `-`/`+` prefixes and trailing slashes dropped. */
function entries(values: readonly string[] | undefined): Set<string> {
  let out = new Set<string>();
  for (const v of values ?? []) {
    if (v === "") out = new Set();
    for (const w of v.split(/\s+/).filter(Boolean)) out.add(w.replace(/^[-+]+/, "").replace(/(.)\/$/, "$1"));
  }
  return out;
}
/** DeviceAllow= entries: device → access letters (none given: rwm). */
function devices(values: readonly string[] | undefined): Map<string, string> {
  let out = new Map<string, string>();
  for (const v of values ?? []) {
    if (v === "") out = new Map();
    const [dev, access] = v.split(/\s+/);
    if (dev) out.set(dev, `${out.get(dev) ?? ""}${access ?? "rwm"}`);
  }
  return out;
}
const DEVICE_POLICY: Record<string, number> = { strict: 2, closed: 1 };
const deviceLock = (s: Settings): number =>
  DEVICE_POLICY[last(s, "DevicePolicy") ?? ""] ?? (devices(s.get("DeviceAllow")).size > 0 ? 1 : 0);
const runsAsRoot = (s: Settings): boolean => bool(last(s, "DynamicUser") ?? "") !== 1 && ["", "root", "0"].includes(last(s, "User") ?? "");
const ROOTS_GROUP = /^(root|0|disk|shadow|docker|sudo|wheel|kmem|adm|lxd|libvirt|systemd-journal)$/;

/** What `now` leaves out or weakens of the protections `was` sets. */
function weakerThan(was: Settings, now: Settings): string[] {
  const out: string[] = [];
  const said = (key: string) =>
    `${key}=${last(was, key) ?? ""} → ${last(now, key) === undefined ? "left out" : `${key}=${last(now, key)}`}`;
  for (const [key, strength] of Object.entries(STRENGTH)) {
    const v = last(was, key);
    if (v === undefined || strength(v) <= 0) continue;
    const n = last(now, key);
    if (n === undefined || strength(n) < strength(v)) out.push(said(key));
  }
  for (const key of POLARITY_LISTS)
    if (polarWeaker(polar(was.get(key) ?? [], key), polar(now.get(key) ?? [], key))) out.push(`${key}= allows more than the host's unit`);
  for (const key of KEPT_LISTS)
    if (!within(entries(was.get(key)), entries(now.get(key)))) out.push(`${key}= drops entries the host's unit has`);
  if (entries(was.get("IPAddressDeny")).size > 0 && !within(entries(now.get("IPAddressAllow")), entries(was.get("IPAddressAllow"))))
    out.push("IPAddressAllow= allows addresses the host's unit denies");
  const wasDevices = devices(was.get("DeviceAllow"));
  if (
    deviceLock(now) < deviceLock(was) ||
    (deviceLock(was) > 0 && [...devices(now.get("DeviceAllow"))].some(([d, a]) => ![...a].every((c) => wasDevices.get(d)?.includes(c))))
  )
    out.push("DevicePolicy=/DeviceAllow= open devices the host's unit does not");
  if (!runsAsRoot(was) && runsAsRoot(now)) out.push(`runs as root where the host's unit runs as ${last(was, "User") || "a dynamic user"}`);
  const group = last(now, "Group") ?? "";
  if (ROOTS_GROUP.test(group) && group !== last(was, "Group")) out.push(`Group=${group}, a group with root's reach`);
  const groups = entries(was.get("SupplementaryGroups"));
  const added = [...entries(now.get("SupplementaryGroups"))].find((g) => ROOTS_GROUP.test(g) && !groups.has(g));
  if (added) out.push(`SupplementaryGroups= adds ${added}, a group with root's reach`);
  const umask = last(was, "UMask");
  if (umask !== undefined && /^[0-7]{1,4}$/.test(umask)) {
    const n = last(now, "UMask") ?? "0022";
    if (!/^[0-7]{1,4}$/.test(n) || Number.parseInt(umask, 8) & ~Number.parseInt(n, 8) & 0o077) out.push(said("UMask"));
  }
  return out;
}

/**
 * The protections of the host's unit that a unit file or drop-in written at `path` with `text` leaves out or weakens
 * (empty when the path is no system unit's, or the host has no such unit). A drop-in in a prefix directory
 * (`demo-.service.d`) is compared with every host unit it applies to, as that unit's own drop-in.
 */
export function hostUnitWeakened(path: string, text: string, root = "/"): string[] {
  const drop = /^(\/.+)\/([^/]+)\.d\/([^/]+\.conf)$/.exec(path);
  const prefix = drop && UNIT_DIRS.includes(drop[1] as string) ? PREFIX_UNIT.exec(drop[2] as string) : null;
  if (drop && prefix) {
    const units = prefixUnits(root, prefix[1] as string, prefix[2] as string);
    if (units === null)
      return [`a drop-in for every unit named ${prefix[1]}…, more than ${MAX_PREFIX_UNITS} on the host: not each compared`];
    return units.flatMap((unit) =>
      unitWeakened(unit, { dir: drop[1] as string, file: drop[3] as string }, text, root).map((w) => `${unit}: ${w}`),
    );
  }
  const [dir, unit] = drop ? [drop[1] as string, drop[2] as string] : [posix.dirname(path), posix.basename(path)];
  if (!UNIT_DIRS.includes(dir) || !UNIT.test(unit)) return [];
  return unitWeakened(unit, drop ? { dir, file: drop[3] as string } : { dir }, text, root);
}

/** What `unit` on the host loses to `text`, written as its fragment in `at.dir`, or as the drop-in `at.file`. */
function unitWeakened(unit: string, at: { dir: string; file?: string }, text: string, root: string): string[] {
  // A drop-in extends whichever fragment is loaded; a fragment replaces the one at its own place or below it.
  const fragment = hostFragment(root, unit, at.file ? UNIT_DIRS : UNIT_DIRS.slice(UNIT_DIRS.indexOf(at.dir)));
  if (fragment === null) return [];
  const dropIns = hostDropIns(root, unit);
  const joined = (parts: ReadonlyMap<string, string | null>) =>
    [...parts.entries()]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([, t]) => t ?? "")
      .join("\n");
  const hostParts = new Map([...dropIns].map(([f, p]) => [f, readUnit(root, p)]));
  const was = `${fragment}\n${joined(hostParts)}`;
  const now = at.file ? `${fragment}\n${joined(new Map([...hostParts, [at.file, text]]))}` : `${text}\n${joined(hostParts)}`;
  return weakerThan(settings(was), settings(now));
}

/** The same for a link written at `path` to `target`, a unit file already on the host (read there). */
export function hostLinkWeakened(path: string, target: string, root = "/"): string[] {
  const text = readUnit(root, target);
  return text === null ? [] : hostUnitWeakened(path, text, root);
}
