// bench/exec-overhead: what the broker adds to a tier-0 command.
// 1,000 sequential `echo hi` requests through POST /exec on a real stack,
// against 1,000 bare `bash -c 'echo hi'` spawns. Goal: median difference ≤ 5 ms.
// Run: npm run build && node dist/bench/exec-overhead/run.js [N]
import { startStack } from "../../test/support/stack.js";
import { bare, median, pct } from "../stats.js";

const N = Number(process.argv[2] ?? 1000);

const stack = await startStack();
try {
  for (let i = 0; i < 20; i++) await stack.exec({ command: "echo hi" }); // warm up
  const viaExec: number[] = [];
  for (let i = 0; i < N; i++) {
    const t0 = performance.now();
    const res = await stack.exec({ command: "echo hi" });
    if (res.status !== 200 || res.body.output !== "hi\n") throw new Error(`request ${i} failed: ${JSON.stringify(res)}`);
    viaExec.push(performance.now() - t0);
  }
  const direct: number[] = [];
  for (let i = 0; i < N; i++) direct.push(await bare("echo hi"));
  const overhead = median(viaExec) - median(direct);
  console.log(`exec-overhead: ${N} sequential tier-0 requests`);
  console.log(`  /exec        median ${median(viaExec).toFixed(2)} ms  p99 ${pct(viaExec, 99).toFixed(2)} ms`);
  console.log(`  bare bash -c median ${median(direct).toFixed(2)} ms  p99 ${pct(direct, 99).toFixed(2)} ms`);
  console.log(`  overhead (median /exec − median bare) ${overhead.toFixed(2)} ms (goal ≤ 5 ms)`);
} finally {
  await stack.stop();
}
