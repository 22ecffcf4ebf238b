// `agent-sudo start`: prepare the state dir, start the stack under the
// supervisor, print where it listens and a token to try /exec with.
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { loadConfig } from "../services/shared/config.js";
import { ensureDevToken, prepareHome } from "./home.js";
import { startAuditDatabase } from "./database.js";
import { Supervisor } from "./supervisor.js";
import { connectServices, healthOf } from "../services/gateway/clients.js";
import { capabilities, capabilityLines } from "../services/gateway/capabilities.js";
import { lockStateDir } from "./state-lock.js";
import { unreachableByOthers } from "./reachable.js";
import { isRoot } from "../services/shared/privilege.js";
import { consoleUrl } from "../services/shared/console-url.js";
import { learnInterval, startLearnTimer } from "./learn-timer.js";
import { stopWithThisProcess } from "./embedded-postgres.js";

const distDir = join(dirname(fileURLToPath(import.meta.url)), "..");

export async function startCommand(_argv: string[]): Promise<number> {
  const say = (line: string) => process.stdout.write(`agent-sudo: ${line}\n`);
  const config = loadConfig();
  const learnEvery = learnInterval();
  if (isRoot()) {
    // The services drop to their own users and keep reading from here: refuse a checkout they cannot reach, before touching anything.
    const checkout = dirname(distDir);
    const why = unreachableByOthers([
      distDir,
      join(checkout, "node_modules"),
      join(checkout, "services", "gateway", "audit", "migrations"),
      config.policiesDir,
    ]);
    if (why) {
      throw new Error(
        `the service users cannot reach ${checkout}: ${why}. As root every service but the executor runs as its own user and reads its code, the policies and the audit migrations from here. ` +
          "Put the checkout under a directory every user can search (e.g. git clone … /srv/agent-sudo), or deploy it with `agent-sudo install`. Nothing was changed.",
      );
    }
  }
  // One stack per state dir, taken before anything in it is touched.
  const lock = lockStateDir(config.home);
  process.once("exit", () => lock.release());
  prepareHome(config, say);
  const token = ensureDevToken(config);
  let stopping = false;
  // The embedded PostgreSQL goes when this process goes, however it goes (the services watch fd 3).
  // Started before the database: the watcher reads the data dir's postmaster.pid only at our death.
  const watchPostgres = (): void => {
    stopWithThisProcess(join(config.stateDir, "postgres"))
      .once("error", (err) => say(`the PostgreSQL watcher did not start: ${err.message}`))
      .once("exit", (code, signal) => {
        if (stopping) return;
        say(`the PostgreSQL watcher exited (${signal ?? `code ${code}`}); starting another`);
        setTimeout(watchPostgres, 1000).unref();
      });
  };
  watchPostgres();
  const database = await startAuditDatabase(config, say);
  const supervisor = new Supervisor(config, distDir, say, { gateway: { DATABASE_URL: database.url } });

  const learnerRef: { current?: { stop(): void } } = {};
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    say(`${signal}: stopping all services`);
    learnerRef.current?.stop();
    await supervisor.stop();
    await database.stop();
    lock.release();
    say("stopped");
    process.exit(0);
  };
  process.on("SIGINT", () => void stop("SIGINT"));
  process.on("SIGTERM", () => void stop("SIGTERM"));

  supervisor.start();
  const scheme = config.http.tls_cert ? "https" : "http";
  const host = config.http.bind.includes(":") ? `[${config.http.bind}]` : config.http.bind;
  const url = `${scheme}://${host}:${config.http.port}`;
  say(`state dir ${config.home} (logs in ${config.logsDir})`);
  say(`host id ${config.host_id}; policies ${config.policiesDir}`);
  if (!(await supervisor.waitHealthy(30_000))) {
    say(`services did not all come up within 30 s; see ${config.logsDir}`);
    await supervisor.stop();
    await database.stop();
    lock.release();
    return 1;
  }
  // One line for every capability that is not ok (also under /health .capabilities).
  const clients = connectServices(config);
  const checked = await healthOf(clients);
  for (const [name, h] of Object.entries(checked))
    if (h.status === "refusing")
      say(
        `REFUSING: ${name}: ${h.detail.replace(/^refusing: /, "")} — /exec and the hook answer 503; re-sign the policy (agent-sudo policy sign) or restore it, then restart ${name}`,
      );
  for (const line of capabilityLines(capabilities(config, checked))) say(line);
  for (const c of Object.values(clients)) c.close();
  const learner = startLearnTimer(config, join(distDir, "cli", "main.js"), database.url, learnEvery);
  if (learner) learnerRef.current = learner;
  if (learner) say(`rules learn every ${learnEvery} s (logs/rules-learn.log; AGENT_SUDO_RULES_LEARN_INTERVAL_S=0 turns it off)`);
  const consoleAt = consoleUrl(config);
  if (consoleAt) say(`operator console ${consoleAt} (loopback; log in with a token from agent-sudo console-token NAME)`);
  say(`dev token: ${token}`);
  say(`try: curl -s -H 'Authorization: Bearer ${token}' -d '{"command":"echo hi"}' ${url}/exec`);
  process.stdout.write(`ready ${url}\n`);
  return new Promise<number>(() => {
    // runs until a signal stops it
  });
}
