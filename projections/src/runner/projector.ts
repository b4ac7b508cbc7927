import { applyEvents, type BatchTarget } from './applyEvents';
import { lastPosition, readAfter } from './batches';
import { readCheckpoints } from './checkpoints';
import type { ReadAhead } from './reader';
import { ensureCheckpointRows } from './schema';
import { sleep, UnreadableBackoff, type WakeSignal } from './wakeSignal';

export interface ProjectorLoopOptions {
  target: BatchTarget & { abort: AbortSignal };
  readAhead: ReadAhead;
  wake: WakeSignal;
  /** Re-poll this often even without a wake (a safety net should a wake be missed). */
  idlePollMs: number;
  /** Pause after an error outside the projection (database or store unreachable). */
  errorBackoffMs: number;
  onCheckpoint(name: string, position: bigint): void;
}

/**
 * One projection's loop: read after the checkpoint, apply, repeat while there is a backlog, sleep
 * until woken when caught up. Never rejects: every error is logged and retried after a pause.
 */
export async function runProjector(options: ProjectorLoopOptions): Promise<void> {
  const { target, wake } = options;
  let checkpoint: bigint | undefined;
  const unreadable = new UnreadableBackoff(wake);
  while (!target.abort.aborted) {
    const seenGeneration = wake.generation;
    try {
      checkpoint ??= await loadCheckpoint(options);
      const step = await applyNextBatch(options, checkpoint);
      checkpoint = step.checkpoint;
      await target.ignoredProgress?.writeIfDue();
      if (step.backlog || (await unreadable.heldBack(checkpoint, target.abort))) continue;
      await sleepUntilWorthReading(options, seenGeneration, checkpoint);
    } catch (error) {
      if (target.abort.aborted) break;
      checkpoint = undefined;
      target.logger.error({ err: error }, 'projector step failed; retrying after a pause');
      await sleep(options.errorBackoffMs, target.abort);
    }
  }
  await target.ignoredProgress?.write();
}

/**
 * Sleeps until a wake brings news this loop has not applied, or the idle poll is due. Wakes about
 * events already applied (the store subscription often reports an event the loop applied on a
 * waiter's nudge) are slept through rather than answered with an empty read.
 */
async function sleepUntilWorthReading(
  options: ProjectorLoopOptions,
  seenGeneration: number,
  checkpoint: bigint,
): Promise<void> {
  const { wake, target } = options;
  const untilDue = target.ignoredProgress?.dueInMs() ?? Number.POSITIVE_INFINITY;
  const deadline = performance.now() + Math.min(options.idlePollMs, untilDue);
  let seen = seenGeneration;
  while (!target.abort.aborted) {
    if (wake.generation !== seen) {
      if (wake.hasNewsFor(seen, checkpoint)) return;
      seen = wake.generation;
    }
    const remainingMs = deadline - performance.now();
    if (remainingMs <= 0) return;
    await wake.waitForWake(seen, remainingMs);
  }
}

async function loadCheckpoint(options: ProjectorLoopOptions): Promise<bigint> {
  const { pool, projection } = options.target;
  let stored = (await readCheckpoints(pool, [projection.name])).get(projection.name);
  if (stored === undefined) {
    await ensureCheckpointRows(pool, [projection.name]);
    stored = (await readCheckpoints(pool, [projection.name])).get(projection.name);
  }
  if (stored === undefined) throw new Error(`No checkpoint row for ${projection.name}`);
  options.onCheckpoint(projection.name, stored);
  return stored;
}

async function applyNextBatch(
  options: ProjectorLoopOptions,
  checkpoint: bigint,
): Promise<{ checkpoint: bigint; backlog: boolean }> {
  const { readAhead, target } = options;
  const events = await readAhead.take(readAfter(checkpoint));
  const end = lastPosition(events);
  if (end === undefined) return { checkpoint, backlog: false };
  const backlog = readAhead.isFull(events);
  if (backlog) readAhead.prefetch(end);
  const outcome = await applyEvents(target, events);
  options.onCheckpoint(target.projection.name, outcome.checkpoint);
  if (outcome.applied > 0 || outcome.failed > 0)
    target.logger.debug(
      {
        checkpoint: outcome.checkpoint.toString(),
        applied: outcome.applied,
        failed: outcome.failed,
      },
      'batch applied',
    );
  return { checkpoint: outcome.checkpoint, backlog };
}
