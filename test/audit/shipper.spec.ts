// The spool → PostgreSQL path against a real server, including SIGKILLing
// the postmaster under load: 0 lost, 0 duplicated.
import { cpSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startShipper, type Shipper } from "../../services/gateway/audit/shipper.js";
import { openSpool, type Spool } from "../../services/gateway/audit/spool.js";
import { startTestPostgres, tempRoot, type TestPostgres } from "./postgres-fixture.js";
import { makeRecord } from "./records.js";

let db: TestPostgres;
const root = tempRoot("agent-sudo-ship-");
beforeAll(async () => {
  db = await startTestPostgres();
});
afterAll(async () => {
  await db?.stop();
  rmSync(root, { recursive: true, force: true });
});

async function q(sql: string, params: unknown[] = []): Promise<pg.QueryResult> {
  const c = new pg.Client({ connectionString: db.url });
  await c.connect();
  try {
    return await c.query(sql, params);
  } finally {
    await c.end();
  }
}

async function counts(prefix: string): Promise<{ rows: number; distinct: number; intents: number; outcomes: number }> {
  const r = await q(
    `SELECT count(*)::int AS rows, count(DISTINCT (request_id, phase))::int AS distinct,
            count(*) FILTER (WHERE phase = 'intent')::int AS intents, count(*) FILTER (WHERE phase = 'outcome')::int AS outcomes
       FROM command_audit WHERE request_id LIKE $1`,
    [`${prefix}-%`],
  );
  return r.rows[0];
}

const fast = { minBackoffMs: 20, maxBackoffMs: 300, downAfterMs: 1_000 };

