// The learned allowlist end to end, on a REAL PostgreSQL (embedded, or a
// fresh database on DATABASE_URL) and COPIES of the repo's policies:
// 5 clean runs → exactly one proposal; activate → the next classification
// matches the new rule and the signature verifies; reject → never proposed
// again; the impact listing shows the verdicts that change.
import { copyFileSync, cpSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { createHash } from "node:crypto";
import { createServer } from "node:http";
import { join } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { policyCommand } from "../../cli/policy.js";
import { policyDiffCommand } from "../../cli/policy-diff.js";
import { rulesCommand } from "../../cli/rules.js";
import { loadEngine } from "../../services/classifier/engine/index.js";
import { migrate } from "../../services/gateway/audit/migrate.js";
import { repoRoot } from "../../services/shared/config.js";
import { loadTrustedKeys, verifyPolicies } from "../../services/shared/policy-signature.js";
import { PENDING_FILE, readPending } from "../../services/shared/proposals.js";
import { startTestPostgres, tempRoot, type TestPostgres } from "../audit/postgres-fixture.js";

const FILES = ["SUDO.md", "CLAUDE_CMDS.md"];
const digest = (p: string) => createHash("sha256").update(readFileSync(p)).digest("hex");
const repoDigests = FILES.map((f) => digest(join(repoRoot, "policies", f)));

let db: TestPostgres;
let client: pg.Client;
let root: string;
let home: string;
let pristine: string;
let policies: string;
let env: NodeJS.ProcessEnv;
let seq = 0;

interface Run {
  host?: string;
  tier?: number | null;
  decision?: string;
  exit?: number | null;
  rollback?: boolean;
  reject?: boolean;
  trial?: unknown;
  source?: string;
  evidence?: Record<string, unknown>;
}

async function audit(command: string, n: number, o: Run = {}): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const id = `req-${++seq}`;
    ids.push(id);
    const ts = new Date(Date.UTC(2026, 0, 1) + seq * 1000).toISOString();
    const base = [id, ts, o.host ?? "server-01", "ci-bot", o.source ?? "http", command, "/srv", o.tier === undefined ? 2 : o.tier];
    await client.query(
      `INSERT INTO command_audit (request_id, phase, ts, host, caller, source, command, cwd, assigned_tier, decision_type, evidence)
       VALUES ($1, 'intent', $2, $3, $4, $5, $6, $7, $8, 'pending', $9)`,
      [...base, JSON.stringify({ ...(o.trial ? { trial: o.trial } : {}), ...o.evidence })],
    );
    await client.query(
      `INSERT INTO command_audit (request_id, phase, ts, host, caller, source, command, cwd, assigned_tier, decision_type, evidence,
                                  exit_code, rollback_taken, verify_passed, human_verdict, human_verdict_by, human_verdict_at)
       VALUES ($1, 'outcome', $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)`,
      [
        ...base,
        o.decision ?? "executed",
        JSON.stringify({ ...(o.trial ? { trial: o.trial } : {}), ...o.evidence }),
        o.exit === undefined ? 0 : o.exit,
        o.rollback ?? false,
        null,
        o.reject ? "reject" : null,
        o.reject ? "bob" : null,
        o.reject ? ts : null,
      ],
    );
  }
  return ids;
}

async function cli(fn: typeof rulesCommand, args: string[], extra: NodeJS.ProcessEnv = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await fn(args, { out: (l) => out.push(l), err: (l) => err.push(l), env: { ...env, ...extra } });
  return { code, out: out.join("\n"), err: err.join("\n") };
}
const rules = (args: string[], extra: NodeJS.ProcessEnv = {}) => cli(rulesCommand, [...args, "--policies", policies], extra);
const snapshot = (dir: string) => readdirAll(dir).map((f) => `${f}:${digest(join(dir, f))}`);
const readdirAll = (dir: string) => [...FILES, ...FILES.map((f) => `${f}.sig`), PENDING_FILE].filter((f) => existsSync(join(dir, f)));

