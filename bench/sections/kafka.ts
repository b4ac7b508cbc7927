import { randomUUID } from 'node:crypto';
import { type IntegrationMessage, integrationTopics, toIntegrationMessage } from '@issuer/events';
import { PostgresEventStore } from '@issuer/eventstore';
import {
  createIdempotentProducer,
  createKafka,
  ensureTopics,
  KafkaPublisher,
  type KafkaSettings,
  produceRequests,
} from '@issuer/kafka';
import { DedicatedBroker } from '@issuer/kafka/testing';
import pino from 'pino';
import { registerUsers, startApp, userUpdateBody } from '../lib/appProcess';
import { onCleanup } from '../lib/cleanup';
import { bulkLoadHistory } from '../lib/loadHistory';
import type { BenchOptions } from '../lib/options';
import { benchPostgres, withPool } from '../lib/postgres';
import { type Figure, figure } from '../lib/report';
import { type LatencySummary, summarize } from '../lib/stats';

const SECTION = 'kafka';
const TARGET_PER_SECOND = 20_000;
const TARGET_P99_MS = 250;
/** A command whose event has not arrived by then counts as this long (and is reported). */
const GIVE_UP_MS = 5_000;

const logger = pino({ level: 'warn' });

/**
 * Publication throughput: N stored events (portal-shaped, default 100,000) published by the real
 * KafkaPublisher from checkpoint zero until it is at the head (read, map, send with acks=all,
 * checkpoint). Baseline: kafkajs's idempotent producer alone sending the very same records,
 * prepared beforehand, in requests of the same size. Then the end-to-end lag: the app as
 * `npm start` runs it with KAFKA_BROKERS, a command at a time, from its HTTP answer to the
 * event's arrival at a kafkajs consumer.
 */
export async function benchKafka(options: BenchOptions): Promise<Figure[]> {
  const brokers = await benchBrokers();
  const postgres = await benchPostgres();
  const url = await postgres.createDatabase('bench_kafka');
  const loaded = await withPool(url, 4, async (pool) => {
    await new PostgresEventStore(pool).migrate();
    return bulkLoadHistory(pool, options.kafkaEvents);
  });
  console.error(`  stored ${loaded.events.toLocaleString('en-US')} events`);

  const publisherSettings = settingsFor(brokers);
  const rawSettings = settingsFor(brokers);
  const kafka = createKafka(publisherSettings, logger);
  await ensureTopics(kafka, publisherSettings);
  await ensureTopics(kafka, rawSettings);

  const published = await withPool(url, 8, (pool) => timePublisher(pool, publisherSettings));
  console.error(
    `  publisher: ${loaded.events} events in ${published.seconds.toFixed(2)} s = ${Math.round(published.perSecond)}/s`,
  );
  const raw = await withPool(url, 4, (pool) => timeRawProducer(pool, rawSettings));
  console.error(
    `  raw kafkajs producer: ${raw.records} records in ${raw.seconds.toFixed(2)} s = ${Math.round(raw.perSecond)}/s`,
  );
  const lag = await endToEndLag(await postgres.createDatabase('bench_kafka_lag'), brokers, options);
  console.error(
    `  answer → consumer: p50 ${lag.summary.p50.toFixed(1)} ms, p99 ${lag.summary.p99.toFixed(1)} ms`,
  );

  return [
    figure(SECTION, 'publication throughput', published.perSecond, 'events/s', {
      baseline: { name: 'raw kafkajs idempotent producer, same records', value: raw.perSecond },
      target: {
        text: `≥ ${TARGET_PER_SECOND.toLocaleString('en-US')}/s`,
        met: published.perSecond >= TARGET_PER_SECOND,
      },
      note: `${loaded.events} stored events (${published.records} records, the rest internal-only), from checkpoint zero to the head; read, map, send (acks=all), checkpoint`,
    }),
    figure(SECTION, 'command answer → consumer p50', lag.summary.p50, 'ms'),
    figure(SECTION, 'command answer → consumer p99', lag.summary.p99, 'ms', {
      target: {
        text: `≤ ${TARGET_P99_MS} ms`,
        met: lag.summary.p99 <= TARGET_P99_MS && lag.gaveUp === 0,
      },
      note: `${lag.summary.count} commands one at a time, answered without waiting for the read models (READ_YOUR_WRITES_TIMEOUT_MS=0); max ${lag.summary.max.toFixed(1)} ms; ${lag.gaveUp} not seen within ${GIVE_UP_MS} ms`,
    }),
  ];
}

/** KAFKA_BROKERS when set; otherwise a broker of the bench's own (scripts/kafka/broker.sh). */
async function benchBrokers(): Promise<string[]> {
  const fromEnvironment = process.env.KAFKA_BROKERS;
  if (fromEnvironment) return fromEnvironment.split(',').map((broker) => broker.trim());
  console.error('  starting a broker (scripts/kafka/broker.sh) for this run');
  const broker = await DedicatedBroker.start();
  onCleanup('bench Kafka broker', () => broker.remove());
  return broker.brokers;
}

function settingsFor(brokers: readonly string[]): KafkaSettings {
  return {
    brokers,
    clientId: 'issuer-bench',
    topicPrefix: `bench-${randomUUID().slice(0, 8)}`,
    topicPartitions: 6,
    replicationFactor: 1,
  };
}

