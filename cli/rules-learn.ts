// `agent-sudo rules learn [--min-runs N]`: the learned allowlist. Reads the
// executed commands in command_audit — those run through /exec and those the
// Claude Code client ran after a hook decision and reported back
// (PostToolUse / PostToolUseFailure, audited as `hook_outcome` with the tier
// of the decision they belong to) — groups them by rule shape
// (services/shared/rule-shape.ts) and turns every shape that ran clean at
// least N times (default 5) into a *proposal* in proposals.pending.json —
// never a rule: only `rules activate`, a person's act, makes one.
//
// A run is clean when its outcome row says executed, exit code 0, no
// rollback, verify not failed, and no row of its request carries a human
// "reject"; a hook outcome is clean when the client reported exit 0 for a
// command it ran to the end (not interrupted, not sent to the background).
// A hook outcome is judged as the claude policy judges it (CLAUDE_CMDS.md),
// an /exec run as the sudo policy does; one with no decision on record (the
// gateway restarted between the two events) has no tier and is not learned. A shape is not proposed when any of its runs was rolled back,
// failed verification or was rejected by a person; when an active explicit
// rule of the current policy already decides it; when it was rejected or
// activated before; or when, placed in a copy of the policy, the new rule
// would not be what decides the command (a wrapper, an analyzer or a veto
// decides it instead; that check stages the copy in the temp dir, so learning
// never writes the policies directory). Proposals go to `proposalsDir`
// (config's proposals_dir; default beside the policies). A command with a clean sandbox trial and a clean run
// is proposed after that one run (source "sandbox"). The suggested tier is
// the highest tier it ran at:
// learning makes a decision explicit, it never lowers a tier by itself.
import { readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type pg from "pg";
import { loadEngine } from "../services/classifier/engine/index.js";
import { checkUnique, parsePolicy } from "../services/classifier/engine/policy.js";
import type { Engine, Source } from "../services/classifier/verdict.js";
import { POLICY_FILES } from "../services/shared/policy-signature.js";
import { propose } from "../services/classifier/propose.js";
import { MAX_REQUEST_IDS, type ProposalInput, proposalId, type TrialSummary } from "../services/shared/proposals.js";
import { ruleShape, type Shape } from "../services/classifier/rule-shape.js";
import { sourceOf } from "./policy-diff.js";
import { ruleMisses, stageRule } from "./rule-placement.js";

export const DEFAULT_MIN_RUNS = 5;
/** How many executed outcomes are read, newest first. */
export const DEFAULT_SCAN = 100_000;

interface RunRow {
  request_id: string;
  command: string;
  cwd: string | null;
  host: string;
  source: string;
  assigned_tier: number | null;
  decision_type: string;
  exit_code: number | null;
  rollback_taken: boolean | null;
  verify_passed: boolean | null;
  trial: Record<string, unknown> | null;
  /** Hook outcomes: the client stopped the command, or only started it. */
  cut_short: boolean;
  rejected: boolean;
}

const RUNS_SQL = `
  SELECT o.request_id, o.command, o.cwd, o.host, o.source, o.assigned_tier, o.decision_type, o.exit_code,
         o.rollback_taken, o.verify_passed, o.evidence -> 'trial' AS trial,
         (o.evidence ? 'interrupted' OR o.evidence ? 'background') AS cut_short,
         EXISTS (SELECT 1 FROM command_audit r WHERE r.request_id = o.request_id AND r.human_verdict = 'reject') AS rejected
    FROM command_audit o
   WHERE o.phase = 'outcome' AND o.decision_type IN ('executed', 'failed', 'verify_failed', 'rolled_back', 'hook_outcome')
   ORDER BY o.id DESC
   LIMIT $1`;

interface Group {
  shape: Shape;
  clean: RunRow[];
  unclean: number;
  blocked: string | null;
}

export interface LearnReport {
  proposed: string[];
  /** What a reviewer needs per new proposal (the notification carries it). */
  details: ProposalNotice[];
  lines: string[];
}

export interface ProposalNotice {
  id: string;
  pattern: string;
  policy: string;
  tier: number;
  clean: number;
  other: number;
  commands: string[];
}

/** The notification text for new proposals: each with its evidence and the exact commands to review it. */
export function proposalNotice(details: readonly ProposalNotice[]): string {
  return details
    .map(
      (d) =>
        `${d.id}: ${d.pattern} (${d.policy}, suggested tier ${d.tier}; ${d.clean} clean run(s), ${d.other} other)\n` +
        (d.commands.length > 0 ? `  e.g. ${d.commands.slice(0, 3).join(" | ")}\n` : "") +
        `  see what it would change: agent-sudo rules activate ${d.id} --dry-run\n` +
        `  activate (a person, with the signing key): agent-sudo rules activate ${d.id} --by NAME\n` +
        `  reject: agent-sudo rules reject ${d.id} --reason "…"`,
    )
    .join("\n");
}

function isClean(r: RunRow): boolean {
  const ran = r.decision_type === "executed" || (r.decision_type === "hook_outcome" && !r.cut_short);
  return ran && r.exit_code === 0 && r.rollback_taken !== true && r.verify_passed !== false && !r.rejected;
}

function blockOf(r: RunRow): string | null {
  if (r.rejected) return `request ${r.request_id} was rejected by a person`;
  if (r.rollback_taken === true || r.decision_type === "rolled_back") return `request ${r.request_id} was rolled back`;
  if (r.verify_passed === false || r.decision_type === "verify_failed") return `request ${r.request_id} failed verification`;
  return null;
}

async function group(rows: readonly RunRow[]): Promise<Map<string, Group>> {
  const groups = new Map<string, Group>();
  const shapes = new Map<string, Shape | null>();
  for (const r of rows) {
    const source: Source = sourceOf(r.source);
    const key = JSON.stringify([r.command, source, r.cwd ?? ""]);
    if (!shapes.has(key)) {
      const s = await ruleShape({ command: r.command, source, cwd: r.cwd ?? "" });
      shapes.set(key, s.ok ? s : null);
    }
    const shape = shapes.get(key);
    if (!shape) continue;
    const id = proposalId(shape.policy, shape.pattern);
    const g = groups.get(id) ?? { shape, clean: [], unclean: 0, blocked: null };
    groups.set(id, g);
    if (isClean(r)) g.clean.push(r);
    else g.unclean++;
    g.blocked ??= blockOf(r);
  }
  return groups;
}

function activeRuleIds(policiesDir: string): Set<string> {
  const files = POLICY_FILES.map((f) => parsePolicy(readFileSync(join(policiesDir, f), "utf8"), join(policiesDir, f)));
  checkUnique(files);
  return new Set(files.flatMap((f) => f.rules.filter((r) => r.state === "active").map((r) => r.id)));
}

function trialOf(rows: readonly RunRow[]): TrialSummary | null {
  const r = rows.find((x) => x.trial && typeof x.trial === "object");
  if (!r || !r.trial) return null;
  const t = r.trial;
  const strings = (v: unknown, max: number) => (Array.isArray(v) ? v.filter((s): s is string => typeof s === "string").slice(0, max) : []);
  return {
    request_id: r.request_id,
    ok: t.ok === true,
    exit_code: typeof t.exit_code === "number" ? t.exit_code : null,
    touched_paths: strings(t.touched, 200),
    findings: strings(t.findings, 50),
    gaps: strings(t.gaps, 50),
  };
}

function proposalFor(g: Group, tier: number): ProposalInput {
  const newest = g.clean[0] as RunRow;
  return {
    source: "learned",
    policy: g.shape.policy,
    pattern: g.shape.pattern,
    example: g.shape.example,
    command: newest.command,
    cwd: newest.cwd ?? "",
    suggested_tier: tier,
    evidence: {
      clean_runs: g.clean.length,
      unclean_runs: g.unclean,
      request_ids: g.clean.slice(0, MAX_REQUEST_IDS).map((r) => r.request_id),
      hosts: [...new Set(g.clean.map((r) => r.host))],
      tiers_seen: [...new Set(g.clean.map((r) => r.assigned_tier ?? 4))].sort(),
      trial: trialOf(g.clean),
    },
  };
}

/** Why this shape's rule, placed in a copy of the policy, would not decide its own command; null when it would. */
async function candidateMisses(policiesDir: string, p: ProposalInput, tier: number): Promise<string | null> {
  const staged = stageRule(policiesDir, { ...p, id: proposalId(p.policy, p.pattern) }, tier, "candidate check", tmpdir());
  try {
    return ruleMisses(await loadEngine(staged.dir), staged.rule.id, p);
  } finally {
    staged.cleanup();
  }
}

function covered(engine: Engine, active: ReadonlySet<string>, p: ProposalInput): string | null {
  const v = engine.classify({ command: p.command, cwd: p.cwd, host: "primary", source: p.policy });
  const rule = v.rule.startsWith("effect:") ? v.rule.slice(7) : v.rule;
  return v.explicit || active.has(rule) ? rule : null;
}

export async function learn(
  c: pg.Client,
  policiesDir: string,
  minRuns: number,
  opts: { scan?: number; proposalsDir?: string } = {},
): Promise<LearnReport> {
  const { scan = DEFAULT_SCAN, proposalsDir = policiesDir } = opts;
  const rows = (await c.query<RunRow>(RUNS_SQL, [scan])).rows;
  const groups = await group(rows);
  const engine = await loadEngine(policiesDir);
  const active = activeRuleIds(policiesDir);
  const hook = rows.filter((r) => r.decision_type === "hook_outcome").length;
  const report: LearnReport = {
    proposed: [],
    details: [],
    lines: [
      `read ${rows.length} executed runs (${rows.length - hook} through /exec, ${hook} reported by the hook); ${groups.size} rule shapes`,
    ],
  };
  const say = (g: Group, what: string) =>
    report.lines.push(`  ${what}  ${JSON.stringify(g.shape.pattern)} (${g.shape.policy}, ${g.clean.length} clean, ${g.unclean} other)`);
  for (const g of groups.values()) {
    // A clean sandbox trial followed by a clean run is evidence enough to
    // *propose* (issue 7); everything else needs minRuns clean runs.
    const trialled = g.clean.some((r) => r.trial?.ok === true);
    if (g.clean.length < minRuns && !trialled) continue;
    if (g.blocked) {
      say(g, `skipped: ${g.blocked}`);
      continue;
    }
    const tier = Math.max(...g.clean.map((r) => r.assigned_tier ?? 4));
    const input = { ...proposalFor(g, Math.min(tier, 3)), ...(g.clean.length < minRuns ? { source: "sandbox" as const } : {}) };
    const rule = covered(engine, active, input);
    if (rule) {
      say(g, `skipped: already decided by rule ${rule}`);
      continue;
    }
    if (tier >= 4) {
      say(g, "skipped: ran at tier 4 or with no tier recorded");
      continue;
    }
    const miss = await candidateMisses(policiesDir, input, tier);
    if (miss) {
      say(g, `skipped: a rule for it would not decide it (${miss})`);
      continue;
    }
    const r = propose(proposalsDir, input);
    if (r.status === "rejected") say(g, `skipped: rejected ${r.rejection.at} by ${r.rejection.by} (${r.rejection.reason})`);
    else if (r.status === "activated") say(g, `skipped: activated ${r.activation.at} as ${r.activation.rule_id}`);
    else {
      report.proposed.push(r.proposal.id);
      report.details.push({
        id: r.proposal.id,
        pattern: g.shape.pattern,
        policy: g.shape.policy,
        tier: r.proposal.suggested_tier,
        clean: g.clean.length,
        other: g.unclean,
        commands: [...new Set(g.clean.map((c) => c.command))].slice(0, 3),
      });
      say(g, `${r.status} ${r.proposal.id} tier ${r.proposal.suggested_tier}`);
    }
  }
  return report;
}
