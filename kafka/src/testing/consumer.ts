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
  #listeners = new Set<() => void>();

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
        recording.records.push({
          topic,
          partition,
          offset: message.offset,
          key: message.key?.toString() ?? '',
          headers,
          envelope: integrationEnvelope.parse(JSON.parse(message.value?.toString() ?? 'null')),
        });
        for (const listener of recording.#listeners) listener();
      },
    });
    return recording;
  }

  /** Distinct event ids seen so far (what a consumer deduplicating by event id keeps). */
  distinctEventIds(): Set<string> {
    return new Set(this.records.map((record) => record.envelope.eventId));
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
