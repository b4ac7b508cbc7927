import { integrationTopics, type RecordedEvent } from '@issuer/events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KafkaPublisher } from './publisher';
import { DedicatedBroker, kafkaBrokersForTests, testKafkaSettings } from './testing/broker';
import { eventually, RecordingConsumer } from './testing/consumer';
import { type StoreFixture, storeFixture, terminalEvents } from './testing/storeFixture';

const streams = 50;
const appendsPerStream = 40;
const eventsPerAppend = 10;
const totalEvents = streams * appendsPerStream * eventsPerAppend;

/** Runs on a broker of its own, which it stops while batches are in flight. */
describe.skipIf(kafkaBrokersForTests() === undefined)(
  'publisher pipelining: broker gone with batches in flight, then a restart',
  () => {
    let broker: DedicatedBroker;
    let db: StoreFixture;
    let consumer: RecordingConsumer | undefined;
    const publishers: KafkaPublisher[] = [];

    beforeAll(async () => {
      [broker, db] = await Promise.all([DedicatedBroker.start(), storeFixture()]);
    }, 120_000);
    afterAll(async () => {
      await consumer?.stop();
      await Promise.all(publishers.map((publisher) => publisher.stop()));
      await db?.close();
      await broker?.remove();
    }, 60_000);

    function publisher(settings: ReturnType<typeof testKafkaSettings>): KafkaPublisher {
      const created = new KafkaPublisher({
        store: db.store,
        pool: db.pool,
        settings: { ...settings, producerLanes: 3 },
        logger: db.logger,
        name: `pipelined-${settings.topicPrefix}`,
        // Small batches, so that the stop finds several of them in flight on every lane.
        batchSize: 25,
        maxBatchesInFlight: 4,
        idlePollMs: 200,
      });
      publishers.push(created);
      return created;
    }

    it('keeps the checkpoint behind every unacknowledged batch; the restart sends the rest, in stream order', async () => {
      const settings = testKafkaSettings(broker.brokers);
      // Streams interleaved, so that each batch spans streams, partitions and lanes.
      for (let append = 0; append < appendsPerStream; append++)
        for (let stream = 0; stream < streams; stream++)
          await db.store.appendToStream(
            `Company-pipelined-${stream}`,
            terminalEvents(`c${stream}`, eventsPerAppend),
            { expectedRevision: 'any' },
          );
      // A worker's open transaction elsewhere on the shared server can still hide the newest.
      let stored: RecordedEvent[] = [];
      await eventually(
        async () => {
          stored = await db.store.readAll({ maxCount: totalEvents + 1 });
          return stored.length === totalEvents;
        },
        30_000,
        `all ${totalEvents} events readable`,
      );
      const head = stored.at(-1)?.position ?? 0n;
      const quarter = stored[totalEvents / 4]?.position ?? 0n;

      const first = publisher(settings);
      let brokerStopped: Promise<void> | undefined;
      first.onProgress((checkpoint) => {
        if (checkpoint >= quarter) brokerStopped ??= broker.stop();
      });
      await first.start();
      await eventually(async () => brokerStopped !== undefined, 60_000, 'a quarter published');
      await brokerStopped;
      await eventually(async () => (await first.status()).state === 'retrying', 20_000);
      await first.stop(); // gives up on the batches the broker never acknowledged
      const checkpoint = (await db.checkpointOf(first.name)) ?? 0n;
      expect(checkpoint).toBeGreaterThanOrEqual(quarter);
      expect(checkpoint).toBeLessThan(head);

      await broker.start();
      consumer = await RecordingConsumer.start(settings, integrationTopics(settings.topicPrefix));
      const upToCheckpoint = stored.filter((event) => event.position <= checkpoint);
      expect(await consumer.waitForEventIds(ids(upToCheckpoint), 60_000)).toEqual([]);

      const second = await publisher(settings).start();
      await eventually(
        async () => (await db.checkpointOf(second.name)) === head,
        90_000,
        'the restarted publisher to reach the head',
      );
      expect(await consumer.waitForEventIds(ids(stored), 60_000)).toEqual([]);
      for (let stream = 0; stream < streams; stream++) {
        const streamId = `Company-pipelined-${stream}`;
        const firstSeen = new Set(
          consumer.records.filter((r) => r.key === streamId).map((r) => r.envelope.eventId),
        );
        expect([...firstSeen]).toEqual(ids(stored.filter((e) => e.streamId === streamId)));
      }
    }, 300_000);
  },
);

function ids(events: readonly RecordedEvent[]): string[] {
  return events.map((event) => event.id);
}
