import { randomUUID } from 'node:crypto';
import { compatibilityPartitioner } from '@platformatic/kafka';
import { describe, expect, it } from 'vitest';
import { partitionOfKey } from './partitioner';

describe('partitionOfKey', () => {
  /** @platformatic/kafka's Java-compatible murmur2 (its default partitioner is not the Java one). */
  const javaPartition = (key: string, partitions: number) =>
    compatibilityPartitioner(undefined as never, Buffer.from(key)) % partitions;

  it("gives every key the partition Kafka's Java client gives it", () => {
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
      for (const key of keys) {
        expect(partitionOfKey(key, partitions), `${key} over ${partitions}`).toBe(
          javaPartition(key, partitions),
        );
      }
    }
  });

  it('spreads keys over every partition', () => {
    const counts = new Array(6).fill(0);
    for (let index = 0; index < 6_000; index++) counts[partitionOfKey(`Customer-${index}`, 6)] += 1;
    for (const count of counts) expect(count).toBeGreaterThan(800);
  });
});
