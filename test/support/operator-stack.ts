// A real stack for the operator-view tests: the console on (or off) on a
// free loopback port, a console token (alice) and a metrics token (prom)
// made by the real CLI, proposals kept in the state dir, the learn timer
// off, and optional extra environment (an ntfy stand-in's URL).
import { spawnSync } from "node:child_process";
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { cliMain, freePort, startStack, type Stack } from "./stack.js";

export interface OperatorStack {
  stack: Stack;
  home: string;
  /** http://127.0.0.1:PORT of the console (also when it is off: nothing answers there). */
  consoleUrl: string;
  consoleToken: string;
  metricsToken: string;
  proposalsDir: string;
  cli(args: string[]): { status: number | null; stdout: string; stderr: string };
  stop(): Promise<void>;
}

export async function startOperatorStack(opts: { console: boolean; env?: Record<string, string> }): Promise<OperatorStack> {
  const home = mkdtempSync(join(tmpdir(), "agent-sudo-operator-"));
  chmodSync(home, 0o755);
  const port = await freePort();
  writeFileSync(join(home, "config.json"), JSON.stringify({ console: { enabled: opts.console, port }, proposals_dir: "proposals" }));
  const env = { ...process.env, AGENT_SUDO_HOME: home, AGENT_SUDO_RULES_LEARN_INTERVAL_S: "0", ...opts.env };
  const cli = (args: string[]) => {
    const r = spawnSync(process.execPath, [cliMain, ...args], { env, encoding: "utf8", timeout: 120_000 });
    return { status: r.status, stdout: r.stdout, stderr: r.stderr };
  };
  const token = (kind: string, name: string) => {
    const r = cli([`${kind}-token`, name]);
    if (r.status !== 0) throw new Error(`${kind}-token: ${r.stderr}`);
    return r.stdout.trim();
  };
  const consoleToken = token("console", "alice");
  const metricsToken = token("metrics", "prom");
  let stack: Stack;
  try {
    stack = await startStack({ home, env: { AGENT_SUDO_RULES_LEARN_INTERVAL_S: "0", ...opts.env } });
  } catch (err) {
    rmSync(home, { recursive: true, force: true });
    throw err;
  }
  return {
    stack,
    home,
    consoleUrl: `http://127.0.0.1:${port}`,
    consoleToken,
    metricsToken,
    proposalsDir: join(home, "proposals"),
    cli,
    async stop() {
      await stack.stop();
      rmSync(home, { recursive: true, force: true });
    },
  };
}
