// bench/soak: a long run under faults (issue 18's acceptance). One real stack
// (supervisor, six services, embedded PostgreSQL; the chaos rig's recorder
// shell as the executor's shell — nothing is executed), CLIENTS clients
// sending the chaos tier mix (0–4) for SECONDS, and every INTERVAL seconds
// one random service (or PostgreSQL) is SIGKILLed or SIGSTOPped (a stopped
// one gets SIGCONT after STOP seconds; PostgreSQL is stopped whole: the
// postmaster and its backends). Then it reports:
//   - every request answered: no hang, no unclear answer, and a lost
//     connection only while the gateway itself was down;
//   - every request id with intent and outcome in PostgreSQL, or an audited
//     refusal (no `audited: false`), and the chaos reconciliation (quorum
//     for every execution, no tier 4, answers matching what ran);
//   - the executor journal's chain intact (agent-sudo audit verify-journal);
//   - nothing left behind once the stack is stopped: no process of this
//     stack (by its AGENT_SUDO_HOME, its state dir or its recorder), no
//     command cgroup of any executor it ran.
// Exit status 1 when any of that fails. A RESULT line carries the figures
// (bench/run-all.mjs reads it); SOAK_OUT=FILE writes them as JSON too.
// Run as root: npx tsc -p tsconfig.json && node dist/bench/soak/run.js [seconds=600] [interval=20] [clients=50] [seed]
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ChaosRig, kindOf, TARGETS, type Outcome, type Target } from "../../test/chaos/harness.js";
import { childPids } from "../../test/support/processes.js";
import { cliMain } from "../../test/support/stack.js";

const SECONDS = Number(process.argv[2] ?? 600);
const INTERVAL_S = Number(process.argv[3] ?? 20);
const CLIENTS = Number(process.argv[4] ?? 50);
const SEED = Number(process.argv[5] ?? Math.floor(Math.random() * 2 ** 31));
const STOP_S = Math.min(8, INTERVAL_S / 2);

if (process.getuid?.() !== 0) {
  process.stderr.write("bench/soak: run as root (tier-2 trials need the overlay driver)\n");
  process.exit(2);
}

/** mulberry32: the fault schedule is reproducible from the seed. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const random = rng(SEED);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Fault {
  at_s: number;
  target: Target;
  signal: "SIGKILL" | "SIGSTOP";
  pids: number[];
  /** Until /health answered 200 again (after the SIGCONT, for a stop). */
  healthy_after_ms?: number;
  skipped?: string;
  /** Wall-clock window in which the gateway was down (lost connections are expected then). */
  window?: [number, number];
}

/** The postmaster and its children (backends, checkpointer …). */
function withChildren(pid: number): number[] {
  return [pid, ...childPids(pid)];
}

function signal(pids: number[], sig: NodeJS.Signals): void {
  for (const p of pids) {
    try {
      process.kill(p, sig);
    } catch {
      // gone meanwhile
    }
  }
}

const rig = await ChaosRig.start();
const home = rig.stack.home;
const rigDir = rig.dir;
const executorPids = new Set<number>();
const pidWatch = setInterval(() => {
  const p = rig.pidOf("executor");
  if (p) executorPids.add(p);
}, 250);
const faults: Fault[] = [];
const stopped = new Set<number>();
const recoveries: Promise<void>[] = [];
const t0 = Date.now();
const end = t0 + SECONDS * 1000;
console.log(
  `soak: ${SECONDS} s, a fault every ${INTERVAL_S} s (stops last ${STOP_S} s), ${CLIENTS} clients, seed ${SEED}, state dir ${home}`,
);

async function healthyAfter(from: number): Promise<number | undefined> {
  while (Date.now() - from < 120_000) {
    const h = await rig.stack.health().catch(() => ({ status: 0 }));
    if (h.status === 200) return Date.now() - from;
    await sleep(100);
  }
  return undefined;
}

