import type { RecordedEvent } from '@issuer/events';

/** Checkpoint value of a projection that has applied nothing yet. */
export const NOTHING_APPLIED = -1n;

/** The `after` to pass to `readAll`: undefined reads from the very first event. */
export function readAfter(checkpoint: bigint): bigint | undefined {
  return checkpoint === NOTHING_APPLIED ? undefined : checkpoint;
}

/**
 * The events a batch still has to apply once the checkpoint is known under its lock. A batch is a
 * contiguous slice of the global order, so the events past the checkpoint are contiguous too.
 */
export function eventsAfter(
  events: readonly RecordedEvent[],
  checkpoint: bigint,
): readonly RecordedEvent[] {
  const firstNew = events.findIndex((event) => event.position > checkpoint);
  if (firstNew === -1) return [];
  return firstNew === 0 ? events : events.slice(firstNew);
}

export function lastPosition(events: readonly RecordedEvent[]): bigint | undefined {
  return events.at(-1)?.position;
}

export function handledEvents(
  events: readonly RecordedEvent[],
  handles: ReadonlySet<string>,
): RecordedEvent[] {
  return events.filter((event) => handles.has(event.type));
}

export function minPosition(positions: Iterable<bigint>): bigint | undefined {
  let min: bigint | undefined;
  for (const position of positions) if (min === undefined || position < min) min = position;
  return min;
}
