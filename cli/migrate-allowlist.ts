// `agent-sudo migrate-allowlist FILE [--state active|proposed] [--plain-tier 0|1|2] [--id-prefix P]`:
// the old sudo bridge's allowlist.json → SUDO.md rules, on stdout, in the
// format of policies/README.md (the rule table `| id | patterns | tier |
// class | hosts | state | rationale |` and `## Danger veto` lines, as
// services/classifier/engine/policy.ts parses them). Notes go to stderr.
//
// Accepted input (JSON), and nothing else:
//   1. a list of entries  [{"pattern": "systemctl status *", "tier": 1, "note": "…"}, …]
//      pattern: an fnmatch-style glob (string, one line, no backtick);
//      tier: the OLD bridge's number — 0 refuse, 1 auto, 2 human approval;
//      note: optional string, becomes the rationale. No other keys.
//   2. a plain list of patterns  ["uptime", "df -h", …] — each is old tier 1
//      (auto: a plain allowlist lists what ran without asking); --plain-tier N
//      says otherwise. Strings and entries may be mixed in one list.
//   3. an object {"rules": <list as in 1/2>, "danger_vetoes": [<regex> | {"pattern": <regex>, "note"?: …}]}
//      — the bridge's danger vetoes are regular expressions, not globs, so
//      they need their own list; either key may be absent, no other keys.
// Anything else is refused with an error naming the offending entry.
//
// Mapping (seed D4): old 0 → 4; old 1 → 0 for read-only verbs, else 1;
// old 2 → 2 when reproducible (package, file, permission, user changes),
// else 3; danger vetoes → `## Danger veto` (tier 4). A leading `sudo ` is
// dropped (SUDO.md matches what runs after sudo). Order is kept: the old
// list was first-match-wins too; a rule an earlier, broader pattern already
// covers is reported on stderr (it can never match).
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import picomatch from "picomatch";

export interface MigrateIo {
  out: (line: string) => void;
  err: (line: string) => void;
}

type OldTier = 0 | 1 | 2;
type NewTier = 0 | 1 | 2 | 3 | 4;
type VerbClass = "read" | "reproducible" | "live-service" | "catastrophic";

export interface MigratedRule {
  id: string;
  pattern: string;
  oldTier: OldTier;
  tier: NewTier;
  verbClass: VerbClass;
  rationale: string;
}

export interface MigratedVeto {
  id: string;
  regex: string;
  rationale: string;
}

export class AllowlistError extends Error {}

const OLD_NAMES: Record<OldTier, string> = { 0: "refuse", 1: "auto", 2: "human approval" };
const CLASS_OF: Record<NewTier, VerbClass> = { 0: "read", 1: "reproducible", 2: "reproducible", 3: "live-service", 4: "catastrophic" };

// ---- verb tables --------------------------------------------------------

/** Programs that only read, whatever their arguments. */
const READ_PROGRAMS = new Set([
  "ls",
  "cat",
  "head",
  "tail",
  "grep",
  "egrep",
  "fgrep",
  "zgrep",
  "zcat",
  "wc",
  "stat",
  "file",
  "df",
  "du",
  "free",
  "uptime",
  "id",
  "whoami",
  "groups",
  "uname",
  "lsblk",
  "lscpu",
  "lsusb",
  "lspci",
  "lsof",
  "ps",
  "pgrep",
  "ss",
  "netstat",
  "getent",
  "last",
  "w",
  "who",
  "findmnt",
  "readlink",
  "realpath",
  "md5sum",
  "sha1sum",
  "sha256sum",
  "sha512sum",
  "tree",
  "diff",
  "cmp",
  "pwd",
  "nproc",
  "vmstat",
  "iostat",
  "blkid",
  "lsmod",
  "printenv",
  "dig",
  "host",
  "nslookup",
  "ping",
  "test",
  "true",
  "echo",
  "which",
  "namei",
  "getfacl",
  "lsattr",
]);