function inject(): void {
  const target = TARGETS[Math.floor(random() * TARGETS.length)] ?? "executor";
  const sig = random() < 0.5 ? "SIGKILL" : "SIGSTOP";
  const at = Date.now();
  const fault: Fault = { at_s: Math.round((at - t0) / 100) / 10, target, signal: sig, pids: [] };
  faults.push(fault);
  const pid = rig.pidOf(target);
  if (!pid) {
    fault.skipped = `${target} was not running`;
    console.log(`  ${fault.at_s}s ${sig} ${target}: skipped, not running`);
    return;
  }
  fault.pids = sig === "SIGSTOP" && target === "postgres" ? withChildren(pid) : [pid];
  signal(fault.pids, sig);
  const recovered = (async () => {
    let from = at;
    if (sig === "SIGSTOP") {
      for (const p of fault.pids) stopped.add(p);
      await sleep(STOP_S * 1000);
      signal(fault.pids, "SIGCONT");
      for (const p of fault.pids) stopped.delete(p);
      from = Date.now();
    }
    const ms = await healthyAfter(from);
    if (ms !== undefined) fault.healthy_after_ms = ms + (from - at);
    if (target === "gateway") fault.window = [at, Date.now()];
    console.log(`  ${fault.at_s}s ${sig} ${target} (pid ${fault.pids.join(",")}): healthy after ${fault.healthy_after_ms ?? "NEVER"} ms`);
  })();
  recoveries.push(recovered);
}

const faultLoop = (async () => {
  for (let k = 1; t0 + k * INTERVAL_S * 1000 < end; k++) {
    await sleep(Math.max(0, t0 + k * INTERVAL_S * 1000 - Date.now()));
    inject();
  }
})();

let next = 0;
const mine: Outcome[] = [];
const worker = async () => {
  while (Date.now() < end) {
    const o = await rig.send(kindOf(next++), "soak");
    mine.push(o);
    if (o.status === 429) await sleep(100);
    else if (o.status !== 200 && o.status !== 403) await sleep(250);
  }
};
await Promise.all([...Array.from({ length: CLIENTS }, worker), faultLoop]);
await Promise.all(recoveries);
signal([...stopped], "SIGCONT");
clearInterval(pidWatch);
console.log(`soak: load over after ${Math.round((Date.now() - t0) / 1000)} s, ${mine.length} requests; waiting for the audit to drain`);

await rig.stack.waitHealthy(120_000);
await rig.drained(300_000);
const rec = await rig.reconcile();
const verify = spawnSync(process.execPath, [cliMain, "audit", "verify-journal"], { env: rig.stack.cliEnv, encoding: "utf8" });

// A lost connection (reset, refused, hang) is expected only while the gateway was down.
const gatewayDown = faults.filter((f) => f.target === "gateway" && f.window).map((f) => f.window as [number, number]);
const lost = mine.filter((o) => typeof o.status !== "number");
const lostUnexplained = lost.filter((o) => {
  const at = o.at ?? 0;
  return !gatewayDown.some(([a, b]) => at >= a - 1000 && at - o.ms <= b + 1000);
});
const unaudited = rig.outcomes.filter((o) => o.unaudited);

await rig.stop();

// Nothing left behind: processes of this stack, command cgroups of its executors.
function leftoverProcesses(): string[] {
  const out: string[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    try {
      const environ = readFileSync(`/proc/${name}/environ`, "utf8").split("\0");
      const cmdline = readFileSync(`/proc/${name}/cmdline`, "utf8").split("\0").join(" ");
      if (environ.includes(`AGENT_SUDO_HOME=${home}`) || cmdline.includes(home) || cmdline.includes(rigDir))
        out.push(`${name}: ${cmdline.slice(0, 120)}`);
    } catch {
      // gone, or a kernel thread
    }
  }
  return out;
}
function leftoverCgroups(): string[] {
  const mount = readFileSync("/proc/self/mountinfo", "utf8")
    .split("\n")
    .find((l) => l.split(" - ")[1]?.startsWith("cgroup2 "))
    ?.split(" ")[4];
  const own =
    readFileSync("/proc/self/cgroup", "utf8")
      .split("\n")
      .find((l) => l.startsWith("0::"))
      ?.slice(3) ?? "/";
  if (!mount) return [];
  const dir = join(mount, own);
  return [...executorPids].map((p) => join(dir, `agent-sudo-commands-${p}`)).filter((d) => existsSync(d));
}
let procs = leftoverProcesses();
let cgroups = leftoverCgroups();
for (let i = 0; i < 30 && procs.length + cgroups.length > 0; i++) {
  await sleep(500);
  procs = leftoverProcesses();
  cgroups = leftoverCgroups();
}

