import type { RecordedEvent } from '@issuer/events';
import type { Pool, PoolClient } from 'pg';
import type { Logger } from 'pino';
import type { Projection } from '../projection';
import { eventsAfter, handledEvents, lastPosition, NOTHING_APPLIED } from './batches';
import { advanceCheckpoint, inCheckpointTransaction } from './checkpoints';
import { describeError, recordFailure } from './failures';
import type { IgnoredProgress } from './ignoredProgress';
import { sleep } from './wakeSignal';

export const DEFAULT_RETRY_DELAYS_MS: readonly number[] = [50, 200, 800];

/** What one projection needs to apply batches; built once per projection. */
export interface BatchTarget {
  pool: Pool;
  projection: Projection;
  handles: ReadonlySet<string>;
  logger: Logger;
  /** Waits before each retry of an event that failed on its own; its length is the retry count. */
  retryDelaysMs: readonly number[];
  /** Cuts a retry pause short; the event is then left for the next start, not recorded. */
  abort?: AbortSignal;
  /** Where batches with nothing to apply go; without it their checkpoint is written at once. */
  ignoredProgress?: IgnoredProgress;
}

export interface BatchOutcome {
  /** The checkpoint stored at the end (possibly further on, if another instance moved it). */
  checkpoint: bigint;
  applied: number;
  failed: number;
}

interface Culprit {
  event: RecordedEvent;
  error: unknown;
}

interface Step extends BatchOutcome {
  culprit?: Culprit;
}

/** A projection's own `apply` threw: the transaction rolls back and the batch is isolated. */
class ApplyFailed extends Error {
  constructor(readonly reason: unknown) {
    super(describeError(reason));
  }
}

export class StopRequested extends Error {
  constructor() {
    super('Projector stopping: a failing event is left for the next start');
  }
}

/**
 * Applies a contiguous slice of the global order and moves the checkpoint to its end, rows and
 * checkpoint in one transaction. When the projection throws, the batch is rolled back and split
 * in halves, each in a savepoint, to find the event at fault; that event is retried with backoff and, if it
 * keeps failing, recorded in `projection_failures` and skipped. Retry pauses happen between
 * transactions: an open transaction holds back the event store's visibility horizon for everyone.
 */
export async function applyEvents(
  target: BatchTarget,
  events: readonly RecordedEvent[],
): Promise<BatchOutcome> {
  if (events.length === 0) throw new Error('applyEvents needs at least one event');
  const total: BatchOutcome = { checkpoint: NOTHING_APPLIED, applied: 0, failed: 0 };
  let rest = events;
  while (rest.length > 0) {
    const step = await applyUntilFailure(target, rest);
    add(total, step);
    if (step.culprit) add(total, await retryOrRecord(target, step.culprit));
    rest = eventsAfter(rest, total.checkpoint);
  }
  return total;
}

function add(total: BatchOutcome, step: BatchOutcome): void {
  total.checkpoint = step.checkpoint;
  total.applied += step.applied;
  total.failed += step.failed;
}

async function applyUntilFailure(
  target: BatchTarget,
  events: readonly RecordedEvent[],
): Promise<Step> {
  const end = lastPosition(events) ?? NOTHING_APPLIED;
  const handled = handledEvents(events, target.handles);
  if (handled.length === 0) return advanceWithoutApplying(target, end);
  try {
    return await applyInCheckpointTransaction(target, end, handled, applyAll);
  } catch (error) {
    if (!(error instanceof ApplyFailed)) throw error;
    target.logger.warn(
      { err: error.reason, events: handled.length, from: handled[0]?.position.toString() },
      'batch failed; isolating the event at fault',
    );
    return applyInCheckpointTransaction(target, end, handled, isolateFirstFailure);
  }
}

/** Nothing to apply: the checkpoint moves in memory (live runner) or with one statement. */
async function advanceWithoutApplying(target: BatchTarget, end: bigint): Promise<Step> {
  if (target.ignoredProgress) {
    target.ignoredProgress.passed(end);
    return { checkpoint: end, applied: 0, failed: 0 };
  }
  const checkpoint = await advanceCheckpoint(target.pool, target.projection.name, end);
  return { checkpoint, applied: 0, failed: 0 };
}

type Strategy = (
  client: PoolClient,
  projection: Projection,
  events: readonly RecordedEvent[],
) => Promise<{ applied: number; culprit?: Culprit }>;

