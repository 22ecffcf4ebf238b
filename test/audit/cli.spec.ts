import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditCommand, parseWhen } from "../../cli/audit.js";
import { openJournal } from "../../services/executor/journal.js";
import { startShipper, type Shipper } from "../../services/gateway/audit/shipper.js";
import { openSpool, type Spool } from "../../services/gateway/audit/spool.js";
import { startTestPostgres, tempRoot, type TestPostgres } from "./postgres-fixture.js";
import { makeRecord } from "./records.js";

let db: TestPostgres;
let spool: Spool;
let shipper: Shipper;
const root = tempRoot("agent-sudo-cli-");

beforeAll(async () => {
  db = await startTestPostgres();
  spool = await openSpool({ dir: join(root, "spool") });
  shipper = startShipper({ spool, databaseUrl: db.url, minBackoffMs: 20, maxBackoffMs: 200 });
  for (let i = 0; i < 3; i++) {
    await spool.append(makeRecord(i, "intent", "cli"));
    await spool.append(makeRecord(i, "outcome", "cli"));
  }
  await spool.append(makeRecord(3, "intent", "cli")); // a decision without an outcome yet
  await shipper.drained(15_000);
});
afterAll(async () => {
  await shipper?.stop();
  await spool?.close();
  await db?.stop();
  rmSync(root, { recursive: true, force: true });
});

async function run(argv: string[], signal?: AbortSignal) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await auditCommand(argv, {
    out: (l) => out.push(l),
    err: (l) => err.push(l),
    env: { DATABASE_URL: db.url },
    ...(signal ? { signal } : {}),
  });
  return { code, out, err };
}

describe("agent-sudo audit", () => {
  it("tail prints the newest rows, oldest first", async () => {
    const r = await run(["tail", "-n", "2"]);
    expect(r.code).toBe(0);
    expect(r.out).toHaveLength(2);
    expect(r.out[1]).toContain("cli-3");
    const j = await run(["tail", "-n", "1", "--json"]);
    expect(JSON.parse(j.out[0] ?? "{}")).toMatchObject({ request_id: "cli-3", phase: "intent" });
  });

  it("tail -f follows new rows through NOTIFY", async () => {
    const ac = new AbortController();
    const out: string[] = [];
    const done = auditCommand(["tail", "-f", "-n", "0"], {
      out: (l) => out.push(l),
      err: () => undefined,
      env: { DATABASE_URL: db.url },
      signal: ac.signal,
    });
    await new Promise((r) => setTimeout(r, 300));
    await spool.append(makeRecord(3, "outcome", "cli"));
    for (let i = 0; i < 100 && out.length === 0; i++) await new Promise((r) => setTimeout(r, 50));
    ac.abort();
    expect(await done).toBe(0);
    expect(out.join("\n")).toMatch(/outcome .*cli-3/);
  });

  it("label sets the gold label; unknown requests and bad usage fail", async () => {
    expect((await run(["label", "cli-1", "approve", "--by", "alice"])).code).toBe(0);
    const unknown = await run(["label", "nope", "reject", "--by", "alice"]);
    expect(unknown.code).toBe(1);
    expect(unknown.err.join()).toMatch(/no audit rows/);
    expect((await run(["label", "cli-1", "maybe", "--by", "alice"])).code).toBe(2);
    expect((await run(["label", "cli-1", "approve"])).code).toBe(2);
  });

  it("export writes one JSON line per decision with its gold label", async () => {
    const r = await run(["export", "--since", "2025-12-31", "--format", "jsonl"]);
    expect(r.code).toBe(0);
    const recs = r.out.map((l) => JSON.parse(l));
    expect(recs.map((x) => x.request_id)).toEqual(["cli-0", "cli-1", "cli-2", "cli-3"]);
    expect(recs[1]).toMatchObject({
      human_verdict: "approve",
      human_verdict_by: "alice",
      decision_type: "executed",
      exit_code: 0,
      has_outcome: true,
      training_signal: "positive",
    });
    expect(recs[0].evidence.intent).toEqual({ signers: ["classifier", "concurrence"], n: 0 });
    const labeled = await run(["export", "--since", "2025-12-31", "--until", "2099-01-01", "--format", "jsonl", "--labeled-only"]);
    expect(labeled.out.map((l) => JSON.parse(l).request_id)).toEqual(["cli-1"]);
    expect((await run(["export", "--since", "2025-12-31", "--format", "csv"])).code).toBe(2);
    // Without --since and --format: everything, as JSONL.
    const all = await run(["export"]);
    expect(all.code).toBe(0);
    expect(all.out.map((l) => JSON.parse(l).request_id)).toEqual(["cli-0", "cli-1", "cli-2", "cli-3"]);
  });

  it("verify-journal reports an intact chain and names a tampered entry", async () => {
    const path = join(root, "journal.log");
    const j = openJournal(path);
    for (let i = 0; i < 4; i++) j.append({ op: "exec", i });
    j.close();
    expect((await run(["verify-journal", path])).code).toBe(0);
    const lines = readFileSync(path, "utf8").split("\n");
    lines[2] = lines[2]?.replace('"i":2', '"i":7') ?? "";
    writeFileSync(path, lines.join("\n"));
    const bad = await run(["verify-journal", path]);
    expect(bad.code).toBe(1);
    expect(bad.err.join()).toMatch(/BROKEN at entry 3/);
  });

  it("parses relative and absolute times; refuses nonsense", () => {
    expect(parseWhen("2h", 10 * 3_600_000).getTime()).toBe(8 * 3_600_000);
    expect(parseWhen("2026-01-02").toISOString()).toBe("2026-01-02T00:00:00.000Z");
    expect(() => parseWhen("yesterday")).toThrow();
  });

  it("without DATABASE_URL, says so", async () => {
    const err: string[] = [];
    // A state dir of its own (never the machine's /var/lib/agent-sudo, which an `npm start` may have made).
    const home = mkdtempSync(join(tmpdir(), "agent-sudo-audit-cli-"));
    const code = await auditCommand(["tail"], { out: () => undefined, err: (l) => err.push(l), env: { AGENT_SUDO_HOME: home } });
    rmSync(home, { recursive: true, force: true });
    expect(code).toBe(2);
    expect(err.join()).toMatch(/DATABASE_URL/);
  });
});
