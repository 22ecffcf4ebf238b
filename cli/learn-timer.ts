// `agent-sudo start`'s stand-in for agent-sudo-rules-learn.timer: runs
// `agent-sudo rules learn` every AGENT_SUDO_RULES_LEARN_INTERVAL_S seconds
// (default 3600; 0 turns it off), one run at a time, its output appended to
// logs/rules-learn.log. A run that fails is logged and retried at the next
// tick; it never touches the services. It writes proposals only (beside the
// policy); activating one stays a person's act.
import { spawn, type ChildProcess } from "node:child_process";
import { closeSync, openSync, writeSync } from "node:fs";
import { join } from "node:path";
import type { Config } from "../services/shared/config.js";

export const DEFAULT_LEARN_INTERVAL_S = 3600;

export interface LearnTimer {
  stop(): void;
}

/** The interval from the environment: whole seconds ≥ 0 (0: off); anything else is an error. */
export function learnInterval(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.AGENT_SUDO_RULES_LEARN_INTERVAL_S;
  if (raw === undefined || raw === "") return DEFAULT_LEARN_INTERVAL_S;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0 || n > 7 * 86_400)
    throw new Error(`AGENT_SUDO_RULES_LEARN_INTERVAL_S must be whole seconds from 0 (off) to 604800, not ${JSON.stringify(raw)}`);
  return n;
}

export function startLearnTimer(config: Config, cliMain: string, databaseUrl: string, intervalS: number): LearnTimer | undefined {
  if (intervalS === 0) return undefined;
  let running: ChildProcess | undefined;
  const log = join(config.logsDir, "rules-learn.log");
  const tick = () => {
    if (running) return;
    const fd = openSync(log, "a", 0o600);
    writeSync(fd, `--- ${new Date().toISOString()} agent-sudo rules learn\n`);
    const child = spawn(process.execPath, [cliMain, "rules", "learn"], {
      env: {
        PATH: process.env.PATH ?? "/usr/bin:/bin",
        AGENT_SUDO_HOME: config.home,
        DATABASE_URL: databaseUrl,
        // The same policies (and so the same proposals store) as every service: config's, or the one this was started with.
        ...(process.env.AGENT_SUDO_POLICIES ? { AGENT_SUDO_POLICIES: process.env.AGENT_SUDO_POLICIES } : {}),
        ...(process.env.AGENT_SUDO_NTFY_URL ? { AGENT_SUDO_NTFY_URL: process.env.AGENT_SUDO_NTFY_URL } : {}),
        ...(process.env.AGENT_SUDO_NTFY_TOKEN ? { AGENT_SUDO_NTFY_TOKEN: process.env.AGENT_SUDO_NTFY_TOKEN } : {}),
      },
      stdio: ["ignore", fd, fd],
    });
    closeSync(fd);
    running = child;
    child.once("exit", (code, signal) => {
      running = undefined;
      const after = openSync(log, "a", 0o600);
      writeSync(after, `--- exit ${signal ?? code}\n`);
      closeSync(after);
    });
  };
  const timer = setInterval(tick, intervalS * 1000);
  timer.unref();
  return {
    stop() {
      clearInterval(timer);
      running?.kill("SIGTERM");
    },
  };
}
