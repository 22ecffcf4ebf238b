// A real PostgreSQL for tests: a fresh database on DATABASE_URL when set, or
// an embedded server in a temp dir on a random free port. `kill()` and
// `restart()` exist only for the embedded one (chaos tests skip otherwise).
import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { startEmbeddedPostgres, type EmbeddedPostgres } from "../../cli/embedded-postgres.js";
import { freePort } from "../../cli/ports.js";
export { freePort };

export interface TestPostgres {
  url: string;
  embedded: boolean;
  pid(): number;
  kill(): Promise<void>;
  restart(): Promise<void>;
  stop(): Promise<void>;
}

export function tempRoot(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  chmodSync(dir, 0o711); // the PostgreSQL OS user must traverse it
  return dir;
}

export async function startTestPostgres(): Promise<TestPostgres> {
  const external = process.env.DATABASE_URL;
  if (external) {
    const name = `agent_sudo_test_${process.pid}_${Date.now()}`;
    const admin = new pg.Client({ connectionString: external });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    const u = new URL(external);
    u.pathname = `/${name}`;
    const unsupported = async () => {
      throw new Error("not supported on DATABASE_URL");
    };
    return {
      url: u.toString(),
      embedded: false,
      pid: () => 0,
      kill: unsupported,
      restart: unsupported,
      async stop() {
        const c = new pg.Client({ connectionString: external });
        await c.connect();
        await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await c.end();
      },
    };
  }
  const root = tempRoot("agent-sudo-pgtest-");
  const dataDir = join(root, "pg");
  const port = await freePort();
  let server: EmbeddedPostgres = await startEmbeddedPostgres({ dataDir, port });
  return {
    url: server.url,
    embedded: true,
    pid: () => server.pid,
    async kill() {
      process.kill(server.pid, "SIGKILL");
      for (let i = 0; i < 250; i++) {
        try {
          process.kill(server.pid, 0);
        } catch {
          return;
        }
        await new Promise((r) => setTimeout(r, 20));
      }
      throw new Error(`postmaster ${server.pid} still exists 5 s after SIGKILL`);
    },
    async restart() {
      server = await startEmbeddedPostgres({ dataDir, port });
    },
    async stop() {
      await server.stop();
      rmSync(root, { recursive: true, force: true });
    },
  };
}