beforeAll(async () => {
  db = await startTestPostgres();
  client = new pg.Client({ connectionString: db.url });
  await client.connect();
  await migrate(client);
  root = tempRoot("rules-lifecycle-");
  home = join(root, "home");
  pristine = join(root, "pristine");
  policies = join(root, "policies");
  for (const d of [pristine, policies]) {
    mkdirSync(d);
    for (const f of FILES) copyFileSync(join(repoRoot, "policies", f), join(d, f));
  }
  env = { AGENT_SUDO_HOME: home, DATABASE_URL: db.url, USER: "tester" };
  expect((await cli(policyCommand, ["keygen"])).code).toBe(0);
  expect((await cli(policyCommand, ["sign", "--policies", policies])).code).toBe(0);
});

afterAll(async () => {
  await client?.end();
  await db?.stop();
  if (root) rmSync(root, { recursive: true, force: true });
  // The repository's own policies were never touched.
  expect(FILES.map((f) => digest(join(repoRoot, "policies", f)))).toEqual(repoDigests);
});

describe("rules learn → activate / reject", () => {
  let id = "";
  const PATTERN = "acme-report --since [0-9]+([0-9])";

  it("5 clean runs of a new command → exactly one proposal, with its evidence", async () => {
    const trial = { ok: true, exit_code: 0, touched: ["/var/lib/acme/report.db"], findings: [], gaps: [] };
    const clean = [
      ...(await audit("acme-report --since 20240101", 2)),
      ...(await audit("acme-report --since 20240102", 2, { trial })),
      ...(await audit("acme-report --since 20240103", 1)),
    ];
    await audit("acme-report --since 20240301", 2, { host: "primary", tier: 4, decision: "refused", exit: null });
    await audit("systemctl status nginx", 6, { tier: 0 }); // an explicit rule decides it already
    await audit("acme-sync --check", 4); // not enough runs
    await audit("acme-purge --all", 5);
    await audit("acme-purge --all", 1, { rollback: true }); // one rollback blocks the shape
    await audit("acme-clean --old", 5);
    await audit("acme-clean --old", 1, { reject: true }); // a person said no to one run
    await audit("acme-report --since 20240101 && true", 5); // compound: no shape
    await audit("acme-fail --now", 5, { exit: 1 }); // never clean

    // The low-priority notification goes to a local ntfy stand-in: it must say what to review and how.
    const posted: string[] = [];
    const ntfy = createServer((req, res) => {
      let body = "";
      req.on("data", (c: Buffer) => (body += c.toString()));
      req.on("end", () => {
        posted.push(body);
        res.end("{}");
      });
    });
    await new Promise<void>((r) => ntfy.listen(0, "127.0.0.1", r));
    const port = (ntfy.address() as { port: number }).port;
    // With the operator console on, the message links to the proposal's page.
    writeFileSync(join(home, "config.json"), JSON.stringify({ console: { enabled: true, port: 18085 } }));
    const learned = await rules(["learn", "--min-runs", "5"], { AGENT_SUDO_NTFY_URL: `http://127.0.0.1:${port}/agent-sudo` });
    rmSync(join(home, "config.json"));
    await new Promise<void>((r) => ntfy.close(() => r()));
    expect(learned.code, learned.err).toBe(0);
    expect(posted).toHaveLength(1);
    const [note = ""] = posted;
    const pid = readPending(policies).proposals[0]?.id ?? "?";
    expect(note).toContain(`${pid}: ${PATTERN} (sudo, suggested tier 2; 5 clean run(s), 0 other)`);
    expect(note).toContain(`agent-sudo rules activate ${pid} --dry-run`);
    expect(note).toContain(`agent-sudo rules reject ${pid} --reason`);
    expect(note).toContain("acme-report --since 2024010");
    expect(note.endsWith(`\nhttp://127.0.0.1:18085/proposals/${pid}`)).toBe(true);
    expect(learned.out).toMatch(/skipped: already decided by rule sudo-systemctl-read\s+"systemctl status nginx"/);
    expect(learned.out).toMatch(/skipped: request req-\d+ was rolled back\s+"acme-purge --all"/);
    expect(learned.out).toMatch(/skipped: request req-\d+ was rejected by a person\s+"acme-clean --old"/);
    const pending = readPending(policies).proposals;
    expect(pending).toHaveLength(1);
    const p = pending[0]!;
    id = p.id;
    expect(p).toMatchObject({ source: "learned", policy: "sudo", pattern: PATTERN, suggested_tier: 2 });
    expect(p.evidence).toMatchObject({ clean_runs: 5, unclean_runs: 0, hosts: ["server-01"], tiers_seen: [2] });
    expect([...p.evidence.request_ids].sort()).toEqual([...clean].sort());
    expect(p.evidence.trial).toMatchObject({ ok: true, touched_paths: ["/var/lib/acme/report.db"] });

    // Learning again changes nothing: one shape, one proposal.
    expect((await rules(["learn"])).code).toBe(0);
    expect(readPending(policies).proposals.map((x) => x.id)).toEqual([id]);
    const list = await rules(["list", "--proposed"]);
    expect(list.out.split("\n")).toHaveLength(1);
    expect(list.out).toContain(JSON.stringify(PATTERN));
    const show = await rules(["show", id]);
    expect(show.out).toContain("touched /var/lib/acme/report.db");
    expect(show.out).toContain(clean[0]);
  });

  it("activate refuses without the signing key, and over a tampered policy, changing nothing", async () => {
    const before = snapshot(policies);
    const key = join(home, "keys", "policy.key");
    renameSync(key, `${key}.away`);
    try {
      const r = await rules(["activate", id]);
      expect(r.code).toBe(1);
      expect(r.err).toMatch(/needs the signing key.*Nothing was changed/);
    } finally {
      renameSync(`${key}.away`, key);
    }
    expect(snapshot(policies)).toEqual(before);

    const tampered = join(root, "tampered");
    cpSync(policies, tampered, { recursive: true });
    writeFileSync(join(tampered, "CLAUDE_CMDS.md"), `${readFileSync(join(tampered, "CLAUDE_CMDS.md"), "utf8")}\n`);
    const t = await cli(rulesCommand, ["activate", id, "--policies", tampered]);
    expect(t.code).toBe(1);
    expect(t.err).toMatch(/does not verify/);
    expect(readFileSync(join(tampered, "SUDO.md"), "utf8")).not.toContain("learned-acme-report");
  });

  it("--dry-run shows the impact and the diff and writes nothing", async () => {
    const before = snapshot(policies);
    const r = await rules(["activate", id, "--dry-run"]);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(
      /WIDER\s+tier 4 → 2\s+miss:primary → learned-acme-report-[0-9a-f]{6}\s+×2\s+\[sudo primary \/srv\]\s+"acme-report --since 20240301"/,
    );
    expect(r.out).toMatch(/^\+\| learned-acme-report-[0-9a-f]{6} \| `acme-report --since \[0-9\]\+\(\[0-9\]\)` \| 2 \| reproducible \|/m);
    expect(r.out).toContain("dry run: nothing was changed");
    expect(snapshot(policies)).toEqual(before);
  });

  it("activate → the rule is in SUDO.md, signed, and decides the next run of that command", async () => {
    const r = await rules(["activate", id, "--by", "alice"]);
    expect(r.code, r.err).toBe(0);
    // Every verdict that changes: the refused primary runs get wider; the
    // server-01 runs (and the compound command containing it) keep tier 2 but
    // are now decided by the rule instead of the verb heuristic.
    expect(r.out).toMatch(/impact: 5 of \d+ distinct commands \(\d+ audited\)/);
    expect(r.out).toMatch(
      /RULE\s+tier 2 → 2\s+miss:heuristic → learned-acme-report-[0-9a-f]{6}\s+×5 .*"acme-report --since 20240101 && true"/,
    );
    expect(r.out).toMatch(/WIDER\s+tier 4 → 2\s+miss:primary → learned-acme-report/);
    const ruleId = /activated p-[0-9a-f]{12} as (learned-acme-report-[0-9a-f]{6})/.exec(r.out)?.[1];
    expect(ruleId).toBeDefined();

    expect(verifyPolicies(policies, loadTrustedKeys(join(home, "keys"))).state).toBe("signed");
    expect((await cli(policyCommand, ["verify", "--policies", policies])).code).toBe(0);
    const sudo = readFileSync(join(policies, "SUDO.md"), "utf8");
    expect(sudo.indexOf(ruleId!)).toBeLessThan(sudo.indexOf("## Danger veto"));
    expect(readFileSync(join(policies, "CLAUDE_CMDS.md"), "utf8")).toBe(readFileSync(join(pristine, "CLAUDE_CMDS.md"), "utf8"));

    const engine = await loadEngine(policies);
    for (const host of ["primary", "server-01"] as const) {
      const v = engine.classify({ command: "acme-report --since 20250607", cwd: "/srv", host, source: "sudo" });
      expect(v).toMatchObject({ rule: ruleId, tier: 2, explicit: true });
    }
    // Only that shape: other arguments still miss.
    expect(engine.classify({ command: "acme-report --purge", cwd: "/srv", host: "primary", source: "sudo" }).rule).toBe("miss:primary");

    const file = readPending(policies);
    expect(file.proposals).toEqual([]);
    expect(file.activated[0]).toMatchObject({ id, rule_id: ruleId, file: "SUDO.md", tier: 2, by: "alice" });
    const again = await rules(["learn"]);
    expect(again.out).toMatch(/skipped: already decided by rule learned-acme-report/);
    expect(readPending(policies).proposals).toEqual([]);
  });

  it("reject → the shape is never proposed again, however often it runs", async () => {
    await audit("acme-export --fmt csv", 5);
    await rules(["learn"]);
    const p = readPending(policies).proposals.find((x) => x.pattern === "acme-export --fmt csv");
    expect(p).toBeDefined();
    expect((await rules(["reject", p!.id])).code).toBe(2); // --reason is required
    const r = await rules(["reject", p!.id, "--reason", "exports customer data", "--by", "alice"]);
    expect(r.code, r.err).toBe(0);
    await audit("acme-export --fmt csv", 10);
    const again = await rules(["learn"]);
    expect(again.out).toMatch(/skipped: rejected .* by alice \(exports customer data\)\s+"acme-export --fmt csv"/);
    expect(readPending(policies).proposals).toEqual([]);
    expect((await rules(["list", "--rejected"])).out).toMatch(/rejected .* by alice\s+"acme-export --fmt csv"\s+— exports customer data/);
  });
});

