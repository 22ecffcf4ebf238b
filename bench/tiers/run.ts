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
// Run: npm run build && node dist/bench/tiers/run.js [N]
import { spawn } from "node:child_process";
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { startStack } from "../../test/support/stack.js";
import { median, pct } from "../stats.js";

const N = Number(process.argv[2] ?? 200);
const label = process.env.AGENT_SUDO_BENCH_LABEL ?? "this build";

function bare(command: string): Promise<number> {
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn("/bin/bash", ["-c", command], { stdio: ["ignore", "pipe", "pipe"] });
    child.stdout.resume();
    child.stderr.resume();
    child.once("error", reject);
    child.once("close", (code) => (code === 0 ? resolve(performance.now() - t0) : reject(new Error(`bare ${command}: exit ${code}`))));
  });
}

const dir = mkdtempSync("/tmp/agent-sudo-bench-tiers-");
chmodSync(dir, 0o755);
writeFileSync(join(dir, "cfg"), "n=0\n");
const CASES: Array<{ tier: number; cmd: (i: number) => string }> = [
  { tier: 0, cmd: () => "echo hi" },
  { tier: 1, cmd: (i) => `echo ${i} > ${dir}/f` },
  { tier: 2, cmd: (i) => `sed -i s/^n=.*/n=${i}/ ${dir}/cfg` },
];

const stack = await startStack({ env: { AGENT_SUDO_BREAKER_MAX_REQUESTS_PER_MIN: "100000" } });
try {
  console.log(`bench/tiers (${label}), N=${N} sequential requests per tier`);
  for (const c of CASES) {
    for (let i = 0; i < 10; i++) {
      const warm = await stack.exec({ command: c.cmd(i) });
      if (warm.status !== 200 || warm.body.tier !== c.tier) throw new Error(`tier ${c.tier} warm-up: ${JSON.stringify(warm)}`);
    }
    const viaExec: number[] = [];
    for (let i = 0; i < N; i++) {
      const t0 = performance.now();
      const res = await stack.exec({ command: c.cmd(1000 + i) });
      if (res.status !== 200 || res.body.exit_code !== 0) throw new Error(`tier ${c.tier} request ${i}: ${JSON.stringify(res)}`);
      viaExec.push(performance.now() - t0);
    }
    const direct: number[] = [];
    for (let i = 0; i < N; i++) direct.push(await bare(c.cmd(5000 + i)));
    const over = median(viaExec) - median(direct);
    console.log(
      `tier ${c.tier}: /exec median ${median(viaExec).toFixed(2)} ms p95 ${pct(viaExec, 95).toFixed(2)} ms; bare median ${median(direct).toFixed(2)} ms; overhead ${over.toFixed(2)} ms`,
    );
  }
} finally {
  await stack.stop();
  rmSync(dir, { recursive: true, force: true });
}
