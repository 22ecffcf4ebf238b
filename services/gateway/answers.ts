// The gateway's closed HTTP vocabulary (fastify's FST_ERR_* table; the gRPC
// side is services/shared/errors.ts): every error a caller of /exec, /allowlist,
// /health, /metrics or the hook routes can be answered, with its one status.
// Each answer body is `{error: WORD, …fields}`; causes stay in the log. The
// README's answer table is checked against this one (answers.spec.ts).
import type { HttpAnswer } from "./refusal.js";

export const HTTP_ERRORS = {
  bad_request: { status: 400, means: "the request is malformed; details says which field" },
  unauthorized: { status: 401, means: "no valid Bearer token" },
  refused: { status: 403, means: "a part said no: tier 4, a diff rated 4, a secret outside the allowed references" },
  not_found: { status: 404, means: "no such route" },
  method_not_allowed: { status: 405, means: "the route exists for another method" },
  conflict: { status: 409, means: "the host changed while the run was judged: nothing committed, retry" },
  too_large: { status: 413, means: "the command or the body is over its cap" },
  busy: { status: 429, means: "a concurrency limit, or a queue wait past the deadline: not started, retry after" },
  rate_limited: { status: 429, means: "too many bad tokens from this address: retry after" },
  internal: { status: 500, means: "a bug: logged with the request id" },
  outcome_unknown: { status: 502, means: "the executor was lost while it handled the request: it may have run" },
  unavailable: { status: 503, means: "a part is down or stalled, or the audit cannot be written: nothing ran" },
} as const;

export type HttpErrorWord = keyof typeof HTTP_ERRORS;

/** The answer for `error`, with its status from the table. */
export function answer(error: HttpErrorWord, fields: Record<string, unknown> = {}, headers?: Record<string, string>): HttpAnswer {
  return { status: HTTP_ERRORS[error].status, body: { error, ...fields }, ...(headers ? { headers } : {}) };
}
