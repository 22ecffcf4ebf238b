// The console's listener: bound before the privilege drop (like the
// gateway's others), on config.console.bind (loopback only: config refuses
// anything else) and console.port, with the gateway's read timeouts and a
// small connection cap (one person's browser). Its handler is set once the
// audit and the breaker client exist; until then every request is a 503.
import { createServer, type RequestListener, type Server } from "node:http";
import type { Config } from "../../shared/config.js";
import type { Logger } from "../../shared/log.js";
import { AuthLimiter } from "../auth-limit.js";
import type { TokenVerifier } from "../tokens.js";
import { serverOptions } from "../listeners.js";
import type { AuditReader } from "./audit-reader.js";
import { OriginCheck } from "./origin-check.js";
import { consoleHandler, type ConsoleDeps } from "./server.js";
import { ConsoleSessions } from "./sessions.js";

const MAX_CONNECTIONS = 32;

export interface ConsoleListener {
  server: Server;
  serve(deps: Omit<ConsoleDeps, "sessions" | "origin" | "authLimit">): void;
  close(): void;
}

/** Binds the console when it is on; undefined when it is off. */
export async function bindConsole(config: Config, tokens: TokenVerifier, log: Logger): Promise<ConsoleListener | undefined> {
  const c = config.console;
  if (!c.enabled) return undefined;
  if (tokens.size === 0)
    log.warn(
      { file: config.consoleTokensFile },
      "console on, but no console token is configured: nobody can log in (agent-sudo console-token NAME)",
    );
  let handler: RequestListener | undefined;
  const server = createServer(serverOptions(config), (req, res) => {
    if (handler) return handler(req, res);
    res.writeHead(503, { "content-type": "text/plain" });
    res.end("starting\n");
  });
  server.maxConnections = MAX_CONNECTIONS;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(c.port, c.bind, () => resolve());
  });
  const sessions = new ConsoleSessions(tokens, c.session_minutes * 60_000, c.public_url?.startsWith("https:") ?? false);
  const origin = new OriginCheck(c.port, c.public_url);
  const authLimit = new AuthLimiter();
  let reader: AuditReader | undefined;
  log.info({ bind: c.bind, port: c.port }, "operator console listening (loopback)");
  return {
    server,
    serve(deps) {
      reader = deps.audit;
      handler = consoleHandler({ ...deps, sessions, origin, authLimit });
    },
    close() {
      server.close();
      server.closeAllConnections();
      void reader?.close();
    },
  };
}
