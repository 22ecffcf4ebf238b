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
  /** Optional per-rule attributes (the `attrs` column). */
  attrs: RuleAttrs;
  rationale: string;
  file: string;
  line: number;
}

/**
 * What a rule grants or asks for beyond its tier:
 *   network   the command runs with the host's network (the executor has none)
 *   verify    a shell command polled after a tier-3 run until it exits 0
 *   redeploy  a webhook (http/https URL) POSTed when a tier-3 run fails to verify
 */
export interface RuleAttrs {
  network: boolean;
  /** A package-manager run: simulated trial, then run on the host with package-state undo (not a committed diff). */
  package?: boolean;
  verify?: string;
  redeploy?: string;
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
/** The same table with the optional attrs column before the rationale. */
const HEADER_ATTRS = ["id", "patterns", "tier", "class", "hosts", "state", "attrs", "rationale"];
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

/** `network`, ``verify=`cmd` ``, ``redeploy=`url` ``, separated by spaces or commas; empty, `-` or `—` for none. */
export function parseAttrs(cell: string): RuleAttrs {
  const attrs: RuleAttrs = { network: false };
  let rest = cell.trim();
  if (rest === "-" || rest === "—") return attrs;
  const seen = new Set<string>();
  while (rest !== "") {
    const m = /^(network|package|verify|redeploy)(?:=`([^`]+)`)?(?:[\s,]+|$)/.exec(rest);
    if (!m) throw new Error(`bad attrs "${rest.slice(0, 40)}" (want network, package, verify=\`command\`, redeploy=\`https://…\`)`);
    const [whole, name, value] = m as unknown as [string, "network" | "package" | "verify" | "redeploy", string | undefined];
    if (seen.has(name)) throw new Error(`attr ${name} given twice`);
    seen.add(name);
    if (name === "network" || name === "package") {
      if (value !== undefined) throw new Error(`${name} takes no value`);
      attrs[name] = true;
    } else if (value === undefined) {
      throw new Error(`${name} needs a value in backticks: ${name}=\`…\``);
    } else if (name === "verify") {
      attrs.verify = value;
    } else {
      attrs.redeploy = webhookUrl(value);
    }
    rest = rest.slice(whole.length);
  }
  return attrs;
}

function webhookUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`redeploy is not a URL: ${value}`);
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") throw new Error("redeploy must be an http or https URL");
  // The webhook gets a Bearer token: in clear text only to this machine.
  if (url.protocol === "http:" && !["127.0.0.1", "[::1]", "localhost"].includes(url.hostname))
    throw new Error("redeploy over plain http only to loopback; use https");
  if (url.username || url.password) throw new Error("redeploy URL must not carry credentials (use executor/redeploy token config)");
  return url.toString();
}

function parseRuleRow(line: string, file: string, lineNo: number, withAttrs: boolean): Rule {
  const cells = splitRow(line);
  const width = withAttrs ? HEADER_ATTRS.length : HEADER.length;
  if (cells.length !== width) throw new Error(`expected ${width} cells, found ${cells.length}`);
  const [id, patterns, tier, verbClass, hosts, state] = cells as [string, string, string, string, string, string];
  const attrs = withAttrs ? parseAttrs(cells[6] ?? "") : { network: false };
  const rationale = cells[width - 1] ?? "";
  const row = RuleRow.safeParse({ id, tier, verbClass, state, rationale });
  if (!row.success) throw new Error(row.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; "));
  return {
    ...row.data,
    tier: row.data.tier as TierNumber,
    patterns: parsePatterns(patterns),
    hosts: parseHosts(hosts),
    attrs,
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
  const table = { withAttrs: false };
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
        tableRow = readTableLine(line, tableRow, table, rules, file, lineNo);
      } else if (section === "rules" && line.trim() === "") {
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

function readTableLine(line: string, tableRow: number, table: { withAttrs: boolean }, rules: Rule[], file: string, lineNo: number): number {
  if (tableRow === 0) {
    const head = splitRow(line)
      .map((c) => c.toLowerCase())
      .join("|");
    if (head !== HEADER.join("|") && head !== HEADER_ATTRS.join("|")) {
      throw new Error(`rule table header must be | ${HEADER.join(" | ")} | or | ${HEADER_ATTRS.join(" | ")} |`);
    }
    table.withAttrs = head === HEADER_ATTRS.join("|");
  } else if (tableRow === 1) {
    if (!/^\|(\s*:?-+:?\s*\|)+$/.test(line.trim())) throw new Error("second table line must be the |---| separator");
  } else {
    rules.push(parseRuleRow(line, file, lineNo, table.withAttrs));
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
