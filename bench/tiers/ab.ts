// bench/tiers/ab: this build against another one, on one machine at one
// time — a stack of each, requests alternating A, B, bare for every tier, so
// whatever else the machine does weighs on both alike — except work a build
// does after answering (the envelope server's spare fork): that lands in the
// other build's next request and flatters the build that defers it; compare
// such changes with whole `run.js` runs interleaved in time. The other build is a
// checkout with its own dist/ (`git worktree add /tmp/before REV`, link
// node_modules, `npx tsc -p tsconfig.json` there).
// Run: npm run build && node dist/bench/tiers/ab.js /tmp/before [N]
// (AGENT_SUDO_BENCH_CLIENT=http: a kept-alive node:http client for both, bench/stats.ts.)
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { startStack, type Stack } from "../../test/support/stack.js";
import { bare, execClient, median, pct } from "../stats.js";

const other = resolve(process.argv[2] ?? "/tmp/before");
const N = Number(process.argv[3] ?? 100);

const clients = new Map<Stack, ReturnType<typeof execClient>>();
async function timed(stack: Stack, command: string, tier: number): Promise<number> {
  const client = clients.get(stack) ?? execClient(stack);
  clients.set(stack, client);
  const t0 = performance.now();
  const res = await client.exec({ command });
  if (res.status !== 200 || res.body.exit_code !== 0 || res.body.tier !== tier) throw new Error(`tier ${tier}: ${JSON.stringify(res)}`);
  return performance.now() - t0;
}

const dir = mkdtempSync("/tmp/agent-sudo-bench-ab-");
chmodSync(dir, 0o755);
writeFileSync(join(dir, "cfg"), "n=0\n");
const CASES: Array<{ tier: number; cmd: (i: number, who: string) => string }> = [
  { tier: 0, cmd: () => "echo hi" },
  { tier: 1, cmd: (i, who) => `echo ${i} > ${dir}/f-${who}` },
  { tier: 2, cmd: (i, who) => `sed -i s/^n=.*/n=${i}/ ${dir}/cfg-${who}` },
];
for (const who of ["a", "b", "bare"]) writeFileSync(join(dir, `cfg-${who}`), "n=0\n");

const { startStack: startOther } = (await import(join(other, "dist", "test", "support", "stack.js"))) as { startStack: typeof startStack };
const env = { AGENT_SUDO_BREAKER_MAX_REQUESTS_PER_MIN: "100000", AGENT_SUDO_BREAKER_MIX_MAX_RISE: "1" };
const a = await startStack({ env });
const b = await startOther({ env });
try {
  console.log(`bench/tiers/ab: A = this build, B = ${other}; N=${N} alternating requests per tier`);
  for (const c of CASES) {
    for (let i = 0; i < 5; i++) {
      await timed(a, c.cmd(i, "a"), c.tier);
      await timed(b, c.cmd(i, "b"), c.tier);
    }
    const ta: number[] = [];
    const tb: number[] = [];
    const t0: number[] = [];
    for (let i = 0; i < N; i++) {
      ta.push(await timed(a, c.cmd(100 + i, "a"), c.tier));
      tb.push(await timed(b, c.cmd(100 + i, "b"), c.tier));
      t0.push(await bare(c.cmd(100 + i, "bare")));
    }
    const m = (xs: number[]) => `median ${median(xs).toFixed(2)} p95 ${pct(xs, 95).toFixed(2)}`;
    console.log(
      `tier ${c.tier}: A ${m(ta)} (over bare ${(median(ta) - median(t0)).toFixed(2)}); B ${m(tb)} (over bare ${(median(tb) - median(t0)).toFixed(2)}); bare ${m(t0)} ms`,
    );
  }
} finally {
  await a.stop();
  await b.stop();
  rmSync(dir, { recursive: true, force: true });
}
