// bench/fuzz: the fuzz properties of test/fuzz, run much longer than in
// `npm test`: the /exec body parser, parseJson, readBody, the decision
// decoders and the executor's checkQuorum (random and structure-aware
// signed decisions against a model), and the hook's input (HookJudge with a
// stub classifier). Figures: cases run, failures (goal 0), cases per second,
// and what the inputs came to.
// Run: npx tsc -p tsconfig.json && node dist/bench/fuzz/run.js [scale] [seed]
//   scale multiplies the case counts (default 1 ≈ 200,000 cases); seed defaults to a fixed one.
import {
  type FuzzOptions,
  fuzzDecoders,
  fuzzExecBody,
  fuzzHook,
  fuzzParseJson,
  fuzzRandomDecisions,
  fuzzReadBody,
  fuzzSignedDecisions,
  type Seen,
} from "../../test/fuzz/properties.js";

const scale = Number(process.argv[2] ?? 1);
const seed = Number(process.argv[3] ?? 20_260_101);

const targets: Array<{ name: string; runs: number; run: (o: FuzzOptions) => Seen | Promise<Seen> }> = [
  { name: "exec body (parseExecBody vs model)", runs: 60_000, run: fuzzExecBody },
  { name: "parseJson (bytes, UTF-8)", runs: 30_000, run: fuzzParseJson },
  { name: "readBody (chunking, Content-Length)", runs: 10_000, run: fuzzReadBody },
  { name: "decoders (Decision/Attestation/ExecuteRequest)", runs: 40_000, run: fuzzDecoders },
  { name: "checkQuorum, random-byte attestations", runs: 20_000, run: fuzzRandomDecisions },
  { name: "checkQuorum, signed decisions vs model", runs: 20_000, run: fuzzSignedDecisions },
  { name: "hook input (HookJudge, stub classifier)", runs: 30_000, run: fuzzHook },
];

interface Row {
  name: string;
  cases: number;
  failures: number;
  ms: number;
  perS: number;
  seen: Seen;
  error?: string;
}
const rows: Row[] = [];
console.log(`bench/fuzz: seed ${seed}, scale ${scale}`);
for (const t of targets) {
  const numRuns = Math.max(1, Math.round(t.runs * scale));
  const t0 = performance.now();
  let seen: Seen = {};
  let error: string | undefined;
  try {
    seen = await t.run({ seed, numRuns });
  } catch (err) {
    error = (err as Error).message.split("\n").slice(0, 6).join(" | ");
  }
  const ms = performance.now() - t0;
  const row: Row = {
    name: t.name,
    cases: numRuns,
    failures: error ? 1 : 0,
    ms: Math.round(ms),
    perS: Math.round(numRuns / (ms / 1000)),
    seen,
    ...(error ? { error } : {}),
  };
  rows.push(row);
  const top = Object.entries(seen)
    .sort((a, b) => b[1] - a[1])
    .slice(0, 6)
    .map(([k, v]) => `${k} ${v}`)
    .join(", ");
  console.log(
    `  ${t.name.padEnd(46)} ${String(numRuns).padStart(7)} cases  ${row.failures ? "FAILED" : "0 failures"}  ${String(row.perS).padStart(6)}/s  [${top}]${error ? `\n    ${error}` : ""}`,
  );
}
const total = rows.reduce((n, r) => n + r.cases, 0);
const failures = rows.reduce((n, r) => n + r.failures, 0);
console.log(`  total ${total} cases, ${failures} failing properties (goal 0)`);
console.log(`RESULT ${JSON.stringify({ seed, scale, total, failures, rows })}`);
process.exitCode = failures ? 1 : 0;
