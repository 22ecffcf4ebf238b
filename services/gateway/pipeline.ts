// The /exec pipeline. The gateway decides nothing: it gathers signed
// attestations and hands them to the executor, which checks them. In order:
//   resolve the cwd (the executor's realpath: what is judged is where it runs)
//   → classify (SUDO.md) → tier 4: refuse, tell the breaker
//   → tiers 1–3 (not a package run, not a tier-3 live action): audit
//     intent → run once in the sandbox's mirror (the real run: with a
//     `network` rule it reaches the world) → both judges over the run's
//     diff → worst tier 4: refuse, nothing committed; tier 3 and the run
//     failed: nothing committed → breaker lease for the worst tier →
//     executor Commit (409 when the host changed since the run) → outcome
//   → a live action beside parts that change files: refused (send two)
//   → tier 0, tier-3 live actions, package runs: lease (tier ≥ 1) → sandbox trial
//     (package runs) → concurrence (tier 3) → audit intent → executor
//     Execute → tier 3: verify, on failure a breaker-granted rollback
//   → audit outcome → breaker report.
// A part that says no refuses (403); a part that is down, or stalled so long
// the decisions it was handed expired, answers 503 (retryable, nothing ran);
// an intent that cannot be made durable refuses (503). A long trial or run
// gets a fresh classifier decision before the executor sees it.
import { randomUUID } from "node:crypto";
import { Source, type ClassifyRequest, type ClassifyResponse } from "../../proto/gen/agent_sudo/v1/classifier_pb.js";
import type { Attestation } from "../../proto/gen/agent_sudo/v1/decision_pb.js";
import { Manifest } from "../../proto/gen/agent_sudo/v1/manifest_pb.js";
import { commandDigest, type CommandBinding } from "../shared/attestation.js";
import { redactDeep } from "../shared/credentials.js";
import type { Config } from "../shared/config.js";
import type { Logger } from "../shared/log.js";
import { type Notifier, PRIORITY } from "../shared/ntfy.js";
import { requestPage } from "../shared/console-url.js";
import { tierFromEnum, tierToEnum, type TierNumber } from "../shared/tier.js";
import { answer } from "./answers.js";
import { type AuditContext, type AuditTrail, AuditUnavailable } from "./audit-trail.js";
import type { ExecRequest } from "./body.js";
import { call, type ServiceClients } from "./clients.js";
import { executorFailure, failedCall, type HttpAnswer, Refusal, refused } from "./refusal.js";
import { localProbeRunner, planVerify, verifyOutcome } from "./verify-outcome.js";
import { precheckEnvSecrets, redactSecrets, resolveEnvSecretsFromVault, secretsAnswer, SecretsError } from "./secrets.js";
import { redeploySettingsFromEnv, triggerRedeploy, type RedeployResult } from "./redeploy.js";
import { changeSummary, judgedContents, judgeRun, runInMirror } from "./transaction.js";
import type { Caller } from "./tokens.js";

export type { HttpAnswer } from "./refusal.js";

const PROBE_ENV = { PATH: "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin", LANG: "C.UTF-8" };
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
  /** The breaker has heard this request's outcome already (a failed verify, before its rollback grant). */
  reported: boolean;
  /** Milliseconds since the previous mark, per stage (the audit's evidence.stages_ms; bench/tiers reads it). */
  stages: Record<string, number>;
  lastMark: number;
}

function mark(run: Run, stage: string): void {
  const now = performance.now();
  run.stages[stage] = Math.round((now - run.lastMark) * 100) / 100;
  run.lastMark = now;
}

