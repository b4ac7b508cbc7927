import { NOTHING_APPLIED } from './batches';

/**
 * A wake-up signal for loops that sleep between polls. Waiters pass the generation they saw
 * before their last read, so a wake that arrives between that read and the wait is not lost.
 * A wake may name the position it is about, so that a loop already past it need not read again.
 */
export class WakeSignal {
  #generation = 0;
  #latestKnown = NOTHING_APPLIED;
  #lastUnspecificWake = 0;
  #sleepers = new Set<() => void>();

  get generation(): number {
    return this.#generation;
  }

  /** `position`: an event known to exist; without one, every loop reads. */
  wake(position?: bigint): void {
    this.#generation += 1;
    if (position === undefined) this.#lastUnspecificWake = this.#generation;
    else if (position > this.#latestKnown) this.#latestKnown = position;
    const sleepers = [...this.#sleepers];
    this.#sleepers.clear();
    for (const resume of sleepers) resume();
  }

  /** Whether a loop at `checkpoint` that saw `seenGeneration` has a reason to read again. */
  hasNewsFor(seenGeneration: number, checkpoint: bigint): boolean {
    return this.#lastUnspecificWake > seenGeneration || this.#latestKnown > checkpoint;
  }

  /**
   * Whether a wake named an event after `position`. Right after a read that stopped short of it,
   * the event is committed but not readable yet (an older transaction holds it back).
   */
  knowsOfEventsAfter(position: bigint): boolean {
    return this.#latestKnown > position;
  }

  /** Resolves on the next wake after `seenGeneration`, or after `timeoutMs`. */
  waitForWake(seenGeneration: number, timeoutMs: number): Promise<void> {
    if (this.#generation !== seenGeneration) return Promise.resolve();
    return new Promise((resolve) => {
      const resume = () => {
        clearTimeout(timer);
        this.#sleepers.delete(resume);
        resolve();
      };
      const timer = setTimeout(resume, timeoutMs);
      this.#sleepers.add(resume);
    });
  }
}

/**
 * The pause before reading again for an event known to be committed but not readable yet:
 * 1, 2, 4 … 50 ms, so a short wait costs little and a long one does not spin. One per loop.
 */
export class UnreadableBackoff {
  #ms = 0;

  constructor(private readonly wake: WakeSignal) {}

  /**
   * After a read that found nothing past `readUpTo`: pauses and answers true when a wake named a
   * later event (held back by an older transaction), else answers false at once.
   */
  async heldBack(readUpTo: bigint, abort: AbortSignal): Promise<boolean> {
    if (!this.wake.knowsOfEventsAfter(readUpTo)) {
      this.#ms = 0;
      return false;
    }
    this.#ms = Math.min(Math.max(this.#ms * 2, 1), 50);
    await sleep(this.#ms, abort);
    return true;
  }
}

/** A timer sleep that ends early when `abort` fires (so `stop()` never waits out a backoff). */
export function sleep(ms: number, abort?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (abort?.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      abort?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    abort?.addEventListener('abort', done, { once: true });
  });
}
