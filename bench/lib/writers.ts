import { elapsedMs, type LatencySummary, summarize } from './stats';

/** Raw outcome of one or more measured runs; `combine` pools them. */
export interface WritersRun {
  samplesMs: number[];
  seconds: number;
}

export interface WritersResult {
  perSecond: number;
  latency: LatencySummary;
}

/**
 * `writers` loops call `operation` back to back until `durationMs` has passed (after an unmeasured
 * warm-up of `warmupMs`); every call's latency is kept. Bounded by time and by `maxOperations`.
 */
export async function runWriters(
  writers: number,
  { durationMs, warmupMs, maxOperations = 5_000_000 }: WritersOptions,
  operation: (writer: number) => Promise<void>,
): Promise<WritersRun> {
  const samplesMs: number[] = [];
  let measuredStart: bigint | undefined;
  const warmupEnd = Date.now() + warmupMs;
  const end = warmupEnd + durationMs;
  const loop = async (writer: number) => {
    while (Date.now() < end && samplesMs.length < maxOperations) {
      if (measuredStart === undefined && Date.now() >= warmupEnd)
        measuredStart = process.hrtime.bigint();
      const started = process.hrtime.bigint();
      await operation(writer);
      if (measuredStart !== undefined && started >= measuredStart)
        samplesMs.push(elapsedMs(started));
    }
  };
  await Promise.all(Array.from({ length: writers }, (_, writer) => loop(writer)));
  const seconds = measuredStart === undefined ? 0 : elapsedMs(measuredStart) / 1000;
  return { samplesMs, seconds };
}

/** Pools rounds of one kind: throughput over their summed time, latency over all samples. */
export function combine(runs: readonly WritersRun[]): WritersResult {
  const samples = runs.flatMap((run) => run.samplesMs);
  const seconds = runs.reduce((total, run) => total + run.seconds, 0);
  return { perSecond: seconds > 0 ? samples.length / seconds : 0, latency: summarize(samples) };
}

interface WritersOptions {
  durationMs: number;
  warmupMs: number;
  maxOperations?: number;
}
