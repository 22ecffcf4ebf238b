// The audit end to end through the real stack and its embedded PostgreSQL:
// every /exec leaves an intent and an outcome row; PostgreSQL killed twice
// under load loses nothing and duplicates nothing; an unwritable spool
// refuses with 503 and executes nothing.
import { chmodSync, chownSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { recorderShell, startStack, type Stack } from "../support/stack.js";

const root = process.getuid?.() === 0;

async function rows(stack: Stack): Promise<Array<{ request_id: string; phase: string; decision_type: string }>> {
  const client = new pg.Client({ connectionString: readFileSync(join(stack.home, "database-url"), "utf8").trim() });
  await client.connect();
  try {
    return (await client.query("SELECT request_id, phase, decision_type FROM command_audit")).rows;
  } finally {
    await client.end();
  }
}

async function drained(stack: Stack, timeoutMs = 60_000): Promise<void> {
  const t0 = Date.now();
  while (Date.now() - t0 < timeoutMs) {
    const h = await stack.health();
    const audit = h.body.audit as { spool: { depth: number }; shipper: { state: string } } | undefined;
    if (audit && audit.spool.depth === 0 && audit.shipper.state === "ok") return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error("audit spool did not drain");
}

describe.skipIf(!root)("audit through the whole stack", () => {
  let stack: Stack;
  let recorded: string;
  let recDir: string;
  beforeAll(async () => {
    recDir = mkdtempSync("/tmp/agent-sudo-rec-");
    const rec = recorderShell(recDir);
    recorded = rec.log;
    stack = await startStack({ env: { AGENT_SUDO_SHELL: rec.shell } });
  });
  afterAll(async () => {
    await stack?.stop();
    if (recDir) rmSync(recDir, { recursive: true, force: true });
  });

  it("writes an intent and an outcome row for an executed and a refused command", async () => {
    const ok = await stack.exec({ command: "echo audited" });
    const no = await stack.exec({ command: "frobnicate-unknown-tool --never" });
    expect([ok.status, no.status]).toEqual([200, 403]);
    await drained(stack);
    const all = await rows(stack);
    const of = (id: unknown) =>
      all
        .filter((r) => r.request_id === id)
        .map((r) => `${r.phase}:${r.decision_type}`)
        .sort();
    expect(of(ok.body.request_id)).toEqual(["intent:pending", "outcome:executed"]);
    expect(of(no.body.request_id)).toEqual(["intent:pending", "outcome:refused"]);
  });

  it("loses and duplicates nothing when PostgreSQL is SIGKILLed twice under load", async () => {
    const TOTAL = 10_000;
    const CLIENTS = 50;
    const ids: string[] = [];
    let next = 0;
    let kills = 0;
    const worker = async () => {
      while (next < TOTAL) {
        const i = next++;
        if (i === Math.floor(TOTAL / 3) || i === Math.floor((2 * TOTAL) / 3)) {
          const pidFile = join(stack.home, "state", "postgres", "postmaster.pid");
          const pid = Number(readFileSync(pidFile, "utf8").split("\n")[0]);
          process.kill(pid, "SIGKILL");
          kills++;
        }
        const res = await stack.exec({ command: `echo load-${i}` });
        expect(typeof res.body.request_id, JSON.stringify(res.body)).toBe("string");
        ids.push(res.body.request_id as string);
      }
    };
    await Promise.all(Array.from({ length: CLIENTS }, worker));
    expect(kills).toBe(2);
    await drained(stack, 120_000);
    const all = await rows(stack);
    const byId = new Map<string, string[]>();
    for (const r of all) byId.set(r.request_id, [...(byId.get(r.request_id) ?? []), r.phase]);
    const bad = ids.filter((id) => (byId.get(id) ?? []).sort().join(",") !== "intent,outcome");
    expect(ids.length).toBe(TOTAL);
    expect(bad).toEqual([]);
  }, 420_000);

  it("refuses with 503 and executes nothing when the spool cannot be written", async () => {
    const spool = join(stack.home, "state", "gateway", "audit-spool");
    const st = statSync(spool);
    chownSync(spool, 0, 0);
    chmodSync(spool, 0o700);
    try {
      const res = await stack.exec({ command: "echo must-not-run" });
      expect(res.status).toBe(503);
      expect(res.body).toMatchObject({ error: "unavailable", component: "audit" });
    } finally {
      chownSync(spool, st.uid, st.gid);
      chmodSync(spool, st.mode & 0o7777);
    }
    expect(readFileSync(recorded, "utf8").split("\n")).not.toContain("echo must-not-run");
    const after = await stack.exec({ command: "echo runs-again" });
    expect(after.status).toBe(200);
  });
});
