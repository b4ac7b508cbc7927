import { randomUUID } from 'node:crypto';
import { integrationTopics } from '@issuer/events';
import { NOTHING_APPLIED } from '@issuer/projections';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KafkaPublisher, type KafkaPublisherOptions } from './publisher';
import type { KafkaSettings } from './settings';
import { kafkaBrokersForTests, testKafkaSettings } from './testing/broker';
import { eventually, RecordingConsumer } from './testing/consumer';
import {
  type StoreFixture,
  storeFixture,
  symbolReserved,
  terminalEvents,
} from './testing/storeFixture';
import { ensureTopics } from './topics';

const brokers = kafkaBrokersForTests();

describe.skipIf(brokers === undefined)('Kafka publisher against a real broker', () => {
  let db: StoreFixture;
  const publishers: KafkaPublisher[] = [];
  const consumers: RecordingConsumer[] = [];

  beforeAll(async () => {
    db = await storeFixture();
  });
  afterAll(async () => {
    await Promise.all(consumers.map((consumer) => consumer.stop()));
    await Promise.all(publishers.map((publisher) => publisher.stop()));
    await db?.close();
  });

  function startPublisher(settings: KafkaSettings, options: Partial<KafkaPublisherOptions> = {}) {
    const publisher = new KafkaPublisher({
      store: db.store,
      pool: db.pool,
      settings,
      logger: db.logger,
      name: `publisher-${settings.topicPrefix}`,
      idlePollMs: 200,
      ...options,
    });
    publishers.push(publisher);
    return publisher.start();
  }

  async function consume(settings: KafkaSettings) {
    await ensureTopics(settings);
    const consumer = await RecordingConsumer.start(
      settings,
      integrationTopics(settings.topicPrefix),
    );
    consumers.push(consumer);
    return consumer;
  }

  it('publishes every stored event once, on its topic, keyed by stream, in stream order', async () => {
    const settings = testKafkaSettings(brokers ?? []);
    const companies = Array.from({ length: 20 }, () => randomUUID());
    await Promise.all(
      companies.map(async (companyId, index) => {
        for (const chunk of [0, 1, 2, 3, 4]) {
          const events = terminalEvents(companyId, 5).slice(chunk === 0 ? 0 : 1);
          await db.store.appendToStream(`Company-${companyId}`, events, {
            expectedRevision: 'any',
          });
        }
        const reserved = await db.store.appendToStream(
          `CompanySymbol-S${index}`,
          [symbolReserved(companyId, `S${index}`)],
          { expectedRevision: 'any' },
        );
        await db.visible(reserved.position);
      }),
    );
    const publisher = await startPublisher(settings, { batchSize: 64 });
    const consumer = await consume(settings);
    const stored = (await db.store.readAll({ maxCount: 10_000 })).filter((e) =>
      e.streamId.startsWith('Company-'),
    );
    expect(stored).toHaveLength(20 * 21);

    await consumer.waitUntil((records) => records.length >= stored.length);
    await publisher.stop();
    expect(consumer.records).toHaveLength(stored.length);
    const topic = `${settings.topicPrefix}.companies.v1`;
    for (const record of consumer.records) {
      expect(record.topic).toBe(topic);
      expect(record.key).toBe(record.envelope.streamId);
      expect(record.headers['event-id']).toBe(record.envelope.eventId);
      expect(record.headers['stream-revision']).toBe(record.envelope.streamRevision);
    }
    for (const companyId of companies) {
      const revisions = consumer.records
        .filter((record) => record.key === `Company-${companyId}`)
        .map((record) => Number(record.envelope.streamRevision));
      expect(revisions).toEqual(Array.from({ length: 21 }, (_, revision) => revision));
    }
    const last = await db.lastPosition();
    await eventually(async () => (await db.checkpointOf(publisher.name)) === last, 10_000);
    expect((await publisher.status()).lagEvents).toBe(0);
  });

  it('publishes an event an older open transaction held back as soon as that transaction ends, without spinning meanwhile', async () => {
    const settings = testKafkaSettings(brokers ?? []);
    let reads = 0;
    const countingStore = new Proxy(db.store, {
      get(target, property) {
        if (property === 'readAll')
          return (...args: Parameters<typeof target.readAll>) => {
            reads += 1;
            return target.readAll(...args);
          };
        const value = Reflect.get(target, property, target);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    const publisher = await startPublisher(settings, { idlePollMs: 60_000, store: countingStore });
    const consumer = await consume(settings);
    await eventually(async () => (await publisher.status()).state === 'publishing', 20_000);
    const older = new pg.Client({ connectionString: db.databaseUrl });
    await older.connect();
    try {
      await older.query('BEGIN');
      await older.query('SELECT pg_current_xact_id()');
      const streamId = `Company-${randomUUID()}`;
      await db.store.appendToStream(streamId, terminalEvents('c', 2), {
        expectedRevision: 'no_stream',
      });
      const readsBefore = reads;
      await new Promise((resolve) => setTimeout(resolve, 300));
      const held = consumer.records.filter((record) => record.key === streamId);
      expect(held).toHaveLength(0);
      // Re-read after 1, 2, 4 … 50 ms: about ten reads in 300 ms, not one after another.
      expect(reads - readsBefore).toBeLessThan(30);

      await older.query('COMMIT');
      const ended = performance.now();
      await consumer.waitUntil(
        (records) => records.filter((record) => record.key === streamId).length >= 2,
      );

      expect(performance.now() - ended).toBeLessThan(2_000);
    } finally {
      await older.end();
    }
  });

  it('keeps its checkpoint while no broker acknowledges, and says why in its status', async () => {
    const settings = testKafkaSettings(['127.0.0.1:1']);
    const publisher = await startPublisher(settings, { maxBackoffMs: 300 });
    const appended = await db.store.appendToStream(
      `Company-${randomUUID()}`,
      terminalEvents('c', 3),
      { expectedRevision: 'no_stream' },
    );
    await db.visible(appended.position);
    await eventually(async () => (await publisher.status()).state === 'retrying', 20_000);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await db.checkpointOf(publisher.name)).toBe(NOTHING_APPLIED);
    const status = await publisher.status();
    expect(status.lastError).toBeTruthy();
    expect(status.lagEvents).toBeGreaterThan(0);
  });

  it('publishes from one instance at a time; a standby takes over when it stops', async () => {
    const settings = testKafkaSettings(brokers ?? []);
    const name = `shared-${settings.topicPrefix}`;
    const first = await startPublisher(settings, { name });
    const second = await startPublisher(settings, { name });
    const consumer = await consume(settings);
    const appendCompany = () =>
      db.store.appendToStream(`Company-${randomUUID()}`, terminalEvents('c', 10), {
        expectedRevision: 'no_stream',
      });
    await appendCompany();
    await consumer.waitUntil(() => consumer.distinctEventIds().size >= 10);
    const states = [(await first.status()).state, (await second.status()).state].sort();
    expect(states).toEqual(['publishing', 'standby']);
    const active = (await first.status()).state === 'publishing' ? first : second;
    await active.stop();
    await appendCompany();
    const before = consumer.records.length;
    await consumer.waitUntil(() => consumer.distinctEventIds().size >= before + 10);
    expect(consumer.distinctEventIds().size).toBe(consumer.records.length);
  });
});
