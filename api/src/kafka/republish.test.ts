import { integrationMapping, integrationTopics } from '@issuer/events';
import { ensureTopics } from '@issuer/kafka';
import {
  kafkaBrokersForTests,
  RecordingConsumer,
  type StoreFixture,
  storeFixture,
  symbolReserved,
  terminalEvents,
  testKafkaSettings,
} from '@issuer/kafka/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseRepublishArgs } from './cliArgs';
import { kafkaProcessEnv, runScript } from './testing/processes';

const brokers = kafkaBrokersForTests();

describe('npm run kafka:republish arguments', () => {
  it('takes a position or start, and refuses anything else', () => {
    expect(parseRepublishArgs(['--from', '42'])).toEqual({ after: 42n });
    expect(parseRepublishArgs(['--from', 'start'])).toEqual({ after: undefined });
    expect(parseRepublishArgs([])).toEqual({ error: 'Missing --from <position>' });
    expect(parseRepublishArgs(['--from', '-3'])).toHaveProperty('error');
    expect(parseRepublishArgs(['--from', '1', '--to', '2'])).toHaveProperty('error');
  });
});

describe.skipIf(brokers === undefined)('npm run kafka:republish against a real broker', () => {
  let db: StoreFixture;
  let consumer: RecordingConsumer | undefined;

  beforeAll(async () => {
    db = await storeFixture();
  });
  afterAll(async () => {
    await consumer?.stop();
    await db?.close();
  });

  it('re-sends exactly the events after the position, once each, in stream order', async () => {
    const settings = testKafkaSettings(brokers ?? []);
    for (let round = 0; round < 3; round++) {
      for (const company of ['a', 'b', 'c']) {
        await db.store.appendToStream(`Company-${company}`, terminalEvents(company, 4), {
          expectedRevision: 'any',
        });
      }
      const reserved = await db.store.appendToStream(
        `CompanySymbol-R${round}`,
        [symbolReserved('a', `R${round}`)],
        { expectedRevision: 'any' },
      );
      await db.visible(reserved.position);
    }
    const stored = await db.store.readAll({ maxCount: 1_000 });
    const from = stored[13]?.position ?? 0n;
    const expected = stored.filter(
      (event) => event.position > from && integrationMapping(event.type)?.published,
    );
    expect(expected.length).toBeGreaterThan(20);

    const run = await runScript(
      'api/src/kafka/republishMain.ts',
      ['--from', from.toString()],
      kafkaProcessEnv(db.databaseUrl, settings),
    );
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`Republished ${expected.length} records`);

    await ensureTopics(settings);
    consumer = await RecordingConsumer.start(settings, integrationTopics(settings.topicPrefix));
    await consumer.waitUntil((records) => records.length >= expected.length);
    await new Promise((resolve) => setTimeout(resolve, 500)); // room for an extra record to show up
    expect(consumer.records.map((record) => record.envelope.eventId).sort()).toEqual(
      expected.map((event) => event.id).sort(),
    );
    for (const company of ['a', 'b', 'c']) {
      const streamId = `Company-${company}`;
      expect(
        consumer.records.filter((r) => r.key === streamId).map((r) => r.envelope.eventId),
      ).toEqual(expected.filter((e) => e.streamId === streamId).map((e) => e.id));
    }
  });
});
