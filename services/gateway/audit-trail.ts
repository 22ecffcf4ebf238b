// The gateway's side of the audit: an intent record before anything can
// execute, an outcome record after, both through the durable spool (fsync
// before the promise resolves). If the intent cannot be written the request
// is refused with 503 and nothing runs — sudo's I/O-log rule. Outcomes and
// refusals may use the spool's reserve on a full disk; intents never do.
import { redactCredentials, redactDeep } from "../shared/credentials.js";
import type { Logger } from "../shared/log.js";
import type { TierNumber } from "../shared/tier.js";
import type { AuditRecordInput, AuditSource, DecisionType } from "./audit/record.js";
import type { Spool } from "./audit/spool.js";
import { trainingSignal } from "./audit/training-signal.js";

export interface AuditContext {
  requestId: string;
  caller: string;
  source: AuditSource;
  command: string;
  cwd: string;
  runAs: string;
  tier?: TierNumber;
  rule?: string;
  policyDigest?: string;
  evidence: Record<string, unknown>;
}

export interface Outcome {
  decision: DecisionType;
  exitCode?: number;
  durationMs?: number;
  rollbackTaken?: boolean;
  verifyPassed?: boolean;
  trainingSignal?: string;
  evidence?: Record<string, unknown>;
}

export class AuditUnavailable extends Error {}

/** Whether the trail can write, and what it could not (for /health). */
export interface TrailHealth {
  writable: boolean;
  last_failure?: { at: string; reason: string };
  /** Refusals answered whose records could not be made durable (since start). */
  unaudited_refusals: number;
}

export class AuditTrail {
  private failure: { at: string; reason: string } | undefined;
  private lastFailure: { at: string; reason: string } | undefined;
  private unaudited = 0;

  constructor(
    private readonly spool: Spool,
    private readonly host: string,
    private readonly log: Logger,
  ) {}

  private wrote(): void {
    this.failure = undefined;
  }

  private failed(err: unknown): void {
    this.failure = { at: new Date().toISOString(), reason: (err as Error).message };
    this.lastFailure = this.failure;
  }

  /** A refusal was answered without its record: counted, and /health says so. */
  noteUnaudited(): void {
    this.unaudited++;
  }

  health(): TrailHealth {
    return {
      writable: this.failure === undefined,
      ...(this.lastFailure ? { last_failure: this.lastFailure } : {}),
      unaudited_refusals: this.unaudited,
    };
  }

  private base(ctx: AuditContext): AuditRecordInput {
    return {
      request_id: ctx.requestId,
      phase: "intent",
      ts: new Date().toISOString(),
      host: this.host,
      caller: ctx.caller,
      source: ctx.source,
      // Credential literals never reach the spool, the database or the training export.
      command: redactCredentials(ctx.command),
      cwd: ctx.cwd || null,
      run_as: ctx.runAs || null,
      assigned_tier: ctx.tier ?? null,
      decision_type: "pending",
      matched_rule: ctx.rule ?? null,
      evidence: redactDeep(ctx.evidence) as AuditRecordInput["evidence"],
      policy_digest: ctx.policyDigest ?? null,
    };
  }

  /** Durable before it resolves; throws AuditUnavailable when it is not. `reserve`: a refusal's intent (nothing will run). */
  async intent(ctx: AuditContext, reserve = false): Promise<void> {
    try {
      await this.spool.append(this.base(ctx), { reserve });
      this.wrote();
    } catch (err) {
      this.failed(err);
      this.log.error({ request_id: ctx.requestId, err: (err as Error).message }, "audit intent not written: refusing");
      throw new AuditUnavailable((err as Error).message);
    }
  }

  /**
   * Best effort after the fact: a failure is logged loudly (and false
   * returned), the result still returned. `reserve` false: a record that may
   * not use the spool's reserve (hook outcomes of commands the agent ran itself).
   */
  async outcome(ctx: AuditContext, o: Outcome, reserve = true): Promise<boolean> {
    try {
      await this.spool.append(
        {
          ...this.base(ctx),
          phase: "outcome",
          decision_type: o.decision,
          exit_code: o.exitCode ?? null,
          duration_ms: o.durationMs === undefined ? null : Math.max(0, Math.round(o.durationMs)),
          rollback_taken: o.rollbackTaken ?? null,
          verify_passed: o.verifyPassed ?? null,
          training_signal: o.trainingSignal ?? trainingSignal(o),
          evidence: redactDeep({ ...ctx.evidence, ...o.evidence }) as AuditRecordInput["evidence"],
        },
        { reserve },
      );
      this.wrote();
      return true;
    } catch (err) {
      this.failed(err);
      this.log.error({ request_id: ctx.requestId, err: (err as Error).message }, "audit outcome not written");
      return false;
    }
  }

  /**
   * A decision with nothing executed (hook answers, refusals): both records
   * at once; false when either is not durable. `reserve`: a refusal, which
   * may use the spool's reserve (an allow or a no-opinion may not).
   */
  async decision(ctx: AuditContext, o: Outcome, reserve = true): Promise<boolean> {
    const [intent, outcome] = await Promise.all([
      this.intent(ctx, reserve).then(
        () => true,
        () => false,
      ),
      this.outcome(ctx, o, reserve),
    ]);
    return intent && outcome;
  }
}
