// bench/chaos: the chaos matrix of test/chaos, longer. For each of the six
// services and PostgreSQL, on its own fresh stack (the recorder shell as the
// executor's shell — nothing is executed): kill -9 while idle (IDLE_KILLS
// times), then kill -9 under load (50 clients, REQUESTS requests mixing
// tiers 0–4), then reconcile every answer against the recorder's log, the
// executor's journal and the audit in PostgreSQL. Prints the figures and
// writes the times to healthy to bench/chaos-times.json.
// Run as root: npx tsc -p tsconfig.json && node dist/bench/chaos/run.js [requests=1000] [idle-kills=3] [targets,…]
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { ChaosRig, summarize, TARGETS, type Reconciliation, type Target } from "../../test/chaos/harness.js";
import { repoRoot } from "../../test/support/stack.js";

const REQUESTS = Number(process.argv[2] ?? 1000);
const IDLE_KILLS = Number(process.argv[3] ?? 3);
const only = process.argv[4] ? (process.argv[4].split(",") as Target[]) : TARGETS;
const CLIENTS = 50;

if (process.getuid?.() !== 0) {
  process.stderr.write("bench/chaos: run as root (tier-2 trials need the overlay driver)\n");
  process.exit(2);
}

interface TargetResult {
  target: Target;
  idle_ms: number[];
  load_ms: number;
  load_requests: number;
  in_flight_at_kill: number;
  by_status: Record<string, number>;
  executed: number;
  violations: Record<string, number>;
  examples: Record<string, string[]>;
  error?: string;
}

const results: TargetResult[] = [];
for (const target of only) {
  const r: TargetResult = {
    target,
    idle_ms: [],
    load_ms: NaN,
    load_requests: 0,
    in_flight_at_kill: 0,
    by_status: {},
    executed: 0,
    violations: {},
    examples: {},
  };
  let rig: ChaosRig | undefined;
  try {
    rig = await ChaosRig.start();
    for (let k = 0; k < IDLE_KILLS; k++) {
      const ms = await rig.idleKill(target);
      r.idle_ms.push(Math.round(ms));
      console.log(summarize(target, "idle", ms, []));
      const probes = await rig.probeEveryTier(`i${k}`);
      const got = probes.map((p) => `${p.kind}:${p.status}`).join(" ");
      if (got !== "0:200 1:200 2:200 3:200 4:403") console.log(`  after the idle kill, probes answered ${got}`);
      // Stay clear of the supervisor's start limit (5 restarts in 30 s).
      await new Promise((res) => setTimeout(res, 6000));
    }
    const run = await rig.loadKill(target, { clients: CLIENTS, requests: REQUESTS, prefix: "l" });
    r.load_ms = Math.round(run.healthyMs);
    r.load_requests = run.outcomes.length;
    r.in_flight_at_kill = run.inFlightAtKill;
    console.log(`${summarize(target, "load", run.healthyMs, run.outcomes)}; ${run.inFlightAtKill} in flight at the kill`);
    await rig.drained(180_000);
    const rec: Reconciliation = await rig.reconcile();
    r.by_status = rec.byStatus;
    r.executed = rec.recorded;
    const lists: Record<string, unknown[]> = {
      hangs: rec.hangs,
      unclear_answers: rec.unclear,
      executed_without_quorum: rec.withoutQuorum,
      tier4_executed: rec.tier4Recorded,
      executed_unasked: rec.strangers,
      ok_not_executed_once: rec.notRecordedOnce,
      executed_but_answered_non_200: rec.recordedNot200,
      executed_without_audit_intent: rec.executedWithoutIntent,
      audit_intent_without_outcome: rec.danglingIntents,
      audit_mismatch: rec.auditMismatch,
    };
    for (const [k, v] of Object.entries(lists)) {
      r.violations[k] = v.length;
      if (v.length) r.examples[k] = v.slice(0, 3).map((x) => (typeof x === "string" ? x : JSON.stringify(x)));
    }
    r.violations.connection_resets = rec.resets;
    r.violations.connections_refused = rec.refusedConnections;
    r.violations.executed_answer_lost = rec.recordedAfterReset.length;
    const bad = Object.entries(r.violations).filter(
      ([k, v]) => v > 0 && !["connection_resets", "connections_refused", "executed_answer_lost"].includes(k),
    );
    console.log(
      `  ${target}: ${rec.requests} requests, ${rec.answered200} answered 200, ${rec.recorded} executed; ${bad.length ? `VIOLATIONS ${bad.map(([k, v]) => `${k} ${v}`).join(", ")}` : "no violations"}`,
    );
  } catch (err) {
    r.error = (err as Error).message;
    console.log(`  ${target}: FAILED ${r.error}`);
  } finally {
    await rig?.stop().catch(() => undefined);
  }
  results.push(r);
}

const times = Object.fromEntries(
  results.map((r) => [
    r.target,
    {
      idle_ms: r.idle_ms,
      idle_median_ms: [...r.idle_ms].sort((a, b) => a - b)[Math.floor(r.idle_ms.length / 2)] ?? null,
      under_load_ms: Number.isNaN(r.load_ms) ? null : r.load_ms,
    },
  ]),
);
const out = {
  generated: new Date().toISOString(),
  requests_per_load_kill: REQUESTS,
  clients: CLIENTS,
  idle_kills: IDLE_KILLS,
  time_to_healthy: times,
  results,
};
const file = join(repoRoot, "bench", "chaos-times.json");
writeFileSync(file, `${JSON.stringify(out, null, 2)}\n`);
console.log(`wrote ${file}`);
console.log(`RESULT ${JSON.stringify(out)}`);
