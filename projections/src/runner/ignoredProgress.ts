import type { Pool } from 'pg';
import type { Logger } from 'pino';
import { advanceCheckpoint } from './checkpoints';

export const IGNORED_PROGRESS_WRITE_MS = 1_000;

/**
 * How far a projection has read past events it does not handle. Writing the checkpoint for every
 * such batch cost each command one write transaction per projection that ignores it; the runner
 * keeps the position in memory instead (waiters in this and other processes are told at once,
 * see `onCheckpoint`) and writes it at most once per `writeEveryMs`, and when it stops. A crash
 * in between only makes the next start re-read events that change nothing.
 */
export class IgnoredProgress {
  #pending: bigint | undefined;
  #lastWrite = performance.now();

  constructor(
    private readonly pool: Pool,
    private readonly name: string,
    private readonly logger: Logger,
    private readonly writeEveryMs = IGNORED_PROGRESS_WRITE_MS,
  ) {}

  passed(position: bigint): void {
    if (this.#pending === undefined || position > this.#pending) this.#pending = position;
  }

  /** Milliseconds until a pending position is due to be written; Infinity when none is. */
  dueInMs(): number {
    if (this.#pending === undefined) return Number.POSITIVE_INFINITY;
    return Math.max(0, this.#lastWrite + this.writeEveryMs - performance.now());
  }

  async writeIfDue(): Promise<void> {
    if (this.dueInMs() === 0) await this.write();
  }

  /** Writes the pending position now; a failure is logged and the position kept for next time. */
  async write(): Promise<void> {
    const position = this.#pending;
    if (position === undefined) return;
    this.#lastWrite = performance.now();
    try {
      await advanceCheckpoint(this.pool, this.name, position);
      if (this.#pending === position) this.#pending = undefined;
    } catch (error) {
      this.logger.warn({ err: error }, 'writing the checkpoint past ignored events failed');
    }
  }
}
