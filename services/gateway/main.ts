// agent-sudo gateway — SECURITY: the unprivileged front door (user
// agent-sudo-gw). It authenticates callers (Bearer tokens, hashed, compared
// in constant time), validates every body (zod, byte caps) and orchestrates
// the pipeline; it is not trusted to decide — the executor checks the signed
// attestations it gathers. It reads its tokens and TLS keys before dropping
// privileges. A part that is down makes it answer 503, never run anything.
// GET /metrics needs a metrics token; the operator console (off by default)
// listens on loopback only and takes console tokens: neither is ever an /exec
// token (refused at start). The console's one write is the audit label.
import { readFileSync } from "node:fs";
import { createServer as createHttpServer, type RequestListener, type Server } from "node:http";
import { join } from "node:path";
import { createServer as createHttpsServer } from "node:https";
import { loadConfig } from "../shared/config.js";
import { createLogger } from "../shared/log.js";
import { dieWithSupervisor, dropToServiceUser } from "../shared/skeleton.js";
import { call, connectServices } from "./clients.js";
import { DECISION_TYPES } from "./audit/record.js";
import { readPending } from "../shared/proposals.js";
import { loadOperatorTokens } from "./operator-tokens.js";
import { GatewayMetrics } from "./metrics/gateway-metrics.js";
import { MeteredAuditTrail } from "./metrics/metered-audit-trail.js";
import { MetricsEndpoint } from "./metrics/endpoint.js";
import { bindConsole } from "./console/listener.js";
import { AuditReader } from "./console/audit-reader.js";
import { shellWord } from "./console/html.js";
import { openSpool } from "./audit/spool.js";
import { startShipper } from "./audit/shipper.js";
import { reconcileOrphans } from "./audit-reconcile.js";
import { handler, type Routes } from "./http.js";
import { Notifier, ntfySettingsFromEnv } from "../shared/ntfy.js";
import { consoleUrl } from "../shared/console-url.js";
import { AuthLimiter } from "./auth-limit.js";
import { policySignatureHealth } from "./policy-health.js";
import { capabilities } from "./capabilities.js";
import { HookJudge } from "./hook.js";
import { bindHookSocket } from "./hook-socket.js";
import { ConnectionGuard } from "./connection-guard.js";
import { clientErrorHandler, connectionLimits, serverOptions } from "./listeners.js";
import { PeerLog } from "./peer-log.js";
import { ExecPipeline } from "./pipeline.js";
import { parseTokensFile, TokenVerifier } from "./tokens.js";

const log = createLogger("gateway");
process.on("uncaughtException", (err) => {
  log.fatal({ err }, "uncaught exception; exiting");
  process.exit(70);
});
dieWithSupervisor(log);

const config = loadConfig();
const tokens = new TokenVerifier(parseTokensFile(config.tokensFile));
// The operator's tokens (metrics, console): never an /exec caller's (refused at start).
const operator = loadOperatorTokens(config);
if (tokens.size === 0) log.warn({ file: config.tokensFile }, "no callers configured: every /exec answers 401");
const tls =
  config.http.tls_cert && config.http.tls_key
    ? { cert: readFileSync(config.http.tls_cert), key: readFileSync(config.http.tls_key) }
    : undefined;

// Until the audit spool is open (after the drop, as the user that owns it)
// every request is answered 503: nothing is served unaudited.
let tcpHandler: RequestListener | undefined;
let hookHandler: RequestListener | undefined;
const notYet: RequestListener = (_req, res) => {
  res.writeHead(503, { "content-type": "application/json" });
  res.end('{"error":"unavailable","component":"gateway"}');
};
// Reading a request takes seconds at most (headers, then body); a command's
// run time is not bounded here. Connections are capped per peer and in total,
// with a reserve for /health, on both listeners (connection-guard.ts).
const peerLog = new PeerLog(log);
const limits = connectionLimits(config, log);
const readOptions = serverOptions(config);
const server: Server = tls
  ? createHttpsServer({ ...tls, ...readOptions }, (req, res) => (tcpHandler ?? notYet)(req, res))
  : createHttpServer(readOptions, (req, res) => (tcpHandler ?? notYet)(req, res));
