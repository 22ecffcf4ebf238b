// How the gateway's two listeners (TCP and hook.sock) read requests and how
// many connections they hold: read timeouts of seconds (headers, then body),
// checked every second; connection limits that fit the process's descriptor
// limit with room left for what the gateway itself needs (gRPC sockets to the
// five services, the spool, PostgreSQL, logs); protocol errors and timeouts
// answered briefly and logged once per peer per interval.
import { readFileSync } from "node:fs";
import type { ServerOptions } from "node:http";
import type { Duplex } from "node:stream";
import type { Socket } from "node:net";
import type { Config } from "../shared/config.js";
import type { Logger } from "../shared/log.js";
import type { ConnectionLimits } from "./connection-guard.js";
import type { PeerLog } from "./peer-log.js";

/** Descriptors kept for the gateway's own use, whatever the limits say. */
const OWN_DESCRIPTORS = 128;
/** Of the hook socket's connections, the last ones only serve /health. */
const HOOK_RESERVE = 8;

export function serverOptions(config: Config): ServerOptions {
  const headers = config.http.headers_timeout_s * 1000;
  return {
    // Node checks both timeouts on this interval (30 s by default).
    connectionsCheckingInterval: 1000,
    headersTimeout: headers,
    requestTimeout: headers + config.http.body_timeout_s * 1000,
    keepAliveTimeout: 5000,
  };
}

/** The soft RLIMIT_NOFILE of this process, from /proc (undefined when unknown or unlimited). */
export function descriptorLimit(): number | undefined {
  try {
    const line = readFileSync("/proc/self/limits", "utf8")
      .split("\n")
      .find((l) => l.startsWith("Max open files"));
    const soft = Number(line?.split(/\s+/)[3]);
    return Number.isInteger(soft) && soft > 0 ? soft : undefined;
  } catch {
    return undefined;
  }
}

/** The configured limits, lowered (and said so) when the descriptor limit cannot hold them. */
export function connectionLimits(
  config: Config,
  log: Logger,
  fdLimit = descriptorLimit(),
): { tcp: ConnectionLimits; hook: ConnectionLimits } {
  let tcpTotal = config.http.max_connections;
  let hookTotal = config.hook.max_connections;
  if (fdLimit !== undefined && tcpTotal + hookTotal + OWN_DESCRIPTORS > fdLimit) {
    const room = Math.max(32, fdLimit - OWN_DESCRIPTORS);
    hookTotal = Math.max(16, Math.min(hookTotal, Math.floor(room / 3)));
    tcpTotal = Math.max(16, room - hookTotal);
    log.warn(
      { fd_limit: fdLimit, max_connections: tcpTotal, hook_max_connections: hookTotal },
      "connection limits lowered to fit the descriptor limit (raise LimitNOFILE= to keep the configured ones)",
    );
  }
  const reserve = Math.min(config.http.reserve_connections, tcpTotal - 1);
  return {
    tcp: { total: tcpTotal, perPeer: Math.min(config.http.max_connections_per_peer, tcpTotal - reserve), reserve },
    // One peer ("unix"): the per-peer limit is the total's.
    hook: { total: hookTotal, perPeer: hookTotal, reserve: Math.min(HOOK_RESERVE, hookTotal - 1) },
  };
}

/**
 * A request Node could not read (a timeout, a malformed or truncated
 * request): a short answer when nothing was sent on the connection yet,
 * then close; logged once per peer per interval.
 */
export function clientErrorHandler(peerLog: PeerLog) {
  return (err: NodeJS.ErrnoException, stream: Duplex): void => {
    const socket = stream as Socket;
    const timeout = err.code === "ERR_HTTP_REQUEST_TIMEOUT";
    const gone = err.code === "ECONNRESET" || err.code === "HPE_INVALID_EOF_STATE";
    peerLog.note(
      socket.remoteAddress ?? "unix",
      timeout ? "request not read in time: closed" : gone ? "connection closed mid-request by the client" : "malformed request: closed",
      { code: err.code },
    );
    if (!gone && socket.writable && socket.bytesWritten === 0) {
      socket.end(
        timeout
          ? "HTTP/1.1 408 Request Timeout\r\nConnection: close\r\nContent-Length: 0\r\n\r\n"
          : "HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Length: 0\r\n\r\n",
      );
      setTimeout(() => socket.destroy(), 1000).unref();
    } else socket.destroy();
  };
}
