// The trial report and its attestation. The report carries the evidence
// (exit code, capped output, touched paths, findings, gaps); the attestation
// is what the executor checks for tier 2: the sandbox's ed25519 signature
// over a Decision binding the command digest, trial_ok, and the digest of
// the touched-path list (shared/attestation.ts touchedDigest: sorted,
// de-duplicated, newline-terminated), which the executor re-derives from
// the undo plan it is handed. ok only when every check passed.
import type { OverlayTrialOutput } from "./launcher/overlay.js";
import type { KeyObject } from "node:crypto";
import { Role } from "../../proto/gen/agent_sudo/v1/decision_pb.js";
import type { TrialReport, TrialRequest } from "../../proto/gen/agent_sudo/v1/sandbox_pb.js";
import { bindingOf, signDecision, touchedDigest } from "../shared/attestation.js";
import type { Change } from "./launcher/diff.js";
import { type Gap, gapKey } from "./gaps.js";
import { globPrefixRe, isUnder } from "./mounts.js";

/** The executor's own cap on an undo plan (services/executor/undo.ts MAX_PATHS). */
export const MAX_TOUCHED = 4096;

export interface TrialOutcome extends OverlayTrialOutput {
  /** Not trialled, and why (e.g. "live-service"). */
  skipped?: string;
  staticErrors: string[];
  staticWarnings: string[];
  /** Text-level writes into forbidden or masked paths. */
  forbiddenText: string[];
  gaps: Gap[];
  repeatedGaps: Gap[];
  /** Other reasons the trial did not run or cannot count (driver, host). */
  refusals: string[];
  durationMs: number;
}

export interface Verdict {
  ok: boolean;
  findings: string[];
}

/** Applies every rule; the findings say which failed (and the warnings). */
export function judge(o: TrialOutcome, forbidden: readonly string[], masks: readonly string[] = []): Verdict {
  const maskRes = masks.map(globPrefixRe);
  const findings: string[] = [...o.refusals];
  if (o.skipped) findings.push(`skipped: ${o.skipped}`);
  if (o.setupError) findings.push(`sandbox setup failed: ${o.setupError}`);
  if (o.timedOut) findings.push("trial timed out");
  else if (!o.skipped && o.refusals.length === 0 && o.exitCode !== 0) findings.push(`exit code ${o.exitCode}`);
  findings.push(...o.staticErrors);
  for (const p of o.forbiddenText) findings.push(`writes to forbidden or masked path ${p}`);
  for (const p of o.maskWrites) findings.push(`wrote into masked path ${p}`);
  for (const c of o.changes) {
    if (forbidden.some((f) => isUnder(c.path, f))) findings.push(`${c.kind} forbidden path ${c.path}`);
    else if (maskRes.some((re) => re.test(c.path))) findings.push(`${c.kind} masked path ${c.path}`);
  }
  if (o.truncated) findings.push(`touched more than ${MAX_TOUCHED} paths: too many for a scoped undo`);
  for (const g of o.gaps) findings.push(`gap: ${gapKey(g)}`);
  for (const g of o.repeatedGaps) findings.push(`repeated gap: ${gapKey(g)} (already in the rebuild manifest; not retried)`);
  const ok = findings.length === 0;
  findings.push(...o.staticWarnings);
  if (o.stdoutTruncated) findings.push("stdout truncated");
  if (o.stderrTruncated) findings.push("stderr truncated");
  return { ok, findings };
}

export function touchedPaths(changes: readonly Change[]): string[] {
  return [...new Set(changes.map((c) => c.path))].sort();
}

export function buildReport(
  req: TrialRequest,
  o: TrialOutcome,
  rules: { forbidden: readonly string[]; masks: readonly string[] },
  key: KeyObject,
  ttlS: number,
): TrialReport {
  const { ok, findings } = judge(o, rules.forbidden, rules.masks);
  const touched = touchedPaths(o.changes);
  return {
    ok,
    exitCode: o.exitCode,
    stdout: o.stdout,
    stderr: o.stderr,
    touchedPaths: touched,
    durationMs: Math.round(o.durationMs),
    findings,
    gaps: [...o.gaps, ...o.repeatedGaps].map(gapKey),
    attestation: signDecision("sandbox", key, {
      role: Role.ROLE_SANDBOX,
      requestId: req.requestId,
      binding: bindingOf(req, "sudo"),
      tier: 2,
      ttlS,
      trialOk: ok,
      touchedDigest: touchedDigest(touched),
    }),
  };
}

/** An outcome for a trial that never ran. */
export function notRun(reason: string, extra: Partial<TrialOutcome> = {}): TrialOutcome {
  return {
    exitCode: -1,
    timedOut: false,
    stdout: Buffer.alloc(0),
    stderr: Buffer.alloc(0),
    stdoutTruncated: false,
    stderrTruncated: false,
    changes: [],
    truncated: false,
    maskWrites: [],
    staticErrors: [],
    staticWarnings: [],
    forbiddenText: [],
    gaps: [],
    repeatedGaps: [],
    refusals: reason ? [reason] : [],
    durationMs: 0,
    ...extra,
  };
}