async function applyInCheckpointTransaction(
  target: BatchTarget,
  end: bigint,
  handled: readonly RecordedEvent[],
  strategy: Strategy,
): Promise<Step> {
  const { result, checkpoint } = await inCheckpointTransaction<{
    applied: number;
    culprit?: Culprit;
  }>(target.pool, target.projection.name, async (client, locked) => {
    if (locked >= end) return { result: { applied: 0 } };
    const outcome = await strategy(client, target.projection, eventsAfter(handled, locked));
    // Everything before the culprit is kept; the culprit itself is retried after a pause.
    const advanceTo = outcome.culprit ? outcome.culprit.event.position - 1n : end;
    return { result: outcome, advanceTo };
  });
  return { checkpoint, applied: result.applied, failed: 0, culprit: result.culprit };
}

const applyAll: Strategy = async (client, projection, events) => {
  if (events.length === 0) return { applied: 0 };
  try {
    await projection.apply(events, client);
  } catch (error) {
    throw new ApplyFailed(error);
  }
  return { applied: events.length };
};

/**
 * Finds the first event that fails on its own by halving (a few savepoints even in a rebuild's
 * 20,000-event batch), keeping everything applied before it. Halves that succeed stay applied.
 */
const isolateFirstFailure: Strategy = async (client, projection, events) => {
  const [only] = events;
  if (events.length === 1 && only) {
    const error = await applyInSavepoint(client, projection, events);
    return error === undefined ? { applied: 1 } : { applied: 0, culprit: { event: only, error } };
  }
  if (events.length === 0) return { applied: 0 };
  const half = Math.ceil(events.length / 2);
  const front = events.slice(0, half);
  if ((await applyInSavepoint(client, projection, front)) !== undefined)
    return isolateFirstFailure(client, projection, front);
  const back = await isolateFirstFailure(client, projection, events.slice(half));
  return { ...back, applied: half + back.applied };
};

async function retryOrRecord(target: BatchTarget, culprit: Culprit): Promise<BatchOutcome> {
  let lastError = culprit.error;
  for (const delayMs of target.retryDelaysMs) {
    await sleep(delayMs, target.abort);
    if (target.abort?.aborted) throw new StopRequested();
    const retry = await retryOnce(target, culprit.event);
    if (retry.done) return retry.outcome;
    lastError = retry.error;
  }
  return recordAndSkip(target, culprit.event, lastError);
}

/** Either the outcome, or the error of yet another failed attempt. */
type Retry = { done: true; outcome: BatchOutcome } | { done: false; error: unknown };

async function retryOnce(target: BatchTarget, event: RecordedEvent): Promise<Retry> {
  const { result, checkpoint } = await inCheckpointTransaction<{
    applied: number;
    error?: unknown;
  }>(target.pool, target.projection.name, async (client, locked) => {
    if (locked >= event.position) return { result: { applied: 0 } };
    const error = await applyInSavepoint(client, target.projection, [event]);
    if (error !== undefined) return { result: { applied: 0, error } };
    return { result: { applied: 1 }, advanceTo: event.position };
  });
  if (result.error !== undefined) return { done: false, error: result.error };
  return { done: true, outcome: { checkpoint, applied: result.applied, failed: 0 } };
}

async function recordAndSkip(
  target: BatchTarget,
  event: RecordedEvent,
  error: unknown,
): Promise<BatchOutcome> {
  const name = target.projection.name;
  const attempts = target.retryDelaysMs.length + 1;
  const { result: recorded, checkpoint } = await inCheckpointTransaction(
    target.pool,
    name,
    async (client, locked) => {
      if (locked >= event.position) return { result: false };
      await recordFailure(client, name, event, error, attempts);
      return { result: true, advanceTo: event.position };
    },
  );
  if (recorded)
    target.logger.error(
      { err: error, position: event.position.toString(), eventId: event.id, type: event.type },
      `event failed ${attempts} times; recorded in projection_failures and skipped`,
    );
  return { checkpoint, applied: 0, failed: recorded ? 1 : 0 };
}

/** Returns the projection's error, or undefined on success; a broken connection still throws. */
async function applyInSavepoint(
  client: PoolClient,
  projection: Projection,
  events: readonly RecordedEvent[],
): Promise<unknown> {
  await client.query('SAVEPOINT projection_apply');
  try {
    await projection.apply(events, client);
  } catch (error) {
    await client.query('ROLLBACK TO SAVEPOINT projection_apply');
    return error ?? new Error('apply threw without a reason');
  }
  await client.query('RELEASE SAVEPOINT projection_apply');
  return undefined;
}
