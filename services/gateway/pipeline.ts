// The /exec pipeline. The gateway decides nothing: it gathers signed
// attestations and hands them to the executor, which checks them. In order
// (pipeline() below; its steps in exec-steps.ts, transaction.ts, direct.ts):
//   check the env_secrets references (allowed prefixes; no Vault traffic)
//   → resolve the cwd (the executor's realpath: what is judged is where it runs)
//   → classify (SUDO.md) → tier 4: refused
//   → tier 3, a live action beside parts that change files: refused (send two)
//   → tiers 1–3 but package runs and tier-3 live actions (transaction.ts):
//     secret values → audit intent → run once in the sandbox's mirror (the
//     real run: with a `network` rule it reaches the world) → a run that
//     cannot be committed: refused (409 when the host changed under it) →
//     no changes: done → a fresh verdict after a long run → the breaker
//     lease, asked for while both judges rate the run's diff → worst tier 4:
//     refused, nothing committed; tier 3 and the run failed: nothing
//     committed → executor Commit (409 when the host changed since the run)
//   → tier 0, tier-3 live actions, package runs (direct.ts): sandbox trial
//     (package runs) → a fresh verdict after a long trial → concurrence
//     (tier 3) → lease (tier ≥ 1) → secret values → audit intent → executor
//     Execute → tier 3: verify, on failure the breaker hears it and grants a
//     rollback (verify-undo.ts)
//   → finish(), for every answer: the breaker's report of a refusal or a
//     failure → the audit outcome (a refusal before anything ran: intent and
//     outcome together) → the report of a clean run below tier 3.
// A part that says no refuses (403); a part that is down, or stalled so long
// the decisions it was handed expired, answers 503 (retryable, nothing ran).
// An intent that cannot be made durable answers 503 and nothing runs: the one
// answer that skips finish() (there is nothing it could write). A refusal
// whose record cannot be written still answers 403, `audited: false`.
import { randomUUID } from "node:crypto";
import type { ClassifyResponse } from "../../proto/gen/agent_sudo/v1/classifier_pb.js";
import { redactDeep } from "../shared/credentials.js";
import type { Config } from "../shared/config.js";
import type { Logger } from "../shared/log.js";
import type { Notifier } from "../shared/ntfy.js";
import { tierToEnum, type TierNumber } from "../shared/tier.js";
import { answer } from "./answers.js";
import { AuditUnavailable, type Outcome } from "./audit-trail.js";
import type { ExecRequest } from "./body.js";
import { call, type ServiceClients } from "./clients.js";
import { direct } from "./direct.js";
import { auditContext, type Executed, mark, newRun, type Run } from "./exec-state.js";
import { type ExecAudit, ExecSteps } from "./exec-steps.js";
import { type HttpAnswer, Refusal, refused } from "./refusal.js";
import { precheckEnvSecrets, redactSecrets, secretsAnswer, SecretsError } from "./secrets.js";
import type { Caller } from "./tokens.js";
import { transact } from "./transaction.js";
import { localProbeRunner, type ProbeRunner } from "./verify-outcome.js";

export type { HttpAnswer } from "./refusal.js";

/** Verify probes get a plain environment: not the gateway's (tokens, database URL). */
const PROBE_ENV = { PATH: "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin", LANG: "C.UTF-8" };

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

/** How a request ended: it ran (in the mirror or on the host), or it was refused. */
type Exit = { done: Executed; verdict: ClassifyResponse; tier: TierNumber } | { refusal: Refusal };

interface BreakerReport {
  tier: TierNumber;
  ok: boolean;
  refused: boolean;
  unaudited: boolean;
}

export class ExecPipeline {
  private readonly steps: ExecSteps;

  constructor(
    clients: ServiceClients,
    config: Config,
    private readonly audit: ExecAudit,
    private readonly log: Logger,
    notifier?: Notifier,
    probes: ProbeRunner = localProbeRunner(PROBE_ENV),
  ) {
    this.steps = new ExecSteps(clients, config, audit, probes, notifier);
  }

