// The self-completing mirror (seed D5): a trial that fails because the
// mirror lacks something becomes a gap record — a command not found, a
// missing path, an unknown user or group, a package the mirror cannot
// fetch. Gaps are appended to the host's rebuild manifest
// (<state>/sandbox/<host>.gaps, one "kind name" per line, read by
// build-sandbox.sh). A driver that can fill gaps (Incus) does so and the
// trial is retried once; a gap already in the manifest, or still there after
// the retry, is reported as repeated and never retried again. Nothing loops.
import { appendFileSync, existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

export const GAP_KINDS = ["command", "path", "user", "group", "package"] as const;
export type GapKind = (typeof GAP_KINDS)[number];

export interface Gap {
  kind: GapKind;
  name: string;
}

const Q = `['"\u2018\u2019\u201c\u201d]`;
const NAME = "([a-z_][a-z0-9_.-]*\\$?)";
const PATH = "(/[^\\s'\"\u2018\u2019:]*)";

const PATTERNS: { kind: GapKind; re: RegExp }[] = [
  // bash: "bash: line 1: foo: command not found"; dash: "sh: 1: foo: not found"
  { kind: "command", re: /(?:^|\n)[^\n:]*:(?: line)? \d+: ([A-Za-z0-9_.+-]+): (?:command )?not found/g },
  {
    kind: "command",
    re: new RegExp(
      `(?:env|setpriv|xargs|nohup|timeout|sudo)(?:: failed to execute)?:? ${Q}?([A-Za-z0-9_.+-]+)${Q}?: No such file or directory`,
      "g",
    ),
  },
  { kind: "package", re: /Unable to locate package ([a-z0-9][a-z0-9+.-]*)/g },
  { kind: "package", re: new RegExp(`Package ${Q}?([a-z0-9][a-z0-9+.-]*)${Q}? has no installation candidate`, "g") },
  { kind: "package", re: /Failed to fetch \S*\/([a-z0-9][a-z0-9+.-]*)_[^_/\s]+_[^_/\s]+\.deb/g },
  { kind: "user", re: new RegExp(`(?:invalid user|no such user|unknown user|invalid owner)(?::)? ${Q}?${NAME}${Q}?`, "gi") },
  { kind: "user", re: new RegExp(`${Q}?${NAME}${Q}?: no such user`, "g") },
  { kind: "user", re: new RegExp(`user ${Q}${NAME}${Q} does not exist`, "g") },
  { kind: "group", re: new RegExp(`(?:invalid group|unknown group|no such group)(?::)? ${Q}?${NAME}${Q}?`, "gi") },
  { kind: "group", re: new RegExp(`group ${Q}${NAME}${Q} does not exist`, "g") },
  {
    kind: "path",
    re: new RegExp(
      `(?:cannot access|cannot stat|cannot open|failed to open|can't open|can't cd to|cannot change directory to) ${Q}?${PATH}${Q}?(?::)? No such file or directory`,
      "g",
    ),
  },
  { kind: "path", re: new RegExp(`(?:^|\\n|: )${PATH}: No such file or directory`, "g") },
  { kind: "path", re: new RegExp(`can't create ${PATH}: Directory nonexistent`, "g") },
];

/** Gaps named in a failed trial's output (deduplicated, in order). */
export function findGaps(stderr: string, stdout = ""): Gap[] {
  const text = `${stderr}\n${stdout}`;
  const seen = new Map<string, Gap>();
  for (const { kind, re } of PATTERNS) {
    for (const m of text.matchAll(re)) {
      const name = m[1];
      if (!name) continue;
      // A path gap is for the mirror's tree, not a temp file of the command.
      if (kind === "path" && /^\/(tmp|proc|sys|dev|run)(\/|$)/.test(name)) continue;
      const gap = { kind, name: kind === "path" ? name.replace(/\/+$/, "") || "/" : name };
      seen.set(gapKey(gap), gap);
    }
  }
  return [...seen.values()];
}

export function gapKey(g: Gap): string {
  return `${g.kind} ${g.name}`;
}

export function parseGapKey(line: string): Gap | undefined {
  const sp = line.indexOf(" ");
  const kind = line.slice(0, sp) as GapKind;
  const name = line.slice(sp + 1).trim();
  return sp > 0 && GAP_KINDS.includes(kind) && name && !/\s/.test(name) ? { kind, name } : undefined;
}

/** The per-host rebuild manifest: append-only, one gap per line. */
export class RebuildManifest {
  readonly file: string;

  constructor(dir: string, host: string) {
    if (!/^[a-z0-9][a-z0-9-]{0,63}$/.test(host)) throw new Error(`bad host id for a manifest: ${host}`);
    mkdirSync(dir, { recursive: true, mode: 0o750 });
    this.file = join(dir, `${host}.gaps`);
  }

  entries(): Set<string> {
    if (!existsSync(this.file)) return new Set();
    return new Set(
      readFileSync(this.file, "utf8")
        .split("\n")
        .map(parseGapKey)
        .filter((g): g is Gap => g !== undefined)
        .map(gapKey),
    );
  }

  /** Appends the gaps not yet recorded; says which were new and which repeated. */
  record(gaps: readonly Gap[]): { fresh: Gap[]; repeated: Gap[] } {
    const known = this.entries();
    const fresh = gaps.filter((g) => !known.has(gapKey(g)) && !/\s/.test(g.name));
    const repeated = gaps.filter((g) => known.has(gapKey(g)));
    if (fresh.length > 0) appendFileSync(this.file, fresh.map((g) => `${gapKey(g)}\n`).join(""), { mode: 0o640 });
    return { fresh, repeated };
  }
}
