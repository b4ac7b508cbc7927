import { randomUUID } from 'node:crypto';
import { type IntegrationMessage, integrationTopics, toIntegrationMessage } from '@issuer/events';
import { PostgresEventStore } from '@issuer/eventstore';
import {
  createAdmin,
  createConsumer,
  ensureTopics,
  KafkaPublisher,
  type KafkaSettings,
  type ProduceRecord,
  ProducerLanes,
} from '@issuer/kafka';
import { DedicatedBroker } from '@issuer/kafka/testing';
import { Kafka as KafkaJs, logLevel, Partitioners, type TopicMessages } from 'kafkajs';
import pino from 'pino';
import { registerUsers, startApp, userUpdateBody } from '../lib/appProcess';
import { onCleanup } from '../lib/cleanup';
import { meterCpu } from '../lib/cpu';
import { localBrokerPid } from '../lib/kafkaBroker';
import { bulkLoadHistory } from '../lib/loadHistory';
import type { BenchOptions } from '../lib/options';
import { benchPostgres, withPool } from '../lib/postgres';
import { type Figure, figure, notMeasured } from '../lib/report';
import { type LatencySummary, summarize } from '../lib/stats';

const SECTION = 'kafka';
const FORMER_CLIENT = 'the former client: raw kafkajs';
const CLIENT_BASELINE =
  "raw @platformatic/kafka idempotent producer (the publisher's client), one request at a time";
const TARGET_PER_SECOND = 20_000;
const TARGET_P99_MS = 250;
/** The publisher against the client alone: at least this share of its throughput. */
const TARGET_RATIO = 0.95;
/** Rounds of publisher and baselines, taking turns so that load from elsewhere hits each. */
const ROUNDS = 2;
/** Producer lanes of the publisher's second run (KAFKA_PRODUCER_LANES=3); its default is 1. */
const MORE_LANES = 3;
/** A command whose event has not arrived by then counts as this long (and is reported). */
const GIVE_UP_MS = 5_000;

const logger = pino({ level: 'warn' });

/**
 * Publication throughput: N stored events (portal-shaped, default 100,000) published by the real
 * KafkaPublisher from checkpoint zero until it is at the head (read, map, send with acks=all,
 * checkpoint). Baseline: the publisher's client (@platformatic/kafka) alone, its idempotent
 * producer sending the very same records, prepared beforehand, in requests of the same size, one
 * at a time. Then the publisher again with 3 producer lanes, and the former client (kafkajs) with
 * the same records, for information. CPU per 1,000 events for each. Then the end-to-end lag: the app as
 * `npm start` runs it with KAFKA_BROKERS, a command at a time, from its HTTP answer to the
 * event's arrival at a consumer.
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

  const cpu = cpuComponents(postgres.postmasterPid, brokers);
  const records = await withPool(url, 4, (pool) => integrationMessages(pool));
  const runs: Record<Contender, Throughput[]> = {
    publisher: [],
    client: [],
    publisherLanes: [],
    kafkajs: [],
  };
  let formerClientFailure: string | undefined;
  for (let round = 0; round < ROUNDS; round++)
    for (const contender of contenders) {
      if (contender === 'kafkajs' && formerClientFailure) continue;
      const time = async () => {
        const settings = settingsFor(brokers);
        await ensureTopics(settings);
        return withPool(url, 8, (pool) =>
          timeContender(contender, { pool, settings, records, cpu }),
        );
      };
      const run = await onceMore(contender, time).catch((error: unknown) => {
        // The former client is a comparison only: its failure must not void the publisher's figures.
        if (contender !== 'kafkajs') throw error;
        formerClientFailure = messageOf(error);
        return undefined;
      });
      if (!run) continue;
      runs[contender].push(run);
      console.error(
        `  ${contender}: ${records.all} events in ${run.seconds.toFixed(2)} s = ${Math.round(records.all / run.seconds)}/s; CPU per 1,000 events ${describeCpu(run, records.all)}`,
      );
    }
  const [published, client, publishedLanes, kafkajs] = contenders.map((name) =>
    combine(runs[name], records.all),
  ) as [Combined, Combined, Combined, Combined];
  const lag = await endToEndLag(await postgres.createDatabase('bench_kafka_lag'), brokers, options);
  console.error(
    `  answer → consumer: p50 ${lag.summary.p50.toFixed(1)} ms, p99 ${lag.summary.p99.toFixed(1)} ms`,
  );

  return [
    figure(SECTION, 'publication throughput', published.perSecond, 'events/s', {
      baseline: { name: CLIENT_BASELINE, value: client.perSecond },
      target: {
        text: `≥ ${TARGET_PER_SECOND.toLocaleString('en-US')}/s, ≥ ${TARGET_RATIO}×`,
        met:
          published.perSecond >= TARGET_PER_SECOND &&
          published.perSecond >= TARGET_RATIO * client.perSecond,
      },
      note: `${loaded.events} stored events (${records.messages.length} records, the rest internal-only), from checkpoint zero to the head, ${ROUNDS} rounds taking turns with the baselines; read, map, send (acks=all, one producer, the next batch read while one is sent), checkpoint. CPU per 1,000 events: publisher ${describeCpu(published, 1000)}; baseline ${describeCpu(client, 1000)}`,
      detail: {
        ...prefixed('publisherCpuMsPer1000', published.cpuPer1000),
        ...prefixed('clientCpuMsPer1000', client.cpuPer1000),
      },
    }),
    figure(
      SECTION,
      `publication throughput, ${MORE_LANES} producer lanes`,
      publishedLanes.perSecond,
      'events/s',
      {
        baseline: { name: CLIENT_BASELINE, value: client.perSecond },
        note: `the publisher with KAFKA_PRODUCER_LANES=${MORE_LANES} (up to 4 batches in flight over ${MORE_LANES} producers): they hide a remote broker's acknowledgements; on a local one they cost CPU. CPU per 1,000 events ${describeCpu(publishedLanes, 1000)}`,
        detail: prefixed('publisherLanesCpuMsPer1000', publishedLanes.cpuPer1000),
      },
    ),
    formerClientFailure
      ? notMeasured(SECTION, FORMER_CLIENT, `kafkajs failed twice: ${formerClientFailure}`)
      : figure(SECTION, FORMER_CLIENT, kafkajs.perSecond, 'events/s', {
          baseline: { name: CLIENT_BASELINE, value: client.perSecond },
          note: `kafkajs ${KAFKAJS_VERSION} (the publisher's client until 2026-11-29; no release since 2023) alone, idempotent, acks=all, the same records in the same requests, one at a time; CPU per 1,000 events ${describeCpu(kafkajs, 1000)}; the publisher is at ${(published.perSecond / kafkajs.perSecond).toFixed(2)}× of it`,
          detail: prefixed('kafkajsCpuMsPer1000', kafkajs.cpuPer1000),
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

const contenders = ['publisher', 'client', 'publisherLanes', 'kafkajs'] as const;
type Contender = (typeof contenders)[number];
const KAFKAJS_VERSION = '2.2.4';

interface Throughput {
  seconds: number;
  /** CPU ms of each component during the run. */
  cpuMs: Record<string, number>;
}

