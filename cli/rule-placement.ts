// Where an activated proposal goes in a policy file, as text: the rule row,
// its place, and the diff a person sees. Pure functions over the file's text;
// `rules activate` writes the result (to a staging copy, then signs it).
//
// Placement follows the format's ordering rule (first active match wins, most
// specific first): the new row goes immediately before the first active rule
// that already matches one of the proposal's example commands — a broader
// rule such as `systemctl *`, which would otherwise shadow it — inside that
// rule's table. When no rule matches (the usual case: proposals come from
// commands no rule covered), it goes at the end of the section
// `## Rules: activated proposals`, created just before `## Danger veto`.
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { compileRules, firstMatch } from "../services/classifier/engine/match.js";
import { checkUnique, parsePolicy, type Rule } from "../services/classifier/engine/policy.js";
import type { VerbClass } from "../services/classifier/engine/types.js";
import type { Engine } from "../services/classifier/verdict.js";
import { POLICY_FILES, PROPOSALS_FILE } from "../services/shared/policy-signature.js";
import type { Proposal } from "../services/shared/proposals.js";

export const ACTIVATED_HEADING = "## Rules: activated proposals";
const TABLE_HEADER = ["| id | patterns | tier | class | hosts | state | rationale |", "|---|---|---|---|---|---|---|"];

export interface NewRule {
  id: string;
  pattern: string;
  tier: number;
  verbClass: VerbClass;
  rationale: string;
}

export interface Placement {
  text: string;
  /** 1-based line of the new row in the new text. */
  line: number;
  /** The rule it was placed before, when one matched an example. */
  before: string | null;
}

/** The class a tier implies for a learned rule. */
export function classForTier(tier: number): VerbClass {
  return tier === 0 ? "read" : tier === 1 ? "workspace-write" : tier === 2 ? "reproducible" : tier === 3 ? "live-service" : "catastrophic";
}

