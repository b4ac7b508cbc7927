import { integrationTopics } from '@issuer/events';
import type { Admin, Kafka } from 'kafkajs';
import type { KafkaSettings } from './settings';

/** How long a new topic may take to get partition leaders (a loaded broker needs seconds). */
const leaderWaitMs = 30_000;

/** Creates the integration topics that do not exist yet and waits for their leaders. */
export async function ensureTopics(kafka: Kafka, settings: KafkaSettings): Promise<string[]> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    const topics = integrationTopics(settings.topicPrefix);
    const existing = new Set(await admin.listTopics());
    const missing = topics.filter((topic) => !existing.has(topic));
    if (missing.length > 0) {
      await admin.createTopics({
        waitForLeaders: false, // waited for below
        topics: missing.map((topic) => ({
          topic,
          numPartitions: settings.topicPartitions,
          replicationFactor: settings.replicationFactor,
        })),
      });
    }
    await waitForLeaders(admin, topics);
    return missing;
  } finally {
    await admin.disconnect();
  }
}

/**
 * kafkajs's own `waitForLeaders` gives up when the metadata does not know a just-created topic
 * yet (UNKNOWN_TOPIC_OR_PARTITION), which a busy broker answers for a while: ask again instead.
 */
async function waitForLeaders(admin: Admin, topics: string[]): Promise<void> {
  const deadline = Date.now() + leaderWaitMs;
  for (;;) {
    try {
      const { topics: metadata } = await admin.fetchTopicMetadata({ topics });
      const ready = metadata.every(({ partitions }) =>
        partitions.every((partition) => partition.leader >= 0),
      );
      if (ready) return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
    }
    if (Date.now() > deadline) throw new Error(`no partition leaders for ${topics.join(', ')}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
