// Classifier benchmark, in process: throughput and p50/p99 latency per
// command over a fixed mix drawn from the labelled corpus.
// Run after a build:  npx tsc -p tsconfig.json && node bench/classify/run.mjs
// (AGENT_SUDO_DIST=/other/build points at another build output.)
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { corpusInputs } from "./corpus.mjs";

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const dist = process.env.AGENT_SUDO_DIST ?? join(repo, "dist");
const { loadEngine } = await import(pathToFileURL(join(dist, "services/classifier/engine/index.js")).href);

const ROUNDS = Number(process.env.ROUNDS ?? 20);
const inputs = corpusInputs(repo);

const t0 = performance.now();
const engine = await loadEngine(join(repo, "policies"));
const loadMs = performance.now() - t0;

// Warm-up: V8 compiles each rule's regex to native code only after it has run a
// few times; a long-running service pays that once, so it is kept out of the figures.
const WARMUP = Number(process.env.WARMUP ?? 10);
for (let r = 0; r < WARMUP; r++) for (const i of inputs) engine.classify(i);

const samples = new Float64Array(inputs.length * ROUNDS);
let k = 0;
const start = performance.now();
for (let r = 0; r < ROUNDS; r++) {
  for (const i of inputs) {
    const s = performance.now();
    engine.classify(i);
    samples[k++] = performance.now() - s;
  }
}
const total = performance.now() - start;
samples.sort();
const q = (p) => samples[Math.min(samples.length - 1, Math.floor(p * samples.length))];
const fmt = (ms) => `${(ms * 1000).toFixed(1)} µs`;
console.log(`engine load        ${loadMs.toFixed(1)} ms`);
console.log(`commands           ${inputs.length} distinct × ${ROUNDS} rounds = ${samples.length}`);
console.log(`throughput         ${Math.round(samples.length / (total / 1000))} commands/s`);
console.log(`p50 per command    ${fmt(q(0.5))}`);
console.log(`p90 per command    ${fmt(q(0.9))}`);
console.log(`p99 per command    ${fmt(q(0.99))}`);
console.log(`max per command    ${fmt(samples[samples.length - 1])}`);
console.log(`goal p99 ≤ 300 µs: ${q(0.99) <= 0.3 ? "met" : "NOT met"}`);
