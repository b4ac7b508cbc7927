import type { EventStore, RecordedEvent } from '@issuer/events';

export type ReadBatch = (after: bigint | undefined, maxCount: number) => Promise<RecordedEvent[]>;

/**
 * Shares one `readAll` between projectors that ask for the same slice at the same time, which is
 * the usual case when they are all caught up and a new event wakes them together.
 */
export function coalescingReader(store: EventStore): ReadBatch {
  const inFlight = new Map<string, Promise<RecordedEvent[]>>();
  return (after, maxCount) => {
    const key = `${after ?? ''}:${maxCount}`;
    const pending = inFlight.get(key);
    if (pending) return pending;
    const read = store.readAll({ after, maxCount }).finally(() => inFlight.delete(key));
    inFlight.set(key, read);
    return read;
  };
}

/** Reads the next batch while the current one is being applied (catch-up and rebuild). */
export class ReadAhead {
  #next: { after: bigint | undefined; read: Promise<RecordedEvent[]> } | undefined;

  constructor(
    private readonly readBatch: ReadBatch,
    private readonly batchSize: number,
  ) {}

  take(after: bigint | undefined): Promise<RecordedEvent[]> {
    const next = this.#next;
    this.#next = undefined;
    if (next && next.after === after) return next.read;
    return this.readBatch(after, this.batchSize);
  }

  prefetch(after: bigint | undefined): void {
    const read = this.readBatch(after, this.batchSize);
    // Handled here so a prefetch nobody takes never becomes an unhandled rejection.
    read.catch(() => {});
    this.#next = { after, read };
  }

  isFull(batch: readonly RecordedEvent[]): boolean {
    return batch.length >= this.batchSize;
  }
}
