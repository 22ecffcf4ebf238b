// HTTP routes: POST /exec (Bearer) and GET /health. Errors are the closed
// vocabulary: a fixed word for the caller, the cause in the log. A client
// that goes away or is too slow is not an error: it is logged once per peer
// per interval (peer-log.ts). An answer sent before the body was read (401,
// 429, 413) closes the connection instead of draining a body nobody wants.
import type { IncomingMessage, ServerResponse } from "node:http";
import { CodedError } from "../shared/errors.js";
import type { Logger } from "../shared/log.js";
import { parseExecBody, readBody } from "./body.js";
import { Source } from "../../proto/gen/agent_sudo/v1/classifier_pb.js";
import { tierFromEnum } from "../shared/tier.js";
import { call, healthOf, type ServiceClients, type ServiceHealth } from "./clients.js";
import type { Capability } from "./capabilities.js";
import type { ExecPipeline, HttpAnswer } from "./pipeline.js";
import type { Caller, TokenVerifier } from "./tokens.js";
import type { AuthLimiter } from "./auth-limit.js";
import { type HookJudge, MAX_HOOK_BYTES, preToolUseAnswer } from "./hook.js";
import { ConnectionGuard } from "./connection-guard.js";
import { isConnectionTrouble, type PeerLog } from "./peer-log.js";
import type { MetricsEndpoint } from "./metrics/endpoint.js";
import { answer, type HttpErrorWord } from "./answers.js";

export interface Routes {
  tokens: TokenVerifier;
  authLimit: AuthLimiter;
  /** This host's id (config.host_id). */
  hostId: string;
  pipeline: ExecPipeline;
  hook: HookJudge;
  clients: ServiceClients;
  log: Logger;
  auditHealth: () => Record<string, unknown>;
  policyHealth: () => Record<string, unknown>;
  capabilities: (checked: Record<string, ServiceHealth>) => Record<string, Capability>;
  /** Connection counts and limits of the listeners, for /health. */
  connectionHealth?: () => Record<string, unknown>;
  peerLog: PeerLog;
  /** GET /metrics (metrics/endpoint.ts) and the request counters; absent: no /metrics. */
  metrics?: MetricsEndpoint;
}

/** Which listener a request came in on: the TCP port or the hook's Unix socket. */
export interface Surface {
  kind: "tcp" | "hook-socket";
  /** Serve /v1/hook on TCP too (behind a Bearer token). */
  hookOnTcp: boolean;
  /** The listener's connection limits (reserve-only connections, admission). */
  guard?: ConnectionGuard;
}

const WORD: Record<string, HttpErrorWord> = {
  BAD_REQUEST: "bad_request",
  TOO_LARGE: "too_large",
  UNAUTHORIZED: "unauthorized",
};

function send(res: ServerResponse, answer: HttpAnswer): void {
  if (answer.status === 204) {
    res.writeHead(204, { "cache-control": "no-store", ...answer.headers });
    res.end();
    return;
  }
  const payload = answer.text ?? JSON.stringify(answer.body);
  res.writeHead(answer.status, {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(payload),
    "cache-control": "no-store",
    ...answer.headers,
  });
  res.end(payload);
}

/**
 * Whether the answer reached the caller's socket: 'finish' means the last
 * byte was handed to the kernel while the connection was open; a connection
 * the caller closed first (the hook's curl gave up at its time limit) ends
 * in 'close' without it. A byte handed over in the last instant before curl
 * gives up counts as delivered: the window is microseconds wide.
 */
function delivery(res: ServerResponse): Promise<boolean> {
  if (res.writableFinished) return Promise.resolve(true);
  if (res.destroyed) return Promise.resolve(false);
  return new Promise((resolve) => {
    res.once("finish", () => resolve(true));
    res.once("close", () => resolve(res.writableFinished));
  });
}

function fromCoded(err: CodedError): HttpAnswer {
  const word = WORD[err.code] ?? "bad_request";
  return answer(word, word === "unauthorized" ? {} : { details: err.detail ?? "" });
}

/**
 * The caller for a request, or the 401/429 answer. The token is verified
 * first (constant time): a valid token is never throttled, so bad tokens
 * from another process on the same address cannot lock a caller out.
 * Failures count per source address; a source over its limit gets 429.
 */
