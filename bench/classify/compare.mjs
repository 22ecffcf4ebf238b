// Two builds of the classifier, per command, in one process: the best of 9 runs of each corpus command
// under each build, in alternating passes (a quiet-machine estimate that this VM's drift between runs does not move).
// Run: node bench/classify/compare.mjs OLD_DIST NEW_DIST  (e.g. /tmp/before/dist dist)
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { corpusInputs } from "./corpus.mjs";

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const load = async (d) =>
  (await import(pathToFileURL(join(d, "services/classifier/engine/index.js")).href)).loadEngine(join(repo, "policies"));
const A = await load(process.argv[2]),
  B = await load(process.argv[3]);
const inputs = corpusInputs(repo);
for (let r = 0; r < 5; r++)
  for (const i of inputs) {
    A.classify(i);
    B.classify(i);
  }
const ma = inputs.map(() => 1e9),
  mb = inputs.map(() => 1e9);
// Whole passes, one build then the other (which goes first alternates): a command timed right after the other
// build judged the same command would find its files and code warm, and that build would look faster.
const pass = (engine, best) =>
  inputs.forEach((i, k) => {
    const s = performance.now();
    engine.classify(i);
    best[k] = Math.min(best[k], performance.now() - s);
  });
for (let r = 0; r < 9; r++) {
  if (r % 2 === 0) {
    pass(A, ma);
    pass(B, mb);
  } else {
    pass(B, mb);
    pass(A, ma);
  }
}
const q = (a, p) => (Float64Array.from(a).sort()[Math.floor(p * a.length)] * 1000).toFixed(1);
console.log("A p50", q(ma, 0.5), "p90", q(ma, 0.9), "p99", q(ma, 0.99), "| B p50", q(mb, 0.5), "p90", q(mb, 0.9), "p99", q(mb, 0.99));
const d = inputs.map((_i, k) => [mb[k] - ma[k], k]).sort((x, y) => y[0] - x[0]);
for (const [dd, k] of d.slice(0, 15))
  console.log(
    (dd * 1000).toFixed(0).padStart(6),
    (ma[k] * 1000).toFixed(0).padStart(5),
    (mb[k] * 1000).toFixed(0).padStart(5),
    JSON.stringify(inputs[k].command).slice(0, 100),
  );
const sa = ma.reduce((x, y) => x + y, 0),
  sb = mb.reduce((x, y) => x + y, 0);
console.log("sum A", sa.toFixed(0), "ms, B", sb.toFixed(0), "ms");
