// The /exec pipeline: classify → audit intent → (tier ≥ 1: breaker lease) →
// (tier 2: sandbox trial) → (tier 3: concurrence) → executor → audit
// outcome → breaker report. The gateway decides nothing: it gathers signed
// attestations and hands them to the executor, which checks them. Every
// failure of a part refuses; an intent that cannot be made durable refuses.
import { randomUUID } from "node:crypto";
import { Source, type ClassifyRequest, type ClassifyResponse } from "../../proto/gen/agent_sudo/v1/classifier_pb.js";
import type { Attestation } from "../../proto/gen/agent_sudo/v1/decision_pb.js";
import { commandDigest, type CommandBinding } from "../shared/attestation.js";
import type { Config } from "../shared/config.js";
import type { Logger } from "../shared/log.js";
import { type Notifier, PRIORITY } from "../shared/ntfy.js";
import { tierFromEnum, tierToEnum, type TierNumber } from "../shared/tier.js";
import { type AuditContext, type AuditTrail, AuditUnavailable } from "./audit-trail.js";
import type { ExecRequest } from "./body.js";
import { call, type ServiceClients } from "./clients.js";
import { executorFailure, failedCall, type HttpAnswer, Refusal, refused } from "./refusal.js";
import { localProbeRunner, planVerify, verifyOutcome } from "./verify-outcome.js";

const PROBE_ENV = { PATH: "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin", LANG: "C.UTF-8" };
import { precheckEnvSecrets, redactSecrets, resolveEnvSecretsFromVault, secretsAnswer, SecretsError } from "./secrets.js";
import { redeploySettingsFromEnv, triggerRedeploy, type RedeployResult } from "./redeploy.js";
import type { Caller } from "./tokens.js";

export type { HttpAnswer } from "./refusal.js";

const CONTROL_DEADLINE_MS = 5000;

/**
 * Who a command runs as: a caller mapped to a user (tokens.json `run_as`)
 * runs as that user, unless the command is `sudo CMD` (no sudo options):
 * then CMD runs as root, judged as the sudo surface. Callers without a
 * mapping run as root, and a leading plain `sudo` is dropped.
 */
export function effectiveCommand(command: string, callerRunAs: string): { command: string; runAs: string } {
  const sudo = /^sudo[ \t]+(?![-\s])([\s\S]+)$/.exec(command);
  if (sudo?.[1]) return { command: sudo[1], runAs: "" };
  return { command, runAs: callerRunAs };
}

interface Run {
  ctx: AuditContext;
  binding: CommandBinding & { envNames: string[] };
  body: ExecRequest;
  started: number;
  log: Logger;
  intentWritten: boolean;
}

export class ExecPipeline {
  constructor(
    private readonly clients: ServiceClients,
    private readonly config: Config,
    private readonly audit: AuditTrail,
    private readonly log: Logger,
    private readonly notifier?: Notifier,
  ) {}

  async run(body: ExecRequest, caller: Caller): Promise<HttpAnswer> {
    const requestId = randomUUID();
    const { command, runAs } = effectiveCommand(body.command, caller.runAs);
    // Secret variables: their names are bound into every signer's digest; values never leave the request.
    const envNames = body.env_secrets ? Object.keys(body.env_secrets).sort() : [];
    const binding = { command, cwd: body.cwd ?? "", host: this.config.host_id, runAs, envNames };
    const ctx: AuditContext = { requestId, caller: caller.name, source: "http", command, cwd: binding.cwd, runAs, evidence: envNames.length > 0 ? { env_secrets: envNames } : {} };
    const run: Run = { ctx, binding, body, started: performance.now(), log: this.log.child({ request_id: requestId, caller: caller.name }), intentWritten: false };
    try {
      return await this.pipeline(run);
    } catch (err) {
      if (err instanceof AuditUnavailable) return { status: 503, body: { error: "unavailable", component: "audit" } };
      const refusal = err instanceof Refusal ? err : err instanceof SecretsError ? new Refusal(secretsAnswer(err, requestId), err.code === "SECRET_NOT_ALLOWED" ? "refused" : "error") : undefined;
      if (!refusal) run.log.error({ err }, "pipeline failed");
      const answer = refusal?.answer ?? { status: 500, body: { error: "internal", request_id: requestId } };
      const outcome = { decision: refusal?.decision ?? "error", durationMs: performance.now() - run.started, evidence: { http_status: answer.status, reason: answer.body.reason ?? answer.body.error } } as const;
      // Nothing ran: intent and outcome together (the intent may already be there).
      await (run.intentWritten ? this.audit.outcome(ctx, outcome) : this.audit.decision(ctx, outcome)).catch(() => undefined);
      run.log.info({ status: answer.status, body: answer.body }, "exec refused");
      return answer;
    }
  }