interface Throughput {
  records: number;
  seconds: number;
  perSecond: number;
}

async function timePublisher(
  pool: import('pg').Pool,
  settings: KafkaSettings,
): Promise<Throughput> {
  const store = new PostgresEventStore(pool);
  const head = await store.headPosition();
  const publisher = new KafkaPublisher({
    store,
    pool,
    settings,
    logger,
    name: settings.topicPrefix,
  });
  const events = await countEvents(store);
  const started = performance.now();
  const done = new Promise<void>((resolve) => {
    publisher.onProgress((position) => {
      if (head !== undefined && position >= head) resolve();
    });
  });
  await publisher.start();
  await done;
  const seconds = (performance.now() - started) / 1000;
  await publisher.stop();
  await store.close();
  return { records: events.published, seconds, perSecond: events.all / seconds };
}

async function countEvents(store: PostgresEventStore): Promise<{ all: number; published: number }> {
  const messages = await integrationMessages(store, 'count');
  return { all: messages.all, published: messages.messages.length };
}

async function integrationMessages(
  store: PostgresEventStore,
  prefix: string,
): Promise<{ all: number; messages: IntegrationMessage[] }> {
  const messages: IntegrationMessage[] = [];
  let all = 0;
  for (let after: bigint | undefined; ; ) {
    const batch = await store.readAll({ after, maxCount: 20_000 });
    const last = batch.at(-1);
    if (!last) break;
    all += batch.length;
    for (const event of batch) {
      const message = toIntegrationMessage(event, prefix);
      if (message) messages.push(message);
    }
    after = last.position;
  }
  return { all, messages };
}

/** The same records as the publisher sent, prepared up front, through kafkajs alone. */
async function timeRawProducer(
  pool: import('pg').Pool,
  settings: KafkaSettings,
): Promise<Throughput> {
  const store = new PostgresEventStore(pool);
  const { messages } = await integrationMessages(store, settings.topicPrefix);
  await store.close();
  const requests = [...produceRequests(messages)];
  const producer = createIdempotentProducer(createKafka(settings, logger));
  await producer.connect();
  const started = performance.now();
  for (const topicMessages of requests) await producer.sendBatch({ acks: -1, topicMessages });
  const seconds = (performance.now() - started) / 1000;
  await producer.disconnect();
  return { records: messages.length, seconds, perSecond: messages.length / seconds };
}

async function endToEndLag(
  databaseUrl: string,
  brokers: readonly string[],
  options: BenchOptions,
): Promise<{ summary: LatencySummary; gaveUp: number }> {
  const settings = settingsFor(brokers);
  // Answer as soon as the event is stored, as the lag section does: otherwise the answer waits for
  // the read models, and the publisher's work hides inside that wait.
  const app = await startApp(databaseUrl, {
    KAFKA_BROKERS: brokers.join(','),
    KAFKA_TOPIC_PREFIX: settings.topicPrefix,
    READ_YOUR_WRITES_TIMEOUT_MS: '0',
  });
  const kafka = createKafka(settings, logger);
  await ensureTopics(kafka, settings);
  const consumer = kafka.consumer({ groupId: `bench-${randomUUID()}`, maxWaitTimeInMs: 100 });
  const arrivals = new Map<number, (at: number) => void>();
  try {
    await consumer.connect();
    await consumer.subscribe({
      topics: integrationTopics(settings.topicPrefix),
      fromBeginning: true,
    });
    let registered: () => void = () => {};
    const registration = new Promise<void>((resolve) => {
      registered = resolve;
    });
    await consumer.run({
      eachMessage: async ({ message }) => {
        const envelope = JSON.parse(message.value?.toString() ?? '{}');
        if (envelope.type === 'UserRegistered') registered();
        const counter = envelope.data?.settings?.counter;
        if (typeof counter === 'number') arrivals.get(counter)?.(performance.now());
      },
    });
    const [user] = await registerUsers(app.url, 1);
    if (!user) throw new Error('registration returned no user');
    await registration; // the consumer is assigned and reading
    const latencies: number[] = [];
    let gaveUp = 0;
    for (let counter = 1; counter <= options.lagSamples; counter += 1) {
      let timer: NodeJS.Timeout | undefined;
      const arrived = new Promise<number | undefined>((resolve) => {
        arrivals.set(counter, resolve);
        timer = setTimeout(() => resolve(undefined), GIVE_UP_MS);
      });
      const response = await fetch(`${app.url}/api/auth/user/update`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${user.token}` },
        body: userUpdateBody(counter),
        signal: AbortSignal.timeout(10_000),
      });
      await response.arrayBuffer();
      const answered = performance.now();
      if (response.status !== 200) throw new Error(`user/update answered ${response.status}`);
      const arrivedAt = await arrived;
      clearTimeout(timer);
      arrivals.delete(counter);
      if (arrivedAt === undefined) gaveUp += 1;
      // An event can arrive before the answer reaches the client: that counts as no lag.
      latencies.push(Math.max(0, (arrivedAt ?? performance.now()) - answered));
    }
    return { summary: summarize(latencies), gaveUp };
  } finally {
    await consumer.disconnect();
    await app.stop();
  }
}
