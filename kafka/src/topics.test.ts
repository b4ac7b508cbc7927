import { integrationTopics } from '@issuer/events';
import { describe, expect, it } from 'vitest';
import { createAdmin } from './client';
import { kafkaBrokersForTests, testKafkaSettings } from './testing/broker';
import { ensureTopics } from './topics';

const brokers = kafkaBrokersForTests();

describe.skipIf(brokers === undefined)('ensureTopics', () => {
  it('creates every integration topic once when several processes ask at the same moment', async () => {
    const settings = testKafkaSettings(brokers ?? []);
    const expected = integrationTopics(settings.topicPrefix);

    const created = await Promise.all([1, 2, 3, 4].map(() => ensureTopics(settings)));

    // Each topic was created by someone; the others found it there (or lost the race to it).
    expect(new Set(created.flat())).toEqual(new Set(expected));
    const admin = createAdmin(settings);
    try {
      const metadata = await admin.metadata({ topics: expected, forceUpdate: true });
      for (const topic of expected) expect(metadata.topics.get(topic)?.partitions).toHaveLength(3);
    } finally {
      await admin.close();
    }
    expect(await ensureTopics(settings)).toEqual([]);
  }, 60_000);
});
