// After a gateway restart: intents the previous process wrote but never
// closed (it died between asking the executor and recording the outcome)
// get an "outcome_unknown" outcome, so no intent stays pending forever. It
// runs once the spool has drained (so every old intent is in PostgreSQL),
// looks only at intents older than this process and of this host, and
// retries until the database answers. What did run is in the executor's
// journal; the outcome record points there. An intent whose outcome record
// was written and then lost (damaged in the spool, or refused by PostgreSQL:
// rejected.log) is closed as outcome_unknown too, but the record says that:
// the command may well have run.
import pg from "pg";
import type { Logger } from "../shared/log.js";
import type { AuditContext, AuditTrail } from "./audit-trail.js";
import type { AuditSource } from "./audit/record.js";
import type { Shipper } from "./audit/shipper.js";
import type { RejectedRecordsView } from "./audit/spool-rejected.js";

const ORPHANS_SQL = `
  SELECT i.request_id, i.caller, i.source, i.command, i.cwd, i.run_as, i.assigned_tier, i.matched_rule, i.policy_digest, i.evidence
    FROM command_audit i
   WHERE i.phase = 'intent' AND i.host = $1 AND i.ts < $2
     AND NOT EXISTS (SELECT 1 FROM command_audit o WHERE o.request_id = i.request_id AND o.phase = 'outcome')
   LIMIT 10000`;

interface Orphan {
  request_id: string;
  caller: string;
  source: AuditSource;
  command: string;
  cwd: string | null;
  run_as: string | null;
  assigned_tier: number | null;
  matched_rule: string | null;
  policy_digest: string | null;
  evidence: Record<string, unknown> | null;
}

const STOPPED = "the gateway stopped between this intent and its outcome; the executor journal records whether it ran";
const LOST =
  "this request's outcome record was written and then lost before it reached the database (damaged in the audit spool, or refused by PostgreSQL: " +
  "see the spool's rejected.log): the command may have run — the executor journal records whether it did";

/** What the outcome_unknown record says about why the outcome is missing. */
export function reconciledEvidence(requestId: string, rejected: RejectedRecordsView | undefined): Record<string, unknown> {
  const lost = rejected?.forRequest(requestId) ?? [];
  if (lost.length > 0) return { reconciled: LOST, outcome_record_lost: lost };
  const unattributed = rejected?.unattributed() ?? 0;
  if (unattributed > 0) {
    return {
      reconciled: `${STOPPED} — or its outcome record is among the ${unattributed} damaged audit spool line(s) that name no request (rejected.log), in which case it may have run`,
      spool_lines_unattributed: unattributed,
    };
  }
  return { reconciled: STOPPED };
}

async function closeOrphans(
  databaseUrl: string,
  host: string,
  before: Date,
  audit: AuditTrail,
  rejected: RejectedRecordsView | undefined,
  log: Logger,
): Promise<number> {
  const client = new pg.Client({ connectionString: databaseUrl, connectionTimeoutMillis: 5000 });
  // A database that dies between two queries emits 'error' on the idle client; unheard, it would crash the gateway.
  client.on("error", (err) => log.warn({ err: err.message }, "audit reconciliation: connection lost"));
  await client.connect();
  try {
    const orphans = (await client.query<Orphan>(ORPHANS_SQL, [host, before])).rows;
    for (const o of orphans) {
      const ctx: AuditContext = {
        requestId: o.request_id,
        caller: o.caller,
        source: o.source,
        command: o.command,
        cwd: o.cwd ?? "",
        runAs: o.run_as ?? "",
        ...(o.assigned_tier !== null && o.assigned_tier >= 0 && o.assigned_tier <= 4 ? { tier: o.assigned_tier as 0 | 1 | 2 | 3 | 4 } : {}),
        ...(o.matched_rule ? { rule: o.matched_rule } : {}),
        ...(o.policy_digest ? { policyDigest: o.policy_digest } : {}),
        evidence: o.evidence ?? {},
      };
      const evidence = reconciledEvidence(o.request_id, rejected);
      if (evidence.outcome_record_lost)
        log.error(
          { request_id: o.request_id, lost: evidence.outcome_record_lost },
          "closing an intent whose outcome record was lost in the spool: outcome unknown, it may have run",
        );
      await audit.outcome(ctx, { decision: "outcome_unknown", evidence });
    }
    return orphans.length;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Runs in the background until done; never throws. Returns whether it is done (for /health). */
export function reconcileOrphans(opts: {
  shipper: Shipper;
  databaseUrl: string;
  host: string;
  startedAt: Date;
  audit: AuditTrail;
  log: Logger;
  /** The spool's lost records, so a lost outcome is not reported as a stopped gateway. */
  rejected?: RejectedRecordsView;
}): () => boolean {
  let done = false;
  const attempt = async (): Promise<void> => {
    const h = opts.shipper.health();
    if (h.depth > 0 || h.state !== "ok") throw new Error(`spool not drained yet (depth ${h.depth}, ${h.state})`);
    const n = await closeOrphans(opts.databaseUrl, opts.host, opts.startedAt, opts.audit, opts.rejected, opts.log);
    if (n > 0) opts.log.warn({ intents: n }, "closed intents a previous gateway left open: outcome unknown");
  };
  const loop = async () => {
    for (let delay = 500; ; delay = Math.min(delay * 2, 30_000)) {
      try {
        await attempt();
        done = true;
        return;
      } catch (err) {
        opts.log.debug({ err: (err as Error).message }, "audit reconciliation deferred");
        await new Promise((r) => setTimeout(r, delay).unref());
      }
    }
  };
  void loop();
  return () => done;
}
