import type { EventStore } from '@issuer/events';
import type { Pool } from 'pg';
import { NOTHING_APPLIED, readAfter } from './batches';
import { readCheckpoints } from './checkpoints';
import { countFailures, type ProjectionFailure, recentFailures } from './failures';

export interface ProjectionStatus {
  name: string;
  /** Position of the last event applied; null before the first one. */
  position: bigint | null;
  /** Events after the checkpoint, counted up to `lagCountLimit` (so a floor when it equals it). */
  lagEvents: number;
  /** Age of the oldest event not applied yet; 0 when caught up. */
  lagSeconds: number;
  failedEvents: number;
}

export interface ProjectionsStatus {
  projections: ProjectionStatus[];
  /** Newest first. */
  recentFailures: ProjectionFailure[];
}

export interface ProjectionStatusOptions {
  store: EventStore;
  pool: Pool;
  names: readonly string[];
  /**
   * Positions known in memory to be reached, used where they are ahead of the stored checkpoint:
   * a projection past events it ignores writes its checkpoint only about once a second, and
   * health would otherwise show it behind for that second.
   */
  known?: ReadonlyMap<string, bigint>;
  lagCountLimit?: number;
  recentFailureLimit?: number;
  now?: () => Date;
}

interface Lag {
  lagEvents: number;
  lagSeconds: number;
}

/**
 * Reads positions, lag and failures from the database and the store, so it works in any process
 * (the API's health route does not need the runner in-process).
 */
export async function readProjectionStatus(
  options: ProjectionStatusOptions,
): Promise<ProjectionsStatus> {
  const { store, pool, names } = options;
  const [checkpoints, failures, recent, head] = await Promise.all([
    readCheckpoints(pool, names),
    countFailures(pool, names),
    recentFailures(pool, names, options.recentFailureLimit ?? 20),
    store.headPosition(),
  ]);
  const lagOf = lagReader(options, head);
  const projections = await Promise.all(
    names.map(async (name) => {
      const checkpoint = maxPosition(
        checkpoints.get(name) ?? NOTHING_APPLIED,
        options.known?.get(name) ?? NOTHING_APPLIED,
      );
      return {
        name,
        position: checkpoint === NOTHING_APPLIED ? null : checkpoint,
        ...(await lagOf(checkpoint)),
        failedEvents: failures.get(name) ?? 0,
      };
    }),
  );
  return { projections, recentFailures: recent };
}

function maxPosition(a: bigint, b: bigint): bigint {
  return a > b ? a : b;
}

/** Projections usually share a checkpoint, so each distinct one is measured once. */
function lagReader(options: ProjectionStatusOptions, head: bigint | undefined) {
  const limit = options.lagCountLimit ?? 10_000;
  const now = options.now ?? (() => new Date());
  const measured = new Map<bigint, Promise<Lag>>();
  const measure = async (checkpoint: bigint): Promise<Lag> => {
    if (head === undefined || checkpoint >= head) return { lagEvents: 0, lagSeconds: 0 };
    const behind = await options.store.readAll({ after: readAfter(checkpoint), maxCount: limit });
    const oldest = behind[0];
    if (!oldest) return { lagEvents: 0, lagSeconds: 0 };
    const ageMs = Math.max(0, now().getTime() - oldest.recordedAt.getTime());
    return { lagEvents: behind.length, lagSeconds: ageMs / 1000 };
  };
  return (checkpoint: bigint): Promise<Lag> => {
    let lag = measured.get(checkpoint);
    if (!lag) {
      lag = measure(checkpoint);
      measured.set(checkpoint, lag);
    }
    return lag;
  };
}