interface Combined {
  perSecond: number;
  /** CPU ms of each component per 1,000 stored events. */
  cpuPer1000: Record<string, number>;
}

interface Records {
  /** Stored events, internal-only ones included. */
  all: number;
  /** What the publisher sends for them, mapped beforehand for the baselines. */
  messages: IntegrationMessage[];
}

/** This process, PostgreSQL, and the broker when it runs on this machine. */
function cpuComponents(postmaster: number, brokers: readonly string[]) {
  const broker = brokers.length === 1 && brokers[0] ? localBrokerPid(brokers[0]) : undefined;
  if (broker === undefined) console.error('  the broker is not local: its CPU is not measured');
  return {
    node: 'self' as const,
    postgres: postmaster,
    ...(broker === undefined ? {} : { broker }),
  };
}

async function timeContender(
  contender: Contender,
  run: {
    pool: import('pg').Pool;
    settings: KafkaSettings;
    records: Records & { prefix: string };
    cpu: ReturnType<typeof cpuComponents>;
  },
): Promise<Throughput> {
  const { pool, settings, records, cpu } = run;
  if (contender === 'publisher') return timePublisher(pool, settings, cpu);
  if (contender === 'publisherLanes')
    return timePublisher(pool, { ...settings, producerLanes: MORE_LANES }, cpu);
  const messages = records.messages.map((message) => ({
    ...message,
    topic: message.topic.replace(records.prefix, settings.topicPrefix),
  }));
  const lane = await ProducerLanes.connect(settings, integrationTopics(settings.topicPrefix), 1);
  const [requests = []] = lane.split(messages);
  if (contender === 'kafkajs') {
    await lane.disconnect(); // only its requests are needed: no idle client beside kafkajs's
    return timeKafkaJs(settings, requests, cpu);
  }
  try {
    const meter = meterCpu(cpu);
    const started = performance.now();
    await lane.send(0, requests);
    return { seconds: (performance.now() - started) / 1000, cpuMs: meter.read() };
  } finally {
    await lane.disconnect();
  }
}

/**
 * The same records in the same produce requests, one at a time, through kafkajs's idempotent
 * producer (one request in flight), partitioned by its own default partitioner (the same
 * partitions: the Java client's murmur2). Given with each record, the partition cost kafkajs three
 * times the CPU here (about 100 ms per 1,000 records against 36). The records that reached the
 * topics are counted afterwards, so a client that dropped some cannot look fast.
 */
async function timeKafkaJs(
  settings: KafkaSettings,
  requests: readonly ProduceRecord[][],
  cpu: ReturnType<typeof cpuComponents>,
): Promise<Throughput> {
  const kafka = new KafkaJs({
    clientId: settings.clientId,
    brokers: [...settings.brokers],
    logLevel: logLevel.ERROR,
  });
  const producer = kafka.producer({
    idempotent: true,
    maxInFlightRequests: 1,
    createPartitioner: Partitioners.DefaultPartitioner,
  });
  const batches = requests.map(topicMessagesOf);
  await producer.connect();
  try {
    const meter = meterCpu(cpu);
    const started = performance.now();
    for (const topicMessages of batches) await producer.sendBatch({ acks: -1, topicMessages });
    const throughput = { seconds: (performance.now() - started) / 1000, cpuMs: meter.read() };
    await expectStored(settings, requests.flat().length);
    return throughput;
  } finally {
    await producer.disconnect();
  }
}