/** Free text made safe for a table cell: no pipes, backticks or line breaks. */
export function cellText(text: string): string {
  return text
    .replace(/[|`\r\n\t]/g, " ")
    .replace(/\s+/g, " ")
    .trim();
}

export function renderRow(r: NewRule): string {
  return `| ${r.id} | \`${r.pattern}\` | ${r.tier} | ${r.verbClass} | | active | ${cellText(r.rationale)} |`;
}

/** The first active rule (in file order) that matches any example. */
function shadowing(rules: readonly Rule[], examples: readonly string[]): Rule | null {
  const compiled = compileRules(rules);
  let first: Rule | null = null;
  for (const e of examples) {
    const hit = firstMatch(compiled, e, "primary").hit?.rule ?? null;
    if (hit && (first === null || hit.line < first.line)) first = hit;
  }
  return first;
}

/** Line indexes (0-based) of level-2 headings outside code fences. */
function headings(lines: readonly string[]): Map<number, string> {
  const out = new Map<number, string>();
  let fence = false;
  lines.forEach((l, i) => {
    if (l.startsWith("```")) fence = !fence;
    else if (!fence && l.startsWith("## ")) out.set(i, l.trim());
  });
  return out;
}

/** Insert `rule` into the policy text `text` (named `file` in errors). */
export function placeRule(text: string, file: string, rule: NewRule, examples: readonly string[]): Placement {
  const parsed = parsePolicy(text, file);
  const lines = text.split("\n");
  const row = renderRow(rule);
  const before = shadowing(parsed.rules, examples);
  if (before) {
    lines.splice(before.line - 1, 0, row);
    return done(lines, row, before.id);
  }
  const heads = [...headings(lines).entries()];
  const own = heads.find(([, h]) => h === ACTIVATED_HEADING);
  if (own) {
    // After the last row of the section's first table; a fresh table if it has none.
    const next = heads.find(([i]) => i > own[0])?.[0] ?? lines.length;
    let at = -1;
    for (let i = own[0] + 1; i < next; i++) {
      if ((lines[i] ?? "").startsWith("|")) at = i;
      else if (at >= 0) break;
    }
    if (at >= 0) {
      lines.splice(at + 1, 0, row);
      return done(lines, row, null);
    }
    lines.splice(own[0] + 1, 0, "", ...TABLE_HEADER, row);
    return done(lines, row, null);
  }
  const block = [
    ACTIVATED_HEADING,
    "",
    "Rules a person activated from proposals (`agent-sudo rules activate`), with their evidence in the rationale.",
    "",
    ...TABLE_HEADER,
    row,
    "",
  ];
  const veto = heads.find(([, h]) => h === "## Danger veto")?.[0];
  if (veto !== undefined) {
    lines.splice(veto, 0, ...block);
    return done(lines, row, null);
  }
  const tail = lines[lines.length - 1] === "" ? lines.length - 1 : lines.length;
  lines.splice(tail, 0, ...(tail > 0 && lines[tail - 1] !== "" ? [""] : []), ...block.slice(0, -1));
  return done(lines, row, null);
}

function done(lines: string[], row: string, before: string | null): Placement {
  return { text: lines.join("\n"), line: lines.indexOf(row) + 1, before };
}

/**
 * A unified diff of `a` → `b` as one hunk around the changed lines (the
 * common prefix and suffix are left out but for 3 lines of context), which
 * is exact for the single insertion `placeRule` makes.
 */
export function unifiedDiff(a: string, b: string, name: string, context = 3): string[] {
  const x = a.split("\n");
  const y = b.split("\n");
  let p = 0;
  while (p < x.length && p < y.length && x[p] === y[p]) p++;
  let s = 0;
  while (s < x.length - p && s < y.length - p && x[x.length - 1 - s] === y[y.length - 1 - s]) s++;
  if (p === x.length && p === y.length) return [];
  const start = Math.max(0, p - context);
  const endX = Math.min(x.length, x.length - s + context);
  const endY = Math.min(y.length, y.length - s + context);
  const out = [`--- a/${name}`, `+++ b/${name}`, `@@ -${start + 1},${endX - start} +${start + 1},${endY - start} @@`];
  for (let i = start; i < p; i++) out.push(` ${x[i]}`);
  for (let i = p; i < x.length - s; i++) out.push(`-${x[i]}`);
  for (let i = p; i < y.length - s; i++) out.push(`+${y[i]}`);
  for (let i = y.length - s; i < endY; i++) out.push(` ${y[i]}`);
  return out;
}

/** The file a proposal's policy lives in. */
export function policyFileFor(policy: Proposal["policy"]): (typeof POLICY_FILES)[number] {
  return policy === "sudo" ? "SUDO.md" : "CLAUDE_CMDS.md";
}

/** `learned-<program>-<6 hex of the proposal id>` (`trialled-…` for sandbox proposals). */
export function ruleIdFor(p: Pick<Proposal, "id" | "source" | "example">): string {
  const program = (p.example.split(" ")[0] ?? "").split("/").pop() ?? "";
  const slug =
    program
      .toLowerCase()
      .replace(/[^a-z0-9.-]+/g, "-")
      .replace(/^[-.]+|[-.]+$/g, "")
      .slice(0, 24) || "cmd";
  return `${p.source === "sandbox" ? "trialled" : "learned"}-${slug}-${p.id.slice(2, 8)}`;
}

export interface Staged {
  /** A copy of the policies directory with the rule in place (inside `policiesDir`, so installing is a rename). */
  dir: string;
  file: (typeof POLICY_FILES)[number];
  rule: NewRule;
  placement: Placement;
  diff: string[];
  /** The policy files' text when staged, to detect a change made meanwhile. */
  originals: Map<string, string>;
  cleanup(): void;
}

/**
 * Copy the policy files into a staging directory beside them, place the
 * rule, and re-parse both files as the classifier will (a parse error or a
 * duplicate id throws PolicyError; nothing outside the staging dir changes).
 * `under`: where the staging directory goes — beside the policies (default:
 * activation installs it by rename), or elsewhere for a check that installs
 * nothing (`rules learn`, whose user may not write the policies).
 */
export function stageRule(
  policiesDir: string,
  p: Pick<Proposal, "id" | "source" | "example" | "policy" | "pattern">,
  tier: number,
  rationale: string,
  under: string = policiesDir,
): Staged {
  const dir = mkdtempSync(join(under, ".rules-stage-"));
  const cleanup = () => rmSync(dir, { recursive: true, force: true });
  try {
    const originals = new Map<string, string>();
    for (const f of [...POLICY_FILES, PROPOSALS_FILE]) {
      if (!existsSync(join(policiesDir, f))) continue;
      copyFileSync(join(policiesDir, f), join(dir, f));
      originals.set(f, readFileSync(join(dir, f), "utf8"));
    }
    const file = policyFileFor(p.policy);
    const old = readFileSync(join(dir, file), "utf8");
    const rule: NewRule = { id: ruleIdFor(p), pattern: p.pattern, tier, verbClass: classForTier(tier), rationale };
    const placement = placeRule(old, join(policiesDir, file), rule, [p.example]);
    writeFileSync(join(dir, file), placement.text);
    checkUnique(POLICY_FILES.map((f) => parsePolicy(readFileSync(join(dir, f), "utf8"), join(dir, f))));
    return { dir, file, rule, placement, diff: unifiedDiff(old, placement.text, file), originals, cleanup };
  } catch (err) {
    cleanup();
    throw err;
  }
}

/** Null when the staged rule decides `command` in `engine` (possibly raised by the effect analysis); else what does. */
export function ruleMisses(engine: Engine, ruleId: string, p: Pick<Proposal, "command" | "cwd" | "policy">): string | null {
  const v = engine.classify({ command: p.command, cwd: p.cwd, host: "primary", source: p.policy });
  return v.rule === ruleId || v.rule === `effect:${ruleId}` ? null : `${v.rule} (tier ${v.tier}: ${v.reason})`;
}
