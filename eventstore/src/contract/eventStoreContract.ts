import { randomUUID } from 'node:crypto';
import {
  type AllSubscription,
  type EventStore,
  type NewEvent,
  type RecordedEvent,
  WrongExpectedRevisionError,
} from '@issuer/events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The behaviour every EventStore adapter must show, EventStoreDB's semantics. Each test uses its
 * own randomly named streams, so the suite also runs against a server shared with other runs.
 */
export function describeEventStoreContract(
  name: string,
  makeStore: () => Promise<{ store: EventStore; cleanup: () => Promise<void> }>,
): void {
  describe(`${name}: event store contract`, () => {
    let store: EventStore;
    let cleanup: () => Promise<void> = async () => {};

    beforeAll(async () => {
      ({ store, cleanup } = await makeStore());
    });
    afterAll(async () => {
      await cleanup();
    });

    const given = async (streamId: string, count: number) => {
      const events = newEvents(count);
      await store.appendToStream(streamId, events, { expectedRevision: 'no_stream' });
      return events;
    };

    describe('expected revision no_stream', () => {
      it('given no stream, when appending, then the events get revisions 0, 1, … and the result names the last', async () => {
        const streamId = stream('NoStream');
        const events = newEvents(3);

        const result = await store.appendToStream(streamId, events, {
          expectedRevision: 'no_stream',
        });

        expect(result.nextExpectedRevision).toBe(2n);
        const stored = await store.readStream(streamId);
        expect(stored.map((event) => event.id)).toEqual(ids(events));
        expect(stored.map((event) => event.revision)).toEqual([0n, 1n, 2n]);
        expect(stored.at(-1)?.position).toBe(result.position);
      });

      it('given an existing stream, when appending new events, then it fails with the actual revision', async () => {
        const streamId = stream('NoStream');
        await given(streamId, 2);

        const appending = store.appendToStream(streamId, newEvents(1), {
          expectedRevision: 'no_stream',
        });

        await expectWrongRevision(appending, streamId, 'no_stream', 1n);
        expect(await store.readStream(streamId)).toHaveLength(2);
      });
    });

    describe('expected revision any', () => {
      it('given no stream, when appending, then the stream starts at revision 0', async () => {
        const streamId = stream('Any');

        const result = await store.appendToStream(streamId, newEvents(1), {
          expectedRevision: 'any',
        });

        expect(result.nextExpectedRevision).toBe(0n);
      });

      it('given an existing stream, when appending, then the events follow the last one', async () => {
        const streamId = stream('Any');
        await given(streamId, 2);

        const result = await store.appendToStream(streamId, newEvents(2), {
          expectedRevision: 'any',
        });

        expect(result.nextExpectedRevision).toBe(3n);
        expect(await store.readStream(streamId)).toHaveLength(4);
      });
    });

    describe('expected revision stream_exists', () => {
      it('given an existing stream, when appending, then the events follow the last one', async () => {
        const streamId = stream('Exists');
        await given(streamId, 1);

        const result = await store.appendToStream(streamId, newEvents(1), {
          expectedRevision: 'stream_exists',
        });

        expect(result.nextExpectedRevision).toBe(1n);
      });

      it('given no stream, when appending, then it fails with no actual revision', async () => {
        const streamId = stream('Exists');

        const appending = store.appendToStream(streamId, newEvents(1), {
          expectedRevision: 'stream_exists',
        });

        await expectWrongRevision(appending, streamId, 'stream_exists', undefined);
        expect(await store.readStream(streamId)).toEqual([]);
      });
    });

    describe('expected revision exact', () => {
      it('given revision 1, when appending at 1, then the events get revisions 2 and 3', async () => {
        const streamId = stream('Exact');
        await given(streamId, 2);

        const result = await store.appendToStream(streamId, newEvents(2), {
          expectedRevision: 1n,
        });

        expect(result.nextExpectedRevision).toBe(3n);
        const stored = await store.readStream(streamId);
        expect(stored.map((event) => event.revision)).toEqual([0n, 1n, 2n, 3n]);
      });

      it('given revision 1, when appending new events at a stale revision 0, then it fails with the actual revision 1', async () => {
        const streamId = stream('Exact');
        await given(streamId, 2);

        const appending = store.appendToStream(streamId, newEvents(1), { expectedRevision: 0n });

        await expectWrongRevision(appending, streamId, 0n, 1n);
        expect(await store.readStream(streamId)).toHaveLength(2);
      });

      it('given revision 1, when appending at revision 5, then it fails with the actual revision 1', async () => {
        const streamId = stream('Exact');
        await given(streamId, 2);

        const appending = store.appendToStream(streamId, newEvents(1), { expectedRevision: 5n });

        await expectWrongRevision(appending, streamId, 5n, 1n);
      });

      it('given no stream, when appending at revision 0, then it fails with no actual revision', async () => {
        const streamId = stream('Exact');

        const appending = store.appendToStream(streamId, newEvents(1), { expectedRevision: 0n });

        await expectWrongRevision(appending, streamId, 0n, undefined);
        expect(await store.readStream(streamId)).toEqual([]);
      });
    });

    describe('re-appending a batch that is already stored (idempotency by event id)', () => {
      it('given the whole batch stored at the expected revision, when appended again, then nothing is added and the first result is returned', async () => {
        const streamId = stream('Idem');
        await given(streamId, 1);
        const batch = newEvents(2);
        const first = await store.appendToStream(streamId, batch, { expectedRevision: 0n });
        await store.appendToStream(streamId, newEvents(1), { expectedRevision: 2n });

        const again = await store.appendToStream(streamId, batch, { expectedRevision: 0n });

        expect(again).toEqual(first);
        expect(await store.readStream(streamId)).toHaveLength(4);
      });

      it('given a stream created with no_stream, when the first batch is appended again with no_stream, then nothing is added', async () => {
        const streamId = stream('Idem');
        const batch = newEvents(3);
        const first = await store.appendToStream(streamId, batch, {
          expectedRevision: 'no_stream',
        });

        const again = await store.appendToStream(streamId, batch, {
          expectedRevision: 'no_stream',
        });

        expect(again).toEqual(first);
        expect(ids(await store.readStream(streamId))).toEqual(ids(batch));
      });

      it.each(['any', 'stream_exists'] as const)(
        'given the whole batch stored, when appended again with %s, then nothing is added and the first result is returned',
        async (expectedRevision) => {
          const streamId = stream('Idem');
          await given(streamId, 1);
          const batch = newEvents(2);
          const first = await store.appendToStream(streamId, batch, { expectedRevision });
          await store.appendToStream(streamId, newEvents(1), { expectedRevision: 'any' });

          const again = await store.appendToStream(streamId, batch, { expectedRevision });

          expect(again).toEqual(first);
          expect(await store.readStream(streamId)).toHaveLength(4);
        },
      );

      it('given none of the batch stored, when appended with any, then it is appended normally', async () => {
        const streamId = stream('Idem');
        await given(streamId, 2);
        const batch = newEvents(2);

        const result = await store.appendToStream(streamId, batch, { expectedRevision: 'any' });

        expect(result.nextExpectedRevision).toBe(3n);
        expect(ids(await store.readStream(streamId, { fromRevision: 2n }))).toEqual(ids(batch));
      });

      it('given part of the batch stored, when appended again at its expected revision, then it fails and nothing is added', async () => {
        const streamId = stream('Idem');
        const [a, b] = await given(streamId, 2);

        const appending = store.appendToStream(streamId, [event(a), ...newEvents(1)], {
          expectedRevision: 'no_stream',
        });

        await expectWrongRevision(appending, streamId, 'no_stream', 1n);
        expect(ids(await store.readStream(streamId))).toEqual([event(a).id, event(b).id]);
      });

      it('given the batch stored but extended by a new event, when appended at the expected revision, then it fails', async () => {
        const streamId = stream('Idem');
        const stored = await given(streamId, 2);

        const appending = store.appendToStream(streamId, [...stored, ...newEvents(1)], {
          expectedRevision: 'no_stream',
        });

        await expectWrongRevision(appending, streamId, 'no_stream', 1n);
        expect(await store.readStream(streamId)).toHaveLength(2);
      });

      it('given part of the batch stored, when appended again with any, then it fails and nothing is added', async () => {
        const streamId = stream('Idem');
        const [a] = await given(streamId, 2);

        const appending = store.appendToStream(streamId, [event(a), ...newEvents(1)], {
          expectedRevision: 'any',
        });

        await expectWrongRevision(appending, streamId, 'any', 1n);
        expect(await store.readStream(streamId)).toHaveLength(2);
      });
    });

    describe('concurrent appends to one stream', () => {
      it('given 8 writers with the same expected revision, then exactly one wins each revision and the stream has no holes', async () => {
        const streamId = stream('Race');
        await given(streamId, 1);
        const rounds = 10;
        const writers = 8;
        // Open the connections first, so that the appends of a round really overlap.
        await Promise.all(Array.from({ length: writers }, () => store.readStream(streamId)));

        for (let round = 0; round < rounds; round += 1) {
          const expectedRevision = BigInt(round);
          const outcomes = await Promise.allSettled(
            Array.from({ length: writers }, () =>
              store.appendToStream(streamId, newEvents(1), { expectedRevision }),
            ),
          );

          const winners = outcomes.filter((outcome) => outcome.status === 'fulfilled');
          expect(winners).toHaveLength(1);
          expect(winners[0]?.value.nextExpectedRevision).toBe(expectedRevision + 1n);
          for (const outcome of outcomes) {
            if (outcome.status === 'fulfilled') continue;
            expect(outcome.reason).toBeInstanceOf(WrongExpectedRevisionError);
            expect(outcome.reason).toMatchObject({ expected: expectedRevision });
            expect(outcome.reason.actual).toBe(expectedRevision + 1n);
          }
        }

        const stored = await store.readStream(streamId);
        expect(stored.map((event) => event.revision)).toEqual(
          Array.from({ length: rounds + 1 }, (_, revision) => BigInt(revision)),
        );
      });
    });

    describe('reading a stream', () => {
      it('given a stream that does not exist, then reading it gives no events', async () => {
        expect(await store.readStream(stream('Missing'))).toEqual([]);
      });

      it('given a stored event, then it reads back with every field', async () => {
        const streamId = stream('Fields');
        const [stored] = await given(streamId, 1);
        const before = Date.now();

        const [read] = await store.readStream(streamId);

        expect(read).toMatchObject({ ...event(stored), streamId, revision: 0n });
        expect(typeof read?.position).toBe('bigint');
        expect(read?.recordedAt).toBeInstanceOf(Date);
        expect(Math.abs((read?.recordedAt.getTime() ?? 0) - before)).toBeLessThan(60_000);
      });

      it('given revisions 0 to 11, when reading from 2 to 10, then exactly those come back in order', async () => {
        const streamId = stream('Range');
        const events = await given(streamId, 12);

        const read = await store.readStream(streamId, { fromRevision: 2n, toRevision: 10n });

        expect(read.map((event) => event.revision)).toEqual(
          Array.from({ length: 9 }, (_, index) => BigInt(index + 2)),
        );
        expect(ids(read)).toEqual(ids(events.slice(2, 11)));
        expect(ids(await store.readStream(streamId, { fromRevision: 9n }))).toEqual(
          ids(events.slice(9)),
        );
        expect(ids(await store.readStream(streamId, { toRevision: 1n }))).toEqual(
          ids(events.slice(0, 2)),
        );
      });

      it('given events recorded at different times, when reading until a time, then only those recorded by then come back', async () => {
        const streamId = stream('AsOf');
        await given(streamId, 1);
        await sleep(20);
        await store.appendToStream(streamId, newEvents(1), { expectedRevision: 0n });
        const [first, second] = await store.readStream(streamId);
        if (!first || !second) throw new Error('expected two events');
        expect(second.recordedAt.getTime()).toBeGreaterThan(first.recordedAt.getTime());

        const asOfFirst = await store.readStream(streamId, { recordedUntil: first.recordedAt });
        const beforeFirst = await store.readStream(streamId, {
          recordedUntil: new Date(first.recordedAt.getTime() - 1),
        });

        expect(ids(asOfFirst)).toEqual([first.id]);
        expect(beforeFirst).toEqual([]);
      });
    });

    describe('reading all', () => {
      it('given appended events, when paging with after, then each page starts after the given position and all come in order', async () => {
        const streamId = stream('Paging');
        const start = await store.headPosition();
        const events = newEvents(7);
        await store.appendToStream(streamId, events.slice(0, 4), { expectedRevision: 'any' });
        const last = await store.appendToStream(streamId, events.slice(4), {
          expectedRevision: 'any',
        });
        await eventually(async () => {
          expect(await store.headPosition()).toBeGreaterThanOrEqual(last.position);
        });

        const seen: RecordedEvent[] = [];
        let after = start;
        for (let page = 0; page < 1000 && (after === undefined || after < last.position); page++) {
          const read = await store.readAll({ after, maxCount: 3 });
          expect(read.length).toBeGreaterThan(0);
          expect(read.length).toBeLessThanOrEqual(3);
          if (after !== undefined) expect(read[0]?.position).toBeGreaterThan(after);
          seen.push(...read);
          after = read.at(-1)?.position;
        }

        expectStrictlyIncreasing(seen.map((event) => event.position));
        expect(ids(seen.filter((event) => event.streamId === streamId))).toEqual(ids(events));
      });

      it('given appended events, then the head position is at least the last one and nothing of ours comes after it', async () => {
        const streamId = stream('Head');
        const result = await store.appendToStream(streamId, newEvents(2), {
          expectedRevision: 'no_stream',
        });

        await eventually(async () => {
          const head = await store.headPosition();
          expect(head).toBeGreaterThanOrEqual(result.position);
          const after = await store.readAll({ after: head });
          expect(after.filter((event) => event.streamId === streamId)).toEqual([]);
        });
      });
    });

    describe('subscribing to all', () => {
      it('given a checkpoint, when resubscribing after it, then only later events arrive, then live ones', async () => {
        const streamId = stream('Subscribe');
        const start = await store.headPosition();
        const stored = newEvents(3);
        await store.appendToStream(streamId, stored, { expectedRevision: 'no_stream' });

        const first = ofStream(store.subscribeToAll({ after: start }), streamId);
        const caughtUp = await first.take(3);
        await first.close();
        expect(ids(caughtUp)).toEqual(ids(stored));
        expectStrictlyIncreasing(caughtUp.map((event) => event.position));
        const checkpoint = caughtUp[1]?.position;

        const resumed = ofStream(store.subscribeToAll({ after: checkpoint }), streamId);
        try {
          const [next] = await resumed.take(1);
          expect(next?.id).toBe(stored[2]?.id);

          const live = newEvents(2);
          await store.appendToStream(streamId, live, { expectedRevision: 2n });
          const arrived = await resumed.take(2);
          expect(ids(arrived)).toEqual(ids(live));
          expect(arrived.map((event) => event.revision)).toEqual([3n, 4n]);
        } finally {
          await resumed.close();
        }
      });

      it('given a subscription waiting for live events, when it is closed, then iteration ends', async () => {
        const subscription = store.subscribeToAll({ after: await store.headPosition() });
        const draining = (async () => {
          for await (const _ of subscription) {
            // drain whatever arrives until closed
          }
        })();
        await sleep(50);

        await subscription.close();

        await expect(withTimeout(draining, 5000)).resolves.toBeUndefined();
      });
    });
  });
}

