import { createHash, randomUUID } from 'node:crypto';
import type { AllSubscription, NewEvent } from '@issuer/events';
import { createTestDatabase, postgresServers, type TestDatabase } from '@issuer/test-support';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DuplicateEventIdError, PostgresEventStore } from './postgresEventStore';
import { MIGRATIONS } from './postgresSchema';

// Behaviour of the PostgreSQL adapter beyond the shared contract.
for (const server of await postgresServers()) {
  describe(`PostgreSQL event store (${server.name})`, () => {
    let database: TestDatabase;
    let store: PostgresEventStore;
    let sql: pg.Pool;

    beforeAll(async () => {
      database = await createTestDatabase(server);
      store = new PostgresEventStore(database.url);
      await store.migrate();
      sql = new pg.Pool({ connectionString: database.url, max: 4 });
    });
    afterAll(async () => {
      await store.close();
      await sql.end();
      await database.drop();
    });

    describe('schema', () => {
      it('keeps the released migrations exactly as released (a change needs a new entry)', () => {
        const digest = (sql: string) => createHash('sha256').update(sql).digest('hex');
        expect(digest(MIGRATIONS[0] ?? '')).toBe(
          'c0c03980726646357cddc7a69ec89395fb05b7fd8e79fd502b279ecfeadccce8',
        );
      });

      it('given two stores starting at once on an empty database, then both migrate and work', async () => {
        const empty = await createTestDatabase(server);
        const first = new PostgresEventStore(empty.url);
        const second = new PostgresEventStore(empty.url);
        try {
          await Promise.all([first.migrate(), second.migrate()]);
          await first.appendToStream('Both-1', newEvents(1), { expectedRevision: 'no_stream' });
          expect(await second.readStream('Both-1')).toHaveLength(1);
        } finally {
          await Promise.all([first.close(), second.close()]);
          await empty.drop();
        }
      });
    });

    describe('positions after a logical restore', () => {
      it('given stored positions ahead of the server transaction ids, then the store refuses to start', async () => {
        const restored = await createTestDatabase(server);
        const first = new PostgresEventStore(restored.url);
        const second = new PostgresEventStore(restored.url);
        try {
          await first.migrate();
          await first.appendToStream('Restored-1', newEvents(1), { expectedRevision: 'no_stream' });
          const admin = new pg.Client({ connectionString: restored.url });
          await admin.connect();
          await admin.query(
            `UPDATE es_events SET position = (pg_current_xact_id()::text::bigint + 1000000) << 20`,
          );
          await admin.end();

          await expect(second.migrate()).rejects.toThrow(/restored logically/);
        } finally {
          await Promise.all([first.close(), second.close()]);
          await restored.drop();
        }
      });
    });

    describe('appending', () => {
      it('given an event id already stored in another stream, then the append fails and stores nothing', async () => {
        const [event] = newEvents(1);
        if (!event) throw new Error('expected an event');
        await store.appendToStream(stream(), [event], { expectedRevision: 'no_stream' });
        const other = stream();

        const appending = store.appendToStream(other, [event], { expectedRevision: 'any' });

        await expect(appending).rejects.toBeInstanceOf(DuplicateEventIdError);
        expect(await store.readStream(other)).toEqual([]);
      });

      it('given an id of another stream in a blind append to an existing stream, then it fails and stores nothing', async () => {
        const [stored] = newEvents(1);
        if (!stored) throw new Error('expected an event');
        await store.appendToStream(stream(), [stored], { expectedRevision: 'no_stream' });
        const existing = stream();
        const first = await store.appendToStream(existing, newEvents(1), {
          expectedRevision: 'no_stream',
        });

        for (const expectedRevision of ['any', 'stream_exists'] as const) {
          const appending = store.appendToStream(existing, [...newEvents(1), stored], {
            expectedRevision,
          });
          await expect(appending).rejects.toBeInstanceOf(DuplicateEventIdError);
        }
        const [twice] = newEvents(1);
        if (!twice) throw new Error('expected an event');
        const doubled = store.appendToStream(existing, [twice, twice], { expectedRevision: 'any' });
        await expect(doubled).rejects.toBeInstanceOf(DuplicateEventIdError);
        expect((await store.readStream(existing)).map((event) => event.revision)).toEqual([0n]);
        expect(first.nextExpectedRevision).toBe(0n);
      });

      it('given no events, then the append is refused', async () => {
        await expect(
          store.appendToStream(stream(), [], { expectedRevision: 'any' }),
        ).rejects.toBeInstanceOf(RangeError);
      });

      it('given a negative exact revision, then the append is refused', async () => {
        await expect(
          store.appendToStream(stream(), newEvents(1), { expectedRevision: -3n }),
        ).rejects.toBeInstanceOf(RangeError);
      });

      it('given data with nested values and unicode, then it reads back equal', async () => {
        const streamId = stream();
        const data = {
          name: 'Zoë Ünal',
          amount: { minor: 123_456_789, currency: 'CAD' },
          tags: [],
        };
        const [event] = newEvents(1);
        if (!event) throw new Error('expected an event');

        await store.appendToStream(streamId, [{ ...event, data }], {
          expectedRevision: 'no_stream',
        });

        expect((await store.readStream(streamId))[0]?.data).toEqual(data);
      });
    });

    describe('global positions', () => {
      it('given two appends in one transaction, then both are stored with increasing positions under one transaction id', async () => {
        const [first, second] = [stream(), stream()];
        const client = await sql.connect();
        try {
          await client.query('BEGIN');
          await client.query('SELECT * FROM es_append($1, -1, $2)', [first, eventsJson(2)]);
          await client.query('SELECT * FROM es_append($1, -1, $2)', [second, eventsJson(3)]);
          await client.query('COMMIT');
        } finally {
          client.release();
        }

        const events = [...(await store.readStream(first)), ...(await store.readStream(second))];
        const positions = events.map((event) => event.position);
        expect(positions).toEqual([...positions].sort((a, b) => (a < b ? -1 : 1)));
        expect(new Set(positions).size).toBe(5);
        const { rows } = await sql.query<{ transactions: number }>(
          'SELECT count(DISTINCT transaction_id::text)::int AS transactions FROM es_events WHERE stream_id = ANY($1)',
          [[first, second]],
        );
        expect(rows[0]?.transactions).toBe(1);
      });

      it('given a transaction that wrote before a newer append to the stream, when it appends there, then it is refused for a retry', async () => {
        const streamId = stream();
        const older = await sql.connect();
        try {
          await older.query('BEGIN');
          await older.query('SELECT pg_current_xact_id()');
          await store.appendToStream(streamId, newEvents(1), { expectedRevision: 'no_stream' });

          const appending = older.query('SELECT * FROM es_append($1, -2, $2)', [
            streamId,
            eventsJson(1),
          ]);

          await expect(appending).rejects.toMatchObject({ code: '40001' });
        } finally {
          await older.query('ROLLBACK');
          older.release();
        }
        expect(await store.readStream(streamId)).toHaveLength(1);
      });
    });

    describe('reading', () => {
      it('given positions and revisions beyond 2^53, then they are read back exactly', async () => {
        const big = await createTestDatabase(server);
        const bigStore = new PostgresEventStore(big.url);
        try {
          await bigStore.migrate();
          const admin = new pg.Client({ connectionString: big.url });
          await admin.connect();
          await admin.query(
            `INSERT INTO es_events (position, stream_id, revision, event_id, type, data, metadata, recorded_at)
             VALUES ($1, 'Big-1', $2, $3, 'Big', '{"n":1}', $4, now())`,
            [
              '9007199254740993',
              '1234567890123456789',
              randomUUID(),
              JSON.stringify(newEvents(1)[0]?.metadata),
            ],
          );
          await admin.end();

          const [event] = await bigStore.readStream('Big-1');

          expect(event?.position).toBe(9007199254740993n);
          expect(event?.revision).toBe(1234567890123456789n);
          expect(event?.data).toEqual({ n: 1 });
        } finally {
          await bigStore.close();
          await big.drop();
        }
      });
    });

    describe('live subscription', () => {
      // Polling is set to 10 s here, so only the notification path can deliver in time.
      it('given an idle subscriber in another store instance, when an event is appended, then the notification brings it long before the next poll', async () => {
        const subscriberStore = new PostgresEventStore(database.url, { pollIntervalMs: 10_000 });
        const streamId = stream();
        const subscription = subscriberStore.subscribeToAll({ after: await store.headPosition() });
        const arrival = firstOf(subscription, streamId);
        try {
          await sleep(200); // caught up and listening

          const appendedAt = performance.now();
          await store.appendToStream(streamId, newEvents(1), { expectedRevision: 'no_stream' });

          await arrival;
          expect(performance.now() - appendedAt).toBeLessThan(2000);
        } finally {
          await subscription.close();
          await subscriberStore.close();
        }
      });

      it('given an older transaction still open, when a notified event is behind the horizon, then it arrives soon after that transaction ends', async () => {
        const subscriberStore = new PostgresEventStore(database.url, { pollIntervalMs: 10_000 });
        const streamId = stream();
        const subscription = subscriberStore.subscribeToAll({ after: await store.headPosition() });
        let arrivedAt = 0;
        const arrival = firstOf(subscription, streamId).then(() => {
          arrivedAt = performance.now();
        });
        const older = await sql.connect();
        try {
          await sleep(200);
          await older.query('BEGIN');
          await older.query('SELECT pg_current_xact_id()');
          await store.appendToStream(streamId, newEvents(1), { expectedRevision: 'no_stream' });
          await sleep(300);
          expect(arrivedAt).toBe(0);

          const endedAt = performance.now();
          await older.query('COMMIT');

          await arrival;
          expect(arrivedAt - endedAt).toBeLessThan(2000);
        } finally {
          older.release();
          await subscription.close();
          await subscriberStore.close();
        }
      });

      it('given events another process committed before this one listened, then watching committed positions tells the last of them first', async () => {
        const { position } = await store.appendToStream(stream(), newEvents(2), {
          expectedRevision: 'no_stream',
        });
        await sleep(200); // its notice is sent and gone before the watcher listens
        const watcher = new PostgresEventStore(database.url);
        const stop = new AbortController();
        try {
          const told = watcher.watchCommitted(stop.signal)[Symbol.asyncIterator]();
          const first = await Promise.race([
            told.next(),
            sleep(3_000).then(() => ({ value: 'nothing within 3 s' })),
          ]);
          expect(first.value).toBe(position);
        } finally {
          stop.abort();
          await watcher.close();
        }
      });

      it('given a write transaction open in another database on the server, then a new event is read at once', async () => {
        const elsewhere = await createTestDatabase(server);
        const other = new pg.Client({ connectionString: elsewhere.url });
        await other.connect();
        try {
          await other.query('BEGIN');
          await other.query('SELECT pg_current_xact_id()');
          const streamId = stream();
          const { position } = await store.appendToStream(streamId, newEvents(1), {
            expectedRevision: 'no_stream',
          });

          expect(await store.headPosition()).toBeGreaterThanOrEqual(position);
          // Polled: a write in this database (autovacuum's ANALYZE takes an xid) may hold the
          // horizon for a moment; the other database's transaction stays open throughout.
          await expect
            .poll(
              async () =>
                (await store.readAll({ after: position - 1n, maxCount: 1 })).map(
                  (event) => event.streamId,
                ),
              { timeout: 2_000 },
            )
            .toEqual([streamId]);
        } finally {
          await other.query('ROLLBACK');
          await other.end();
          await elsewhere.drop();
        }
      });

      it('given a subscription waiting for events, when the store closes, then iteration ends', async () => {
        const closing = new PostgresEventStore(database.url);
        const subscription = closing.subscribeToAll({ after: await closing.headPosition() });
        const draining = (async () => {
          for await (const _ of subscription) {
            // nothing new arrives
          }
        })();
        await sleep(50);

        await closing.close();

        await expect(draining).resolves.toBeUndefined();
      });
    });
  });
}

const stream = () => `Pg-${randomUUID()}`;

function newEvents(count: number): NewEvent[] {
  return Array.from({ length: count }, () => ({
    id: randomUUID(),
    type: 'PostgresTested',
    data: { at: 1 },
    metadata: {
      companyId: 'company-pg',
      userId: null,
      correlationId: randomUUID(),
      causationId: null,
      occurredAt: '2025-01-01T00:00:00.000Z',
      schemaVersion: 1,
    },
  }));
}

/** Resolves when the subscription delivers an event of the stream. */
async function firstOf(subscription: AllSubscription, streamId: string): Promise<void> {
  for await (const event of subscription) {
    if (event.streamId === streamId) return;
  }
  throw new Error('subscription ended first');
}

const eventsJson = (count: number) => JSON.stringify(newEvents(count));
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
