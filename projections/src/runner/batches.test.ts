import type { RecordedEvent } from '@issuer/events';
import { describe, expect, it } from 'vitest';
import { eventsAfter, handledEvents, minPosition, NOTHING_APPLIED, readAfter } from './batches';

function recorded(position: number, type = 'Counted'): RecordedEvent {
  return {
    id: `event-${position}`,
    type,
    data: {},
    metadata: {
      companyId: 'c1',
      userId: null,
      correlationId: 'x',
      causationId: null,
      occurredAt: '2026-01-01T00:00:00.000Z',
      schemaVersion: 1,
    },
    streamId: 'S-1',
    revision: BigInt(position),
    position: BigInt(position),
    recordedAt: new Date(0),
  };
}

describe('a batch read after a checkpoint', () => {
  const batch = [10, 11, 15, 20].map((position) => recorded(position));

  it('keeps only the events past a checkpoint another instance moved', () => {
    expect(eventsAfter(batch, 11n).map((event) => event.position)).toEqual([15n, 20n]);
    expect(eventsAfter(batch, 9n)).toBe(batch);
    expect(eventsAfter(batch, 20n)).toEqual([]);
  });

  it('passes a projection only the event types it handles, in order', () => {
    const mixed = [recorded(1), recorded(2, 'Other'), recorded(3)];
    expect(handledEvents(mixed, new Set(['Counted'])).map((event) => event.position)).toEqual([
      1n,
      3n,
    ]);
  });
});

describe('checkpoint values', () => {
  it('reads from the first event when nothing was applied yet', () => {
    expect(readAfter(NOTHING_APPLIED)).toBeUndefined();
    expect(readAfter(0n)).toBe(0n);
  });

  it('finds the lowest checkpoint, or none without projections', () => {
    expect(minPosition([5n, 2n, 9n])).toBe(2n);
    expect(minPosition([])).toBeUndefined();
  });
});
