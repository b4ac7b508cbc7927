import { setMaxListeners } from 'node:events';
import type { EventStore } from '@issuer/events';
import type { Pool } from 'pg';
import type { Logger } from 'pino';
import type { Projection } from '../projection';
import { DEFAULT_RETRY_DELAYS_MS } from './applyEvents';
import { CheckpointTracker } from './checkpointTracker';
import { IgnoredProgress } from './ignoredProgress';
import { wakeOnNewEvents } from './newEventWakes';
import { CheckpointNotifier } from './notifier';
import { runProjector } from './projector';
import { coalescingReader, ReadAhead } from './reader';
import { migrateProjections } from './schema';
import { type ProjectionsStatus, readProjectionStatus } from './status';
import type { ReadModelWaiter } from './waiter';
import { WakeSignal } from './wakeSignal';

export interface ProjectorRunnerOptions {
  store: EventStore;
  /** The read-model database (checkpoints and failures live there too). */
  pool: Pool;
  projections: readonly Projection[];
  logger: Logger;
  /** Events per read and per transaction while catching up. Default 1000. */
  batchSize?: number;
  /** Waits before each retry of a failing event. Default 50, 200, 800 ms. */
  retryDelaysMs?: readonly number[];
  /** Re-poll while idle even without a wake. Default 1000 ms. */
  idlePollMs?: number;
  /** Pause after a database or store error. Default 1000 ms. */
  errorBackoffMs?: number;
  /**
   * NOTIFY committed checkpoints for waiters in other processes (ListeningReadModelWaiter).
   * Default true; an all-in-one process can turn it off, since its own waiter is told directly.
   */
  notifyCheckpoints?: boolean;
  /** Wake on new events through `store.subscribeToAll` (otherwise only wakes and polls). Default true. */
  subscribeToNewEvents?: boolean;
}

/**
 * Runs one loop per projection. Live events wake the loops through the store (its commit notices,
 * or a subscription) and through `wake()`; in-process waiters are told of every commit directly.
 */
export class ProjectorRunner {
  readonly #options: ProjectorRunnerOptions;
  readonly #wake = new WakeSignal();
  readonly #stopping = new AbortController();
  readonly #tracker: CheckpointTracker;
  readonly #notifier: CheckpointNotifier | undefined;
  #loops: Promise<void>[] = [];
  #newEventWakes: ReturnType<typeof wakeOnNewEvents> | undefined;

  /** Read-your-writes for code in this process; nudges the loops when a wait starts. */
  readonly readModelWaiter: ReadModelWaiter = {
    waitFor: (position, timeoutMs) => {
      if (this.#tracker.isCaughtUp(position)) return Promise.resolve(true);
      this.#wake.wake(position);
      return this.#tracker.waitFor(position, timeoutMs);
    },
  };

  constructor(options: ProjectorRunnerOptions) {
    assertDistinctNames(options.projections);
    if ((options.batchSize ?? 1) < 1) throw new RangeError('batchSize must be at least 1');
    this.#options = options;
    // Every loop may pause on the stop signal at once (a pause listens for it), and the wakes too.
    setMaxListeners(options.projections.length + 4, this.#stopping.signal);
    this.#tracker = new CheckpointTracker(options.projections.map((projection) => projection.name));
    if (options.notifyCheckpoints ?? true)
      this.#notifier = new CheckpointNotifier(options.pool, options.logger);
  }

  start(): this {
    if (this.#loops.length > 0) throw new Error('ProjectorRunner already started');
    const readBatch = coalescingReader(this.#options.store);
    this.#loops = this.#options.projections.map((projection) =>
      runProjector(this.#loopOptions(projection, new ReadAhead(readBatch, this.#batchSize()))),
    );
    if (this.#options.subscribeToNewEvents ?? true) {
      this.#newEventWakes = wakeOnNewEvents({
        ...this.#options,
        wake: this.#wake,
        abort: this.#stopping.signal,
        errorBackoffMs: this.#options.errorBackoffMs ?? 1000,
      });
      this.#loops.push(this.#newEventWakes.running);
    }
    this.#options.logger.info(
      { projections: this.#options.projections.map((projection) => projection.name) },
      'projectors started',
    );
    return this;
  }

  /** Ask every loop to look for new events now (e.g. right after an append in this process). */
  wake(): void {
    this.#wake.wake();
  }

  /** Lets the current batches finish (or roll back during a retry pause), then returns. */
  async stop(): Promise<void> {
    this.#stopping.abort();
    this.#wake.wake();
    await this.#newEventWakes?.close();
    await Promise.all(this.#loops);
    await this.#notifier?.flushed();
    this.#tracker.cancelAll();
    this.#options.logger.debug('projectors stopped');
  }

  status(): Promise<ProjectionsStatus> {
    const { store, pool, projections } = this.#options;
    return readProjectionStatus({
      store,
      pool,
      names: projections.map((projection) => projection.name),
      known: this.#tracker.positions(),
    });
  }

  #batchSize(): number {
    return this.#options.batchSize ?? 1000;
  }

  #loopOptions(projection: Projection, readAhead: ReadAhead) {
    const options = this.#options;
    const logger = options.logger.child({ projection: projection.name });
    return {
      target: {
        pool: options.pool,
        projection,
        handles: new Set(projection.handles),
        logger,
        retryDelaysMs: options.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS,
        abort: this.#stopping.signal,
        ignoredProgress: new IgnoredProgress(options.pool, projection.name, logger),
      },
      readAhead,
      wake: this.#wake,
      idlePollMs: options.idlePollMs ?? 1000,
      errorBackoffMs: options.errorBackoffMs ?? 1000,
      onCheckpoint: (name: string, position: bigint) => {
        this.#tracker.advance(name, position);
        this.#notifier?.committed(name, position);
      },
    };
  }
}

/** Two projections with one name would share, and fight over, one checkpoint row. */
function assertDistinctNames(projections: readonly Projection[]): void {
  const names = projections.map((projection) => projection.name);
  const repeated = names.find((name, index) => names.indexOf(name) !== index);
  if (repeated !== undefined) throw new Error(`Two projections are named ${repeated}`);
}

/** Migrates the runner's and the read models' tables, then starts the projectors. */
export async function startProjectors(options: ProjectorRunnerOptions): Promise<ProjectorRunner> {
  await migrateProjections(options.pool, options.projections);
  return new ProjectorRunner(options).start();
}
