import { integrationMapping, integrationTopics } from '@issuer/events';
import { defaultPublisherName } from '@issuer/kafka';
import {
  DedicatedBroker,
  eventually,
  kafkaBrokersForTests,
  RecordingConsumer,
  testKafkaSettings,
} from '@issuer/kafka/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type AccountsHarness,
  registered,
  startAccountsHarness,
} from '../auth/testing/accountsHarness';
import { type Publishing, startPublishing } from './publishing';

const brokers = kafkaBrokersForTests();
const outageMs = 30_000;

/** Runs on a broker of its own (stopping the shared one would disturb the other suites). */
describe.skipIf(brokers === undefined)('broker stopped for 30 s while commands keep coming', () => {
  let broker: DedicatedBroker;
  let h: AccountsHarness;
  let publishing: Publishing;
  let consumer: RecordingConsumer | undefined;

  beforeAll(async () => {
    [broker, h] = await Promise.all([DedicatedBroker.start(), startAccountsHarness()]);
  }, 120_000);
  afterAll(async () => {
    await consumer?.stop();
    await publishing?.stop();
    await h?.close();
    await broker?.remove();
  }, 60_000);

  const publisherPosition = async () => {
    const health = (await (await h.call('GET', '/api/health')).json()) as {
      projections: { name: string; position: string | null; lagEvents: number; state: string }[];
    };
    return health.projections.find((projection) => projection.name === defaultPublisherName);
  };

  it('commands still succeed; once it is back the backlog drains and a consumer sees every event', async () => {
    const settings = testKafkaSettings(broker.brokers);
    publishing = await startPublishing({
      config: { kafka: settings },
      store: h.store,
      pool: h.pool,
      logger: h.deps.logger,
    });
    h.deps.projectionStatus = publishing.withStatus(h.deps.projectionStatus);
    const { access_token: token } = await registered(h);
    const head = async () => (await h.store.headPosition())?.toString();
    await eventually(async () => (await publisherPosition())?.position === (await head()), 30_000);

    await broker.stop();
    const answers: number[] = [];
    const outageEnds = performance.now() + outageMs;
    while (performance.now() < outageEnds) {
      const saved = await h.call('POST', '/api/auth/user/update', {
        token,
        body: { user: { data: { settings: { save: answers.length }, shortcuts: [] } } },
      });
      answers.push(saved.status);
      if (answers.length % 20 === 0) await registered(h); // throws unless it answers 200
      await new Promise((resolve) => setTimeout(resolve, 150));
    }
    expect(answers.length).toBeGreaterThan(50);
    expect(answers.filter((status) => status !== 200)).toEqual([]);
    const duringOutage = await publisherPosition();
    expect(duringOutage?.state).toBe('retrying');
    expect(duringOutage?.lagEvents).toBeGreaterThan(50);

    await broker.start();
    consumer = await RecordingConsumer.start(settings, integrationTopics(settings.topicPrefix));
    await h.settledHead();
    const stored = await h.store.readAll({ maxCount: 10_000 });
    const published = stored.filter((event) => integrationMapping(event.type)?.published);
    await consumer.waitUntil(() => consumer?.distinctEventIds().size === published.length, 60_000);
    expect([...consumer.distinctEventIds()].sort()).toEqual(published.map((e) => e.id).sort());
    for (const streamId of new Set(published.map((event) => event.streamId))) {
      const firstSeen = new Set(
        consumer.records.filter((r) => r.key === streamId).map((r) => r.envelope.eventId),
      );
      expect([...firstSeen]).toEqual(
        published.filter((e) => e.streamId === streamId).map((e) => e.id),
      );
    }
    await eventually(async () => (await publisherPosition())?.position === (await head()), 10_000);
    expect((await publisherPosition())?.state).toBe('publishing');
  }, 200_000);
});