function authenticate(req: IncomingMessage, routes: Routes): { caller: Caller } | { answer: HttpAnswer } {
  const source = req.socket.remoteAddress ?? "unknown";
  const caller = routes.tokens.verify(req.headers.authorization);
  if (caller) return { caller };
  const wait = routes.authLimit.blockedFor(source);
  if (wait > 0) {
    req.resume();
    return { answer: answer("rate_limited", {}, { "retry-after": String(wait) }) };
  }
  routes.authLimit.fail(source);
  req.resume();
  return { answer: answer("unauthorized", {}, { "www-authenticate": "Bearer" }) };
}

async function exec(req: IncomingMessage, routes: Routes): Promise<HttpAnswer> {
  const auth = authenticate(req, routes);
  if ("answer" in auth) return auth.answer;
  const caller = auth.caller;
  const body = parseExecBody(await readBody(req));
  return routes.pipeline.run(body, caller);
}

/**
 * GET /allowlist (Bearer): the active SUDO.md rules as they apply to this
 * host — what /exec callers may run and at which tier — in the old bridge's
 * allowlist.json shape (`rules: [{pattern, tier, note}]`, one entry per
 * pattern, in order: first match wins), with the rule id, its own tier,
 * whether this host overrides it, and the policy's digest and signature.
 * Tiers are agent-sudo's (0 read-only … 4 refuse), not the old bridge's.
 */
async function allowlist(req: IncomingMessage, routes: Routes): Promise<HttpAnswer> {
  const auth = authenticate(req, routes);
  if ("answer" in auth) return auth.answer;
  req.resume();
  const { classifier } = routes.clients;
  let res;
  try {
    res = await call(classifier, classifier.rules, { host: routes.hostId, source: Source.SOURCE_SUDO }, 5000);
  } catch {
    return answer("unavailable", { component: "classifier" });
  }
  const rules = res.rules.flatMap((r) =>
    r.patterns.map((pattern) => ({
      pattern,
      tier: tierFromEnum(r.tier),
      note: r.rationale,
      rule: r.id,
      base_tier: tierFromEnum(r.baseTier),
      host_override: r.hostOverride,
      class: r.verbClass,
      ...(r.network ? { network: true } : {}),
      ...(r.package ? { package: true } : {}),
    })),
  );
  return {
    status: 200,
    body: {
      host: routes.hostId,
      source: "sudo",
      tiers: "0 read-only, 1 reversible, 2 sandbox-first, 3 live-service, 4 refuse",
      policy_digest: Buffer.from(res.policyDigest).toString("hex"),
      signature: res.signature,
      rules,
    },
  };
}

/** What /health says in place of a cause: it answers anyone on the port, the cause is in the log. */
export const IN_THE_LOG = "see the gateway log";
const CAUSES = new Set(["last_error", "last_failure", "broken", "error"]);

/** `health` with every cause (a database's error text: host, user and database names; paths) replaced by a fixed word. */
function withoutCauses(health: Record<string, unknown>): Record<string, unknown> {
  const walk = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(walk)
      : v && typeof v === "object"
        ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, CAUSES.has(k) && x !== undefined ? IN_THE_LOG : walk(x)]))
        : v;
  return walk(health) as Record<string, unknown>;
}

async function health(routes: Routes): Promise<HttpAnswer> {
  const checked = await healthOf(routes.clients);
  const services: Record<string, string> = { gateway: "up" };
  for (const [name, h] of Object.entries(checked)) services[name] = h.status;
  const allUp = Object.values(services).every((s) => s === "up");
  const breakerDetail = checked.breaker?.detail ?? "";
  const breaker = checked.breaker?.status !== "up" ? "unknown" : breakerDetail.startsWith("armed") ? "armed" : "disarmed";
  // A spool that cannot be written stops every execution (503 here too); a
  // failing shipper (database outage) is degraded but serving: the spool holds.
  // The spool's reserve in use (a full disk): intents are refused, so execution is down too.
  const audit = withoutCauses(routes.auditHealth()) as {
    trail?: { writable?: boolean };
    spool?: { reserve?: { held?: boolean } };
    shipper?: { state?: string };
  };
  const spoolOk = audit.trail?.writable !== false && audit.spool?.reserve?.held !== false;
  const shipperOk = audit.shipper?.state === undefined || audit.shipper.state === "ok" || audit.shipper.state === "none";
  return {
    status: allUp && spoolOk ? 200 : 503,
    body: {
      status: allUp && spoolOk && shipperOk ? "ok" : "degraded",
      services,
      breaker: { state: breaker, detail: breakerDetail },
      audit,
      policy: withoutCauses(routes.policyHealth()),
      capabilities: routes.capabilities(checked),
      ...(routes.connectionHealth ? { connections: routes.connectionHealth() } : {}),
      // The supervisor's name for this stack (agent-sudo start): it checks the answer is its own gateway's.
      ...(process.env.AGENT_SUDO_INSTANCE ? { instance: process.env.AGENT_SUDO_INSTANCE } : {}),
    },
  };
}

