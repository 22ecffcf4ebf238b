// The steps an /exec request takes through the parts, each a call that
// returns what the part said (the pipeline files it on the request): the
// executor's realpath of the cwd, the classifier's verdict, a breaker lease,
// the audit intent, the secret values. Refusals are returned or thrown as
// Refusal; the pipeline's finish() audits and reports them.
import { Source, type ClassifyRequest } from "../../proto/gen/agent_sudo/v1/classifier_pb.js";
import type { Attestation } from "../../proto/gen/agent_sudo/v1/decision_pb.js";
import { commandDigest } from "../shared/attestation.js";
import { redactCredentials } from "../shared/credentials.js";
import type { Config } from "../shared/config.js";
import { type Notifier, PRIORITY } from "../shared/ntfy.js";
import { requestPage } from "../shared/console-url.js";
import { tierFromEnum, tierToEnum, type TierNumber } from "../shared/tier.js";
import type { AuditTrail } from "./audit-trail.js";
import { call, type ServiceClients } from "./clients.js";
import { auditContext, type Classified, mark, type Run } from "./exec-state.js";
import { failedCall, type Refusal, refused, reported } from "./refusal.js";
import { resolveEnvSecretsFromVault } from "./secrets.js";
import type { ProbeRunner } from "./verify-outcome.js";

export const CONTROL_DEADLINE_MS = 5000;

/** What the pipeline needs of the audit trail (AuditTrail; an in-memory one in tests). */
export type ExecAudit = Pick<AuditTrail, "intent" | "outcome" | "decision" | "noteUnaudited">;

export class ExecSteps {
  constructor(
    readonly clients: ServiceClients,
    readonly config: Config,
    readonly audit: ExecAudit,
    /** Where tier-3 verify probes run (locally, with a plain environment). */
    readonly probes: ProbeRunner,
    private readonly notifier?: Notifier,
  ) {}

  /** The canonical cwd, from the executor (root sees every directory; the gateway's user may not); undefined when none was given. */
  async resolveCwd(run: Run): Promise<string | undefined> {
    if (!run.binding.cwd) return undefined;
    const { executor } = this.clients;
    const resolved = await call(executor, executor.resolve, { path: run.binding.cwd }, CONTROL_DEADLINE_MS).catch((e: unknown) => {
      throw failedCall("executor", e, run.requestId, undefined);
    });
    mark(run, "resolve");
    return resolved.path;
  }

  async classify(run: Run): Promise<Classified> {
    const { classifier } = this.clients;
    const req: ClassifyRequest = { requestId: run.requestId, ...run.binding, source: Source.SOURCE_SUDO };
    const verdict = await call(classifier, classifier.classify, req, CONTROL_DEADLINE_MS).catch((e: unknown) => {
      throw failedCall("classifier", e, run.requestId, undefined);
    });
    const tier = tierFromEnum(verdict.tier);
    run.log.info({ tier, rule: verdict.rule }, "classified");
    mark(run, "classify");
    const evidence = {
      tier,
      rule: verdict.rule,
      reason: verdict.reason,
      explicit: verdict.explicit,
      ...(verdict.packageRun ? { package_run: true as const } : {}),
    };
    return { verdict, tier, policyDigest: Buffer.from(verdict.policyDigest).toString("hex"), evidence };
  }

  /** The classifier's decision must still be fresh where it is used: past half its lifetime, a new one (same binding, same policy). */
  async fresh(run: Run, current: Classified): Promise<Classified> {
    if (performance.now() - run.started <= (this.config.decision_ttl_s * 1000) / 2) return current;
    return this.classify(run);
  }

  /** A tier-4 refusal, announced (ntfy) and to be reported to the breaker. */
  refuseTier4(run: Run, reason: string, rule: string): Refusal {
    const { requestId } = run;
    this.notifier?.notify({
      title: `agent-sudo: tier 4 refused on ${run.binding.host}`,
      // Redacted before it is cut: a credential cut in half no longer looks like one.
      body: `${run.caller}: ${redactCredentials(run.binding.command).slice(0, 300)}\nrule ${rule}: ${reason}\nrequest ${requestId}. A person must run it interactively.`,
      priority: PRIORITY.high,
      tags: ["no_entry", "agent-sudo"],
      link: requestPage(requestId),
    });
    return reported(refused(4, reason, requestId), 4);
  }

  /** A breaker lease; `leased` (≥ tier) is what it is asked for: a lease covers every tier up to its own. */
  async lease(run: Run, tier: TierNumber, leased: TierNumber = tier): Promise<Attestation> {
    const { breaker } = this.clients;
    const { requestId } = run;
    const req = { requestId, commandDigest: commandDigest(run.binding), tier: tierToEnum(leased), host: run.binding.host };
    const lease = await call(breaker, breaker.lease, req, CONTROL_DEADLINE_MS).catch((e: unknown) => {
      throw failedCall("breaker", e, requestId, tier);
    });
    if (!lease.armed || !lease.lease) throw refused(tier, `breaker disarmed: ${lease.reason}`, requestId);
    return lease.lease;
  }

  /** The intent on record before anything runs; throws AuditUnavailable (503) when it cannot be made durable. */
  async intent(run: Run): Promise<void> {
    await this.audit.intent(auditContext(run));
    run.intentWritten = true;
    mark(run, "intent");
  }

  /** The secret values, resolved only for a command every signer has vetted (values never reach the audit). */
  async secrets(run: Run): Promise<Record<string, string>> {
    return run.body.env_secrets ? resolveEnvSecretsFromVault(run.body.env_secrets as Record<string, string>, this.config.secrets) : {};
  }
}
