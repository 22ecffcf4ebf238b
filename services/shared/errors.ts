// The closed error vocabulary: a stable code per failure, its HTTP status and
// gRPC status. Callers see the code and a fixed message; causes go to the log.
import { status } from "@grpc/grpc-js";

export const ERRORS = {
  UNAUTHORIZED: { http: 401, grpc: status.UNAUTHENTICATED, message: "missing or invalid bearer token" },
  RATE_LIMITED: { http: 429, grpc: status.RESOURCE_EXHAUSTED, message: "too many failed attempts" },
  BAD_REQUEST: { http: 400, grpc: status.INVALID_ARGUMENT, message: "invalid request" },
  TOO_LARGE: { http: 413, grpc: status.INVALID_ARGUMENT, message: "request too large" },
  NOT_FOUND: { http: 404, grpc: status.UNIMPLEMENTED, message: "not found" },
  REFUSED: { http: 403, grpc: status.PERMISSION_DENIED, message: "refused" },
  BUSY: { http: 429, grpc: status.RESOURCE_EXHAUSTED, message: "executor busy" },
  UNAVAILABLE: { http: 503, grpc: status.UNAVAILABLE, message: "unavailable" },
  INTERNAL: { http: 500, grpc: status.INTERNAL, message: "internal error" },
  // The executor's refusals. Each is PERMISSION_DENIED on the wire with the
  // code in the status details, so the gateway can report which rule held.
  ATTESTATION_MISSING: { http: 403, grpc: status.PERMISSION_DENIED, message: "quorum incomplete" },
  ATTESTATION_UNPINNED: { http: 403, grpc: status.PERMISSION_DENIED, message: "signer not pinned" },
  ATTESTATION_BAD_SIGNATURE: { http: 403, grpc: status.PERMISSION_DENIED, message: "bad signature" },
  ATTESTATION_MALFORMED: { http: 403, grpc: status.PERMISSION_DENIED, message: "malformed attestation" },
  // Refused on the wire like the others, but to a caller it is a stall: the
  // gateway hands over fresh decisions, so one that expired on the way means
  // a part stalled past decision_ttl_s. Nothing ran; 503, retryable.
  ATTESTATION_EXPIRED: { http: 503, grpc: status.PERMISSION_DENIED, message: "attestation expired" },
  ATTESTATION_REPLAYED: { http: 403, grpc: status.PERMISSION_DENIED, message: "attestation replayed" },
  ATTESTATION_MISMATCH: { http: 403, grpc: status.PERMISSION_DENIED, message: "attestation does not bind this command" },
  TIER_REFUSED: { http: 403, grpc: status.PERMISSION_DENIED, message: "tier 4 is never executed" },
  VETOED: { http: 403, grpc: status.PERMISSION_DENIED, message: "executor veto" },
  // A path the run changed is no longer what the judges saw (or a directory on
  // the way became a symlink): nothing was committed or rolled back.
  CONFLICT: { http: 409, grpc: status.ABORTED, message: "the host changed since the run; nothing was written" },
  // The kernel envelope could not be set up: the command did not run.
  ENVELOPE_FAILED: { http: 503, grpc: status.UNAVAILABLE, message: "the command's envelope could not be set up; nothing ran" },
  NETWORK_UNAVAILABLE: { http: 403, grpc: status.PERMISSION_DENIED, message: "network is not available to commands on this host" },
} as const;

export type ErrorCode = keyof typeof ERRORS;

export function isErrorCode(value: string): value is ErrorCode {
  return Object.hasOwn(ERRORS, value);
}

/** An error that carries a stable code; `cause` is for the log only. */
export class CodedError extends Error {
  constructor(
    readonly code: ErrorCode,
    readonly detail?: string,
  ) {
    super(detail ? `${code}: ${detail}` : code);
  }
}
