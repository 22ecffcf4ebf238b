// Where /exec spends its time per tier: N sequential requests per tier (the
// same commands as bench/tiers), then the median of each stage the gateway
// records (its log's "answered" lines, evidence.stages_ms in the audit).
// Run: npm run build && node dist/bench/tiers/stages.js [N]
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { startStack } from "../../test/support/stack.js";
import { median } from "../stats.js";

const N = Number(process.argv[2] ?? 50);
const dir = mkdtempSync("/tmp/agent-sudo-bench-stages-");
chmodSync(dir, 0o755);
writeFileSync(join(dir, "cfg"), "n=0\n");
const CASES: Array<{ tier: number; cmd: (i: number) => string }> = [
  { tier: 0, cmd: () => "echo hi" },
  { tier: 1, cmd: (i) => `echo ${i} > ${dir}/f` },
  { tier: 2, cmd: (i) => `sed -i s/^n=.*/n=${i}/ ${dir}/cfg` },
];

function gatewayLines(home: string): Array<Record<string, unknown>> {
  const logs = join(home, "logs");
  const file = readdirSync(logs).find((f) => f.startsWith("gateway"));
  if (!file) return [];
  return readFileSync(join(logs, file), "utf8")
    .split("\n")
    .filter((l) => l.includes('"answered"'))
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

const stack = await startStack({ env: { AGENT_SUDO_BREAKER_MAX_REQUESTS_PER_MIN: "100000" } });
try {
  for (const c of CASES) {
    for (let i = 0; i < 5; i++) await stack.exec({ command: c.cmd(i) });
    const ids = new Set<string>();
    const total: number[] = [];
    for (let i = 0; i < N; i++) {
      const t0 = performance.now();
      const res = await stack.exec({ command: c.cmd(100 + i) });
      total.push(performance.now() - t0);
      if (res.status !== 200 || res.body.tier !== c.tier) throw new Error(`tier ${c.tier}: ${JSON.stringify(res)}`);
      ids.add(String(res.body.request_id));
    }
    await new Promise((r) => setTimeout(r, 300));
    const rows = gatewayLines(stack.home).filter((l) => ids.has(String(l.request_id)));
    const stages = new Map<string, number[]>();
    for (const r of rows) for (const [k, v] of Object.entries(r.stages_ms as Record<string, number>)) stages.set(k, [...(stages.get(k) ?? []), v]);
    const parts = [...stages.entries()].map(([k, v]) => `${k} ${median(v).toFixed(2)}`).join(", ");
    console.log(`tier ${c.tier}: client median ${median(total).toFixed(2)} ms (${rows.length} logged); stages (median ms): ${parts}`);
  }
} finally {
  await stack.stop();
  rmSync(dir, { recursive: true, force: true });
}