describe("proposals from clean sandbox trials (issue 7)", () => {
  it("one clean trial and clean run of an unknown command → a sandbox proposal; without the trial, nothing", async () => {
    const trial = { ok: true, exit_code: 0, touched: ["/var/lib/acme/index.db"], findings: [], gaps: [] };
    await audit("acme-index --rebuild", 1, { trial });
    await audit("acme-untrialled --go", 1);
    const learned = await rules(["learn", "--min-runs", "5"]);
    expect(learned.code, learned.err).toBe(0);
    const pending = readPending(policies).proposals.filter(
      (p) => p.pattern.startsWith("acme-index") || p.pattern.startsWith("acme-untrialled"),
    );
    expect(pending).toHaveLength(1);
    expect(pending[0]).toMatchObject({ source: "sandbox", pattern: "acme-index --rebuild" });
    expect(pending[0]?.evidence.trial).toMatchObject({ ok: true, touched_paths: ["/var/lib/acme/index.db"] });
  });

  it("hook outcomes count beside /exec runs: 5 clean runs the client reported → a claude-policy proposal; failures, interrupted or backgrounded runs and runs with no decision on record do not", async () => {
    const hook: Run = { source: "hook", decision: "hook_outcome", tier: 1, evidence: { event: "PostToolUse" } };
    const clean = await audit("acme-lint --fix src", 5, hook);
    await audit("acme-lint --fix src", 1, { ...hook, exit: 2, evidence: { event: "PostToolUseFailure", error: "Exit code 2" } });
    await audit("acme-watch --once", 5, { ...hook, evidence: { event: "PostToolUse", interrupted: true } });
    await audit("acme-serve --port 1", 5, { ...hook, exit: null, evidence: { event: "PostToolUse", background: true } });
    await audit("acme-bench --quick", 5, { ...hook, tier: null });
    const learned = await rules(["learn", "--min-runs", "5"]);
    expect(learned.code, learned.err).toBe(0);
    expect(learned.out).toMatch(/read \d+ executed runs \(\d+ through \/exec, 21 reported by the hook\)/);
    const mine = readPending(policies).proposals.filter((p) => /^acme-(lint|watch|serve|bench)/.test(p.pattern));
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ source: "learned", policy: "claude", suggested_tier: 1 });
    expect(mine[0]?.pattern).toMatch(/^acme-lint/);
    expect(mine[0]?.evidence).toMatchObject({ clean_runs: 5, unclean_runs: 1, tiers_seen: [1] });
    expect([...(mine[0]?.evidence.request_ids ?? [])].sort()).toEqual([...clean].sort());
    expect(learned.out).toMatch(/skipped: ran at tier 4 or with no tier recorded\s+"acme-bench/);
  });
});

