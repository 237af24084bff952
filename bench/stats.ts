/** Percentiles of a sample, nearest-rank, in the sample's unit. */
export interface Percentiles {
  p50: number;
  p90: number;
  p99: number;
  mean: number;
}

export function percentiles(values: ArrayLike<number>): Percentiles {
  const sorted = Float64Array.from(values).sort();
  const n = sorted.length;
  if (n === 0) return { p50: NaN, p90: NaN, p99: NaN, mean: NaN };
  const at = (p: number): number => sorted[Math.min(n - 1, Math.max(0, Math.ceil(p * n) - 1))];
  let sum = 0;
  for (const v of sorted) sum += v;
  return { p50: at(0.5), p90: at(0.9), p99: at(0.99), mean: sum / n };
}

export function subtract(a: Percentiles | undefined, b: Percentiles | undefined): Percentiles | undefined {
  if (!a || !b) return undefined;
  return { p50: a.p50 - b.p50, p90: a.p90 - b.p90, p99: a.p99 - b.p99, mean: a.mean - b.mean };
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}
