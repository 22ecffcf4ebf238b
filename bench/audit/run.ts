// bench/audit: records per second through the audit spool (fsync on) and the
// shipper into a real PostgreSQL.
//
// Run: node -e "import('vite').then(v => v.runnerImport('./bench/audit/run.ts'))"
// Env: BENCH_RECORDS (default 20000), BENCH_WRITERS (concurrent appenders,
// default 50), DATABASE_URL (else an embedded PostgreSQL in a temp dir).
// Phases: (1) one writer, append latency = one write+fdatasync each;
// (2) BENCH_WRITERS concurrent appenders, group commit, shipper stopped;
// (3) shipper draining phase 2's backlog; (4) end to end: appenders and
// shipper together, clock stops when the last record is in PostgreSQL.
import { mkdtempSync, chmodSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import type { AuditRecordInput } from "../../services/gateway/audit/record.js";
import { startShipper } from "../../services/gateway/audit/shipper.js";
import { openSpool, type Spool } from "../../services/gateway/audit/spool.js";
import { startEmbeddedPostgres } from "../../cli/embedded-postgres.js";
import { freePort } from "../../cli/ports.js";

const N = Number(process.env.BENCH_RECORDS ?? 20_000);
const WRITERS = Number(process.env.BENCH_WRITERS ?? 50);

function record(i: number, tag: string): AuditRecordInput {
  return {
    request_id: `${tag}-${i >> 1}`,
    phase: i % 2 ? "outcome" : "intent",
    ts: new Date().toISOString(),
    host: "primary",
    caller: "bench",
    source: "http",
    command: `apt-get install -y package-${i % 97} && systemctl restart svc-${i % 13}`,
    cwd: "/srv/app",
    assigned_tier: 2,
    decision_type: i % 2 ? "executed" : "pending",
    matched_rule: "apt-get install *",
    evidence: { signers: ["classifier", "breaker", "sandbox"], trial: { ok: true, changed: ["/etc/app.conf"] } },
    policy_digest: "sha256:0f3c9a",
    ...(i % 2 ? { exit_code: 0, verify_passed: true, rollback_taken: false, duration_ms: 840 } : {}),
  };
}

async function appendAll(spool: Spool, tag: string, count: number, writers: number): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: writers }, async () => {
      while (next < count) await spool.append(record(next++, tag));
    }),
  );
}

const rate = (n: number, ms: number) => Math.round((n / ms) * 1000);

async function main(): Promise<void> {
  const root = mkdtempSync(join(tmpdir(), "agent-sudo-bench-"));
  chmodSync(root, 0o711);
  const embedded = process.env.DATABASE_URL
    ? undefined
    : await startEmbeddedPostgres({ dataDir: join(root, "pg"), port: await freePort() });
  const url = process.env.DATABASE_URL ?? embedded?.url ?? "";
  try {
    const spool = await openSpool({ dir: join(root, "spool") });
    const shipper = startShipper({ spool, databaseUrl: url });
    await shipper.drained(30_000);
    await shipper.stop(); // migrations applied; phases 1–3 run without it

    const lat: number[] = [];
    for (let i = 0; i < 500; i++) {
      const t = performance.now();
      await spool.append(record(i, "seq"));
      lat.push(performance.now() - t);
    }
    lat.sort((a, b) => a - b);
    const f0 = spool.stats().flushes;
    let t = performance.now();
    await appendAll(spool, "burst", N, WRITERS);
    const appendMs = performance.now() - t;
    const groups = spool.stats().flushes - f0;

    t = performance.now();
    const drainer = startShipper({ spool, databaseUrl: url });
    await drainer.drained(600_000);
    const drainMs = performance.now() - t;

    t = performance.now();
    await appendAll(spool, "e2e", N, WRITERS);
    await drainer.drained(600_000);
    const e2eMs = performance.now() - t;
    await drainer.stop();
    await spool.close();

    const result = {
      records: N,
      writers: WRITERS,
      single_writer_append_ms: { p50: +(lat[250] ?? 0).toFixed(2), p99: +(lat[495] ?? 0).toFixed(2) },
      spool_append_records_per_s: rate(N, appendMs),
      mean_group_commit_size: +(N / groups).toFixed(1),
      shipper_drain_records_per_s: rate(N + 500, drainMs),
      end_to_end_records_per_s: rate(N, e2eMs),
      database: embedded ? "embedded PostgreSQL 18 (fsync on)" : "DATABASE_URL",
    };
    console.log(JSON.stringify(result, null, 2));
  } finally {
    await embedded?.stop();
    rmSync(root, { recursive: true, force: true });
  }
}

await main();
