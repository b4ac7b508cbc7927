import { type IntegrationEnvelope, integrationEnvelope } from '@issuer/events';
import type { Message } from '@platformatic/kafka';
import { createConsumer, type KafkaConnection } from './client';

export interface TailOptions {
  connection: KafkaConnection;
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

export interface Tail {
  /**
   * Settles when the tail stops: after `close()`, or rejected with what stopped it (an `onEvent`
   * that threw, a broker away for longer than the client retries). The record it failed on is not
   * committed, so the group reads it again when it is tailed next.
   */
  readonly stopped: Promise<void>;
  /** Lets the event being handled finish and commit, then leaves the group. */
  close(): Promise<void>;
}

type StringMessage = Message<string, string, string, string>;

/**
 * How a downstream system should consume: a consumer group, offsets committed by hand after the
 * event was handled (at least once: a crash before the commit redelivers), and duplicates dropped
 * by event id (a republish or a publisher crash re-sends the same ids). A real consumer keeps the
 * handled ids in its own database, in the transaction that applies the event; this example keeps
 * the most recent ones in memory.
 */
export async function tailTopics(options: TailOptions): Promise<Tail> {
  const consumer = createConsumer(options.connection, {
    groupId: options.groupId,
    autocommit: false,
    maxWaitTime: 250,
  });
  const stream = await consumer
    .consume({
      topics: [...options.topics],
      // The group's committed offsets; the fallback only where it has none yet.
      mode: 'committed',
      fallbackMode: options.fromBeginning ? 'earliest' : 'latest',
    })
    .catch(async (error: unknown) => {
      await consumer.close();
      throw error;
    });
  const handle = recordHandler(options);
  const stopped = (async () => {
    try {
      // One record at a time: the next is read only once this one is handled and committed.
      for await (const message of stream) await handle(message);
    } finally {
      await consumer.close(true);
    }
  })();
  return {
    stopped,
    async close() {
      await stream.close();
      await stopped;
    },
  };
}

function recordHandler(options: TailOptions): (message: StringMessage) => Promise<void> {
  const seen = new RecentIds(options.rememberedIds ?? 100_000);
  return async (message) => {
    const envelope = integrationEnvelope.parse(JSON.parse(message.value ?? 'null'));
    const where = {
      topic: message.topic,
      partition: message.partition,
      offset: message.offset.toString(),
      key: message.key ?? '',
    };
    if (seen.has(envelope.eventId)) options.onDuplicate?.(envelope, where);
    else {
      await options.onEvent(envelope, where);
      seen.add(envelope.eventId);
    }
    // Commits the next offset to read, this record's plus one.
    await message.commit();
  };
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
