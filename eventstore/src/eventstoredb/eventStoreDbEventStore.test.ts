// The adapter's pure mappings, checked without a server. The behaviour against EventStoreDB itself is
// the shared contract suite (eventStoreDbEventStore.contract.test.ts).
import { PassThrough } from 'node:stream';
import {
  type AllStreamResolvedEvent,
  type AllStreamSubscription,
  ANY,
  type RecordedEvent as EsdbRecordedEvent,
  NO_STREAM,
  START,
  STREAM_EXISTS,
  WrongExpectedVersionError,
} from '@eventstore/db-client';
import { type NewEvent, WrongExpectedRevisionError } from '@issuer/events';
import { describe, expect, it } from 'vitest';
import {
  EventStoreDbAllSubscription,
  isAfter,
  isSystemEvent,
  readPositionAfter,
  reportedCommitPosition,
  toActualRevision,
  toEsdbExpectedRevision,
  toEventData,
  toRecordedEvent,
  toWrongExpectedRevisionError,
} from './eventStoreDbEventStore';

const metadata = {
  companyId: 'c-1',
  userId: 'u-1',
  correlationId: 'corr-1',
  causationId: null,
  occurredAt: '2025-01-02T03:04:05.000Z',
  schemaVersion: 1,
};

function esdbEvent(overrides: Partial<EsdbRecordedEvent> = {}): EsdbRecordedEvent {
  return {
    streamId: 'Customer-1',
    id: '0b9c7a52-3f0e-4d8e-9a51-6d2f6e0c1a11',
    isJson: true,
    revision: 3n,
    type: 'CustomerAdded',
    created: new Date('2025-01-02T03:04:05.678Z'),
    data: { name: 'Ada' },
    metadata,
    position: { commit: 4242n, prepare: 4242n },
    ...overrides,
  } as EsdbRecordedEvent;
}

describe('expected revisions', () => {
  it('maps each mode to the client constant and an exact revision to itself', () => {
    expect(toEsdbExpectedRevision('no_stream')).toBe(NO_STREAM);
    expect(toEsdbExpectedRevision('any')).toBe(ANY);
    expect(toEsdbExpectedRevision('stream_exists')).toBe(STREAM_EXISTS);
    expect(toEsdbExpectedRevision(0n)).toBe(0n);
    expect(toEsdbExpectedRevision(17n)).toBe(17n);
  });

  it("reads the client's actual revision, a missing stream as undefined", () => {
    expect(toActualRevision(NO_STREAM)).toBeUndefined();
    expect(toActualRevision(-1n)).toBeUndefined();
    expect(toActualRevision(0n)).toBe(0n);
    expect(toActualRevision(9n)).toBe(9n);
  });
});

describe('given a WrongExpectedVersionError from the client', () => {
  it('becomes our error with the revision we expected and the actual one', () => {
    const clientError = new WrongExpectedVersionError(undefined, {
      streamName: 'Customer-1',
      expected: 2n,
      current: 5n,
    });
    const error = toWrongExpectedRevisionError('Customer-1', 2n, clientError);
    expect(error).toBeInstanceOf(WrongExpectedRevisionError);
    expect(error).toMatchObject({ streamId: 'Customer-1', expected: 2n, actual: 5n });
  });

  it('reports a stream that does not exist as actual undefined', () => {
    const clientError = new WrongExpectedVersionError(undefined, {
      streamName: 'Customer-2',
      expected: STREAM_EXISTS,
      current: NO_STREAM,
    });
    const error = toWrongExpectedRevisionError('Customer-2', 'stream_exists', clientError);
    expect(error.actual).toBeUndefined();
    expect(error.expected).toBe('stream_exists');
    expect(error.message).toContain('actual no_stream');
  });
});

describe('positions', () => {
  it('starts a read at the beginning without a checkpoint', () => {
    expect(readPositionAfter(undefined)).toBe(START);
  });

  it('starts a read at the checkpoint itself, because $all reads are inclusive', () => {
    expect(readPositionAfter(4242n)).toEqual({ commit: 4242n, prepare: 4242n });
  });

  it('drops the event at the checkpoint and keeps the ones after it', () => {
    expect(isAfter({ commit: 4242n, prepare: 4242n }, 4242n)).toBe(false);
    expect(isAfter({ commit: 4100n, prepare: 4100n }, 4242n)).toBe(false);
    expect(isAfter({ commit: 4300n, prepare: 4300n }, 4242n)).toBe(true);
    expect(isAfter({ commit: 0n, prepare: 0n }, undefined)).toBe(true);
  });

  it("takes an append's reported commit position, unless the server sent none or -1", () => {
    expect(reportedCommitPosition({ commit: 512n, prepare: 512n })).toBe(512n);
    expect(reportedCommitPosition(undefined)).toBeUndefined();
    expect(reportedCommitPosition({ commit: 2n ** 64n - 1n, prepare: 2n ** 64n - 1n })).toBe(
      undefined,
    );
  });

  it('orders full positions by commit, then prepare', () => {
    const bound = { commit: 100n, prepare: 100n };
    expect(isAfter({ commit: 100n, prepare: 100n }, bound)).toBe(false);
    expect(isAfter({ commit: 100n, prepare: 150n }, bound)).toBe(true);
    expect(isAfter({ commit: 200n, prepare: 50n }, bound)).toBe(true);
  });
});