const HOOK_EVENTS = ["/v1/hook", "/v1/hook/session-start", "/v1/hook/post-tool-use"];

async function hookEvent(req: IncomingMessage, path: string, routes: Routes, surface: Surface): Promise<HttpAnswer> {
  if (surface.kind === "tcp") {
    const auth = authenticate(req, routes);
    if ("answer" in auth) return auth.answer;
  }
  let raw: Buffer;
  try {
    raw = await readBody(req, MAX_HOOK_BYTES);
  } catch (err) {
    if (path !== "/v1/hook") throw err;
    const deny = preToolUseAnswer("deny", `agent-sudo: hook input refused: over ${MAX_HOOK_BYTES} bytes`);
    return { ...deny, headers: { connection: "close" } };
  }
  if (path === "/v1/hook/session-start") return routes.hook.sessionStart();
  if (path === "/v1/hook/post-tool-use") return routes.hook.postToolUse(raw);
  return routes.hook.preToolUse(raw);
}

function route(req: IncomingMessage, routes: Routes, surface: Surface): Promise<HttpAnswer> {
  const path = (req.url ?? "/").split("?")[0] ?? "/";
  const metrics = surface.kind === "tcp" && routes.metrics?.enabled ? ["/metrics"] : [];
  const known =
    surface.kind === "hook-socket"
      ? [...HOOK_EVENTS, "/health"]
      : ["/exec", "/health", "/allowlist", ...metrics, ...(surface.hookOnTcp ? HOOK_EVENTS : [])];
  if (!known.includes(path)) return Promise.resolve(answer("not_found"));
  const method = path === "/health" || path === "/allowlist" || path === "/metrics" ? "GET" : "POST";
  if (req.method !== method) return Promise.resolve(answer("method_not_allowed"));
  if (path === "/health") return health(routes);
  if (path === "/metrics" && routes.metrics) return routes.metrics.answer(req);
  if (path === "/allowlist") return allowlist(req, routes);
  if (path === "/exec") return exec(req, routes);
  return hookEvent(req, path, routes, surface);
}

/** Only /health is served on a connection taken from the reserve. */
const RESERVE_ONLY: HttpAnswer = answer(
  "unavailable",
  { component: "gateway", reason: "connection limit reached: this connection may only ask for /health" },
  { "retry-after": "1" },
);

export function handler(routes: Routes, surface: Surface) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    const socket = req.socket;
    const peer = ConnectionGuard.peerOf(socket);
    const guard = surface.guard;
    guard?.admit(socket);
    res.once("close", () => guard?.release(socket));
    const path = (req.url ?? "/").split("?")[0] ?? "/";
    const reserveOnly = guard?.reserveOnly(socket) ?? false;
    const work = reserveOnly && path !== "/health" ? Promise.resolve(RESERVE_ONLY) : route(req, routes, surface);
    work
      .catch((err: unknown): HttpAnswer | undefined => {
        if (err instanceof CodedError) return fromCoded(err);
        if (isConnectionTrouble(err, req.aborted)) {
          routes.peerLog.note(peer, "request aborted: the client went away or was too slow", {
            path,
            err: (err as NodeJS.ErrnoException).code ?? (err as Error).message,
          });
          return undefined;
        }
        routes.log.error({ err }, "request failed");
        return answer("internal");
      })
      .then((answer) => {
        if (!answer) return;
        routes.metrics?.observe(path, answer);
        const settle = answer.onDelivery;
        if (socket.destroyed || res.destroyed) {
          if (settle) settle(false);
          return;
        }
        // The body was not (all) read: close rather than drain it — a slow
        // body must not hold the connection. A reserve slot is not kept either.
        if (!req.complete || reserveOnly || answer.status === 413) {
          res.setHeader("connection", "close");
          res.once("finish", () => {
            socket.end();
            setTimeout(() => socket.destroy(), 1000).unref();
          });
        }
        send(res, answer);
        if (settle) void delivery(res).then(settle);
      })
      .catch((err: unknown) => {
        if (isConnectionTrouble(err, socket.destroyed)) routes.peerLog.note(peer, "answer not delivered: the client went away", { path });
        else routes.log.error({ err }, "response failed");
      });
  };
}