const hookServer = createHttpServer(readOptions, (req, res) => (hookHandler ?? notYet)(req, res));
const tcpGuard = new ConnectionGuard(limits.tcp, peerLog).attach(server);
const hookGuard = new ConnectionGuard(limits.hook, peerLog).attach(hookServer);
server.on("clientError", clientErrorHandler(peerLog));
hookServer.on("clientError", clientErrorHandler(peerLog));

function listen(srv: Server, ...args: [number, string] | [string]): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    srv.once("error", reject);
    srv.listen(...(args as [number, string]), () => resolve());
  });
}

await listen(server, config.http.port, config.http.bind);
await bindHookSocket(hookServer, config);
const consoleListener = await bindConsole(config, operator.console, log.child({ part: "console" }));
dropToServiceUser(config, "gateway");

const spool = await openSpool({
  dir: join(config.stateDir, "gateway", "audit-spool"),
  maxSegmentBytes: config.audit.spool_segment_bytes,
  reserveBytes: config.audit.spool_reserve_bytes,
  logger: log,
});
const databaseUrl = process.env.DATABASE_URL;
const shipper = databaseUrl ? startShipper({ spool, databaseUrl, logger: log }) : undefined;
if (!shipper) log.warn("DATABASE_URL is not set: audit records stay in the spool until a database is configured");
const clients = connectServices(config);
const metrics = new GatewayMetrics(
  {
    host: config.host_id,
    spool: () => spool.stats(),
    shipper: () => shipper?.health(),
    unauditedRefusals: (): number => audit.health().unaudited_refusals,
    breaker: () => call(clients.breaker, clients.breaker.status, {}, 2000),
  },
  DECISION_TYPES,
);
// Every audited outcome also moves /metrics (metrics/metered-audit-trail.ts).
const audit = new MeteredAuditTrail(spool, config.host_id, log, metrics);
const reconciled =
  shipper && databaseUrl
    ? reconcileOrphans({ shipper, databaseUrl, host: config.host_id, startedAt: new Date(), audit, log, rejected: spool.rejectedRecords() })
    : () => false;
// Tier-4 refusals are announced (high); unset AGENT_SUDO_NTFY_URL only logs them.
const notifier = new Notifier({ ...ntfySettingsFromEnv(), consoleUrl: consoleUrl(config) }, log);
const routes: Routes = {
  tokens,
  authLimit: new AuthLimiter(),
  hostId: config.host_id,
  pipeline: new ExecPipeline(clients, config, audit, log, notifier),
  hook: new HookJudge(clients, config, audit, log, notifier),
  clients,
  log,
  capabilities: (checked) => capabilities(config, checked),
  auditHealth: () => ({
    trail: audit.health(),
    spool: spool.stats(),
    shipper: shipper?.health() ?? { state: "none" },
    reconciled: reconciled(),
  }),
  policyHealth: policySignatureHealth(config),
  connectionHealth: () => ({ tcp: tcpGuard.stats(), hook_socket: hookGuard.stats() }),
  peerLog,
  metrics: new MetricsEndpoint(metrics, operator.metrics, new AuthLimiter()),
};
consoleListener?.serve({
  ...(databaseUrl ? { audit: new AuditReader(databaseUrl) } : {}),
  breaker: () => call(clients.breaker, clients.breaker.status, {}, 2000),
  proposals: () => readPending(config.proposalsDir),
  cliPrefix: config.home === "/var/lib/agent-sudo" ? "" : `AGENT_SUDO_HOME=${shellWord(config.home)} `,
  log: log.child({ part: "console" }),
});
tcpHandler = handler(routes, { kind: "tcp", hookOnTcp: config.hook.tcp, guard: tcpGuard });
hookHandler = handler(routes, { kind: "hook-socket", hookOnTcp: false, guard: hookGuard });
log.info({ bind: config.http.bind, port: config.http.port, tls: Boolean(tls), uid: process.getuid?.() }, "serving");

const stop = (signal: string) => {
  log.info({ signal }, "stopping");
  hookServer.close();
  server.close();
  consoleListener?.close();
  metrics.close();
  void (async () => {
    await shipper?.stop();
    await spool.close();
    process.exit(0);
  })();
  setTimeout(() => process.exit(0), 3000).unref();
};
process.once("SIGTERM", () => stop("SIGTERM"));
process.once("SIGINT", () => stop("SIGINT"));
