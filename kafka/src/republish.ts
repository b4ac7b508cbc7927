import type { EventStore } from '@issuer/events';
import type { Logger } from 'pino';
import { createIdempotentProducer, createKafka } from './client';
import { sendBatch } from './publisher';
import type { KafkaSettings } from './settings';
import { ensureTopics } from './topics';

export interface RepublishOptions {
  store: EventStore;
  settings: KafkaSettings;
  logger: Logger;
  /** Re-send the events strictly after this global position (undefined: from the first event). */
  after: bigint | undefined;
  batchSize?: number;
}

export interface RepublishResult {
  /** Events read from the store (internal-only ones included). */
  read: number;
  /** Records sent to Kafka. */
  published: number;
  /** Position of the last event re-sent; the live publisher carries on from its own checkpoint. */
  lastPosition: bigint | undefined;
}

/**
 * Re-sends, for a consumer that needs a replay, every event after a position up to the store's
 * head when it starts, exactly as the publisher sent them (same event ids, keys and envelopes).
 * The publisher's checkpoint is not touched.
 */
export async function republish(options: RepublishOptions): Promise<RepublishResult> {
  const { store, settings, logger } = options;
  const head = await store.headPosition();
  const result: RepublishResult = { read: 0, published: 0, lastPosition: undefined };
  if (head === undefined || (options.after !== undefined && options.after >= head)) return result;
  const kafka = createKafka(settings, logger);
  await ensureTopics(kafka, settings);
  const producer = createIdempotentProducer(kafka);
  await producer.connect();
  try {
    let after = options.after;
    for (;;) {
      const events = (await store.readAll({ after, maxCount: options.batchSize ?? 5_000 })).filter(
        (event) => event.position <= head,
      );
      const last = events.at(-1);
      if (last === undefined) break;
      result.published += await sendBatch(producer, events, settings.topicPrefix);
      result.read += events.length;
      result.lastPosition = last.position;
      after = last.position;
      if (last.position >= head) break;
    }
    return result;
  } finally {
    await producer.disconnect();
  }
}
