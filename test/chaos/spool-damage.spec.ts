// Damage at the tail of the audit spool that is not a torn write (issue 18,
// item 5): a command runs (200), its outcome record is the spool's last,
// complete line, and that line is damaged while the stack is down. Before:
// the open dropped it silently as a "torn write" (no rejected.log, no
// count), and the reconciler then closed the request — which ran, exit 0 —
// as outcome_unknown because "the gateway stopped". Now the line goes to
// rejected.log and the count like any other damaged line, and the
// outcome_unknown record says the outcome record was lost and the command
// may have run.
//
// To keep the outcome in the spool until the stack stops, PostgreSQL refuses
// (with a retryable error, not a data error) the outcome row of this one
// command: the shipper keeps retrying it. The reconciler's own outcome row
// (outcome_unknown) is let through.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { journalEntries } from "../support/journal.js";
import { startStack, type Stack } from "../support/stack.js";

const root = process.getuid?.() === 0;
const COMMAND = "echo spool-tail-damage";
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function sql<T extends pg.QueryResultRow>(home: string, text: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: readFileSync(join(home, "database-url"), "utf8").trim() });
  await client.connect();
  try {
    return (await client.query<T>(text, params)).rows;
  } finally {
    await client.end();
  }
}

describe.skipIf(!root)("chaos: a damaged last line in the audit spool", () => {
  let stack: Stack | undefined;
  const home = mkdtempSync(join(tmpdir(), "agent-sudo-spooldamage-"));
  afterAll(async () => {
    await stack?.stop();
    rmSync(home, { recursive: true, force: true });
  });

  it("goes to rejected.log and the count, and the reconciler says the outcome record was lost", async () => {
    const first = await startStack({ home });
    stack = first;
    await first.waitHealthy(30_000);
    await sql(
      home,
      `CREATE FUNCTION chaos_hold_outcome() RETURNS trigger LANGUAGE plpgsql AS $$
         BEGIN RAISE EXCEPTION 'chaos: outcome held back' USING ERRCODE = '55000'; END $$;
       CREATE TRIGGER chaos_hold_outcome BEFORE INSERT ON command_audit FOR EACH ROW
         WHEN (NEW.command = '${COMMAND}' AND NEW.phase = 'outcome' AND NEW.decision_type <> 'outcome_unknown')
         EXECUTE FUNCTION chaos_hold_outcome()`,
    );
    const ran = await first.exec({ command: COMMAND });
    expect(ran.status).toBe(200);
    const requestId = String(ran.body.request_id);
    expect(journalEntries(home, "execute").some((e) => e.request_id === requestId)).toBe(true);
    // The shipper has tried (and failed) to ship the outcome at least once.
    const t0 = Date.now();
    while (((await first.health()).body.audit as { shipper: { state: string } }).shipper.state === "ok") {
      if (Date.now() - t0 > 20_000) throw new Error("the shipper never failed on the held-back outcome");
      await sleep(100);
    }
    await first.stop();
    stack = undefined;

    // Damage the outcome line: same length, complete, newline-terminated, wrong checksum.
    const spool = join(home, "state", "gateway", "audit-spool");
    const last =
      readdirSync(spool)
        .filter((f) => f.startsWith("seg-"))
        .sort()
        .at(-1) ?? "";
    const file = join(spool, last);
    const lines = readFileSync(file, "utf8").split("\n");
    expect(lines.pop()).toBe(""); // ends in a newline: not a torn write
    const tail = lines.at(-1) ?? "";
    expect(tail).toContain(`"request_id":"${requestId}"`);
    expect(tail).toContain('"phase":"outcome"');
    expect(tail).toContain('"exit_code":0');
    lines[lines.length - 1] = tail.replace('"exit_code":0', '"exit_code":7');
    writeFileSync(file, lines.join("\n") + "\n");

    const second = await startStack({ home });
    stack = second;
    const t1 = Date.now();
    let audit: { reconciled?: boolean; spool?: { depth?: number; rejected_total?: number }; shipper?: { state?: string } } = {};
    while (!(audit.reconciled === true && audit.spool?.depth === 0 && audit.shipper?.state === "ok")) {
      if (Date.now() - t1 > 60_000) throw new Error(`not reconciled: ${JSON.stringify(audit)}`);
      await sleep(200);
      audit = (await second.health()).body.audit as typeof audit;
    }
    expect(audit.spool?.rejected_total).toBe(1);
    const rejected = readFileSync(join(spool, "rejected.log"), "utf8");
    expect(rejected).toContain("checksum mismatch");
    expect(rejected).toContain(requestId);

    const rows = await sql<{ phase: string; decision_type: string; evidence: Record<string, unknown> }>(
      home,
      "SELECT phase, decision_type, evidence FROM command_audit WHERE request_id = $1 ORDER BY phase",
      [requestId],
    );
    expect(rows.map((r) => `${r.phase}:${r.decision_type}`)).toEqual(["intent:pending", "outcome:outcome_unknown"]);
    const evidence = rows[1]?.evidence ?? {};
    expect(String(evidence.reconciled)).toMatch(/outcome record was written and then lost/);
    expect(String(evidence.reconciled)).not.toMatch(/the gateway stopped/);
    expect(evidence.outcome_record_lost).toEqual([{ phase: "outcome", reason: expect.stringMatching(/checksum mismatch/) }]);
  }, 240_000);
});