interface Executed {
  exitCode: number;
  stdout: Uint8Array;
  stderr: Uint8Array;
  truncated: boolean;
  timedOut: boolean;
  undoId: string;
  extra: Record<string, unknown>;
  evidence: Record<string, unknown>;
  verified?: { passed: boolean; rolledBack: boolean; detail: string; redeploy?: RedeployResult[] };
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
    const binding = { command, cwd: body.cwd ?? "", host: this.config.host_id, runAs, envNames, source: "sudo" as const };
    const ctx: AuditContext = { requestId, caller: caller.name, source: "http", command, cwd: binding.cwd, runAs, evidence: envNames.length > 0 ? { env_secrets: envNames } : {} };
    const started = performance.now();
    const run: Run = { ctx, binding, body, started, log: this.log.child({ request_id: requestId, caller: caller.name }), intentWritten: false, reported: false, stages: {}, lastMark: started };
    try {
      return await this.pipeline(run);
    } catch (err) {
      if (err instanceof AuditUnavailable) return answer("unavailable", { component: "audit" });
      const refusal = err instanceof Refusal ? err : err instanceof SecretsError ? new Refusal(secretsAnswer(err, requestId), err.code === "SECRET_NOT_ALLOWED" ? "refused" : "error") : undefined;
      if (!refusal) run.log.error({ err }, "pipeline failed");
      const refusalAnswer = refusal?.answer ?? answer("internal", { request_id: requestId });
      run.ctx.evidence.stages_ms = run.stages;
      const outcome = { decision: refusal?.decision ?? "error", durationMs: performance.now() - run.started, evidence: { http_status: refusalAnswer.status, reason: refusalAnswer.body.reason ?? refusalAnswer.body.error } } as const;
      // Nothing ran: intent and outcome together (the intent may already be there).
      const audited = await (run.intentWritten ? this.audit.outcome(ctx, outcome) : this.audit.decision(ctx, outcome)).catch(() => false);
      if (!audited) {
        // The refusal stands (nothing ran), but the caller and /health are told it is not on the record.
        this.audit.noteUnaudited();
        refusalAnswer.body.audited = false;
        run.log.error({ status: refusalAnswer.status, request_id: requestId }, "refusal answered but NOT audited: the spool could not be written");
        if (run.ctx.tier === 4 || refusalAnswer.body.tier === 4) this.report(requestId, 4, false, true, "", true);
      }
      run.log.info({ status: refusalAnswer.status, body: redactDeep(refusalAnswer.body) }, "exec refused");
      return refusalAnswer;
    }
  }

  /** The canonical cwd, from the executor (root sees every directory; the gateway's user may not). */
  private async resolveCwd(run: Run): Promise<void> {
    if (!run.binding.cwd) return;
    const { executor } = this.clients;
    const resolved = await call(executor, executor.resolve, { path: run.binding.cwd }, CONTROL_DEADLINE_MS).catch((e: unknown) => {
      throw failedCall("executor", e, run.ctx.requestId, undefined);
    });
    if (resolved.path !== run.binding.cwd) run.ctx.evidence.cwd_given = run.binding.cwd;
    run.binding.cwd = resolved.path;
    run.ctx.cwd = resolved.path;
    mark(run, "resolve");
  }

  private async classify(run: Run): Promise<{ verdict: ClassifyResponse; tier: TierNumber }> {
    const { classifier } = this.clients;
    const req: ClassifyRequest = { requestId: run.ctx.requestId, ...run.binding, source: Source.SOURCE_SUDO };
    const verdict = await call(classifier, classifier.classify, req, CONTROL_DEADLINE_MS).catch((e: unknown) => {
      throw failedCall("classifier", e, run.ctx.requestId, undefined);
    });
    const tier = tierFromEnum(verdict.tier);
    Object.assign(run.ctx, { tier, rule: verdict.rule, policyDigest: Buffer.from(verdict.policyDigest).toString("hex") });
    run.ctx.evidence.verdict = { tier, rule: verdict.rule, reason: verdict.reason, explicit: verdict.explicit, ...(verdict.packageRun ? { package_run: true } : {}) };
    run.log.info({ tier, rule: verdict.rule }, "classified");
    mark(run, "classify");
    return { verdict, tier };
  }

  private refuseTier4(run: Run, reason: string, rule: string): never {
    const { requestId } = run.ctx;
    this.report(requestId, 4, false, true);
    this.notifier?.notify({
      title: `agent-sudo: tier 4 refused on ${run.binding.host}`,
      body: `${run.ctx.caller}: ${run.binding.command.slice(0, 300)}\nrule ${rule}: ${reason}\nrequest ${requestId}. A person must run it interactively.`,
      priority: PRIORITY.high,
      tags: ["no_entry", "agent-sudo"],
      link: requestPage(requestId),
    });
    throw refused(4, reason, requestId);
  }

  /** A breaker lease; `leased` (≥ tier) is what it is asked for: a lease covers every tier up to its own. */
  private async lease(run: Run, tier: TierNumber, leased: TierNumber = tier): Promise<Attestation> {
    const { breaker } = this.clients;
    const { requestId } = run.ctx;
    const req = { requestId, commandDigest: commandDigest(run.binding), tier: tierToEnum(leased), host: run.binding.host };
    const lease = await call(breaker, breaker.lease, req, CONTROL_DEADLINE_MS).catch((e: unknown) => {
      throw failedCall("breaker", e, requestId, tier);
    });
    if (!lease.armed || !lease.lease) throw refused(tier, `breaker disarmed: ${lease.reason}`, requestId);
    return lease.lease;
  }

  private async pipeline(run: Run): Promise<HttpAnswer> {
    if (run.body.env_secrets) precheckEnvSecrets(run.body.env_secrets, this.config.secrets);
    await this.resolveCwd(run);
    const { verdict, tier } = await this.classify(run);
    if (tier === 4 || !verdict.attestation) this.refuseTier4(run, verdict.reason, verdict.rule);
    if (tier === 3 && verdict.liveMixed) throw refused(3, verdict.liveMixed, run.ctx.requestId);
    // Only a tier-3 live action and a package run touch the host directly; every other change is a judged diff.
    const transactional = ((tier === 1 || tier === 2) && !verdict.packageRun) || (tier === 3 && !verdict.liveAction);
    const done = transactional ? await this.transaction(run, verdict, tier) : await this.direct(run, verdict, tier);
    const finalTier = (done.evidence.final_tier as TierNumber | undefined) ?? tier;
    const verified = done.verified;
    if (!run.reported) this.report(run.ctx.requestId, finalTier, done.exitCode === 0 && verified?.passed !== false, false);
    const durationMs = Math.round(performance.now() - run.started);
    run.ctx.evidence.stages_ms = run.stages;
    await this.audit.outcome(run.ctx, {
      decision: verified && !verified.passed ? "verify_failed" : "executed",
      exitCode: done.exitCode,
      durationMs,
      ...(verified ? { verifyPassed: verified.passed, rollbackTaken: verified.rolledBack } : {}),
      evidence: {
        undo_id: done.undoId || null,
        timed_out: done.timedOut,
        truncated: done.truncated,
        ...done.evidence,
        ...(verdict.network ? { network: true } : {}),
        ...(verified ? { verify: verified.detail } : {}),
        ...(verified?.redeploy ? { redeploy: verified.redeploy } : {}),
      },
    });
    mark(run, "outcome");
    run.log.info({ tier: finalTier, exit_code: done.exitCode, stages_ms: run.stages }, "answered");
    const env = done.extra.env as Record<string, string> | undefined;
    return {
      status: 200,
      body: {
        exit_code: done.exitCode,
        output: redactSecrets(Buffer.from(done.stdout).toString("utf8"), env ?? {}),
        stderr: redactSecrets(Buffer.from(done.stderr).toString("utf8"), env ?? {}),
        tier: finalTier,
        request_id: run.ctx.requestId,
        duration_ms: durationMs,
        truncated: done.truncated,
        ...(done.undoId ? { undo_id: done.undoId } : {}),
        ...Object.fromEntries(Object.entries(done.extra).filter(([k]) => k !== "env")),
        ...(verified ? { verify_passed: verified.passed, rolled_back: verified.rolledBack } : {}),
        ...(verified?.redeploy ? { redeployed: verified.redeploy.every((r) => r.ok) } : {}),
        ...(done.timedOut ? { timed_out: true } : {}),
      },
    };
  }

  /** Tiers 1–3 but live actions: one run in the mirror, both judges over its diff, the executor commits exactly it. */
  private async transaction(run: Run, first: ClassifyResponse, predicted: TierNumber): Promise<Executed> {
    let verdict = first;
    const { requestId } = run.ctx;
    // The run is the real run: a vetted command gets its secret values there (the output is redacted).
    const env = run.body.env_secrets ? await resolveEnvSecretsFromVault(run.body.env_secrets as Record<string, string>, this.config.secrets) : {};
    // The intent is on record before the run starts: the run is the real run (a rule flagged `network`
    // reaches the world from the mirror, with its secrets), so an unwritable spool refuses it here.
    await this.audit.intent(run.ctx);
    run.intentWritten = true;
    mark(run, "intent");
    const report = await runInMirror(this.clients, { requestId, ...run.binding, timeoutS: run.body.timeout, classifier: verdict.attestation, env }, predicted);
    mark(run, "run");
    const manifest = Manifest.decode(report.manifest);
    const changes = changeSummary(manifest);
    run.ctx.evidence.run = { ok: report.ok, exit_code: report.exitCode, timed_out: report.timedOut, changes: changes.slice(0, 200), changed: changes.length, findings: report.findings, gaps: report.gaps };
    if (report.conflict) {
      const details = report.findings.filter((f) => f.includes("conflict: ")).map((f) => f.replace(/^diff: conflict: /, "")).join("; ");
      throw new Refusal(answer("conflict", { details: `${details}; nothing was committed, the request may be retried`, request_id: requestId }), "refused");
    }
    if (!report.ok || !report.attestation) throw refused(predicted, `the run in the mirror cannot be committed: ${report.findings.join("; ") || "not ok"}`, requestId, "sandbox_failed");
    const out = { exitCode: report.exitCode, stdout: report.stdout, stderr: report.stderr, truncated: report.truncated, timedOut: report.timedOut, extra: { env } as Record<string, unknown> };
    if (manifest.changes.length === 0) {
      // Nothing to commit: the run's answer is the whole result.
      return { ...out, undoId: "", evidence: { final_tier: predicted, committed: 0 } };
    }
    // The classifier's decision must still be fresh at the commit: a long run gets a new one (same binding, same policy).
    if (performance.now() - run.started > (this.config.decision_ttl_s * 1000) / 2) ({ verdict } = await this.classify(run));
    if (tierFromEnum(verdict.tier) !== predicted || !verdict.attestation) throw refused(4, "the classifier's verdict changed during the run", requestId);
    // The lease is asked for while the judges rate the diff, for tier 3 (the breaker arms every tier
    // alike, and a lease covers the tiers below its own); a refusal counts only if the diff is committed.
    const leasing = this.lease(run, predicted, 3).then((lease) => ({ lease }), (refusal: unknown) => ({ refusal }));
    const judged = await judgeRun(this.clients, { requestId, ...run.binding, manifest: report.manifest, contents: judgedContents(manifest, report.blobs) }, predicted);
    run.ctx.evidence.effects = judged.evidence;
    mark(run, "judge");
    if (judged.tier === 4) this.refuseTier4(run, `the run's effects are tier 4, nothing was committed: ${judged.why || "a judge signed no verdict"}`, "effects");
    if (judged.tier === 3 && report.exitCode !== 0) {
      // Tier 3 is verified: a run that failed leaves its changes in the mirror (as a failed verify would roll them back).
      const note = `the run exited ${report.exitCode}: a tier-3 change is committed only when its run succeeds; nothing was committed`;
      return { ...out, undoId: "", extra: { env, committed: 0, not_committed: note }, evidence: { final_tier: 3, committed: 0, not_committed: note }, verified: { passed: false, rolledBack: false, detail: note } };
    }
    const leased = await leasing;
    if ("refusal" in leased) throw leased.refusal instanceof Refusal && leased.refusal.answer.status === 403 ? refused(judged.tier, String(leased.refusal.answer.body.reason), requestId) : leased.refusal;
    const { lease } = leased;
    mark(run, "lease");
    run.ctx.evidence.signers = ["classifier", "breaker", "sandbox", "classifier-effects", "concurrence-effects"];
    const { executor } = this.clients;
    const attestations = [verdict.attestation, lease, report.attestation, ...judged.attestations].filter((a): a is Attestation => a !== undefined);
    const committed = await call(executor, executor.commit, { requestId, ...run.binding, attestations, manifest: report.manifest, blobs: report.blobs }, 120_000).catch((e: unknown) => {
      this.report(requestId, judged.tier, false, true);
      if ((e as { details?: string }).details?.startsWith("CONFLICT")) {
        throw new Refusal(answer("conflict", { details: (e as { details: string }).details.replace(/^CONFLICT:? ?/, ""), request_id: requestId }), "refused");
      }
      throw executorFailure(e, requestId, judged.tier);
    });
    mark(run, "commit");
    const verified = judged.tier === 3 ? { verified: { passed: true, rolledBack: false, detail: "the run exited 0; its judged diff was committed" } } : {};
    const snapshot = committed.snapshot ? { snapshot: committed.snapshot } : {};
    return { ...out, undoId: committed.undoId, extra: { env, committed: committed.applied, ...snapshot }, evidence: { final_tier: judged.tier, committed: committed.applied, snapshot: committed.snapshot || null }, ...verified };
  }

  /** Tier 0, tier-3 live actions and package runs: the executor runs the command on the host's tree. */
  private async direct(run: Run, verdict: ClassifyResponse, tier: TierNumber): Promise<Executed> {
    const { sandbox, concurrence, executor } = this.clients;
    const { requestId } = run.ctx;
    const attestations: Attestation[] = verdict.attestation ? [verdict.attestation] : [];
    let undoPaths = verdict.undoPaths;
    if (verdict.packageRun) {
      const report = await call(sandbox, sandbox.trial, { requestId, ...run.binding, timeoutS: run.body.timeout }, (run.body.timeout + 10) * 1000).catch((e: unknown) => {
        throw failedCall("sandbox", e, requestId, tier);
      });
      run.ctx.evidence.trial = { ok: report.ok, exit_code: report.exitCode, touched: report.touchedPaths.slice(0, 200), findings: report.findings, gaps: report.gaps };
      if (!report.ok || !report.attestation) throw refused(2, `sandbox trial failed: ${report.findings.join("; ") || "not ok"}`, requestId, "sandbox_failed");
      attestations.push(report.attestation);
      undoPaths = report.touchedPaths;
    }
    // The classifier's decision must still be fresh at the executor: after a long trial, a new one (same binding, same policy).
    if (performance.now() - run.started > (this.config.decision_ttl_s * 1000) / 2) {
      const { verdict: again } = await this.classify(run);
      if (tierFromEnum(again.tier) !== tier || again.packageRun !== verdict.packageRun || !again.attestation) throw refused(4, "the classifier's verdict changed during the trial", requestId);
      attestations[0] = again.attestation;
    }
    if (tier === 3) {
      const second = await call(concurrence, concurrence.concur, { requestId, ...run.binding, source: Source.SOURCE_SUDO }, CONTROL_DEADLINE_MS).catch((e: unknown) => {
        throw failedCall("concurrence", e, requestId, tier);
      });
      run.ctx.evidence.concurrence = { tier: tierFromEnum(second.tier), rule: second.rule, reason: second.reason };
      if (tierFromEnum(second.tier) === 4 || !second.attestation) this.refuseTier4(run, `classifier: tier 3 (${verdict.rule}); concurrence: tier 4 (${second.reason})`, "concurrence");
      attestations.push(second.attestation);
    }
    // The lease last, right before the executor: a long trial cannot outlive it.
    if (tier >= 1) {
      attestations.push(await this.lease(run, tier));
      mark(run, "lease");
    }
    run.ctx.evidence.signers = attestations.map((a) => a.signer);
    // Resolved only for a command every signer has vetted, right before it runs.
    const env = run.body.env_secrets ? await resolveEnvSecretsFromVault(run.body.env_secrets as Record<string, string>, this.config.secrets) : {};
    await this.audit.intent(run.ctx);
    run.intentWritten = true;
    mark(run, "intent");
    const req = { requestId, ...run.binding, timeoutS: run.body.timeout, attestations, undoPaths, env };
    const result = await call(executor, executor.execute, req, (run.body.timeout + 15) * 1000).catch((e: unknown) => {
      this.report(requestId, tier, false, true);
      throw executorFailure(e, requestId, tier);
    });
    mark(run, "execute");
    const verified = tier === 3 ? await this.verifyOrUndo(run, verdict, result.exitCode, result.undoId) : undefined;
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

  /**
   * Tier 3: auto-verify what the command touched (the rules' own verify
   * commands, else systemctl is-active / docker inspect, else the exit code);
   * when that fails, tell the breaker, roll back the scoped undo with the
   * grant it signs for exactly that record, and call the rules' redeploy
   * webhooks.
   */
  private async verifyOrUndo(run: Run, verdict: ClassifyResponse, exitCode: number, undoId: string): Promise<NonNullable<Executed["verified"]>> {
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
    const rolledBack = undoId ? await this.rollback(run, undoId) : false;
    return { passed: false, rolledBack, detail: result.detail, ...(redeploy ? { redeploy: await redeploy } : {}) };
  }

  /** The breaker hears the failure first, then signs a grant for this undo record alone. */
  private async rollback(run: Run, undoId: string): Promise<boolean> {
    const { breaker, executor } = this.clients;
    const { requestId } = run.ctx;
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

  private async redeploy(run: Run, verdict: ClassifyResponse, detail: string): Promise<RedeployResult[]> {
    const event = { request_id: run.ctx.requestId, host: run.binding.host, rule: verdict.rule, command: run.binding.command, detail };
    const results = await triggerRedeploy(verdict.redeploy, event, redeploySettingsFromEnv());
    for (const r of results) (r.ok ? run.log.warn : run.log.error).call(run.log, { url: r.url, status: r.status, attempts: r.attempts }, r.ok ? "redeploy webhook accepted" : "redeploy webhook failed");
    return results;
  }

  /** Tells the breaker about an outcome; never blocks or fails the request. */
  private report(requestId: string, tier: TierNumber, ok: boolean, refusedOutcome: boolean, undoId = "", unaudited = false): void {
    const { breaker } = this.clients;
    call(breaker, breaker.report, { requestId, tier: tierToEnum(tier), ok, refused: refusedOutcome, undoId, unaudited }, 1000).catch((err: unknown) => {
      this.log.warn({ request_id: requestId, err: (err as Error).message }, "breaker report failed");
    });
  }
}
