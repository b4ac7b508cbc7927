/** Latency samples in milliseconds, summarised once a run is over. */
export interface LatencySummary {
  count: number;
  p50: number;
  p99: number;
  max: number;
  mean: number;
}

/** Nearest-rank percentile of an ascending array (`q` in 0..100). */
export function percentile(sortedAscending: readonly number[], q: number): number {
  if (sortedAscending.length === 0) return Number.NaN;
  const rank = Math.ceil((q / 100) * sortedAscending.length);
  const index = Math.min(sortedAscending.length - 1, Math.max(0, rank - 1));
  return sortedAscending[index] ?? Number.NaN;
}

export function summarize(samplesMs: readonly number[]): LatencySummary {
  const sorted = Float64Array.from(samplesMs).sort();
  const values = Array.from(sorted);
  let total = 0;
  for (const value of values) total += value;
  return {
    count: values.length,
    p50: percentile(values, 50),
    p99: percentile(values, 99),
    max: values.at(-1) ?? Number.NaN,
    mean: values.length === 0 ? Number.NaN : total / values.length,
  };
}

/** Milliseconds elapsed since `start` (from `process.hrtime.bigint()`). */
export function elapsedMs(start: bigint): number {
  return Number(process.hrtime.bigint() - start) / 1e6;
}
