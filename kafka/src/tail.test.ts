import { randomUUID } from 'node:crypto';
import { type IntegrationEnvelope, integrationTopics } from '@issuer/events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { republish } from './republish';
import { type Tail, tailTopics } from './tail';
import { kafkaBrokersForTests, testKafkaSettings } from './testing/broker';
import { eventually } from './testing/consumer';
import { type StoreFixture, storeFixture, terminalEvents } from './testing/storeFixture';

const brokers = kafkaBrokersForTests();

describe.skipIf(brokers === undefined)('the tail consumer (how downstream teams consume)', () => {
  let db: StoreFixture;
  const tails: Tail[] = [];

  beforeAll(async () => {
    db = await storeFixture();
  });
  afterAll(async () => {
    await Promise.all(tails.map((tail) => tail.close()));
    await db?.close();
  });

  it('handles each event once despite resends, and resumes after its committed offsets', async () => {
    const settings = testKafkaSettings(brokers ?? []);
    const groupId = `tail-${randomUUID()}`;
    const append = async (count: number) => {
      const appended = await db.store.appendToStream(
        `Company-${randomUUID()}`,
        terminalEvents('c', count),
        { expectedRevision: 'no_stream' },
      );
      await db.visible(appended.position);
      return appended;
    };
    const { position: firstEnd } = await append(5);
    // Two sends of the same five events, as after a publisher crash or a republish.
    for (const _ of [1, 2]) {
      await republish({ store: db.store, settings, after: undefined });
    }

    const handled: IntegrationEnvelope[] = [];
    const duplicates: string[] = [];
    const tail = () =>
      tailTopics({
        connection: settings,
        topics: integrationTopics(settings.topicPrefix),
        groupId,
        fromBeginning: true,
        onEvent: (event) => {
          handled.push(event);
        },
        onDuplicate: (event) => duplicates.push(event.eventId),
      });
    const first = await tail();
    await eventually(async () => handled.length + duplicates.length >= 10, 30_000);
    expect(handled).toHaveLength(5);
    expect(duplicates.sort()).toEqual(handled.map((event) => event.eventId).sort());
    await first.close();

    await append(3);
    await republish({ store: db.store, settings, after: firstEnd });
    const second = await tail();
    tails.push(second);
    await eventually(async () => handled.length >= 8, 30_000);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(handled).toHaveLength(8); // the committed offsets kept the first five from coming back
    expect(new Set(handled.map((event) => event.eventId)).size).toBe(8);
  });
});
