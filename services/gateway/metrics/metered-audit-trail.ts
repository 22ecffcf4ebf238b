// The audit trail, counted: every outcome the gateway audits (executed
// /exec requests, refusals, hook answers) also moves /metrics. The audit is
// the one place every decision passes, with its tier, its per-stage times
// (evidence.stages_ms) and its trial, so the pipeline needs no metrics code
// of its own. A failed write is counted too: the decision was still made.
import type { Logger } from "../../shared/log.js";
import { type AuditContext, AuditTrail, type Outcome } from "../audit-trail.js";
import type { Spool } from "../audit/spool.js";
import type { GatewayMetrics } from "./gateway-metrics.js";

export class MeteredAuditTrail extends AuditTrail {
  constructor(
    spool: Spool,
    host: string,
    log: Logger,
    private readonly metrics: GatewayMetrics,
  ) {
    super(spool, host, log);
  }

  override async outcome(ctx: AuditContext, o: Outcome, reserve = true): Promise<boolean> {
    const written = await super.outcome(ctx, o, reserve);
    this.metrics.observeOutcome({
      source: ctx.source,
      decision: o.decision,
      tier: ctx.tier,
      durationMs: o.durationMs,
      evidence: { ...ctx.evidence, ...o.evidence },
    });
    return written;
  }
}