/** Readers that a flag turns into writers: read only when no argument is such a flag and none is a glob. */
const WRITE_FLAGS: Record<string, RegExp> = {
  find: /^-(delete|exec|execdir|ok|okdir|fprint|fprint0|fprintf|fls)$/,
  dmesg: /^(-[a-zA-Z]*[cCnDE].*|--(clear|read-clear|console-.*))$/,
  journalctl: /^--(vacuum-.*|rotate|flush|sync|relinquish-var|smart-relinquish-var|setup-keys|update-catalog)$/,
  date: /^(-[a-zA-Z]*s.*|--set.*)$/,
  sort: /^(-[a-zA-Z]*o.*|--output.*)$/,
};

/** Commands that read only when given exactly as written (with arguments they write). */
const READ_EXACT = ["mount", "hostname", "ip a", "ip addr", "ip route", "ip link", "ufw status"];

/** Read-only subcommands: a pattern starting with one of these word sequences only reads. */
const READ_PREFIXES: string[][] = [
  ...[
    "status",
    "show",
    "is-active",
    "is-enabled",
    "is-failed",
    "list-units",
    "list-unit-files",
    "list-timers",
    "list-sockets",
    "list-dependencies",
    "cat",
    "get-default",
  ].map((s) => ["systemctl", s]),
  ...["ps", "images", "inspect", "logs", "stats", "info", "version", "top", "port", "diff", "history"].map((s) => ["docker", s]),
  ...["ps", "logs", "images", "ls", "top", "version"].map((s) => ["docker", "compose", s]),
  ...["network", "volume"].flatMap((o) => ["ls", "inspect"].map((v) => ["docker", o, v])),
  ...["list", "show", "policy", "search"].map((s) => ["apt", s]),
  ...["policy", "show", "search", "depends", "rdepends", "madison"].map((s) => ["apt-cache", s]),
  ...["-l", "-L", "-s", "-S", "--list", "--listfiles", "--status", "--search", "--get-selections"].map((s) => ["dpkg", s]),
  ...["addr", "address", "a", "link", "route", "neigh", "rule", "-br"].flatMap((o) => ["show", "list", "ls"].map((v) => ["ip", o, v])),
  ["nft", "list"],
  ["iptables", "-L"],
  ["iptables", "-S"],
  ["ip6tables", "-L"],
  ["ip6tables", "-S"],
  ["zfs", "list"],
  ["zpool", "status"],
  ["zpool", "list"],
  ["btrfs", "filesystem", "show"],
  ["btrfs", "filesystem", "df"],
  ["btrfs", "filesystem", "usage"],
  ["btrfs", "subvolume", "list"],
  ["btrfs", "subvolume", "show"],
  ["timeshift", "--list"],
  ["snap", "list"],
  ["flatpak", "list"],
  ["crontab", "-l"],
  ["smartctl", "-a"],
  ["smartctl", "-i"],
  ["smartctl", "-H"],
  ["incus", "list"],
  ["incus", "info"],
  ["timedatectl", "status"],
  ["hostnamectl", "status"],
  ["loginctl", "list-sessions"],
];

/** Programs whose changes the sandbox mirror reproduces (files, packages, permissions, users). */
const REPRODUCIBLE_PROGRAMS = new Set([
  "apt",
  "apt-get",
  "nala",
  "dpkg",
  "snap",
  "flatpak",
  "pip",
  "pip3",
  "npm",
  "chmod",
  "chown",
  "chgrp",
  "cp",
  "mv",
  "mkdir",
  "rmdir",
  "touch",
  "ln",
  "install",
  "tee",
  "sed",
  "tar",
  "unzip",
  "gunzip",
  "gzip",
  "rsync",
  "useradd",
  "usermod",
  "userdel",
  "groupadd",
  "groupmod",
  "groupdel",
  "gpasswd",
  "setfacl",
  "chattr",
  "truncate",
  "rm",
  "git",
  "update-alternatives",
  "locale-gen",
  "update-ca-certificates",
  "visudo",
  "crontab",
]);

