// What the benchmarks measure with: percentiles (the nearest-rank value at p
// (0–100) of the samples, sorted on a copy; median = pct(xs, 50)) and the
// baseline every overhead is taken against, a command run bare with `bash -c`.
import { spawn } from "node:child_process";

export function pct(xs: readonly number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? NaN;
}

export function median(xs: readonly number[]): number {
  return pct(xs, 50);
}

/** Milliseconds from spawning `bash -c command` to its exit (its output read and dropped); a failing command rejects. */
export function bare(command: string): Promise<number> {
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn("/bin/bash", ["-c", command], { stdio: ["ignore", "pipe", "pipe"] });
    child.stdout.resume();
    child.stderr.resume();
    child.once("error", reject);
    child.once("close", (code) => (code === 0 ? resolve(performance.now() - t0) : reject(new Error(`bare ${command}: exit ${code}`))));
  });
}