describe("audit shipper", () => {
  let spool: Spool;
  let shipper: Shipper;

  it("ships intent and outcome rows, raises NOTIFY per new row, and is idempotent on replay", async () => {
    const dir = join(root, "a");
    spool = await openSpool({ dir });
    shipper = startShipper({ spool, databaseUrl: db.url, ...fast });
    await shipper.drained(15_000); // migrations applied on first connect
    const listener = new pg.Client({ connectionString: db.url });
    await listener.connect();
    const ids: string[] = [];
    listener.on("notification", (m) => m.channel === "agent_sudo_audit" && ids.push(m.payload ?? ""));
    await listener.query("LISTEN agent_sudo_audit");

    const N = 300;
    // Appended while no shipper runs, and the segments kept aside: shipped
    // segments are deleted, and the replay below needs them back.
    await shipper.stop();
    await Promise.all(Array.from({ length: N }, (_, i) => spool.append(makeRecord(i, "intent", "a"))));
    await Promise.all(Array.from({ length: N }, (_, i) => spool.append(makeRecord(i, "outcome", "a"))));
    const kept = join(root, "a-kept");
    cpSync(dir, kept, { recursive: true });
    shipper = startShipper({ spool, databaseUrl: db.url, ...fast });
    await shipper.drained(15_000);
    expect(await counts("a")).toEqual({ rows: 2 * N, distinct: 2 * N, intents: N, outcomes: N });
    await new Promise((r) => setTimeout(r, 200));
    expect(ids.length).toBe(2 * N);
    const rowIds = (await q("SELECT id::text FROM command_audit WHERE request_id LIKE 'a-%'")).rows.map((r) => r.id);
    expect(new Set(ids)).toEqual(new Set(rowIds));
    const h = shipper.health();
    expect(h).toMatchObject({ depth: 0, state: "ok", shipped_total: 2 * N });

    // Replay the whole spool (a crash before the cursor was written, or a lost cursor): no duplicates, no new NOTIFY.
    await shipper.stop();
    await spool.close();
    rmSync(dir, { recursive: true });
    cpSync(kept, dir, { recursive: true });
    rmSync(join(dir, "cursor"), { force: true });
    rmSync(join(dir, "spool.lock"), { force: true });
    spool = await openSpool({ dir });
    expect(spool.depth()).toBe(2 * N);
    shipper = startShipper({ spool, databaseUrl: db.url, ...fast });
    await shipper.drained(15_000);
    expect(await counts("a")).toEqual({ rows: 2 * N, distinct: 2 * N, intents: N, outcomes: N });
    await new Promise((r) => setTimeout(r, 200));
    expect(ids.length).toBe(2 * N);
    await listener.end();

    const row = (await q("SELECT * FROM command_audit WHERE request_id = 'a-7' AND phase = 'outcome'")).rows[0];
    expect(row).toMatchObject({
      host: "primary",
      source: "http",
      assigned_tier: 3,
      decision_type: "executed",
      exit_code: 0,
      verify_passed: true,
      training_signal: "positive",
    });
    expect(row.evidence).toEqual({ signers: ["classifier", "concurrence"], n: 7 });
    await shipper.stop();
    await spool.close();
  });

  it("stores text PostgreSQL cannot hold (NUL) with a replacement character", async () => {
    spool = await openSpool({ dir: join(root, "nul") });
    shipper = startShipper({ spool, databaseUrl: db.url, ...fast });
    await spool.append({ ...makeRecord(1, "outcome", "nul"), evidence: { stdout: "a\u0000b" } });
    await shipper.drained(15_000);
    const row = (await q("SELECT evidence FROM command_audit WHERE request_id = 'nul-1'")).rows[0];
    expect(row.evidence.stdout).toBe("a\uFFFDb");
    expect(shipper.health().rejected_total).toBe(0);
    await shipper.stop();
    await spool.close();
  });

  it("a row PostgreSQL refuses for its data goes to rejected.log; the rest of the batch ships", async () => {
    await q("ALTER TABLE command_audit ADD CONSTRAINT test_refuse_evil CHECK (command <> 'evil')");
    try {
      spool = await openSpool({ dir: join(root, "poison") });
      await Promise.all(
        [0, 1, 2, 3].map((i) => spool.append({ ...makeRecord(i, "intent", "poison"), ...(i === 2 ? { command: "evil" } : {}) })),
      );
      shipper = startShipper({ spool, databaseUrl: db.url, ...fast });
      await shipper.drained(15_000);
      expect((await counts("poison")).rows).toBe(3);
      expect(shipper.health()).toMatchObject({ depth: 0, state: "ok", rejected_total: 1 });
      await shipper.stop();
      await spool.close();
      expect(readFileSync(join(root, "poison", "rejected.log"), "utf8")).toMatch(/poison-2.*test_refuse_evil|test_refuse_evil.*poison-2/);
    } finally {
      await q("ALTER TABLE command_audit DROP CONSTRAINT test_refuse_evil");
    }
  });

  it("reports retrying then down while the database is unreachable, ok once it answers", async () => {
    spool = await openSpool({ dir: join(root, "unreachable") });
    const bad = new URL(db.url);
    bad.port = "1"; // nothing listens there
    shipper = startShipper({ spool, databaseUrl: bad.toString(), ...fast });
    await spool.append(makeRecord(1, "intent", "unreach"));
    await new Promise((r) => setTimeout(r, 200));
    expect(shipper.health()).toMatchObject({ depth: 1, state: "retrying", shipped_total: 0 });
    expect(shipper.health().last_error).toMatch(/ECONNREFUSED/);
    await new Promise((r) => setTimeout(r, 1_000));
    expect(shipper.health().state).toBe("down");
    await shipper.stop();
    shipper = startShipper({ spool, databaseUrl: db.url, ...fast });
    await shipper.drained(15_000);
    expect(shipper.health()).toMatchObject({ depth: 0, state: "ok", shipped_total: 1 });
    await shipper.stop();
    await spool.close();
  });

  it.runIf(!process.env.DATABASE_URL)(
    "PostgreSQL killed while a shipped batch's cursor is written: the loss heard meanwhile stands, the success does not hide it",
    async () => {
      // The race CI met (/health said ok during an outage): the INSERT is
      // answered, the backend dies of its postmaster's death and the client
      // hears it while the cursor is fsynced; the batch's success must not
      // then clear that newer failure.
      const real = await openSpool({ dir: join(root, "late-loss") });
      let release!: () => void;
      const held = new Promise<void>((r) => (release = r));
      let commitStarted!: () => void;
      const committing = new Promise<void>((r) => (commitStarted = r));
      let commits = 0;
      let afterCommit: string | undefined;
      const slow = new Proxy(real, {
        get(target, prop, receiver) {
          if (prop === "commit")
            return async (batch: Parameters<Spool["commit"]>[0]) => {
              if (commits++ !== 0) return target.commit(batch);
              commitStarted();
              await held;
              await target.commit(batch);
              // Sampled once the shipper has taken this answer, before any reconnect could.
              setImmediate(() => (afterCommit = shipper.health().state));
            };
          const v = Reflect.get(target, prop, receiver);
          return typeof v === "function" ? v.bind(target) : v;
        },
      });
      shipper = startShipper({ spool: slow, databaseUrl: db.url, ...fast, downAfterMs: 60_000 });
      await real.append(makeRecord(1, "intent", "lateloss"));
      await committing; // the INSERT was answered: the cursor write is held
      await db.kill();
      for (let i = 0; i < 100 && shipper.health().state === "ok"; i++) await new Promise((r) => setTimeout(r, 20));
      expect(shipper.health().state, "the connection's loss is heard").toBe("retrying");
      release();
      await new Promise((r) => setTimeout(r, 300));
      expect(afterCommit, "right after the batch's success").toBe("retrying");
      expect(shipper.health(), "PostgreSQL is still down").toMatchObject({ state: "retrying", shipped_total: 1 });
      expect(shipper.health().last_error).toBeTruthy();
      await db.restart();
      await shipper.stop();
      await real.close();
    },
    60_000,
  );

  it.runIf(!process.env.DATABASE_URL)(
    "PostgreSQL SIGKILLed twice under concurrent appends: spool grows, shipper retries, drains: 0 lost, 0 duplicated",
    async () => {
      spool = await openSpool({ dir: join(root, "chaos") });
      shipper = startShipper({ spool, databaseUrl: db.url, batchSize: 200, ...fast });
      let next = 0;
      let stop = false;
      // 20 writers, each appending intent then outcome like the gateway does,
      // for the whole run (a few thousand requests).
      const writers = Array.from({ length: 20 }, async () => {
        while (!stop) {
          const i = next++;
          await spool.append(makeRecord(i, "intent", "chaos"));
          await spool.append(makeRecord(i, "outcome", "chaos"));
          await new Promise((r) => setTimeout(r, 10));
        }
      });
      const states = new Set<string>();
      const watch = setInterval(() => states.add(shipper.health().state), 20);
      for (let round = 0; round < 2; round++) {
        await new Promise((r) => setTimeout(r, 300));
        await db.kill();
        const depthAtKill = spool.depth();
        await new Promise((r) => setTimeout(r, 1_200)); // down past downAfterMs
        expect(spool.depth()).toBeGreaterThan(depthAtKill); // the spool grows while PostgreSQL is down
        expect(["retrying", "down"]).toContain(shipper.health().state);
        expect(shipper.health().last_error).toBeTruthy();
        await db.restart();
      }
      stop = true;
      await Promise.all(writers);
      await shipper.drained(60_000);
      clearInterval(watch);
      const appended = next;
      expect(await counts("chaos")).toEqual({ rows: 2 * appended, distinct: 2 * appended, intents: appended, outcomes: appended });
      expect(states.has("down")).toBe(true);
      expect(shipper.health()).toMatchObject({ depth: 0, state: "ok", rejected_total: 0 });
      await shipper.stop();
      await spool.close();
    },
    120_000,
  );
});
