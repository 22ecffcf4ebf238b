// Direct execution: tier 0, tier-3 live actions and package runs, which the
// executor runs on the host's tree (the rest is a judged diff: transaction.ts).
// The signers in order: the classifier; the sandbox's trial (package runs);
// a fresh classifier decision after a long trial; the concurrence (tier 3);
// the breaker's lease last (tier ≥ 1), right before the executor, so a long
// trial cannot outlive it. Then the intent, the secret values, Execute, and
// for tier 3 the verify (verify-undo.ts).
import { Source } from "../../proto/gen/agent_sudo/v1/classifier_pb.js";
import type { Attestation } from "../../proto/gen/agent_sudo/v1/decision_pb.js";
import { tierFromEnum, type TierNumber } from "../shared/tier.js";
import { call } from "./clients.js";
import { type Classified, type Executed, mark, type Run } from "./exec-state.js";
import { CONTROL_DEADLINE_MS, type ExecSteps } from "./exec-steps.js";
import { executorFailure, failedCall, refused, reported } from "./refusal.js";
import { verifyOrUndo } from "./verify-undo.js";

interface Signed {
  attestations: Attestation[];
  undoPaths: string[];
}

/** The executor runs the command on the host's tree once every signer has signed. */
export async function direct(steps: ExecSteps, run: Run, first: Classified): Promise<Executed> {
  const { tier, verdict } = first;
  const { attestations, undoPaths } = await sign(steps, run, first);
  run.evidence.signers = attestations.map((a) => a.signer);
  // Resolved only for a command every signer has vetted, right before it runs.
  const env = await steps.secrets(run);
  await steps.intent(run);
  const { executor } = steps.clients;
  const req = { requestId: run.requestId, ...run.binding, timeoutS: run.body.timeout, attestations, undoPaths, env };
  const result = await call(executor, executor.execute, req, (run.body.timeout + 15) * 1000).catch((e: unknown) => {
    throw reported(executorFailure(e, run.requestId, tier), tier);
  });
  mark(run, "execute");
  const verified = tier === 3 ? await verifyOrUndo(steps, run, verdict, result.exitCode, result.undoId) : undefined;
  return {
    exitCode: result.exitCode,
    stdout: result.stdout,
    stderr: result.stderr,
    truncated: result.truncated,
    timedOut: result.timedOut,
    undoId: result.undoId,
    extra: { env, ...(result.snapshot ? { snapshot: result.snapshot } : {}) },
    evidence: { snapshot: result.snapshot || null },
    ...(verified ? { verified } : {}),
  };
}

/** Every signature the executor needs, in order; each part's evidence is filed on the request as it answers. */
async function sign(steps: ExecSteps, run: Run, first: Classified): Promise<Signed> {
  const { tier, verdict } = first;
  const attestations: Attestation[] = verdict.attestation ? [verdict.attestation] : [];
  let undoPaths = verdict.undoPaths;
  if (verdict.packageRun) {
    const trial = await sandboxTrial(steps, run, tier);
    run.evidence.trial = trial.evidence;
    if (!trial.ok || !trial.attestation)
      throw refused(2, `sandbox trial failed: ${trial.findings.join("; ") || "not ok"}`, run.requestId, "sandbox_failed");
    attestations.push(trial.attestation);
    undoPaths = trial.touchedPaths;
  }
  run.classified = await steps.fresh(run, first);
  if (run.classified !== first) {
    const again = run.classified.verdict;
    if (run.classified.tier !== tier || again.packageRun !== verdict.packageRun || !again.attestation)
      throw refused(4, "the classifier's verdict changed during the trial", run.requestId);
    attestations[0] = again.attestation;
  }
  if (tier === 3) {
    const second = await concur(steps, run, tier);
    run.evidence.concurrence = second.evidence;
    if (second.tier === 4 || !second.attestation)
      throw steps.refuseTier4(run, `classifier: tier 3 (${verdict.rule}); concurrence: tier 4 (${second.reason})`, "concurrence");
    attestations.push(second.attestation);
  }
  // The lease last, right before the executor: a long trial cannot outlive it.
  if (tier >= 1) {
    attestations.push(await steps.lease(run, tier));
    mark(run, "lease");
  }
  return { attestations, undoPaths };
}

/** A package run's trial in the sandbox: what it touched is what the undo captures. */
async function sandboxTrial(steps: ExecSteps, run: Run, tier: TierNumber) {
  const { sandbox } = steps.clients;
  const report = await call(
    sandbox,
    sandbox.trial,
    { requestId: run.requestId, ...run.binding, timeoutS: run.body.timeout },
    (run.body.timeout + 10) * 1000,
  ).catch((e: unknown) => {
    throw failedCall("sandbox", e, run.requestId, tier);
  });
  const evidence = {
    ok: report.ok,
    exit_code: report.exitCode,
    touched: report.touchedPaths.slice(0, 200),
    findings: report.findings,
    gaps: report.gaps,
  };
  return { ...report, evidence };
}

/** Tier 3: the concurrence's independent verdict over the same binding. */
async function concur(steps: ExecSteps, run: Run, tier: TierNumber) {
  const { concurrence } = steps.clients;
  const second = await call(
    concurrence,
    concurrence.concur,
    { requestId: run.requestId, ...run.binding, source: Source.SOURCE_SUDO },
    CONTROL_DEADLINE_MS,
  ).catch((e: unknown) => {
    throw failedCall("concurrence", e, run.requestId, tier);
  });
  const secondTier = tierFromEnum(second.tier);
  return {
    tier: secondTier,
    reason: second.reason,
    attestation: second.attestation,
    evidence: { tier: secondTier, rule: second.rule, reason: second.reason },
  };
}
