import { randomUUID } from 'node:crypto';
import { type IntegrationEnvelope, integrationEnvelope } from '@issuer/events';
import type { Message } from '@platformatic/kafka';
import { createConsumer, type KafkaConnection, type StringConsumer } from '../client';

export interface ReceivedRecord {
  topic: string;
  partition: number;
  offset: string;
  key: string;
  headers: Record<string, string>;
  envelope: IntegrationEnvelope;
}

/** What recording takes of a message read from the broker. */
export type ReadMessage = Pick<
  Message<string, string, string, string>,
  'topic' | 'partition' | 'offset' | 'key' | 'value' | 'headers'
>;

/**
 * Reads topics from the beginning in a fresh consumer group and keeps every record (duplicates
 * included), so tests can check exactly what a downstream consumer would get.
 */
export class RecordingConsumer {
  readonly records: ReceivedRecord[] = [];
  /** Kept as records arrive: rebuilding it per record made waits quadratic in the record count. */
  readonly #eventIds = new Set<string>();
  #listeners = new Set<(record: ReceivedRecord) => void>();
  /** Why the broker's messages stopped coming, if they did: said when a wait times out. */
  #failure: Error | undefined;

  /** Without a consumer, records come only from `receive` (tests of this class). */
  constructor(private readonly consumer?: StringConsumer) {}

  static async start(
    connection: KafkaConnection,
    topics: readonly string[],
  ): Promise<RecordingConsumer> {
    const consumer = createConsumer(connection, {
      groupId: `test-${randomUUID()}`,
      maxWaitTime: 100,
      autocommit: false, // a fresh group each time: its offsets are never read again
    });
    const stream = await consumer
      .consume({ topics: [...topics], mode: 'earliest' })
      .catch(async (error: unknown) => {
        await consumer.close();
        throw error;
      });
    const recording = new RecordingConsumer(consumer);
    stream.on('data', (message) => recording.receive(message));
    stream.on('error', (error) => {
      recording.#failure = error;
    });
    return recording;
  }

  /** Records one message: what `start` does with each the broker sends; tests feed it directly. */
  receive(message: ReadMessage): void {
    const record = {
      topic: message.topic,
      partition: message.partition,
      offset: message.offset.toString(),
      key: message.key ?? '',
      headers: Object.fromEntries(message.headers),
      envelope: integrationEnvelope.parse(JSON.parse(message.value ?? 'null')),
    };
    this.records.push(record);
    this.#eventIds.add(record.envelope.eventId);
    for (const listener of this.#listeners) listener(record);
  }

  /** Distinct event ids seen so far (what a consumer deduplicating by event id keeps); live. */
  distinctEventIds(): ReadonlySet<string> {
    return this.#eventIds;
  }

  /**
   * Resolves once every one of `eventIds` was received; after `timeoutMs` resolves with those
   * still missing. Constant work per record, so it keeps up with tens of thousands of records,
   * which a `waitUntil` predicate scanning every id on every record does not.
   */
  waitForEventIds(eventIds: Iterable<string>, timeoutMs = 30_000): Promise<string[]> {
    const missing = new Set([...eventIds].filter((id) => !this.#eventIds.has(id)));
    if (missing.size === 0) return Promise.resolve([]);
    return new Promise((resolve) => {
      const received = (record: ReceivedRecord) => {
        if (missing.delete(record.envelope.eventId) && missing.size === 0) finish();
      };
      const finish = () => {
        clearTimeout(timer);
        this.#listeners.delete(received);
        resolve([...missing]);
      };
      const timer = setTimeout(finish, timeoutMs);
      this.#listeners.add(received);
    });
  }

  /** Resolves once `done()` holds; rejects after `timeoutMs` with what was received. */
  waitUntil(
    done: (records: readonly ReceivedRecord[]) => boolean,
    timeoutMs = 30_000,
  ): Promise<void> {
    if (done(this.records)) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const check = () => {
        if (!done(this.records)) return;
        clearTimeout(timer);
        this.#listeners.delete(check);
        resolve();
      };
      const timer = setTimeout(() => {
        this.#listeners.delete(check);
        reject(new Error(`timed out after ${timeoutMs} ms with ${this.#progress()}`));
      }, timeoutMs);
      this.#listeners.add(check);
    });
  }

  /** Closes the stream and leaves the group (the broker forgets the group later on its own). */
  async stop(): Promise<void> {
    await this.consumer?.close(true);
  }

  #progress(): string {
    const records = `${this.records.length} records`;
    return this.#failure ? `${records}; the consumer failed: ${this.#failure.message}` : records;
  }
}

/** Polls until `check` holds; fails after `timeoutMs`. */
export async function eventually(
  check: () => Promise<boolean>,
  timeoutMs: number,
  what = 'condition',
): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!(await check())) {
    if (performance.now() > deadline)
      throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
