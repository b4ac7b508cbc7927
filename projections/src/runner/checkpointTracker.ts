import { minPosition, NOTHING_APPLIED } from './batches';

interface PendingWait {
  position: bigint;
  resolve(caughtUp: boolean): void;
  timer: NodeJS.Timeout;
}

/**
 * Knows every projection's checkpoint and resolves waits once all of them have passed a
 * position. Fed by the in-process runner after each commit, or by LISTEN/NOTIFY out of process.
 */
export class CheckpointTracker {
  readonly #checkpoints = new Map<string, bigint>();
  readonly #pending = new Set<PendingWait>();

  constructor(names: readonly string[]) {
    for (const name of names) this.#checkpoints.set(name, NOTHING_APPLIED);
  }

  /** Positions only move forward: a late or repeated notice never takes one back. */
  advance(name: string, position: bigint): void {
    const known = this.#checkpoints.get(name);
    if (known === undefined || position <= known) return;
    this.#checkpoints.set(name, position);
    this.#resolveCaughtUp();
  }

  /** Every projection's position as this process knows it (ahead of the stored one when it
   * passed events it ignores, whose checkpoint is written about once a second). */
  positions(): ReadonlyMap<string, bigint> {
    return new Map(this.#checkpoints);
  }

  /** The lowest checkpoint over all projections; undefined when there are none. */
  lowestCheckpoint(): bigint | undefined {
    return minPosition(this.#checkpoints.values());
  }

  isCaughtUp(position: bigint): boolean {
    const lowest = this.lowestCheckpoint();
    return lowest === undefined || lowest >= position;
  }

  waitFor(position: bigint, timeoutMs: number): Promise<boolean> {
    if (this.isCaughtUp(position)) return Promise.resolve(true);
    return new Promise((resolve) => {
      const wait: PendingWait = {
        position,
        resolve,
        timer: setTimeout(() => this.#settle(wait, false), timeoutMs),
      };
      wait.timer.unref();
      this.#pending.add(wait);
    });
  }

  /** Ends every pending wait with `false` (used on shutdown). */
  cancelAll(): void {
    for (const wait of [...this.#pending]) this.#settle(wait, false);
  }

  #resolveCaughtUp(): void {
    if (this.#pending.size === 0) return;
    const lowest = this.lowestCheckpoint() ?? NOTHING_APPLIED;
    for (const wait of [...this.#pending]) if (wait.position <= lowest) this.#settle(wait, true);
  }

  #settle(wait: PendingWait, caughtUp: boolean): void {
    if (!this.#pending.delete(wait)) return;
    clearTimeout(wait.timer);
    wait.resolve(caughtUp);
  }
}