const byStatus: Record<string, number> = {};
for (const o of mine) byStatus[String(o.status)] = (byStatus[String(o.status)] ?? 0) + 1;
const violations: Record<string, number> = {
  hangs: rec.hangs.length,
  unclear_answers: rec.unclear.length,
  lost_connections_outside_gateway_faults: lostUnexplained.length,
  refusals_not_audited: unaudited.length,
  audit_mismatch: rec.auditMismatch.length,
  audit_intent_without_outcome: rec.danglingIntents.length,
  executed_without_audit_intent: rec.executedWithoutIntent.length,
  executed_without_quorum: rec.withoutQuorum.length,
  tier4_executed: rec.tier4Recorded.length,
  executed_unasked: rec.strangers.length,
  ok_not_executed_once: rec.notRecordedOnce.length,
  executed_but_answered_non_200: rec.recordedNot200.length,
  journal_chain_broken: verify.status === 0 ? 0 : 1,
  faults_not_recovered: faults.filter((f) => !f.skipped && f.healthy_after_ms === undefined).length,
  processes_left_behind: procs.length,
  cgroups_left_behind: cgroups.length,
};
const examples: Record<string, unknown[]> = {
  unclear_answers: rec.unclear.slice(0, 3),
  lost_connections_outside_gateway_faults: lostUnexplained.slice(0, 3).map((o) => `${o.status} ${o.detail ?? ""} ${o.command}`),
  audit_mismatch: rec.auditMismatch.slice(0, 3),
  audit_intent_without_outcome: rec.danglingIntents.slice(0, 3),
  executed_without_quorum: rec.withoutQuorum.slice(0, 3),
  journal_chain_broken: verify.status === 0 ? [] : [`${verify.stdout}${verify.stderr}`.trim().slice(0, 300)],
  processes_left_behind: procs.slice(0, 5),
  cgroups_left_behind: cgroups.slice(0, 5),
};
const bad = Object.entries(violations).filter(([, v]) => v > 0);
const healthy = faults
  .filter((f) => f.healthy_after_ms !== undefined)
  .map((f) => f.healthy_after_ms as number)
  .sort((a, b) => a - b);
const result = {
  generated: new Date().toISOString(),
  seconds: SECONDS,
  interval_s: INTERVAL_S,
  stop_s: STOP_S,
  clients: CLIENTS,
  seed: SEED,
  requests: mine.length,
  by_status: byStatus,
  executed: rec.recorded,
  lost_connections_during_gateway_faults: lost.length - lostUnexplained.length,
  faults: faults.map(({ window: _w, ...f }) => f),
  healthy_after_ms: { median: healthy[Math.floor(healthy.length / 2)] ?? null, max: healthy.at(-1) ?? null },
  journal: `${verify.stdout}`.trim().split("\n").at(-1) ?? "",
  violations,
  examples: Object.fromEntries(Object.entries(examples).filter(([, v]) => v.length > 0)),
};
console.log(
  `soak: ${mine.length} requests (${Object.entries(byStatus)
    .map(([k, v]) => `${k}×${v}`)
    .join(
      " ",
    )}), ${rec.recorded} executed, ${faults.length} faults (${faults.map((f) => `${f.signal === "SIGKILL" ? "kill" : "stop"} ${f.target}`).join(", ")}); journal: ${result.journal}`,
);
console.log(bad.length ? `soak: VIOLATIONS ${bad.map(([k, v]) => `${k} ${v}`).join(", ")}` : "soak: no violations");
if (process.env.SOAK_OUT) writeFileSync(process.env.SOAK_OUT, `${JSON.stringify(result, null, 2)}\n`);
console.log(`RESULT ${JSON.stringify(result)}`);
process.exit(bad.length ? 1 : 0);
