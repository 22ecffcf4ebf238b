// Two builds of the classifier, per command, in one process: the best of 9 runs of each corpus command
// under each build, interleaved (a quiet-machine estimate that this VM's drift between runs does not move).
// Run: node bench/classify/compare.mjs OLD_DIST NEW_DIST  (e.g. /tmp/before/dist dist)
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const load = async (d) =>
  (await import(pathToFileURL(join(d, "services/classifier/engine/index.js")).href)).loadEngine(join(repo, "policies"));
const A = await load(process.argv[2]),
  B = await load(process.argv[3]);
const corpusDir = join(repo, "test", "corpus");
const cases = readdirSync(corpusDir)
  .filter((f) => f.endsWith(".jsonl"))
  .sort()
  .flatMap((f) =>
    readFileSync(join(corpusDir, f), "utf8")
      .split("\n")
      .filter((l) => l.trim())
      .map((l) => JSON.parse(l)),
  );
const inputs = cases.map((c) => ({
  command: c.command,
  cwd: c.cwd ?? "/home/dev/project",
  host: c.host ?? "primary",
  source: c.source ?? "claude",
}));
for (let r = 0; r < 5; r++)
  for (const i of inputs) {
    A.classify(i);
    B.classify(i);
  }
const ma = inputs.map(() => 1e9),
  mb = inputs.map(() => 1e9);
for (let r = 0; r < 9; r++)
  inputs.forEach((i, k) => {
    let s = performance.now();
    A.classify(i);
    ma[k] = Math.min(ma[k], performance.now() - s);
    s = performance.now();
    B.classify(i);
    mb[k] = Math.min(mb[k], performance.now() - s);
  });
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
