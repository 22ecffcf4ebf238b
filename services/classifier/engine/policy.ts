// Policy files: a deterministic reading of the Markdown format documented in
// policies/README.md, validated with zod. Any malformed line refuses the whole
// file with an error that names the file and the line; nothing is half-loaded.
import { z } from "zod";
import { HOST_IDS } from "../../shared/config.js";
import type { HostId } from "../../shared/config.js";
import type { TierNumber } from "../../shared/tier.js";
import type { VerbClass } from "./types.js";

export interface Rule {
  id: string;
  patterns: string[];
  tier: TierNumber;
  verbClass: VerbClass;
  hosts: Partial<Record<HostId, TierNumber>>;
  state: "active" | "proposed";
  rationale: string;
  file: string;
  line: number;
}

export interface Veto {
  id: string;
  regex: RegExp;
  rationale: string;
  file: string;
  line: number;
}

export interface PolicyFile {
  rules: Rule[];
  vetoes: Veto[];
}

export class PolicyError extends Error {}

const HEADER = ["id", "patterns", "tier", "class", "hosts", "state", "rationale"];
const TierSchema = z.coerce.number().int().min(0).max(4);
const RuleRow = z.object({
  id: z.string().regex(/^[a-z0-9][a-z0-9.-]*$/, "id must be lower-case letters, digits, dots, dashes"),
  tier: TierSchema,
  verbClass: z.enum(["read", "workspace-write", "reproducible", "live-service", "catastrophic"]),
  state: z.enum(["active", "proposed"]),
  rationale: z.string().min(3, "rationale is required"),
});

/** Split a table row on `|` outside backtick code spans. */
export function splitRow(line: string): string[] {
  const cells: string[] = [];
  let cur = "";
  let inCode = false;
  for (const ch of line.trim()) {
    if (ch === "`") inCode = !inCode;
    if (ch === "|" && !inCode) {
      cells.push(cur.trim());
      cur = "";
    } else cur += ch;
  }
  if (inCode) throw new Error("unterminated backtick span");
  cells.push(cur.trim());
  if (cells[0] !== "" || cells[cells.length - 1] !== "") throw new Error("a table row starts and ends with |");
  return cells.slice(1, -1);
}

function parsePatterns(cell: string): string[] {
  const out: string[] = [];
  const rest = cell.replace(/`([^`]+)`/g, (_m, p: string) => {
    out.push(p);
    return " ";
  });
  if (rest.replace(/[\s,]/g, "") !== "") throw new Error("patterns are backtick spans only");
  if (out.length === 0) throw new Error("a rule needs at least one pattern");
  return out;
}

function parseHosts(cell: string): Partial<Record<HostId, TierNumber>> {
  const hosts: Partial<Record<HostId, TierNumber>> = {};
  if (cell === "" || cell === "-" || cell === "—") return hosts;
  for (const part of cell.split(/[\s,]+/).filter(Boolean)) {
    const m = /^([a-z0-9-]+)=([0-4])$/.exec(part);
    const host = m?.[1];
    if (!m || host === undefined || !(HOST_IDS as readonly string[]).includes(host)) {
      throw new Error(`bad host override "${part}" (want primary=N or server-01=N)`);
    }
    hosts[host as HostId] = Number(m[2]) as TierNumber;
  }
  return hosts;
}

function parseRuleRow(line: string, file: string, lineNo: number): Rule {
  const cells = splitRow(line);
  if (cells.length !== HEADER.length) throw new Error(`expected ${HEADER.length} cells, found ${cells.length}`);
  const [id, patterns, tier, verbClass, hosts, state, rationale] = cells as [string, string, string, string, string, string, string];
  const row = RuleRow.safeParse({ id, tier, verbClass, state, rationale });
  if (!row.success) throw new Error(row.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; "));
  return {
    ...row.data,
    tier: row.data.tier as TierNumber,
    patterns: parsePatterns(patterns),
    hosts: parseHosts(hosts),
    file,
    line: lineNo,
  };
}

const VETO_LINE = /^- `([a-z0-9][a-z0-9.-]*)`: `(.+)` — (.{3,})$/;

function parseVeto(line: string, file: string, lineNo: number): Veto {
  const m = VETO_LINE.exec(line);
  if (!m) throw new Error("a veto line reads: - `id`: `regex` — rationale");
  const [, id, source, rationale] = m as unknown as [string, string, string, string];
  let regex: RegExp;
  try {
    regex = new RegExp(source);
  } catch (err) {
    throw new Error(`regex does not compile: ${(err as Error).message}`);
  }
  return { id, regex, rationale, file, line: lineNo };
}

type Section = "prose" | "rules" | "veto";

function sectionOf(heading: string): Section {
  if (/^Rules\b/.test(heading)) return "rules";
  if (heading === "Danger veto") return "veto";
  return "prose";
}

/** Parse one policy file's text. Throws PolicyError naming file:line. */
export function parsePolicy(text: string, file: string): PolicyFile {
  const rules: Rule[] = [];
  const vetoes: Veto[] = [];
  let section: Section = "prose";
  let tableRow = 0;
  let fence = false;
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const line = (lines[i] ?? "").replace(/\r$/, "");
    const lineNo = i + 1;
    try {
      if (line.startsWith("```")) fence = !fence;
      if (fence || line.startsWith("```")) continue;
      if (line.startsWith("## ")) {
        section = sectionOf(line.slice(3).trim());
        tableRow = 0;
        continue;
      }
      if (section === "rules" && line.startsWith("|")) {
        tableRow = readTableLine(line, tableRow, rules, file, lineNo);
      } else if (section === "rules" && line.trim() === "" ) {
        tableRow = 0;
      } else if (section === "veto" && line.startsWith("- ")) {
        vetoes.push(parseVeto(line, file, lineNo));
      }
    } catch (err) {
      throw new PolicyError(`${file}:${lineNo}: ${(err as Error).message}`);
    }
  }
  if (fence) throw new PolicyError(`${file}:${lines.length}: unterminated code fence`);
  return { rules, vetoes };
}

function readTableLine(line: string, tableRow: number, rules: Rule[], file: string, lineNo: number): number {
  if (tableRow === 0) {
    const cells = splitRow(line).map((c) => c.toLowerCase());
    if (cells.join("|") !== HEADER.join("|")) throw new Error(`rule table header must be | ${HEADER.join(" | ")} |`);
  } else if (tableRow === 1) {
    if (!/^\|(\s*:?-+:?\s*\|)+$/.test(line.trim())) throw new Error("second table line must be the |---| separator");
  } else {
    rules.push(parseRuleRow(line, file, lineNo));
  }
  return tableRow + 1;
}

/** Reject duplicate ids across all loaded files. */
export function checkUnique(files: PolicyFile[]): void {
  const seen = new Map<string, string>();
  for (const f of files) {
    for (const item of [...f.rules, ...f.vetoes]) {
      const where = `${item.file}:${item.line}`;
      const prev = seen.get(item.id);
      if (prev !== undefined) throw new PolicyError(`${where}: duplicate id "${item.id}" (first at ${prev})`);
      seen.set(item.id, where);
    }
  }
}
