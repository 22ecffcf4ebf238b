// How the pipeline says no: a Refusal carries the HTTP answer for the caller
// and the decision type for the audit. Causes stay in the log.
import { status as grpcStatus, type ServiceError } from "@grpc/grpc-js";
import { ERRORS, isErrorCode } from "../shared/errors.js";
import type { TierNumber } from "../shared/tier.js";
import { answer } from "./answers.js";
import type { DecisionType } from "./audit/record.js";

export interface HttpAnswer {
  status: number;
  body: Record<string, unknown>;
  headers?: Record<string, string>;
  /** A plain-text answer (GET /metrics) instead of the JSON body; its content-type comes in `headers`. */
  text?: string;
  /**
   * Called once the answer was handed to the caller's socket (true), or when
   * the caller had hung up before it could be (false): a hook decision the
   * client never received is audited as `late`, not as what it said.
   */
  onDelivery?: (delivered: boolean) => void;
}

export class Refusal {
  constructor(
    readonly answer: HttpAnswer,
    readonly decision: DecisionType,
    /** The breaker hears this refusal as a refused attempt at this tier (the /exec pipeline's finish sends it). */
    readonly breakerTier?: TierNumber,
  ) {}
}

/** The same refusal, to be reported to the breaker as a refused attempt at `tier`. */
export function reported(refusal: Refusal, tier: TierNumber): Refusal {
  return new Refusal(refusal.answer, refusal.decision, tier);
}

export function unavailable(component: string, requestId?: string): Refusal {
  return new Refusal(answer("unavailable", { component, ...(requestId ? { request_id: requestId } : {}) }), "error");
}

export function refused(tier: TierNumber, reason: string, requestId: string, decision: DecisionType = "refused"): Refusal {
  return new Refusal(answer("refused", { tier, reason, request_id: requestId }), decision);
}

/** Maps a failed call to a part: down or stalled → 503 naming it; busy → 429; anything else refuses. */
export function failedCall(component: string, err: unknown, requestId: string, tier: TierNumber | undefined): Refusal {
  const e = err as Partial<ServiceError>;
  if (e.code === grpcStatus.UNAVAILABLE || e.code === grpcStatus.DEADLINE_EXCEEDED) return unavailable(component, requestId);
  if (e.code === grpcStatus.RESOURCE_EXHAUSTED) {
    return new Refusal(answer("busy", { request_id: requestId }, { "retry-after": "1" }), "error");
  }
  const details = e.details ?? "";
  if (e.code === grpcStatus.INVALID_ARGUMENT && details.startsWith("BAD_REQUEST")) {
    const why = details.replace(/^BAD_REQUEST:? ?/, "") || "invalid request";
    return new Refusal(answer("bad_request", { details: why, request_id: requestId }), "error");
  }
  const code = details.split(":")[0] ?? "";
  // A refusal the table answers 503 (a decision that expired while a part stalled): nothing ran, retry.
  if (isErrorCode(code) && ERRORS[code].http === 503) {
    const reason = `${component}: ${ERRORS[code].message}, a part stalled; nothing ran, retry`;
    return new Refusal(answer("unavailable", { component, reason, request_id: requestId }, { "retry-after": "1" }), "error");
  }
  const reason = isErrorCode(code) ? `${component} refused: ${code}` : `${component} failed`;
  return refused(tier ?? 4, reason, requestId);
}

/**
 * A failed Execute call. Refused, busy or malformed: as any part. Never
 * connected: 503, nothing ran. Otherwise the call was sent and the executor
 * went away (or the deadline passed) while it may have been running the
 * command: 502 outcome unknown — never "nothing was executed".
 */
export function executorFailure(err: unknown, requestId: string, tier: TierNumber): Refusal {
  const e = err as Partial<ServiceError>;
  // The executor's own answers carry one of our error codes: it refused, nothing ran.
  const answered = isErrorCode((e.details ?? "").split(":")[0] ?? "");
  const neverSent = answered || (e.code === grpcStatus.UNAVAILABLE && (e.details ?? "").includes("No connection established"));
  const lostCodes: ReadonlyArray<number> = [
    grpcStatus.UNAVAILABLE,
    grpcStatus.DEADLINE_EXCEEDED,
    grpcStatus.INTERNAL,
    grpcStatus.UNKNOWN,
    grpcStatus.CANCELLED,
  ];
  const lost = !neverSent && e.code !== undefined && lostCodes.includes(e.code);
  if (!lost) return failedCall("executor", err, requestId, tier);
  return new Refusal(
    answer("outcome_unknown", {
      component: "executor",
      request_id: requestId,
      reason:
        "the executor stopped while handling this request; the command may have run — its journal (agent-sudo audit verify-journal; state/executor/journal.log) has the record",
    }),
    "outcome_unknown",
  );
}