const SHELL_SYNTAX = /[|;&<>`$(){}\n]/;
const GLOB = /[*?[\]]/;

function words(pattern: string): string[] {
  return pattern.split(/\s+/).filter(Boolean);
}

/** True when `pattern` can only ever match commands that read. */
export function isReadOnly(pattern: string): boolean {
  if (SHELL_SYNTAX.test(pattern)) return false;
  const w = words(pattern);
  const name = w[0] ?? "";
  if (READ_EXACT.includes(w.join(" "))) return true;
  const flags = WRITE_FLAGS[name];
  if (flags) return w.slice(1).every((a) => !GLOB.test(a) && !flags.test(a));
  if (READ_PROGRAMS.has(name)) return true;
  return READ_PREFIXES.some((p) => p.length <= w.length && p.every((x, i) => w[i] === x));
}

/** True when the sandbox mirror can reproduce what `pattern` changes. */
export function isReproducible(pattern: string): boolean {
  if (SHELL_SYNTAX.test(pattern)) return false;
  const name = words(pattern)[0] ?? "";
  return !GLOB.test(name) && REPRODUCIBLE_PROGRAMS.has(name);
}

export function newTierFor(oldTier: OldTier, pattern: string): NewTier {
  if (oldTier === 0) return 4;
  if (oldTier === 1) return isReadOnly(pattern) ? 0 : 1;
  return isReproducible(pattern) ? 2 : 3;
}

// ---- input --------------------------------------------------------------

function show(entry: unknown): string {
  const s = JSON.stringify(entry) ?? String(entry);
  return s.length > 100 ? `${s.slice(0, 97)}...` : s;
}

function checkPattern(p: unknown, where: string, what: string): string {
  if (typeof p !== "string") throw new AllowlistError(`${where}: "${what}" must be a string`);
  const t = p.trim();
  if (t === "") throw new AllowlistError(`${where}: "${what}" is empty`);
  if (/[\n\r`]/.test(t))
    throw new AllowlistError(`${where}: "${what}" may not contain a newline or a backtick (the policy writes it as a code span)`);
  if (t.length > 1000) throw new AllowlistError(`${where}: "${what}" is over 1000 characters`);
  return t;
}

function cleanNote(note: unknown, where: string): string | undefined {
  if (note === undefined) return undefined;
  if (typeof note !== "string") throw new AllowlistError(`${where}: "note" must be a string`);
  const t = note.replace(/\s+/g, " ").replace(/`/g, "'").replace(/\|/g, "/").trim();
  return t === "" ? undefined : t;
}

interface RawRule {
  pattern: string;
  oldTier: OldTier;
  note?: string;
  where: string;
}

function readRules(list: unknown[], plainTier: OldTier, label: string): RawRule[] {
  return list.map((entry, i) => {
    const where = `${label} ${i} (${show(entry)})`;
    if (typeof entry === "string") return { pattern: checkPattern(entry, where, "pattern"), oldTier: plainTier, where };
    if (entry === null || typeof entry !== "object" || Array.isArray(entry))
      throw new AllowlistError(`${where}: an entry is {"pattern", "tier", "note"?} or a pattern string`);
    const e = entry as Record<string, unknown>;
    for (const k of Object.keys(e))
      if (!["pattern", "tier", "note"].includes(k))
        throw new AllowlistError(`${where}: unknown key "${k}" (accepted: pattern, tier, note)`);
    if (e.tier !== 0 && e.tier !== 1 && e.tier !== 2) {
      throw new AllowlistError(`${where}: "tier" must be the old bridge's 0 (refuse), 1 (auto) or 2 (human approval), got ${show(e.tier)}`);
    }
    const note = cleanNote(e.note, where);
    return { pattern: checkPattern(e.pattern, where, "pattern"), oldTier: e.tier, ...(note ? { note } : {}), where };
  });
}

function readVetoes(list: unknown[]): { regex: string; note?: string; where: string }[] {
  return list.map((entry, i) => {
    const where = `danger_vetoes ${i} (${show(entry)})`;
    let regex: string;
    let note: string | undefined;
    if (typeof entry === "string") regex = checkPattern(entry, where, "pattern");
    else if (entry !== null && typeof entry === "object" && !Array.isArray(entry)) {
      const e = entry as Record<string, unknown>;
      for (const k of Object.keys(e))
        if (!["pattern", "note"].includes(k)) throw new AllowlistError(`${where}: unknown key "${k}" (accepted: pattern, note)`);
      regex = checkPattern(e.pattern, where, "pattern");
      note = cleanNote(e.note, where);
    } else throw new AllowlistError(`${where}: a danger veto is a regex string or {"pattern", "note"?}`);
    try {
      new RegExp(regex);
    } catch (err) {
      const hint = /\(\?[a-z]+\)/.test(regex)
        ? " (inline flags such as (?i) are Python syntax; the policy's regexes are JavaScript and take no flags)"
        : "";
      throw new AllowlistError(`${where}: not a valid regular expression: ${(err as Error).message}${hint}`);
    }
    return { regex, ...(note ? { note } : {}), where };
  });
}

