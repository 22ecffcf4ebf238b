// Tier 3 after a direct run: auto-verify what the command touched (the
// rules' own verify commands, else systemctl is-active / docker inspect, else
// the exit code); when that fails, tell the breaker, roll back the scoped
// undo with the grant it signs for exactly that record, and call the rules'
// redeploy webhooks. The breaker hears a failed verify here, not in the
// pipeline's finish(): its rollback grant needs the report first.
import type { ClassifyResponse } from "../../proto/gen/agent_sudo/v1/classifier_pb.js";
import { tierToEnum } from "../shared/tier.js";
import { call } from "./clients.js";
import type { Run, Verified } from "./exec-state.js";
import type { ExecSteps } from "./exec-steps.js";
import { redeploySettingsFromEnv, triggerRedeploy, type RedeployResult } from "./redeploy.js";
import { planVerify, verifyOutcome } from "./verify-outcome.js";

export async function verifyOrUndo(
  steps: ExecSteps,
  run: Run,
  verdict: ClassifyResponse,
  exitCode: number,
  undoId: string,
): Promise<Verified> {
  const ruleVerify = verdict.verify.length > 0 ? verdict.verify.join(" && ") : undefined;
  const plan = planVerify(run.binding.command, { cwd: run.binding.cwd || "/", ...(ruleVerify ? { ruleVerify } : {}) });
  const result = await verifyOutcome(plan, exitCode, steps.probes).catch((err: unknown) => ({
    passed: false,
    detail: `verify failed to run: ${(err as Error).message}`,
  }));
  if (result.passed) return { passed: true, rolledBack: false, detail: result.detail };
  run.log.warn({ detail: result.detail, undo_id: undoId }, "tier-3 verify failed: rolling back");
  const redeploy = verdict.redeploy.length > 0 ? redeployHooks(run, verdict, result.detail) : undefined;
  const rolledBack = undoId ? await rollback(steps, run, undoId) : false;
  return { passed: false, rolledBack, detail: result.detail, ...(redeploy ? { redeploy: await redeploy } : {}) };
}

/** The breaker hears the failure first, then signs a grant for this undo record alone. */
async function rollback(steps: ExecSteps, run: Run, undoId: string): Promise<boolean> {
  const { breaker, executor } = steps.clients;
  const { requestId } = run;
  try {
    run.reported = true;
    await call(breaker, breaker.report, { requestId, tier: tierToEnum(3), ok: false, refused: false, undoId, unaudited: false }, 2000);
    const grant = await call(breaker, breaker.rollbackGrant, { requestId, undoId }, 2000);
    if (!grant.granted || !grant.grant) throw new Error(`breaker granted no rollback: ${grant.reason}`);
    const r = await call(executor, executor.rollback, { requestId, undoId, grant: grant.grant }, 60_000);
    return r.failed.length === 0;
  } catch (err) {
    run.log.error({ err: (err as Error).message, undo_id: undoId }, "rollback after failed verify did not complete");
    return false;
  }
}

async function redeployHooks(run: Run, verdict: ClassifyResponse, detail: string): Promise<RedeployResult[]> {
  const event = { request_id: run.requestId, host: run.binding.host, rule: verdict.rule, command: run.binding.command, detail };
  const results = await triggerRedeploy(verdict.redeploy, event, redeploySettingsFromEnv());
  for (const r of results)
    (r.ok ? run.log.warn : run.log.error).call(
      run.log,
      { url: r.url, status: r.status, attempts: r.attempts },
      r.ok ? "redeploy webhook accepted" : "redeploy webhook failed",
    );
  return results;
}
