import { type IntegrationEnvelope, integrationEnvelope } from '@issuer/events';
import type { Consumer, Kafka } from 'kafkajs';

export interface TailOptions {
  kafka: Kafka;
  topics: readonly string[];
  /** The consumer group: Kafka remembers its committed offsets across restarts. */
  groupId: string;
  /** Where a group without committed offsets starts. Default: only new records. */
  fromBeginning?: boolean;
  /** Handles one event; the offset is committed only after it resolved. */
  onEvent(envelope: IntegrationEnvelope, where: RecordPlace): Promise<void> | void;
  onDuplicate?(envelope: IntegrationEnvelope, where: RecordPlace): void;
  /** Event ids remembered for deduplication. Default 100,000. */
  rememberedIds?: number;
}

export interface RecordPlace {
  topic: string;
  partition: number;
  offset: string;
  key: string;
}

/**
 * How a downstream system should consume: a consumer group, offsets committed by hand after the
 * event was handled (at least once: a crash before the commit redelivers), and duplicates dropped
 * by event id (a republish or a publisher crash re-sends the same ids). A real consumer keeps the
 * handled ids in its own database, in the transaction that applies the event; this example keeps
 * the most recent ones in memory.
 */
export async function tailTopics(options: TailOptions): Promise<Consumer> {
  const consumer = options.kafka.consumer({ groupId: options.groupId, maxWaitTimeInMs: 250 });
  const seen = new RecentIds(options.rememberedIds ?? 100_000);
  await consumer.connect();
  await consumer.subscribe({
    topics: [...options.topics],
    fromBeginning: options.fromBeginning ?? false,
  });
  await consumer.run({
    autoCommit: false,
    eachMessage: async ({ topic, partition, message }) => {
      const envelope = integrationEnvelope.parse(JSON.parse(message.value?.toString() ?? 'null'));
      const where = {
        topic,
        partition,
        offset: message.offset,
        key: message.key?.toString() ?? '',
      };
      if (seen.has(envelope.eventId)) options.onDuplicate?.(envelope, where);
      else {
        await options.onEvent(envelope, where);
        seen.add(envelope.eventId);
      }
      // The committed offset is the next record to read.
      await consumer.commitOffsets([
        { topic, partition, offset: (BigInt(message.offset) + 1n).toString() },
      ]);
    },
  });
  return consumer;
}

/** A bounded set: the oldest ids are forgotten first. */
class RecentIds {
  readonly #ids = new Set<string>();
  constructor(private readonly capacity: number) {}

  has(id: string): boolean {
    return this.#ids.has(id);
  }

  add(id: string): void {
    this.#ids.add(id);
    if (this.#ids.size > this.capacity) {
      const oldest = this.#ids.values().next().value;
      if (oldest !== undefined) this.#ids.delete(oldest);
    }
  }
}