  private async classify(run: Run): Promise<{ verdict: ClassifyResponse; tier: TierNumber }> {
    const { classifier } = this.clients;
    const req: ClassifyRequest = { requestId: run.ctx.requestId, ...run.binding, source: Source.SOURCE_SUDO };
    const verdict = await call(classifier, classifier.classify, req, CONTROL_DEADLINE_MS).catch((e: unknown) => {
      throw failedCall("classifier", e, run.ctx.requestId, undefined);
    });
    const tier = tierFromEnum(verdict.tier);
    Object.assign(run.ctx, { tier, rule: verdict.rule, policyDigest: Buffer.from(verdict.policyDigest).toString("hex") });
    run.ctx.evidence.verdict = { tier, rule: verdict.rule, reason: verdict.reason, explicit: verdict.explicit };
    run.log.info({ tier, rule: verdict.rule }, "classified");
    return { verdict, tier };
  }

  private async gather(run: Run, verdict: ClassifyResponse, tier: TierNumber): Promise<{ attestations: Attestation[]; undoPaths: string[] }> {
    const { breaker, sandbox, concurrence } = this.clients;
    const { requestId } = run.ctx;
    const attestations: Attestation[] = verdict.attestation ? [verdict.attestation] : [];
    // The classifier's signed plan; for tier 2 the trial's touched list.
    let undoPaths = verdict.undoPaths;
    if (tier >= 1) {
      const req = { requestId, commandDigest: commandDigest(run.binding), tier: tierToEnum(tier), host: run.binding.host };
      const lease = await call(breaker, breaker.lease, req, CONTROL_DEADLINE_MS).catch((e: unknown) => {
        throw failedCall("breaker", e, requestId, tier);
      });
      if (!lease.armed || !lease.lease) throw refused(tier, `breaker disarmed: ${lease.reason}`, requestId);
      attestations.push(lease.lease);
    }
    if (tier === 2) {
      const report = await call(sandbox, sandbox.trial, { requestId, ...run.binding, timeoutS: run.body.timeout }, (run.body.timeout + 10) * 1000).catch((e: unknown) => {
        throw failedCall("sandbox", e, requestId, tier);
      });
      run.ctx.evidence.trial = { ok: report.ok, exit_code: report.exitCode, touched: report.touchedPaths.slice(0, 200), findings: report.findings, gaps: report.gaps };
      if (!report.ok || !report.attestation) throw refused(2, `sandbox trial failed: ${report.findings.join("; ") || "not ok"}`, requestId, "sandbox_failed");
      attestations.push(report.attestation);
      undoPaths = report.touchedPaths;
    }
    if (tier === 3) {
      const second = await call(concurrence, concurrence.concur, { requestId, ...run.binding, source: Source.SOURCE_SUDO }, CONTROL_DEADLINE_MS).catch((e: unknown) => {
        throw failedCall("concurrence", e, requestId, tier);
      });
      run.ctx.evidence.concurrence = { tier: tierFromEnum(second.tier), rule: second.rule, reason: second.reason };
      if (tierFromEnum(second.tier) === 4 || !second.attestation) {
        this.report(requestId, 4, false, true);
        throw refused(4, `classifier: tier 3 (${verdict.rule}); concurrence: tier 4 (${second.reason})`, requestId);
      }
      attestations.push(second.attestation);
    }
    return { attestations, undoPaths };
  }