  async run(body: ExecRequest, caller: Caller): Promise<HttpAnswer> {
    const requestId = randomUUID();
    const { command, runAs } = effectiveCommand(body.command, caller.runAs);
    // Secret variables: their names are bound into every signer's digest; values never leave the request.
    const envNames = body.env_secrets ? Object.keys(body.env_secrets).sort() : [];
    const binding = { command, cwd: body.cwd ?? "", host: this.steps.config.host_id, runAs, envNames, source: "sudo" as const };
    const run = newRun(requestId, caller.name, binding, body, this.log.child({ request_id: requestId, caller: caller.name }));
    let exit: Exit;
    try {
      exit = await this.pipeline(run);
    } catch (err) {
      // The intent could not be made durable: nothing ran, and nothing can be written.
      if (err instanceof AuditUnavailable) return answer("unavailable", { component: "audit" });
      exit = { refusal: refusalOf(run, err) };
    }
    return this.finish(run, exit);
  }

  private async pipeline(run: Run): Promise<Exit> {
    const { steps } = this;
    if (run.body.env_secrets) precheckEnvSecrets(run.body.env_secrets, steps.config.secrets);
    const cwd = await steps.resolveCwd(run);
    if (cwd !== undefined && cwd !== run.binding.cwd) run.evidence.cwd_given = run.binding.cwd;
    if (cwd !== undefined) run.binding.cwd = cwd;
    const classified = await steps.classify(run);
    run.classified = classified;
    const { verdict, tier } = classified;
    if (tier === 4 || !verdict.attestation) throw steps.refuseTier4(run, verdict.reason, verdict.rule);
    if (tier === 3 && verdict.liveMixed) throw refused(3, verdict.liveMixed, run.requestId);
    // Only a tier-3 live action and a package run touch the host directly; every other change is a judged diff.
    const transactional = ((tier === 1 || tier === 2) && !verdict.packageRun) || (tier === 3 && !verdict.liveAction);
    const done = transactional ? await transact(steps, run, classified) : await direct(steps, run, classified);
    return { done, verdict, tier: (done.evidence.final_tier as TierNumber | undefined) ?? tier };
  }

  /** Every answer but an unwritable intent's: what the breaker must hear at once, the audit outcome, then the rest. */
  private async finish(run: Run, exit: Exit): Promise<HttpAnswer> {
    const end = "refusal" in exit ? refusalEnd(run, exit.refusal) : executedEnd(run, exit);
    const ctx = auditContext(run, true);
    // What the breaker must hear at once (a refusal, a failure: a tier-4 attempt disarms it before its caller can
    // send another request) goes before the audit; a clean run only feeds its rate and mix counts, after the
    // audit write, so its gRPC call and the breaker's work stay off this answer's path.
    const reports = breakerReports(run, exit);
    for (const report of reports) if (!routine(report)) this.report(run.requestId, report);
    // Nothing ran: intent and outcome together (the intent may already be there).
    const audited = await (run.intentWritten ? this.audit.outcome(ctx, end.outcome) : this.audit.decision(ctx, end.outcome)).catch(
      () => false,
    );
    for (const report of reports) if (routine(report)) this.report(run.requestId, report);
    if (!audited && "refusal" in exit) {
      // The refusal stands (nothing ran), but the caller and /health are told it is not on the record.
      this.audit.noteUnaudited();
      end.answer.body.audited = false;
      run.log.error(
        { status: end.answer.status, request_id: run.requestId },
        "refusal answered but NOT audited: the spool could not be written",
      );
    }
    // A tier-4 attempt that is not on the record: the breaker disarms whatever trip_on_tier4 says.
    if (!audited && "refusal" in exit && (run.classified?.tier === 4 || end.answer.body.tier === 4))
      this.report(run.requestId, { tier: 4, ok: false, refused: true, unaudited: true });
    if ("refusal" in exit) {
      run.log.info({ status: end.answer.status, body: redactDeep(end.answer.body) }, "exec refused");
    } else {
      mark(run, "outcome");
      run.log.info({ tier: exit.tier, exit_code: exit.done.exitCode, stages_ms: run.stages }, "answered");
    }
    return end.answer;
  }

