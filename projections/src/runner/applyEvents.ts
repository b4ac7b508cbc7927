import type { RecordedEvent } from '@issuer/events';
import type { Pool, PoolClient } from 'pg';
import type { Logger } from 'pino';
import type { Projection } from '../projection';
import { eventsAfter, handledEvents, lastPosition } from './batches';
import { advanceCheckpoint, lockCheckpoint } from './checkpoints';
import { describeError, recordFailure } from './failures';
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
  /** pg_notify the new checkpoint in its transaction (for out-of-process waiters). */
  notify: boolean;
  /** Stops retry backoff; the open transaction is rolled back rather than recording a failure. */
  abort?: AbortSignal;
}

export interface BatchOutcome {
  /** The checkpoint stored after the batch (possibly further on, if another instance moved it). */
  checkpoint: bigint;
  applied: number;
  failed: number;
}

type ApplyStrategy = (
  client: PoolClient,
  target: BatchTarget,
  events: readonly RecordedEvent[],
) => Promise<Omit<BatchOutcome, 'checkpoint'>>;

/** A projection's own `apply` threw; the transaction is intact after a rollback. */
class ApplyFailed extends Error {
  constructor(readonly reason: unknown) {
    super(describeError(reason));
  }
}

class StopRequested extends Error {
  constructor() {
    super('Projector stopping: batch rolled back');
  }
}

/**
 * Applies a contiguous slice of the global order and moves the checkpoint to its end, all in one
 * transaction. When the projection throws, the batch is rolled back and re-applied with each
 * event isolated, so one bad event is retried, recorded and skipped without losing the others.
 */
export async function applyBatch(
  target: BatchTarget,
  events: readonly RecordedEvent[],
): Promise<BatchOutcome> {
  const end = lastPosition(events);
  if (end === undefined) throw new Error('applyBatch needs at least one event');
  const handled = handledEvents(events, target.handles);
  if (handled.length === 0) return advanceWithoutApplying(target, end);
  try {
    return await inCheckpointTransaction(target, end, handled, applyAll);
  } catch (error) {
    if (!(error instanceof ApplyFailed)) throw error;
    target.logger.warn(
      { err: error.reason, events: handled.length, from: handled[0]?.position.toString() },
      'batch failed; re-applying its events one at a time',
    );
    return inCheckpointTransaction(target, end, handled, applyIsolatingFailures);
  }
}

/** Nothing to apply: one statement moves the checkpoint, no transaction round trips. */
async function advanceWithoutApplying(target: BatchTarget, end: bigint): Promise<BatchOutcome> {
  const checkpoint = await advanceCheckpoint(
    target.pool,
    target.projection.name,
    end,
    target.notify,
  );
  return { checkpoint, applied: 0, failed: 0 };
}

async function inCheckpointTransaction(
  target: BatchTarget,
  end: bigint,
  handled: readonly RecordedEvent[],
  strategy: ApplyStrategy,
): Promise<BatchOutcome> {
  const client = await target.pool.connect();
  let failure: unknown;
  try {
    await client.query('BEGIN');
    const locked = await lockCheckpoint(client, target.projection.name);
    if (locked >= end) {
      await client.query('ROLLBACK');
      return { checkpoint: locked, applied: 0, failed: 0 };
    }
    const counts = await strategy(client, target, eventsAfter(handled, locked));
    const checkpoint = await advanceCheckpoint(client, target.projection.name, end, target.notify);
    await client.query('COMMIT');
    return { checkpoint, ...counts };
  } catch (error) {
    failure = error;
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    // Only a clean projection error leaves the connection fit for reuse.
    client.release(failure !== undefined && !(failure instanceof ApplyFailed));
  }
}

const applyAll: ApplyStrategy = async (client, target, events) => {
  if (events.length === 0) return { applied: 0, failed: 0 };
  try {
    await target.projection.apply(events, client);
  } catch (error) {
    throw new ApplyFailed(error);
  }
  return { applied: events.length, failed: 0 };
};

/**
 * Tries the rest of the batch at once; when that fails, walks it one event at a time up to the
 * first event that fails alone, retries that one with backoff, records it if it keeps failing,
 * and goes on with the remainder as a batch again.
 */
const applyIsolatingFailures: ApplyStrategy = async (client, target, events) => {
  let rest = events;
  let applied = 0;
  let failed = 0;
  let restIsKnownToFail = true;
  while (rest.length > 0) {
    if (
      !restIsKnownToFail &&
      (await applyInSavepoint(client, target.projection, rest)) === undefined
    )
      return { applied: applied + rest.length, failed };
    const culprit = await applyOneAtATimeUntilFailure(client, target.projection, rest);
    applied += culprit.appliedBefore;
    if (culprit.event === undefined) return { applied, failed };
    if (await retryOrRecord(client, target, culprit.event, culprit.error)) applied += 1;
    else failed += 1;
    rest = rest.slice(culprit.appliedBefore + 1);
    restIsKnownToFail = false;
  }
  return { applied, failed };
};

interface Culprit {
  appliedBefore: number;
  event?: RecordedEvent;
  error?: unknown;
}

async function applyOneAtATimeUntilFailure(
  client: PoolClient,
  projection: Projection,
  events: readonly RecordedEvent[],
): Promise<Culprit> {
  for (const [index, event] of events.entries()) {
    const error = await applyInSavepoint(client, projection, [event]);
    if (error !== undefined) return { appliedBefore: index, event, error };
  }
  return { appliedBefore: events.length };
}

/** Returns true when a retry succeeded, false when the event was recorded as failed. */
async function retryOrRecord(
  client: PoolClient,
  target: BatchTarget,
  event: RecordedEvent,
  firstError: unknown,
): Promise<boolean> {
  let lastError = firstError;
  for (const delayMs of target.retryDelaysMs) {
    await sleep(delayMs, target.abort);
    if (target.abort?.aborted) throw new StopRequested();
    const error = await applyInSavepoint(client, target.projection, [event]);
    if (error === undefined) return true;
    lastError = error;
  }
  const attempts = target.retryDelaysMs.length + 1;
  await recordFailure(client, target.projection.name, event, lastError, attempts);
  target.logger.error(
    { err: lastError, position: event.position.toString(), eventId: event.id, type: event.type },
    `event failed ${attempts} times; recorded in projection_failures and skipped`,
  );
  return false;
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
    return error ?? new Error('apply threw undefined');
  }
  await client.query('RELEASE SAVEPOINT projection_apply');
  return undefined;
}
