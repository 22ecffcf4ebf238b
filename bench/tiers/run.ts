// bench/tiers: what /exec costs end to end per tier, against the same
// command run bare with `bash -c`. Sequential requests on a real stack
// (host primary, the default), harmless commands in a scratch dir:
//   tier 0  echo hi                                  (read-only envelope)
//   tier 1  echo N > DIR/f                           (run in the mirror, diff committed)
//   tier 2  sed -i s/^n=.*/n=N/ DIR/cfg              (the same; before the envelopes:
//                                                     a trial in the mirror, then a run on the host)
// Goals (issue "Envelopes II"): tier 1 ≤ 25 ms over bare; tier 2 no slower
// than the trial + run it replaces (compare with the same bench on an older
// build: AGENT_SUDO_BENCH_LABEL names the build in the output).
// After each tier: the median of each stage the gateway timed (its log's
// "answered" lines; the audit's evidence.stages_ms) and those the executor
// timed (its "executed" / "committed" lines) — where the time goes.
// Run: npm run build && node dist/bench/tiers/run.js [N]
// (AGENT_SUDO_BENCH_CLIENT=http: a kept-alive node:http client instead of fetch, bench/stats.ts;
// AGENT_SUDO_BENCH_TIERS=0,1: only those tiers.)
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { startStack } from "../../test/support/stack.js";
import { bare, execClient, median, pct } from "../stats.js";

const N = Number(process.argv[2] ?? 200);
const label = process.env.AGENT_SUDO_BENCH_LABEL ?? "this build";

/** Median of each stage over the requests `ids`: a service's log lines with that message and `stages_ms`. */
function stages(home: string, ids: ReadonlySet<string>, service = "gateway", message = "answered"): string {
  const logs = join(home, "logs");
  const file = readdirSync(logs).find((f) => f.startsWith(service));
  const by = new Map<string, number[]>();
  for (const line of file ? readFileSync(join(logs, file), "utf8").split("\n") : []) {
    if (!line.includes(`"${message}"`)) continue;
    const r = JSON.parse(line) as { request_id?: string; stages_ms?: Record<string, number> };
    if (!r.request_id || !ids.has(r.request_id)) continue;
    for (const [k, v] of Object.entries(r.stages_ms ?? {})) by.set(k, [...(by.get(k) ?? []), v]);
  }
  return [...by.entries()].map(([k, v]) => `${k} ${median(v).toFixed(2)}`).join(", ");
}

const dir = mkdtempSync("/tmp/agent-sudo-bench-tiers-");
chmodSync(dir, 0o755);
writeFileSync(join(dir, "cfg"), "n=0\n");
const ONLY = process.env.AGENT_SUDO_BENCH_TIERS?.split(",").map(Number);
const ALL: Array<{ tier: number; cmd: (i: number) => string }> = [
  { tier: 0, cmd: () => "echo hi" },
  { tier: 1, cmd: (i) => `echo ${i} > ${dir}/f` },
  { tier: 2, cmd: (i) => `sed -i s/^n=.*/n=${i}/ ${dir}/cfg` },
];
const CASES = ALL.filter((c) => !ONLY || ONLY.includes(c.tier));

// A benchmark is a burst of one tier after another: the rate and command-mix trips would disarm it part-way.
const stack = await startStack({ env: { AGENT_SUDO_BREAKER_MAX_REQUESTS_PER_MIN: "100000", AGENT_SUDO_BREAKER_MIX_MAX_RISE: "1" } });
const client = execClient(stack);
try {
  console.log(`bench/tiers (${label}), N=${N} sequential requests per tier, client ${client.name}`);
  for (const c of CASES) {
    for (let i = 0; i < 10; i++) {
      const warm = await client.exec({ command: c.cmd(i) });
      if (warm.status !== 200 || warm.body.tier !== c.tier) throw new Error(`tier ${c.tier} warm-up: ${JSON.stringify(warm)}`);
    }
    const viaExec: number[] = [];
    const ids = new Set<string>();
    for (let i = 0; i < N; i++) {
      const t0 = performance.now();
      const res = await client.exec({ command: c.cmd(1000 + i) });
      if (res.status !== 200 || res.body.exit_code !== 0) throw new Error(`tier ${c.tier} request ${i}: ${JSON.stringify(res)}`);
      viaExec.push(performance.now() - t0);
      ids.add(String(res.body.request_id));
    }
    const direct: number[] = [];
    for (let i = 0; i < N; i++) direct.push(await bare(c.cmd(5000 + i)));
    const over = median(viaExec) - median(direct);
    console.log(
      `tier ${c.tier}: /exec median ${median(viaExec).toFixed(2)} ms p95 ${pct(viaExec, 95).toFixed(2)} ms; bare median ${median(direct).toFixed(2)} ms; overhead ${over.toFixed(2)} ms`,
    );
    console.log(`tier ${c.tier}: stages (median ms) ${stages(stack.home, ids)}`);
    const inExecutor = stages(stack.home, ids, "executor", c.tier === 0 ? "executed" : "committed");
    if (inExecutor) console.log(`tier ${c.tier}: executor's stages (median ms) ${inExecutor}`);
  }
} finally {
  await stack.stop();
  rmSync(dir, { recursive: true, force: true });
}
