import type { Pool } from 'pg';
import type { Logger } from 'pino';

/** Channel of the checkpoint notices; the payload is a CheckpointNotice as JSON. */
export const CHECKPOINT_CHANNEL = 'projection_checkpoint';

export interface CheckpointNotice {
  /** Projection name to its committed checkpoint, a bigint as a decimal string. */
  checkpoints: Record<string, string>;
}

export function parseCheckpointNotice(payload: string | undefined): Map<string, bigint> {
  const checkpoints = new Map<string, bigint>();
  try {
    const parsed: unknown = JSON.parse(payload ?? '');
    const entries = (parsed as Partial<CheckpointNotice> | null)?.checkpoints;
    if (typeof entries !== 'object' || entries === null) return checkpoints;
    for (const [name, position] of Object.entries(entries))
      if (typeof position === 'string' && /^-?\d+$/.test(position))
        checkpoints.set(name, BigInt(position));
  } catch {
    // A malformed notice is ignored; the waiter's re-check of the table covers it.
  }
  return checkpoints;
}

/**
 * Tells waiters in other processes about committed checkpoints. The NOTIFY is sent after the
 * commit rather than inside the checkpoint transaction: PostgreSQL serialises the commits of all
 * notifying transactions on one lock, which would cap every projector's commit rate together.
 * Sent after the commit, one at a time and coalesced, a notice still only ever reports committed
 * work; a lost one delays a waiter until its re-check, and never misleads it.
 */
export class CheckpointNotifier {
  readonly #pending = new Map<string, bigint>();
  #flushing: Promise<void> | undefined;

  constructor(
    private readonly pool: Pool,
    private readonly logger: Logger,
  ) {}

  committed(name: string, position: bigint): void {
    const known = this.#pending.get(name);
    if (known === undefined || position > known) this.#pending.set(name, position);
    this.#flushing ??= this.#flush();
  }

  /** Resolves once the notices queued so far were sent (or failed). */
  async flushed(): Promise<void> {
    await this.#flushing;
  }

  async #flush(): Promise<void> {
    try {
      await this.#sendPending();
    } finally {
      // Cleared in the same turn as the last look at #pending, so no notice is left waiting.
      this.#flushing = undefined;
    }
  }

  async #sendPending(): Promise<void> {
    while (this.#pending.size > 0) {
      const notice: CheckpointNotice = { checkpoints: {} };
      for (const [name, position] of this.#pending) notice.checkpoints[name] = position.toString();
      this.#pending.clear();
      try {
        await this.pool.query('SELECT pg_notify($1, $2)', [
          CHECKPOINT_CHANNEL,
          JSON.stringify(notice),
        ]);
      } catch (error) {
        this.logger.warn(
          { err: error },
          'checkpoint notice not sent; waiters fall back to re-checks',
        );
        return;
      }
    }
  }
}
