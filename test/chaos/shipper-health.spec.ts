// /health is `degraded` whenever the audit shipper is failing (issue 18,
// item 3, last clause), in the production shape: the owner's PostgreSQL on
// DATABASE_URL (here a real one of this test's own), killed under a running
// stack. The gateway keeps serving (200, the spool holds the audit) and
// says which part is failing; once PostgreSQL is back, /health is `ok` again
// and the spool drains.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestPostgres, type TestPostgres } from "../audit/postgres-fixture.js";
import { startStack, type Stack } from "../support/stack.js";

const root = process.getuid?.() === 0;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Health {
  status: number;
  state: unknown;
  shipper: { state?: string; last_error?: string; depth?: number };
}

describe.skipIf(!root)("chaos: /health while the audit shipper fails", () => {
  let pg: TestPostgres;
  let stack: Stack;

  const health = async (): Promise<Health> => {
    const h = await stack.health();
    const audit = h.body.audit as { shipper?: Health["shipper"] } | undefined;
    return { status: h.status, state: h.body.status, shipper: audit?.shipper ?? {} };
  };
  const until = async (what: string, pred: (h: Health) => boolean, ms: number): Promise<Health> => {
    const t0 = Date.now();
    for (;;) {
      const h = await health();
      if (pred(h)) return h;
      if (Date.now() - t0 > ms) throw new Error(`${what} within ${ms} ms; last /health: ${JSON.stringify(h)}`);
      await sleep(100);
    }
  };

  beforeAll(async () => {
    pg = await startTestPostgres();
    stack = await startStack({ env: { DATABASE_URL: pg.url } });
  }, 120_000);
  afterAll(async () => {
    await stack?.stop();
    await pg?.stop();
  });

  it("PostgreSQL killed: degraded with the shipper's state, still serving; back: ok", async () => {
    expect(pg.embedded, "needs the fixture's own PostgreSQL (unset DATABASE_URL)").toBe(true);
    expect((await stack.exec({ command: "echo before" })).status).toBe(200);
    await until("ok with the shipper ok", (h) => h.state === "ok" && h.shipper.state === "ok", 30_000);

    await pg.kill();
    const down = await until("degraded", (h) => h.state === "degraded", 20_000);
    expect(down.status, "degraded, but serving").toBe(200);
    expect(["retrying", "down"]).toContain(down.shipper.state);
    expect(down.shipper.last_error).toBeTruthy();
    const during = await stack.exec({ command: "echo during-the-outage" });
    expect(during.status, JSON.stringify(during.body)).toBe(200);
    const after = await health();
    expect(after.state, `${JSON.stringify(after)}\n${stack.output().slice(-6000)}`).toBe("degraded");

    await pg.restart();
    const back = await until(
      "ok again, the spool drained",
      (h) => h.state === "ok" && h.shipper.state === "ok" && h.shipper.depth === 0,
      60_000,
    );
    expect(back.status).toBe(200);
  }, 150_000);
});
