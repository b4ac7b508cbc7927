import { integrationTopics } from '@issuer/events';
import { sleep } from '@issuer/projections';
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
    if (missing.length > 0) await createMissing(admin, settings, missing);
    await waitForLeaders(admin, topics);
    return missing;
  } finally {
    await admin.close();
  }
}

/**
 * Creates `missing`, asking again for what is still missing after a failure until the wait runs
 * out. Another process (a second API, a test file beside this one) may create some at the same
 * moment: "already exists" is success, and a loaded broker's listing can lag behind its creation.
 */
export async function createMissing(
  admin: Pick<Admin, 'createTopics' | 'listTopics'>,
  settings: KafkaSettings,
  missing: string[],
) {
  const deadline = Date.now() + leaderWaitMs;
  let pending = missing;
  for (;;) {
    try {
      await admin.createTopics({
        topics: pending,
        partitions: settings.topicPartitions,
        replicas: settings.replicationFactor,
      });
      return;
    } catch (error) {
      if (reasonsOf(error).every((reason) => reason === 'TOPIC_ALREADY_EXISTS')) return;
      const existingNow = new Set(await admin.listTopics());
      pending = pending.filter((topic) => !existingNow.has(topic));
      if (pending.length === 0) return;
      if (Date.now() > deadline)
        throw new Error(`could not create ${pending.join(', ')}: ${reasonsOf(error).join(', ')}`, {
          cause: error,
        });
    }
    await sleep(200);
  }
}

/** The broker's reason per topic of a failed request (`TOPIC_ALREADY_EXISTS`…), else the message. */
function reasonsOf(error: unknown): string[] {
  const inner = error instanceof AggregateError ? error.errors : [error];
  return inner.map((one: unknown) =>
    typeof one === 'object' && one !== null && 'apiId' in one && typeof one.apiId === 'string'
      ? one.apiId
      : String(one),
  );
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
    await sleep(200);
  }
}
