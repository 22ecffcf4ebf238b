// agent-sudo gateway — SECURITY: the unprivileged front door (user
// agent-sudo-gw). It authenticates callers (Bearer tokens, hashed, compared
// in constant time), validates every body (zod, byte caps) and orchestrates
// the pipeline; it is not trusted to decide — the executor checks the signed
// attestations it gathers. It reads its tokens and TLS keys before dropping
// privileges. A part that is down makes it answer 503, never run anything.
import { readFileSync } from "node:fs";
import { createServer as createHttpServer, type Server } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import { loadConfig } from "../shared/config.js";
import { createLogger } from "../shared/log.js";
import { dropToServiceUser } from "../shared/skeleton.js";
import { connectServices } from "./clients.js";
import { handler } from "./http.js";
import { HookJudge } from "./hook.js";
import { bindHookSocket } from "./hook-socket.js";
import { ExecPipeline } from "./pipeline.js";
import { parseTokensFile, TokenVerifier } from "./tokens.js";

const log = createLogger("gateway");
process.on("uncaughtException", (err) => {
  log.fatal({ err }, "uncaught exception; exiting");
  process.exit(70);
});

const config = loadConfig();
const tokens = new TokenVerifier(parseTokensFile(config.tokensFile));
if (tokens.size === 0) log.warn({ file: config.tokensFile }, "no callers configured: every /exec answers 401");
const tls = config.http.tls_cert && config.http.tls_key ? { cert: readFileSync(config.http.tls_cert), key: readFileSync(config.http.tls_key) } : undefined;

const clients = connectServices(config);
const pipeline = new ExecPipeline(clients, config, log);
const routes = { tokens, pipeline, hook: new HookJudge(clients, config, log), clients, log };
const onRequest = handler(routes, { kind: "tcp", hookOnTcp: config.hook.tcp });
const server: Server = tls ? createHttpsServer(tls, onRequest) : createHttpServer(onRequest);
server.requestTimeout = 3700_000;
server.headersTimeout = 10_000;
const hookServer = createHttpServer(handler(routes, { kind: "hook-socket", hookOnTcp: false }));
hookServer.requestTimeout = 30_000;

function listen(srv: Server, ...args: [number, string] | [string]): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    srv.once("error", reject);
    srv.listen(...(args as [number, string]), () => resolve());
  });
}

await listen(server, config.http.port, config.http.bind);
await bindHookSocket(hookServer, config);
dropToServiceUser(config, "gateway");
log.info({ bind: config.http.bind, port: config.http.port, tls: Boolean(tls), uid: process.getuid?.() }, "serving");

const stop = (signal: string) => {
  log.info({ signal }, "stopping");
  hookServer.close();
  server.close(() => process.exit(0));
  setTimeout(() => process.exit(0), 2000).unref();
};
process.once("SIGTERM", () => stop("SIGTERM"));
process.once("SIGINT", () => stop("SIGINT"));
