import { integrationTopics } from '@issuer/events';
import type { Admin } from '@platformatic/kafka';
import { createAdmin } from './client';
import type { KafkaSettings } from './settings';

/** How long a new topic may take to get partition leaders (a loaded broker needs seconds). */
const leaderWaitMs = 30_000;

/** Creates the integration topics that do not exist yet and waits for their leaders. */
export async function ensureTopics(settings: KafkaSettings): Promise<string[]> {
  const admin = createAdmin(settings);
  try {
    const topics = integrationTopics(settings.topicPrefix);
    const existing = new Set(await admin.listTopics());
    const missing = topics.filter((topic) => !existing.has(topic));
    if (missing.length > 0) {
      await admin
        .createTopics({
          topics: missing,
          partitions: settings.topicPartitions,
          replicas: settings.replicationFactor,
        })
        .catch(async (error: unknown) => {
          // Another process created some of them in the meantime (TOPIC_ALREADY_EXISTS): fine.
          const existingNow = new Set(await admin.listTopics());
          if (!missing.every((topic) => existingNow.has(topic))) throw error;
        });
    }
    await waitForLeaders(admin, topics);
    return missing;
  } finally {
    await admin.close();
  }
}

/**
 * A busy broker answers for a while that it does not know a just-created topic, or that its
 * partitions have no leader yet: ask again until every partition has one.
 */
async function waitForLeaders(admin: Admin, topics: string[]): Promise<void> {
  const deadline = Date.now() + leaderWaitMs;
  for (;;) {
    try {
      const metadata = await admin.metadata({ topics, forceUpdate: true });
      const ready = topics.every((topic) =>
        metadata.topics.get(topic)?.partitions.every((partition) => partition.leader >= 0),
      );
      if (ready) return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
    }
    if (Date.now() > deadline) throw new Error(`no partition leaders for ${topics.join(', ')}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