  /** Tells the breaker about an outcome; never blocks or fails the request. */
  private report(requestId: string, r: BreakerReport): void {
    const { breaker } = this.steps.clients;
    call(
      breaker,
      breaker.report,
      { requestId, tier: tierToEnum(r.tier), ok: r.ok, refused: r.refused, undoId: "", unaudited: r.unaudited },
      1000,
    ).catch((err: unknown) => {
      this.log.warn({ request_id: requestId, err: (err as Error).message }, "breaker report failed");
    });
  }
}

/** A thrown refusal as it is; a secrets error as its answer; anything else a logged 500. */
function refusalOf(run: Run, err: unknown): Refusal {
  if (err instanceof Refusal) return err;
  if (err instanceof SecretsError)
    return new Refusal(secretsAnswer(err, run.requestId), err.code === "SECRET_NOT_ALLOWED" ? "refused" : "error");
  run.log.error({ err }, "pipeline failed");
  return new Refusal(answer("internal", { request_id: run.requestId }), "error");
}

/** A clean run below tier 3: nothing the breaker must act on before the caller's next request. */
function routine(r: BreakerReport): boolean {
  return r.ok && !r.refused && r.tier < 3;
}

/**
 * What the breaker hears of an exit: a run's outcome (unless a failed verify
 * told it already); a refusal the step marked for it (tier 4, a failed
 * Execute or Commit); and a tier-4 attempt nobody can see afterwards, which
 * disarms it whatever trip_on_tier4 says.
 */
function breakerReports(run: Run, exit: Exit): BreakerReport[] {
  if (!("refusal" in exit)) {
    const ok = exit.done.exitCode === 0 && exit.done.verified?.passed !== false;
    return run.reported ? [] : [{ tier: exit.tier, ok, refused: false, unaudited: false }];
  }
  const { breakerTier } = exit.refusal;
  return breakerTier === undefined ? [] : [{ tier: breakerTier, ok: false, refused: true, unaudited: false }];
}

interface End {
  outcome: Outcome;
  answer: HttpAnswer;
}

function refusalEnd(run: Run, refusal: Refusal): End {
  const { answer: refusalAnswer } = refusal;
  const evidence = { http_status: refusalAnswer.status, reason: refusalAnswer.body.reason ?? refusalAnswer.body.error };
  return { outcome: { decision: refusal.decision, durationMs: performance.now() - run.started, evidence }, answer: refusalAnswer };
}

function executedEnd(run: Run, { done, verdict, tier }: Extract<Exit, { done: Executed }>): End {
  const { verified } = done;
  const durationMs = Math.round(performance.now() - run.started);
  const outcome: Outcome = {
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
  };
  return { outcome, answer: { status: 200, body: executedBody(run, done, tier, durationMs) } };
}

/** The 200 answer: output with secret values redacted, the undo id, what was committed, how the verify went. */
function executedBody(run: Run, done: Executed, tier: TierNumber, durationMs: number): Record<string, unknown> {
  const { verified } = done;
  const env = (done.extra.env as Record<string, string> | undefined) ?? {};
  return {
    exit_code: done.exitCode,
    output: redactSecrets(Buffer.from(done.stdout).toString("utf8"), env),
    stderr: redactSecrets(Buffer.from(done.stderr).toString("utf8"), env),
    tier,
    request_id: run.requestId,
    duration_ms: durationMs,
    truncated: done.truncated,
    ...(done.undoId ? { undo_id: done.undoId } : {}),
    ...Object.fromEntries(Object.entries(done.extra).filter(([k]) => k !== "env")),
    ...(verified ? { verify_passed: verified.passed, rolled_back: verified.rolledBack } : {}),
    ...(verified?.redeploy ? { redeployed: verified.redeploy.every((r) => r.ok) } : {}),
    ...(done.timedOut ? { timed_out: true } : {}),
  };
}