function topicMessagesOf(records: readonly ProduceRecord[]): TopicMessages[] {
  const byTopic = new Map<string, TopicMessages['messages']>();
  for (const { topic, key, value, headers } of records) {
    const messages = byTopic.get(topic) ?? [];
    messages.push({
      key,
      value: value ?? null,
      headers: headers as Record<string, string>,
    });
    byTopic.set(topic, messages);
  }
  return [...byTopic].map(([topic, messages]) => ({ topic, messages }));
}

/** Fresh topics: each partition's latest offset is its record count. */
async function expectStored(settings: KafkaSettings, expected: number): Promise<void> {
  const admin = createAdmin(settings);
  try {
    const partitions = Array.from({ length: settings.topicPartitions }, (_, partitionIndex) => ({
      partitionIndex,
      timestamp: -1n, // the latest offset
    }));
    const topics = integrationTopics(settings.topicPrefix).map((name) => ({ name, partitions }));
    const listed = await admin.listOffsets({ topics });
    let stored = 0;
    for (const topic of listed) for (const { offset } of topic.partitions) stored += Number(offset);
    if (stored !== expected) throw new Error(`${stored} records on the topics, ${expected} sent`);
  } finally {
    await admin.close();
  }
}

async function timePublisher(
  pool: import('pg').Pool,
  settings: KafkaSettings,
  cpu: ReturnType<typeof cpuComponents>,
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
  const done = new Promise<void>((resolve) => {
    publisher.onProgress((position) => {
      if (head !== undefined && position >= head) resolve();
    });
  });
  const meter = meterCpu(cpu);
  const started = performance.now();
  await publisher.start();
  await done;
  const seconds = (performance.now() - started) / 1000;
  const cpuMs = meter.read();
  await publisher.stop();
  await store.close();
  return { seconds, cpuMs };
}

/**
 * A broker that has just created the run's topics can still answer "not the leader" for a moment;
 * both clients retry that, but a run that fails all the same is timed again once,
 * on fresh topics.
 */
async function onceMore<T>(contender: Contender, time: () => Promise<T>): Promise<T> {
  try {
    return await time();
  } catch (error) {
    console.error(`  ${contender}: failed (${messageOf(error)}); timing it once more`);
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    return time();
  }
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

function combine(runs: readonly Throughput[], events: number): Combined {
  const seconds = runs.reduce((sum, run) => sum + run.seconds, 0);
  const cpuPer1000: Record<string, number> = {};
  for (const run of runs)
    for (const [name, ms] of Object.entries(run.cpuMs))
      cpuPer1000[name] = (cpuPer1000[name] ?? 0) + (ms * 1000) / (events * runs.length);
  return { perSecond: (events * runs.length) / seconds, cpuPer1000 };
}

function describeCpu(run: Throughput | Combined, events: number): string {
  const perThousand =
    'cpuPer1000' in run
      ? run.cpuPer1000
      : Object.fromEntries(
          Object.entries(run.cpuMs).map(([name, ms]) => [name, (ms * 1000) / events]),
        );
  return Object.entries(perThousand)
    .map(([name, ms]) => `${name} ${ms.toFixed(1)} ms`)
    .join(', ');
}

function prefixed(prefix: string, values: Record<string, number>): Record<string, number> {
  return Object.fromEntries(
    Object.entries(values).map(([name, value]) => [`${prefix}.${name}`, value]),
  );
}

/** Every stored event, mapped as the publisher maps them (topics under a prefix of their own). */
async function integrationMessages(pool: import('pg').Pool): Promise<Records & { prefix: string }> {
  const store = new PostgresEventStore(pool);
  const prefix = 'records-prefix';
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
  await store.close();
  return { all, messages, prefix };
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
  await ensureTopics(settings);
  const consumer = createConsumer(settings, {
    groupId: `bench-${randomUUID()}`,
    maxWaitTime: 100,
    autocommit: false,
  });
  const arrivals = new Map<number, (at: number) => void>();
  try {
    let registered: () => void = () => {};
    const registration = new Promise<void>((resolve) => {
      registered = resolve;
    });
    const stream = await consumer.consume({
      topics: integrationTopics(settings.topicPrefix),
      mode: 'earliest',
    });
    // A stream that fails is not restarted: its records then count as given up, not as a crash.
    stream.on('error', (error) =>
      console.error(`  answer → consumer: consumer failed: ${error.message}`),
    );
    stream.on('data', (message) => {
      const envelope = JSON.parse(message.value ?? '{}');
      if (envelope.type === 'UserRegistered') registered();
      const counter = envelope.data?.settings?.counter;
      if (typeof counter === 'number') arrivals.get(counter)?.(performance.now());
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
    await consumer.close(true);
    await app.stop();
  }
}