describe('system events', () => {
  it("are the '$' types and the '$' streams", () => {
    expect(isSystemEvent({ streamId: '$stats-127.0.0.1:2113', type: '$statsCollected' })).toBe(
      true,
    );
    expect(isSystemEvent({ streamId: '$$Customer-1', type: '$metadata' })).toBe(true);
    expect(isSystemEvent({ streamId: '$et-CustomerAdded', type: 'CustomerAdded' })).toBe(true);
    expect(isSystemEvent({ streamId: 'Customer-1', type: '$>' })).toBe(true);
    expect(isSystemEvent({ streamId: 'Customer-1', type: 'CustomerAdded' })).toBe(false);
  });
});

describe('event mapping', () => {
  it('writes our event as JSON with its own id and the metadata as JSON metadata', () => {
    const event: NewEvent = {
      id: '5f1d1c1e-7a0b-4a55-9a1a-0d7f1a2b3c4d',
      type: 'CustomerAdded',
      data: { name: 'Ada', amount: { minor: 1999, currency: 'CAD' } },
      metadata,
    };
    expect(toEventData(event)).toEqual({
      id: event.id,
      contentType: 'application/json',
      type: 'CustomerAdded',
      data: event.data,
      metadata,
    });
  });

  it('reads a recorded event with its revision, commit position and creation time', () => {
    expect(toRecordedEvent(esdbEvent())).toEqual({
      id: '0b9c7a52-3f0e-4d8e-9a51-6d2f6e0c1a11',
      type: 'CustomerAdded',
      data: { name: 'Ada' },
      metadata,
      streamId: 'Customer-1',
      revision: 3n,
      position: 4242n,
      recordedAt: new Date('2025-01-02T03:04:05.678Z'),
    });
  });

  it('refuses an event without a position (a server older than 22.6)', () => {
    expect(() => toRecordedEvent(esdbEvent({ position: undefined }))).toThrow(/22\.6/);
  });

  it('keeps a foreign event without JSON metadata readable, outside every tenant', () => {
    const recorded = toRecordedEvent(esdbEvent({ metadata: undefined }));
    expect(recorded.metadata.companyId).toBe('');
    expect(recorded.position).toBe(4242n);
  });
});

/**
 * Stands in for the client's subscription: a Readable of resolved events with unsubscribe(). Like
 * the real one, unsubscribing cancels the call but does not end the Readable by itself.
 */
function fakeClientSubscription() {
  const stream = new PassThrough({ objectMode: true });
  let unsubscribed = false;
  const subscription = Object.assign(stream, {
    unsubscribe: async () => {
      unsubscribed = true;
    },
  }) as unknown as AllStreamSubscription;
  return {
    subscription,
    push: (event: EsdbRecordedEvent) => stream.write({ event } as AllStreamResolvedEvent),
    wasUnsubscribed: () => unsubscribed,
  };
}

describe('given a subscription resuming after a checkpoint', () => {
  it('yields only the non-system events after the checkpoint', async () => {
    const fake = fakeClientSubscription();
    const subscription = new EventStoreDbAllSubscription(fake.subscription, 100n);
    fake.push(esdbEvent({ id: 'at-checkpoint', position: { commit: 100n, prepare: 100n } }));
    fake.push(
      esdbEvent({
        id: 'system',
        streamId: '$stats-node',
        type: 'statsCollected',
        position: { commit: 200n, prepare: 200n },
      }),
    );
    fake.push(esdbEvent({ id: 'next', position: { commit: 300n, prepare: 300n } }));

    const seen: string[] = [];
    for await (const event of subscription) {
      seen.push(event.id);
      if (seen.length === 1) break;
    }
    expect(seen).toEqual(['next']);
    await subscription.close();
  });

  it('ends a reader waiting for the next live event when closed', async () => {
    const fake = fakeClientSubscription();
    const subscription = new EventStoreDbAllSubscription(fake.subscription, undefined);
    fake.push(esdbEvent({ id: 'first', position: { commit: 10n, prepare: 10n } }));

    const seen: string[] = [];
    const reading = (async () => {
      for await (const event of subscription) seen.push(event.id);
    })();
    await new Promise((resolve) => setTimeout(resolve, 20));
    await subscription.close();

    await expect(reading).resolves.toBeUndefined();
    expect(seen).toEqual(['first']);
    expect(fake.wasUnsubscribed()).toBe(true);
  });
});