export function parseAllowlist(text: string, plainTier: OldTier = 1): { rules: RawRule[]; vetoes: ReturnType<typeof readVetoes> } {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (err) {
    throw new AllowlistError(`not valid JSON: ${(err as Error).message}`);
  }
  if (Array.isArray(doc)) return { rules: readRules(doc, plainTier, "entry"), vetoes: [] };
  if (doc !== null && typeof doc === "object") {
    const o = doc as Record<string, unknown>;
    for (const k of Object.keys(o))
      if (k !== "rules" && k !== "danger_vetoes")
        throw new AllowlistError(`top level: unknown key "${k}" (accepted: rules, danger_vetoes)`);
    if (o.rules === undefined && o.danger_vetoes === undefined)
      throw new AllowlistError(`top level: an object needs "rules" or "danger_vetoes"`);
    if (o.rules !== undefined && !Array.isArray(o.rules)) throw new AllowlistError(`"rules" must be a list`);
    if (o.danger_vetoes !== undefined && !Array.isArray(o.danger_vetoes)) throw new AllowlistError(`"danger_vetoes" must be a list`);
    return {
      rules: readRules((o.rules as unknown[] | undefined) ?? [], plainTier, "rules entry"),
      vetoes: readVetoes((o.danger_vetoes as unknown[] | undefined) ?? []),
    };
  }
  throw new AllowlistError(`top level must be a list of entries, a list of patterns, or {"rules", "danger_vetoes"}; got ${show(doc)}`);
}

// ---- output -------------------------------------------------------------

const PICO: picomatch.PicomatchOptions = { bash: true, dot: true, nonegate: true, strictSlashes: true };

/** The engine's matcher: a pattern ending in " *" also matches the bare command. */
function matcher(pattern: string): (text: string) => boolean {
  const full = picomatch(pattern, PICO);
  if (!pattern.endsWith(" *")) return full;
  const bare = picomatch(pattern.slice(0, -2), PICO);
  return (t) => full(t) || bare(t);
}

function slug(pattern: string): string {
  const s = words(pattern)
    .slice(0, 3)
    .join("-")
    .toLowerCase()
    .replace(/[^a-z0-9.-]+/g, "-")
    .replace(/-+/g, "-")
    .replace(/^[-.]+|[-.]+$/g, "")
    .slice(0, 32)
    .replace(/[-.]+$/, "");
  return s === "" ? "rule" : s;
}

export function migrate(
  text: string,
  opts: { plainTier?: OldTier; idPrefix?: string } = {},
): { rules: MigratedRule[]; vetoes: MigratedVeto[]; notes: string[] } {
  const prefix = opts.idPrefix ?? "mig";
  if (!/^[a-z0-9][a-z0-9.-]*$/.test(prefix)) throw new AllowlistError(`--id-prefix ${prefix}: lower-case letters, digits, dots, dashes`);
  const parsed = parseAllowlist(text, opts.plainTier ?? 1);
  const notes: string[] = [];
  const rules: MigratedRule[] = [];
  const width = String(parsed.rules.length).length;
  parsed.rules.forEach((r, i) => {
    let pattern = r.pattern;
    if (/^sudo\s/.test(pattern)) {
      pattern = pattern.replace(/^sudo\s+/, "");
      if (pattern.startsWith("-"))
        throw new AllowlistError(`${r.where}: sudo options in a pattern are not supported; write the command as it runs after sudo`);
    }
    if (r.oldTier !== 0 && /^[*?\s]*$/.test(pattern)) {
      throw new AllowlistError(
        `${r.where}: pattern ${JSON.stringify(pattern)} matches every command; refusing to migrate a catch-all ${OLD_NAMES[r.oldTier]} rule`,
      );
    }
    const tier = newTierFor(r.oldTier, pattern);
    const why = `old ${r.oldTier} (${OLD_NAMES[r.oldTier]}) → ${tier}`;
    rules.push({
      id: `${prefix}-${String(i + 1).padStart(width, "0")}-${slug(pattern)}`,
      pattern,
      oldTier: r.oldTier,
      tier,
      verbClass: CLASS_OF[tier],
      rationale: r.note ? `${r.note} (migrated: ${why})` : `migrated from allowlist.json: ${why}`,
    });
  });
  const tests = rules.map((r) => matcher(r.pattern));
  rules.forEach((r, j) => {
    const earlier = rules.findIndex((_e, i) => i < j && tests[i]!(r.pattern));
    if (earlier >= 0)
      notes.push(
        `${r.id} (\`${r.pattern}\`) can never match: ${rules[earlier]!.id} (\`${rules[earlier]!.pattern}\`) comes first and covers it`,
      );
  });
  const vetoes = parsed.vetoes.map((v, i) => ({
    id: `${prefix}-veto-${String(i + 1).padStart(String(parsed.vetoes.length).length, "0")}`,
    regex: v.regex,
    rationale: v.note ? `${v.note} (migrated danger veto)` : "migrated danger veto from allowlist.json",
  }));
  return { rules, vetoes, notes };
}

