import { type EventStore, integrationTopics } from '@issuer/events';
import { ProducerLanes } from './lanes';
import { integrationMessagesOf } from './publisher';
import type { KafkaSettings } from './settings';
import { ensureTopics } from './topics';

export interface RepublishOptions {
  store: EventStore;
  settings: KafkaSettings;
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
  const { store, settings } = options;
  const head = await store.headPosition();
  const result: RepublishResult = { read: 0, published: 0, lastPosition: undefined };
  if (head === undefined || (options.after !== undefined && options.after >= head)) return result;
  await ensureTopics(settings);
  const lane = await ProducerLanes.connect(settings, integrationTopics(settings.topicPrefix), 1);
  try {
    let after = options.after;
    for (;;) {
      const events = (await store.readAll({ after, maxCount: options.batchSize ?? 5_000 })).filter(
        (event) => event.position <= head,
      );
      const last = events.at(-1);
      if (last === undefined) break;
      const messages = integrationMessagesOf(events, settings.topicPrefix);
      const [requests = []] = lane.split(messages);
      await lane.send(0, requests);
      result.published += messages.length;
      result.read += events.length;
      result.lastPosition = last.position;
      after = last.position;
      if (last.position >= head) break;
    }
    return result;
  } finally {
    await lane.disconnect();
  }
}
