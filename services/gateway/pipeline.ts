// The /exec pipeline: classify → (tier ≥ 1: breaker lease) → (tier 2:
// sandbox trial) → (tier 3: concurrence) → executor → breaker report. The
// gateway decides nothing: it gathers signed attestations and hands them to
// the executor, which checks them. Every failure of a part refuses.
import { randomUUID } from "node:crypto";
import { status as grpcStatus, type ServiceError } from "@grpc/grpc-js";
import { Source, type ClassifyRequest } from "../../proto/gen/agent_sudo/v1/classifier_pb.js";
import type { Attestation } from "../../proto/gen/agent_sudo/v1/decision_pb.js";
import { commandDigest } from "../shared/attestation.js";
import type { Config } from "../shared/config.js";
import { isErrorCode } from "../shared/errors.js";
import type { Logger } from "../shared/log.js";
import { tierFromEnum, tierToEnum, type TierNumber } from "../shared/tier.js";
import type { ExecRequest } from "./body.js";
import { call, type ServiceClients } from "./clients.js";
import type { Caller } from "./tokens.js";

export interface HttpAnswer {
  status: number;
  body: Record<string, unknown>;
  headers?: Record<string, string>;
}

const CONTROL_DEADLINE_MS = 5000;

class Refusal {
  constructor(readonly answer: HttpAnswer) {}
}

function unavailable(component: string): Refusal {
  return new Refusal({ status: 503, body: { error: "unavailable", component } });
}

/** Maps a failed call to a part: down → 503 naming it; anything else refuses. */
function failedCall(component: string, err: unknown, requestId: string, tier: TierNumber | undefined): Refusal {
  const e = err as Partial<ServiceError>;
  if (e.code === grpcStatus.UNAVAILABLE || e.code === grpcStatus.DEADLINE_EXCEEDED) return unavailable(component);
  if (e.code === grpcStatus.RESOURCE_EXHAUSTED) {
    return new Refusal({ status: 429, body: { error: "busy", request_id: requestId }, headers: { "retry-after": "1" } });
  }
  const details = e.details ?? "";
  if (e.code === grpcStatus.INVALID_ARGUMENT && details.startsWith("BAD_REQUEST")) {
    return new Refusal({ status: 400, body: { error: "bad_request", details: details.replace(/^BAD_REQUEST:? ?/, "") || "invalid request", request_id: requestId } });
  }
  const code = details.split(":")[0] ?? "";
  const reason = isErrorCode(code) ? `${component} refused: ${code}` : `${component} failed`;
  return new Refusal({ status: 403, body: { error: "refused", tier: tier ?? 4, reason, request_id: requestId } });
}

function refused(tier: TierNumber, reason: string, requestId: string): Refusal {
  return new Refusal({ status: 403, body: { error: "refused", tier, reason, request_id: requestId } });
}

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

export class ExecPipeline {
  constructor(
    private readonly clients: ServiceClients,
    private readonly config: Config,
    private readonly log: Logger,
  ) {}

  async run(body: ExecRequest, caller: Caller): Promise<HttpAnswer> {
    const requestId = randomUUID();
    const started = performance.now();
    const log = this.log.child({ request_id: requestId, caller: caller.name });
    try {
      const answer = await this.pipeline(body, caller, requestId, started, log);
      return answer;
    } catch (err) {
      if (err instanceof Refusal) {
        log.info({ status: err.answer.status, body: err.answer.body }, "exec refused");
        return err.answer;
      }
      log.error({ err }, "pipeline failed");
      return { status: 500, body: { error: "internal", request_id: requestId } };
    }
  }

  private async pipeline(body: ExecRequest, caller: Caller, requestId: string, started: number, log: Logger): Promise<HttpAnswer> {
    const { command, runAs } = effectiveCommand(body.command, caller.runAs);
    const binding = { command, cwd: body.cwd ?? "", host: this.config.host_id, runAs };
    const classifyReq: ClassifyRequest = { requestId, ...binding, source: Source.SOURCE_SUDO };
    const { classifier, breaker, sandbox, concurrence, executor } = this.clients;
    const verdict = await call(classifier, classifier.classify, classifyReq, CONTROL_DEADLINE_MS).catch((e: unknown) => {
      throw failedCall("classifier", e, requestId, undefined);
    });
    const tier = tierFromEnum(verdict.tier);
    log.info({ tier, rule: verdict.rule }, "classified");
    if (tier === 4 || !verdict.attestation) {
      this.report(requestId, 4, false, true);
      throw refused(4, verdict.reason, requestId);
    }
    const attestations: Attestation[] = [verdict.attestation];
    // The classifier's signed plan; for tier 2 the trial's touched list.
    let undoPaths: string[] = verdict.undoPaths;
    if (tier >= 1) {
      const lease = await call(breaker, breaker.lease, { requestId, commandDigest: commandDigest(binding), tier: tierToEnum(tier), host: binding.host }, CONTROL_DEADLINE_MS).catch((e: unknown) => {
        throw failedCall("breaker", e, requestId, tier);
      });
      if (!lease.armed || !lease.lease) throw refused(tier, `breaker disarmed: ${lease.reason}`, requestId);
      attestations.push(lease.lease);
    }
    if (tier === 2) {
      const report = await call(sandbox, sandbox.trial, { requestId, ...binding, timeoutS: body.timeout }, (body.timeout + 10) * 1000).catch((e: unknown) => {
        throw failedCall("sandbox", e, requestId, tier);
      });
      if (!report.ok || !report.attestation) throw refused(2, `sandbox trial failed: ${report.findings.join("; ") || "not ok"}`, requestId);
      attestations.push(report.attestation);
      undoPaths = report.touchedPaths;
    }
    if (tier === 3) {
      const second = await call(concurrence, concurrence.concur, classifyReq, CONTROL_DEADLINE_MS).catch((e: unknown) => {
        throw failedCall("concurrence", e, requestId, tier);
      });
      if (tierFromEnum(second.tier) === 4 || !second.attestation) {
        throw refused(4, `classifier: tier 3 (${verdict.rule}); concurrence: tier 4 (${second.reason})`, requestId);
      }
      attestations.push(second.attestation);
    }
    const result = await call(executor, executor.execute, { requestId, ...binding, timeoutS: body.timeout, attestations, undoPaths }, (body.timeout + 15) * 1000).catch((e: unknown) => {
      this.report(requestId, tier, false, true);
      throw failedCall("executor", e, requestId, tier);
    });
    this.report(requestId, tier, result.exitCode === 0, false);
    return {
      status: 200,
      body: {
        exit_code: result.exitCode,
        output: Buffer.from(result.stdout).toString("utf8"),
        stderr: Buffer.from(result.stderr).toString("utf8"),
        tier,
        request_id: requestId,
        duration_ms: Math.round(performance.now() - started),
        truncated: result.truncated,
        ...(result.undoId ? { undo_id: result.undoId } : {}),
        ...(result.timedOut ? { timed_out: true } : {}),
      },
    };
  }

  /** Tells the breaker about an outcome; never blocks or fails the request. */
  private report(requestId: string, tier: TierNumber, ok: boolean, refused: boolean): void {
    const { breaker } = this.clients;
    call(breaker, breaker.report, { requestId, tier: tierToEnum(tier), ok, refused }, 1000).catch((err: unknown) => {
      this.log.warn({ request_id: requestId, err: (err as Error).message }, "breaker report failed");
    });
  }
}