export function renderRules(
  rules: readonly MigratedRule[],
  vetoes: readonly MigratedVeto[],
  state: "active" | "proposed",
  source: string,
): string[] {
  const lines: string[] = [];
  if (rules.length > 0) {
    lines.push(`## Rules (migrated from ${source.replace(/[\n`|]/g, "_")})`, "");
    lines.push(
      "Old bridge tiers: 0 refuse → 4; 1 auto → 0 (read-only verb) or 1; 2 human approval → 2 (reproducible) or 3. Order is the old list's order: first match wins.",
      "",
    );
    lines.push("| id | patterns | tier | class | hosts | state | rationale |", "|---|---|---|---|---|---|---|");
    for (const r of rules) lines.push(`| ${r.id} | \`${r.pattern}\` | ${r.tier} | ${r.verbClass} | - | ${state} | ${r.rationale} |`);
    lines.push("");
  }
  if (vetoes.length > 0) {
    lines.push("## Danger veto", "");
    for (const v of vetoes) lines.push(`- \`${v.id}\`: \`${v.regex}\` — ${v.rationale}`);
    lines.push("");
  }
  return lines;
}

const USAGE = "usage: agent-sudo migrate-allowlist ALLOWLIST.json [--state active|proposed] [--plain-tier 0|1|2] [--id-prefix PREFIX]";

function stdio(): MigrateIo {
  return { out: (l) => process.stdout.write(`${l}\n`), err: (l) => process.stderr.write(`${l}\n`) };
}

export async function migrateAllowlistCommand(argv: string[], io: MigrateIo = stdio()): Promise<number> {
  let values: { state?: string; "plain-tier"?: string; "id-prefix"?: string };
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: argv,
      allowPositionals: true,
      options: { state: { type: "string" }, "plain-tier": { type: "string" }, "id-prefix": { type: "string" } },
    }));
  } catch (err) {
    io.err(`migrate-allowlist: ${(err as Error).message}\n${USAGE}`);
    return 2;
  }
  const state = values.state ?? "active";
  const plain = values["plain-tier"] ?? "1";
  if (positionals.length !== 1 || (state !== "active" && state !== "proposed") || !["0", "1", "2"].includes(plain)) {
    io.err(USAGE);
    return 2;
  }
  const file = positionals[0] as string;
  try {
    const { rules, vetoes, notes } = migrate(readFileSync(file, "utf8"), {
      plainTier: Number(plain) as OldTier,
      ...(values["id-prefix"] ? { idPrefix: values["id-prefix"] } : {}),
    });
    for (const line of renderRules(rules, vetoes, state, file.split("/").pop() ?? file)) io.out(line);
    const counts = [0, 1, 2, 3, 4].map((t) => `tier ${t}: ${rules.filter((r) => r.tier === t).length}`).join(", ");
    io.err(`migrate-allowlist: ${rules.length} rules (${counts}), ${vetoes.length} danger vetoes, state ${state}`);
    for (const n of notes) io.err(`note: ${n}`);
    return 0;
  } catch (err) {
    const message = err instanceof AllowlistError ? `${file}: ${err.message}` : (err as Error).message;
    io.err(`migrate-allowlist: ${message}`);
    return 1;
  }
}
