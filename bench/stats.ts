// Percentiles for the benchmarks: the nearest-rank value at p (0–100) of
// the samples, sorted on a copy. median = pct(xs, 50).
export function pct(xs: readonly number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? NaN;
}

export function median(xs: readonly number[]): number {
  return pct(xs, 50);
}
