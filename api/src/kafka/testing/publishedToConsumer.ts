import { integrationTopics } from '@issuer/events';
import { ensureTopics, type KafkaSettings } from '@issuer/kafka';
import { RecordingConsumer } from '@issuer/kafka/testing';
import type { AccountsHarness } from '../../auth/testing/accountsHarness';
import { type Publishing, startPublishing } from '../publishing';

/**
 * The harness's events published as `npm start` publishes them (its health shows the publisher),
 * and a consumer recording every topic of `settings`' prefix.
 */
export async function publishedToConsumer(
  h: AccountsHarness,
  settings: KafkaSettings,
): Promise<{ publishing: Publishing; consumer: RecordingConsumer; stop(): Promise<void> }> {
  const publishing = await startPublishing({
    config: { kafka: settings },
    store: h.store,
    pool: h.pool,
    logger: h.deps.logger,
  });
  h.deps.projectionStatus = publishing.withStatus(h.deps.projectionStatus);
  await ensureTopics(settings);
  const consumer = await RecordingConsumer.start(settings, integrationTopics(settings.topicPrefix));
  return {
    publishing,
    consumer,
    async stop() {
      await consumer.stop();
      await publishing.stop();
    },
  };
}
