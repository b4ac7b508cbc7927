import { randomUUID } from 'node:crypto';
import { type IntegrationEnvelope, integrationEnvelope } from '@issuer/events';
import type { Consumer, Kafka } from 'kafkajs';

export interface ReceivedRecord {
  topic: string;
  partition: number;
  offset: string;
  key: string;
  headers: Record<string, string>;
  envelope: IntegrationEnvelope;
}

/**
 * Reads topics from the beginning in a fresh consumer group and keeps every record (duplicates
 * included), so tests can check exactly what a downstream consumer would get.
 */
export class RecordingConsumer {
  readonly records: ReceivedRecord[] = [];
  /** Kept as records arrive: rebuilding it per record made waits quadratic in the record count. */
  readonly #eventIds = new Set<string>();
  #listeners = new Set<(record: ReceivedRecord) => void>();

  private constructor(private readonly consumer: Consumer) {}

  static async start(kafka: Kafka, topics: readonly string[]): Promise<RecordingConsumer> {
    const consumer = kafka.consumer({ groupId: `test-${randomUUID()}`, maxWaitTimeInMs: 100 });
    const recording = new RecordingConsumer(consumer);
    await consumer.connect();
    await consumer.subscribe({ topics: [...topics], fromBeginning: true });
    await consumer.run({
      eachMessage: async ({ topic, partition, message }) => {
        const headers: Record<string, string> = {};
        for (const [name, value] of Object.entries(message.headers ?? {})) {
          headers[name] = String(value);
        }
        const record = {
          topic,
          partition,
          offset: message.offset,
          key: message.key?.toString() ?? '',
          headers,
          envelope: integrationEnvelope.parse(JSON.parse(message.value?.toString() ?? 'null')),
        };
        recording.records.push(record);
        recording.#eventIds.add(record.envelope.eventId);
        for (const listener of recording.#listeners) listener(record);
      },
    });
    return recording;
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
        reject(new Error(`timed out after ${timeoutMs} ms with ${this.records.length} records`));
      }, timeoutMs);
      this.#listeners.add(check);
    });
  }

  stop(): Promise<void> {
    return this.consumer.disconnect();
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
