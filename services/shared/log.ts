// pino JSON logs carrying the service name; child loggers add request_id.
import { pino, type Logger } from "pino";

export type { Logger };

export function createLogger(service: string): Logger {
  return pino({
    base: { service, pid: process.pid },
    level: process.env.AGENT_SUDO_LOG_LEVEL ?? "info",
    timestamp: pino.stdTimeFunctions.isoTime,
  });
}