describe("agent-sudo policy diff", () => {
  it("lists the rule changes and every verdict that changes, from the audit or a JSONL file", async () => {
    const fromDb = await cli(policyDiffCommand, [pristine, policies]);
    expect(fromDb.code, fromDb.err).toBe(0);
    expect(fromDb.out).toMatch(/rules: 1 added, 0 removed, 0 changed\n\s+\+ learned-acme-report-[0-9a-f]{6}/);
    expect(fromDb.out).toMatch(/WIDER\s+tier 4 → 2\s+miss:primary → learned-acme-report-[0-9a-f]{6}\s+×2/);
    expect(fromDb.out).not.toMatch(/acme-export/);
    const one = await cli(policyDiffCommand, [pristine, policies, "--last", "1"]);
    expect(one.out).toMatch(/of 1 distinct commands \(1 audited\)/);
    expect((await cli(rulesCommand, [])).code).toBe(2);

    const jsonl = join(root, "commands.jsonl");
    writeFileSync(
      jsonl,
      [
        { command: "acme-report --since 20991231", host: "primary", source: "http" },
        { command: "acme-report --since 20991231", host: "server-01", source: "sudo" },
        { command: "git status", source: "hook", cwd: "/srv" },
      ]
        .map((l) => JSON.stringify(l))
        .join("\n"),
    );
    const fromFile = await cli(policyDiffCommand, [pristine, policies, "--commands", jsonl]);
    expect(fromFile.code, fromFile.err).toBe(0);
    expect(fromFile.out).toMatch(/impact: 2 of 3 distinct commands \(3 audited\)/);
    expect(fromFile.out).toMatch(/WIDER\s+tier 4 → 2 .*\[sudo primary\]/);
    expect(fromFile.out).toMatch(/RULE\s+tier 2 → 2\s+miss:heuristic → learned-acme-report-[0-9a-f]{6} .*\[sudo server-01\]/);

    expect((await cli(policyDiffCommand, [pristine])).code).toBe(2);
    const broken = join(root, "broken");
    cpSync(pristine, broken, { recursive: true });
    writeFileSync(join(broken, "SUDO.md"), `${readFileSync(join(broken, "SUDO.md"), "utf8")}\n## Rules: bad\n\n| id |\n`);
    const b = await cli(policyDiffCommand, [pristine, broken, "--commands", jsonl]);
    expect(b.code).toBe(1);
    expect(b.err).toMatch(/SUDO.md:\d+/);
  });
});
