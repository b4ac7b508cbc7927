import { integrationTopics } from '@issuer/events';
import { ResponseError } from '@platformatic/kafka';
import { describe, expect, it, vi } from 'vitest';
import { createAdmin } from './client';
import { kafkaBrokersForTests, testKafkaSettings } from './testing/broker';
import { createMissing, ensureTopics } from './topics';

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

describe('creating missing topics', () => {
  const settings = testKafkaSettings(['127.0.0.1:1']);
  const answeredWith = (code: number) =>
    new ResponseError(19, 7, { '/topics/0': [code, 'from the broker'] }, undefined);

  it('takes "already exists" as done, though the broker does not list the topic yet', async () => {
    const admin = {
      createTopics: vi.fn().mockRejectedValue(answeredWith(36)), // TOPIC_ALREADY_EXISTS
      listTopics: vi.fn().mockResolvedValue([]),
    };

    await createMissing(admin as never, settings, ['t.companies.v1']);

    expect(admin.createTopics).toHaveBeenCalledTimes(1);
  });

  it('asks again after another failure, for what is still missing', async () => {
    const admin = {
      createTopics: vi.fn().mockRejectedValueOnce(answeredWith(7)).mockResolvedValueOnce([]), // REQUEST_TIMED_OUT
      listTopics: vi.fn().mockResolvedValue(['t.users.v1']),
    };

    await createMissing(admin as never, settings, ['t.companies.v1', 't.users.v1']);

    expect(admin.createTopics).toHaveBeenLastCalledWith(
      expect.objectContaining({ topics: ['t.companies.v1'] }),
    );
  });
});
