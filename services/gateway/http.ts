// HTTP routes: POST /exec (Bearer) and GET /health. Errors are the closed
// vocabulary: a fixed word for the caller, the cause in the log.
import type { IncomingMessage, ServerResponse } from "node:http";
import { CodedError } from "../shared/errors.js";
import type { Logger } from "../shared/log.js";
import { parseExecBody, readBody } from "./body.js";
import { healthOf, type ServiceClients } from "./clients.js";
import type { ExecPipeline, HttpAnswer } from "./pipeline.js";
import type { TokenVerifier } from "./tokens.js";

export interface Routes {
  tokens: TokenVerifier;
  pipeline: ExecPipeline;
  clients: ServiceClients;
  log: Logger;
}

const WORD: Record<string, string> = {
  BAD_REQUEST: "bad_request",
  TOO_LARGE: "too_large",
  UNAUTHORIZED: "unauthorized",
};

function send(res: ServerResponse, answer: HttpAnswer): void {
  const payload = JSON.stringify(answer.body);
  res.writeHead(answer.status, {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(payload),
    "cache-control": "no-store",
    ...answer.headers,
  });
  res.end(payload);
}

function fromCoded(err: CodedError): HttpAnswer {
  const status = err.code === "TOO_LARGE" ? 413 : err.code === "UNAUTHORIZED" ? 401 : 400;
  const body: Record<string, unknown> = { error: WORD[err.code] ?? "bad_request" };
  if (err.code === "BAD_REQUEST" || err.code === "TOO_LARGE") body.details = err.detail ?? "";
  return { status, body };
}

async function exec(req: IncomingMessage, routes: Routes): Promise<HttpAnswer> {
  const caller = routes.tokens.verify(req.headers.authorization);
  if (!caller) {
    req.resume();
    return { status: 401, body: { error: "unauthorized" }, headers: { "www-authenticate": "Bearer" } };
  }
  const body = parseExecBody(await readBody(req));
  return routes.pipeline.run(body, caller);
}

async function health(routes: Routes): Promise<HttpAnswer> {
  const services = { gateway: "up" as const, ...(await healthOf(routes.clients)) };
  const allUp = Object.values(services).every((s) => s === "up");
  return { status: allUp ? 200 : 503, body: { status: allUp ? "ok" : "degraded", services } };
}

export function handler(routes: Routes) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    const path = (req.url ?? "/").split("?")[0];
    let work: Promise<HttpAnswer>;
    if (path === "/exec" && req.method === "POST") work = exec(req, routes);
    else if (path === "/health" && req.method === "GET") work = health(routes);
    else if (path === "/exec" || path === "/health") work = Promise.resolve({ status: 405, body: { error: "method_not_allowed" } });
    else work = Promise.resolve({ status: 404, body: { error: "not_found" } });
    work
      .catch((err: unknown) => {
        if (err instanceof CodedError) return fromCoded(err);
        routes.log.error({ err }, "request failed");
        return { status: 500, body: { error: "internal" } };
      })
      .then((answer) => {
        if (answer.status === 413) res.setHeader("connection", "close");
        send(res, answer);
      })
      .catch((err: unknown) => routes.log.error({ err }, "response failed"));
  };
}
