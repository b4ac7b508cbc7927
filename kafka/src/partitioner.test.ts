import { randomUUID } from 'node:crypto';
import { Partitioners } from 'kafkajs';
import { describe, expect, it } from 'vitest';
import { partitionOfKey } from './partitioner';

describe('partitionOfKey', () => {
  const kafkajs = Partitioners.DefaultPartitioner();
  const metadataOf = (count: number) =>
    Array.from({ length: count }, (_, partitionId) => ({
      partitionId,
      leader: 1,
      replicas: [1],
      isr: [1],
      offlineReplicas: [],
      partitionErrorCode: 0,
    }));

  it('gives every key the partition kafkajs and the Java client give it', () => {
    const keys = [
      '',
      'a',
      'ab',
      'abc',
      'abcd',
      'Customer-ü',
      'Company-şirket-ğ',
      'شركة-٣',
      '😀-emoji',
      ...Array.from({ length: 2_000 }, (_, index) =>
        `Stream-${index}-${randomUUID()}`.slice(0, 7 + (index % 40)),
      ),
    ];
    for (const partitions of [1, 3, 6, 7, 12]) {
      const partitionMetadata = metadataOf(partitions);
      for (const key of keys) {
        const expected = kafkajs({ topic: 't', partitionMetadata, message: { key, value: '' } });
        expect(partitionOfKey(key, partitions), `${key} over ${partitions}`).toBe(expected);
      }
    }
  });

  it('spreads keys over every partition', () => {
    const counts = new Array(6).fill(0);
    for (let index = 0; index < 6_000; index++) counts[partitionOfKey(`Customer-${index}`, 6)] += 1;
    for (const count of counts) expect(count).toBeGreaterThan(800);
  });
});