  private async pipeline(run: Run): Promise<HttpAnswer> {
    if (run.body.env_secrets) precheckEnvSecrets(run.body.env_secrets, this.config.secrets);
    const { verdict, tier } = await this.classify(run);
    const { requestId } = run.ctx;
    if (tier === 4 || !verdict.attestation) {
      this.report(requestId, 4, false, true);
      this.notifier?.notify({
        title: `agent-sudo: tier 4 refused on ${run.binding.host}`,
        body: `${run.ctx.caller}: ${run.binding.command.slice(0, 300)}\nrule ${verdict.rule}: ${verdict.reason}\nrequest ${requestId}. A person must run it interactively.`,
        priority: PRIORITY.high,
        tags: ["no_entry", "agent-sudo"],
      });
      throw refused(4, verdict.reason, requestId);
    }
    const tClassified = performance.now();
    const { attestations, undoPaths } = await this.gather(run, verdict, tier);
    run.ctx.evidence.signers = attestations.map((a) => a.signer);
    // Resolved only for a command every signer has vetted, right before it runs.
    const env = run.body.env_secrets ? await resolveEnvSecretsFromVault(run.body.env_secrets as Record<string, string>, this.config.secrets) : {};
    await this.audit.intent(run.ctx);
    run.intentWritten = true;
    const tIntent = performance.now();
    const { executor } = this.clients;
    const req = { requestId, ...run.binding, timeoutS: run.body.timeout, attestations, undoPaths, env };
    const result = await call(executor, executor.execute, req, (run.body.timeout + 15) * 1000).catch((e: unknown) => {
      this.report(requestId, tier, false, true);
      throw executorFailure(e, requestId, tier);
    });
    const tExecuted = performance.now();
    const verified = tier === 3 ? await this.verifyOrUndo(run, verdict, result.exitCode, result.undoId) : undefined;
    this.report(requestId, tier, result.exitCode === 0 && verified?.passed !== false, false);
    const durationMs = Math.round(performance.now() - run.started);
    await this.audit.outcome(run.ctx, {
      decision: verified && !verified.passed ? "verify_failed" : "executed",
      exitCode: result.exitCode,
      durationMs,
      ...(verified ? { verifyPassed: verified.passed, rollbackTaken: verified.rolledBack } : {}),
      evidence: {
        undo_id: result.undoId || null,
        snapshot: result.snapshot || null,
        timed_out: result.timedOut,
        truncated: result.truncated,
        ...(verdict.network ? { network: true } : {}),
        ...(verified ? { verify: verified.detail } : {}),
        ...(verified?.redeploy ? { redeploy: verified.redeploy } : {}),
      },
    });
    const ms = (a: number, b: number) => Math.round((b - a) * 100) / 100;
    run.log.debug({ classify_ms: ms(run.started, tClassified), gather_intent_ms: ms(tClassified, tIntent), execute_ms: ms(tIntent, tExecuted), outcome_ms: ms(tExecuted, performance.now()) }, "exec timings");
    return {
      status: 200,
      body: {
        exit_code: result.exitCode,
        output: redactSecrets(Buffer.from(result.stdout).toString("utf8"), env),
        stderr: redactSecrets(Buffer.from(result.stderr).toString("utf8"), env),
        tier,
        request_id: requestId,
        duration_ms: durationMs,
        truncated: result.truncated,
        ...(result.undoId ? { undo_id: result.undoId } : {}),
        ...(result.snapshot ? { snapshot: result.snapshot } : {}),
        ...(verified ? { verify_passed: verified.passed, rolled_back: verified.rolledBack } : {}),
        ...(verified?.redeploy ? { redeployed: verified.redeploy.every((r) => r.ok) } : {}),
        ...(result.timedOut ? { timed_out: true } : {}),
      },
    };
  }

  /**
   * Tier 3: auto-verify what the command touched (the rules' own verify
   * commands, else systemctl is-active / docker inspect, else the exit code);
   * when that fails, roll back the scoped undo and call the rules' redeploy
   * webhooks.
   */
  private async verifyOrUndo(run: Run, verdict: ClassifyResponse, exitCode: number, undoId: string): Promise<{ passed: boolean; rolledBack: boolean; detail: string; redeploy?: RedeployResult[] }> {
    const ruleVerify = verdict.verify.length > 0 ? verdict.verify.join(" && ") : undefined;
    const plan = planVerify(run.binding.command, { cwd: run.binding.cwd || "/", ...(ruleVerify ? { ruleVerify } : {}) });
    // Probes get a plain environment: not the gateway's (tokens, database URL).
    const result = await verifyOutcome(plan, exitCode, localProbeRunner(PROBE_ENV)).catch((err: unknown) => ({
      passed: false,
      detail: `verify failed to run: ${(err as Error).message}`,
    }));
    if (result.passed) return { passed: true, rolledBack: false, detail: result.detail };
    run.log.warn({ detail: result.detail, undo_id: undoId }, "tier-3 verify failed: rolling back");
    const redeploy = verdict.redeploy.length > 0 ? this.redeploy(run, verdict, result.detail) : undefined;
    let rolledBack = false;
    if (undoId) {
      const { executor } = this.clients;
      rolledBack = await call(executor, executor.rollback, { requestId: run.ctx.requestId, undoId }, 60_000).then(
        (r) => r.failed.length === 0,
        (err: unknown) => {
          run.log.error({ err: (err as Error).message, undo_id: undoId }, "rollback after failed verify did not complete");
          return false;
        },
      );
    }
    return { passed: false, rolledBack, detail: result.detail, ...(redeploy ? { redeploy: await redeploy } : {}) };
  }

  private async redeploy(run: Run, verdict: ClassifyResponse, detail: string): Promise<RedeployResult[]> {
    const event = { request_id: run.ctx.requestId, host: run.binding.host, rule: verdict.rule, command: run.binding.command, detail };
    const results = await triggerRedeploy(verdict.redeploy, event, redeploySettingsFromEnv());
    for (const r of results) (r.ok ? run.log.warn : run.log.error).call(run.log, { url: r.url, status: r.status, attempts: r.attempts }, r.ok ? "redeploy webhook accepted" : "redeploy webhook failed");
    return results;
  }

  /** Tells the breaker about an outcome; never blocks or fails the request. */
  private report(requestId: string, tier: TierNumber, ok: boolean, refusedOutcome: boolean): void {
    const { breaker } = this.clients;
    call(breaker, breaker.report, { requestId, tier: tierToEnum(tier), ok, refused: refusedOutcome }, 1000).catch((err: unknown) => {
      this.log.warn({ request_id: requestId, err: (err as Error).message }, "breaker report failed");
    });
  }
}
