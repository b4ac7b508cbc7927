import type { Pool, PoolClient } from 'pg';
import type { Logger } from 'pino';
import { readCheckpoints } from './checkpoints';
import { CheckpointTracker } from './checkpointTracker';
import { CHECKPOINT_CHANNEL, parseCheckpointNotice } from './notifier';
import { sleep } from './wakeSignal';

/** Same shape as the API's `ReadModelWaiter` (api depends on projections, not the reverse). */
export interface ReadModelWaiter {
  /** Resolves true once every projection has applied `position`, false after `timeoutMs`. */
  waitFor(position: bigint, timeoutMs: number): Promise<boolean>;
}

export interface ListeningWaiterOptions {
  pool: Pool;
  /** The projections a write must reach before it counts as visible. */
  names: readonly string[];
  logger: Logger;
  /** Fallback re-read of the checkpoint table, for notices lost while reconnecting. Default 1000 ms. */
  recheckMs?: number;
  /** Pause before reconnecting the LISTEN connection. Default 1000 ms. */
  reconnectMs?: number;
}

/**
 * Read-your-writes for an API that runs apart from the projectors: one pooled connection LISTENs
 * for the checkpoint notices the runner sends after each commit, and a slow timer re-reads the table.
 */
export class ListeningReadModelWaiter implements ReadModelWaiter {
  readonly #options: ListeningWaiterOptions;
  readonly #tracker: CheckpointTracker;
  readonly #closing = new AbortController();
  #listener: PoolClient | undefined;
  #recheckTimer: NodeJS.Timeout | undefined;

  private constructor(options: ListeningWaiterOptions) {
    this.#options = options;
    this.#tracker = new CheckpointTracker(options.names);
  }

  /** Resolves once listening and the current checkpoints are loaded. */
  static async start(options: ListeningWaiterOptions): Promise<ListeningReadModelWaiter> {
    const waiter = new ListeningReadModelWaiter(options);
    await waiter.#listen();
    waiter.#recheckTimer = setInterval(() => void waiter.#recheck(), options.recheckMs ?? 1000);
    waiter.#recheckTimer.unref();
    return waiter;
  }

  waitFor(position: bigint, timeoutMs: number): Promise<boolean> {
    return this.#tracker.waitFor(position, timeoutMs);
  }

  /** The checkpoints as notified, ahead of the stored ones past ignored events. */
  positions(): ReadonlyMap<string, bigint> {
    return this.#tracker.positions();
  }

  async close(): Promise<void> {
    this.#closing.abort();
    clearInterval(this.#recheckTimer);
    this.#tracker.cancelAll();
    const listener = this.#listener;
    this.#listener = undefined;
    if (listener) {
      await listener.query(`UNLISTEN ${CHECKPOINT_CHANNEL}`).catch(() => {});
      listener.release();
    }
  }

  /** LISTEN first, then read the table, so no commit falls between the two. */
  async #listen(): Promise<void> {
    const client = await this.#options.pool.connect();
    client.on('notification', (message) => {
      if (message.channel !== CHECKPOINT_CHANNEL) return;
      for (const [name, position] of parseCheckpointNotice(message.payload))
        this.#tracker.advance(name, position);
    });
    client.on('error', (error) => this.#onListenerLost(client, error));
    try {
      await client.query(`LISTEN ${CHECKPOINT_CHANNEL}`);
    } catch (error) {
      client.release(true);
      throw error;
    }
    if (this.#closing.signal.aborted) {
      client.release();
      return;
    }
    this.#listener = client;
    await this.#recheck();
  }

  #onListenerLost(client: PoolClient, error: Error): void {
    if (this.#listener !== client) return;
    this.#listener = undefined;
    client.release(error);
    this.#options.logger.warn({ err: error }, 'checkpoint listener lost; reconnecting');
    void this.#reconnect();
  }

  async #reconnect(): Promise<void> {
    const abort = this.#closing.signal;
    while (!abort.aborted && !this.#listener) {
      await sleep(this.#options.reconnectMs ?? 1000, abort);
      if (abort.aborted) return;
      try {
        await this.#listen();
      } catch (error) {
        this.#options.logger.warn({ err: error }, 'checkpoint listener reconnect failed');
      }
    }
  }

  async #recheck(): Promise<void> {
    try {
      const checkpoints = await readCheckpoints(this.#options.pool, this.#options.names);
      for (const [name, position] of checkpoints) this.#tracker.advance(name, position);
    } catch (error) {
      this.#options.logger.warn({ err: error }, 'checkpoint re-check failed');
    }
  }
}