/** A subscription seen through one stream: `take(n)` waits for that stream's next n events. */
function ofStream(subscription: AllSubscription, streamId: string) {
  const iterator = subscription[Symbol.asyncIterator]();
  return {
    async take(count: number, timeoutMs = 10_000): Promise<RecordedEvent[]> {
      const taken: RecordedEvent[] = [];
      while (taken.length < count) {
        const next = await withTimeout(iterator.next(), timeoutMs);
        if (next.done) throw new Error(`subscription ended after ${taken.length} of ${count}`);
        if (next.value.streamId === streamId) taken.push(next.value);
      }
      return taken;
    },
    close: () => subscription.close(),
  };
}

let eventCounter = 0;

function newEvents(count: number): NewEvent[] {
  return Array.from({ length: count }, () => {
    eventCounter += 1;
    return {
      id: randomUUID(),
      type: 'ContractTested',
      data: { n: eventCounter, amount: { minor: 1999, currency: 'CAD' } },
      metadata: {
        companyId: 'company-contract',
        userId: 'user-contract',
        correlationId: randomUUID(),
        causationId: null,
        occurredAt: new Date().toISOString(),
        schemaVersion: 1,
      },
    };
  });
}

function event(value: NewEvent | undefined): NewEvent {
  if (!value) throw new Error('missing event');
  return value;
}

const stream = (label: string) => `Contract${label}-${randomUUID()}`;
const ids = (events: readonly { id: string }[]) => events.map((event) => event.id);

async function expectWrongRevision(
  appending: Promise<unknown>,
  streamId: string,
  expected: unknown,
  actual: bigint | undefined,
): Promise<void> {
  const error = await appending.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(WrongExpectedRevisionError);
  expect(error).toMatchObject({ streamId, expected });
  expect((error as WrongExpectedRevisionError).actual).toBe(actual);
}

function expectStrictlyIncreasing(positions: readonly bigint[]): void {
  for (let index = 1; index < positions.length; index += 1) {
    expect(positions[index]).toBeGreaterThan(positions[index - 1] ?? -1n);
  }
}

/** Reads of the global order may lag a moment behind commits on a busy server. */
async function eventually(check: () => Promise<void>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await sleep(10);
    }
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
