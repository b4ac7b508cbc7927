import {
  type EventStore,
  type IntegrationMessage,
  type RecordedEvent,
  toIntegrationMessage,
} from '@issuer/events';
import {
  advanceCheckpoint,
  ensureCheckpointRows,
  migrateProjections,
  readAfter,
  readCheckpoints,
  readProjectionStatus,
  sleep,
  WakeSignal,
  wakeOnNewEvents,
} from '@issuer/projections';
import type { Kafka, Producer, TopicMessages } from 'kafkajs';
import type { Pool } from 'pg';
import type { Logger } from 'pino';
import { createIdempotentProducer, createKafka } from './client';
import { PublisherLeadership } from './leadership';
import type { KafkaSettings } from './settings';
import { ensureTopics } from './topics';

/** Its checkpoint row (in `projection_checkpoints`, beside the projectors'). */
export const defaultPublisherName = 'kafka-publisher';

/** A batch waiting this long for its acknowledgement makes the status say 'retrying'. */
const slowAcknowledgementMs = 3_000;
/** How long `stop()` waits for a batch in flight. */
const stopWaitMs = 5_000;

export interface KafkaPublisherOptions {
  store: EventStore;
  /** Where the checkpoint and the leadership lock live (the read-model database). */
  pool: Pool;
  settings: KafkaSettings;
  logger: Logger;
  /** Checkpoint name; two publishers with different names publish independently. */
  name?: string;
  /** Events per read and per Kafka batch. Default 5000. */
  batchSize?: number;
  /** Re-read while idle even without a wake. Default 1000 ms. */
  idlePollMs?: number;
  /** Pause after a failure, doubled each time up to `maxBackoffMs`. Defaults 200 ms and 5 s. */
  initialBackoffMs?: number;
  maxBackoffMs?: number;
}

export interface PublisherStatus {
  name: string;
  /** Position of the last event the broker acknowledged (the checkpoint); null before the first. */
  position: bigint | null;
  lagEvents: number;
  lagSeconds: number;
  failedEvents: number;
  /** This process's view: 'publishing', 'standby' (another instance holds the lock), 'retrying'. */
  state: PublisherState;
  lastError: string | null;
}

type PublisherState = 'starting' | 'publishing' | 'standby' | 'retrying' | 'stopped';

/**
 * Publishes every stored event to Kafka, in global order, as one more subscriber of the event
 * store with its own checkpoint: read a batch after the checkpoint, send it (acks=all, idempotent
 * producer), and only after the broker acknowledged, move the checkpoint. A crash between the two
 * resends that batch (same event ids); a broker outage only delays it. One instance publishes at a
 * time (a PostgreSQL advisory lock), others stand by.
 */
export class KafkaPublisher {
  readonly name: string;
  readonly #options: KafkaPublisherOptions;
  readonly #kafka: Kafka;
  readonly #wake = new WakeSignal();
  readonly #stopping = new AbortController();
  readonly #leadership: PublisherLeadership;
  #running: Promise<void>[] = [];
  #newEventWakes: ReturnType<typeof wakeOnNewEvents> | undefined;
  #producer: Producer | undefined;
  #state: PublisherState = 'starting';
  /** When the batch now waiting for the broker's acknowledgement was sent. */
  #sendingSince: number | undefined;
  #lastError: string | null = null;
  #progressListeners = new Set<(position: bigint) => void>();

  constructor(options: KafkaPublisherOptions) {
    this.#options = options;
    this.name = options.name ?? defaultPublisherName;
    this.#kafka = createKafka(options.settings, options.logger);
    this.#leadership = new PublisherLeadership(options.pool, this.name);
  }

  /** Creates the checkpoint row, then publishes in the background until `stop()`. */
  async start(): Promise<this> {
    await migrateProjections(this.#options.pool, []);
    await ensureCheckpointRows(this.#options.pool, [this.name]);
    this.#newEventWakes = wakeOnNewEvents({
      store: this.#options.store,
      wake: this.#wake,
      abort: this.#stopping.signal,
      logger: this.#options.logger,
      errorBackoffMs: this.#options.maxBackoffMs ?? 5_000,
    });
    this.#running = [this.#run(), this.#newEventWakes.running];
    this.#options.logger.info(
      { publisher: this.name, brokers: this.#options.settings.brokers },
      'Kafka publisher started',
    );
    return this;
  }

  async stop(): Promise<void> {
    this.#stopping.abort();
    this.#wake.wake();
    await this.#newEventWakes?.close();
    // A send the producer keeps retrying (broker away) must not hold up a shutdown: the batch is
    // not checkpointed, so the next start sends it again.
    await Promise.race([Promise.all(this.#running), sleep(stopWaitMs)]);
    await this.#dropProducer();
    await this.#leadership.release();
    this.#state = 'stopped';
    this.#options.logger.info({ publisher: this.name }, 'Kafka publisher stopped');
  }

  /** Calls `listener` with the checkpoint after each acknowledged batch (tests, benchmarks). */
  onProgress(listener: (position: bigint) => void): () => void {
    this.#progressListeners.add(listener);
    return () => this.#progressListeners.delete(listener);
  }

  async status(): Promise<PublisherStatus> {
    const { store, pool } = this.#options;
    const { projections } = await readProjectionStatus({ store, pool, names: [this.name] });
    const stored = projections[0];
    return {
      name: this.name,
      position: stored?.position ?? null,
      lagEvents: stored?.lagEvents ?? 0,
      lagSeconds: stored?.lagSeconds ?? 0,
      failedEvents: 0,
      ...this.#liveState(),
    };
  }

  /** The producer retries a send itself while the broker is away: a long wait is an outage. */
  #liveState(): Pick<PublisherStatus, 'state' | 'lastError'> {
    const waitedMs = this.#sendingSince === undefined ? 0 : performance.now() - this.#sendingSince;
    if (waitedMs < slowAcknowledgementMs) return { state: this.#state, lastError: this.#lastError };
    return {
      state: 'retrying',
      lastError: `no acknowledgement from the broker for ${Math.round(waitedMs / 1000)} s`,
    };
  }

  async #run(): Promise<void> {
    const abort = this.#stopping.signal;
    let backoffMs = this.#options.initialBackoffMs ?? 200;
    while (!abort.aborted) {
      try {
        await this.#publishWhileLeader(() => {
          backoffMs = this.#options.initialBackoffMs ?? 200;
        });
      } catch (error) {
        if (abort.aborted) break;
        // A producer whose send failed may be confused about its sequence numbers: start afresh.
        await this.#dropProducer();
        this.#state = 'retrying';
        this.#lastError = error instanceof Error ? error.message : String(error);
        this.#options.logger.warn(
          { err: error, publisher: this.name, retryInMs: backoffMs },
          'Kafka publishing failed; retrying',
        );
        await sleep(backoffMs, abort);
        backoffMs = Math.min(backoffMs * 2, this.#options.maxBackoffMs ?? 5_000);
      }
    }
  }

  async #publishWhileLeader(onSuccess: () => void): Promise<void> {
    const abort = this.#stopping.signal;
    if (!(await this.#leadership.acquire())) {
      this.#state = 'standby';
      await sleep(this.#options.idlePollMs ?? 1_000, abort);
      return;
    }
    await ensureTopics(this.#kafka, this.#options.settings);
    const producer = await this.#connectedProducer();
    let checkpoint = await this.#storedCheckpoint();
    this.#state = 'publishing';
    // The next batch is read and mapped while the broker works on the current one.
    let prefetched: Promise<PreparedBatch> | undefined;
    while (!abort.aborted) {
      this.#leadership.assertHeld();
      const seenGeneration = this.#wake.generation;
      const batch = await (prefetched ?? this.#prepare(readAfter(checkpoint)));
      prefetched = undefined;
      if (batch.last === undefined) {
        if (!this.#wake.hasNewsFor(seenGeneration, checkpoint))
          await this.#wake.waitForWake(seenGeneration, this.#options.idlePollMs ?? 1_000);
        continue;
      }
      if (batch.full) {
        prefetched = this.#prepare(batch.last);
        prefetched.catch(() => {}); // surfaces when taken; never an unhandled rejection
      }
      this.#sendingSince = performance.now();
      await sendRequests(producer, batch.requests).finally(() => {
        this.#sendingSince = undefined;
      });
      checkpoint = await advanceCheckpoint(this.#options.pool, this.name, batch.last);
      this.#lastError = null;
      this.#state = 'publishing';
      onSuccess();
      for (const listener of this.#progressListeners) listener(checkpoint);
    }
  }

  async #prepare(after: bigint | undefined): Promise<PreparedBatch> {
    const batchSize = this.#options.batchSize ?? 5_000;
    const events = await this.#options.store.readAll({ after, maxCount: batchSize });
    const messages = integrationMessagesOf(events, this.#options.settings.topicPrefix);
    return {
      last: events.at(-1)?.position,
      full: events.length >= batchSize,
      requests: [...produceRequests(messages)],
    };
  }

  async #connectedProducer(): Promise<Producer> {
    if (this.#producer) return this.#producer;
    const producer = createIdempotentProducer(this.#kafka);
    await producer.connect();
    this.#producer = producer;
    return producer;
  }

  async #dropProducer(): Promise<void> {
    const producer = this.#producer;
    this.#producer = undefined;
    await producer?.disconnect().catch(() => {});
  }

  async #storedCheckpoint(): Promise<bigint> {
    const stored = (await readCheckpoints(this.#options.pool, [this.name])).get(this.name);
    if (stored === undefined) throw new Error(`No checkpoint row for ${this.name}`);
    return stored;
  }
}

/**
 * Bytes of records per produce request. The broker refuses a partition's record batch over its
 * `message.max.bytes` (1 MB by default), so a large catch-up batch goes out in several requests.
 */
const maxRequestBytes = 900_000;

/** A batch read from the store, mapped and cut into produce requests, ready to send. */
interface PreparedBatch {
  /** Position of its last event (internal-only ones included); undefined when nothing was new. */
  last: bigint | undefined;
  /** A full batch means more may be waiting. */
  full: boolean;
  requests: TopicMessages[][];
}

/**
 * Sends the publishable events of a batch, in order, in as few requests as the size limit allows;
 * resolves once every record is acknowledged. Returns how many records it sent.
 */
export async function sendBatch(
  producer: Producer,
  events: readonly RecordedEvent[],
  topicPrefix: string,
): Promise<number> {
  const messages = integrationMessagesOf(events, topicPrefix);
  await sendRequests(producer, produceRequests(messages));
  return messages.length;
}

function integrationMessagesOf(
  events: readonly RecordedEvent[],
  topicPrefix: string,
): IntegrationMessage[] {
  const messages: IntegrationMessage[] = [];
  for (const event of events) {
    const message = toIntegrationMessage(event, topicPrefix);
    if (message !== undefined) messages.push(message);
  }
  return messages;
}

/** One request at a time: the idempotent producer keeps each partition in this order. */
async function sendRequests(
  producer: Producer,
  requests: Iterable<TopicMessages[]>,
): Promise<void> {
  for (const topicMessages of requests) await producer.sendBatch({ acks: -1, topicMessages });
}

/** Records in send order, cut into produce requests under the size limit, grouped by topic. */
export function* produceRequests(
  messages: readonly IntegrationMessage[],
): Generator<TopicMessages[]> {
  let request = new Map<string, TopicMessages['messages']>();
  let requestBytes = 0;
  for (const { topic, key, value, headers } of messages) {
    const bytes = approximateSize(key, value, headers);
    if (requestBytes > 0 && requestBytes + bytes > maxRequestBytes) {
      yield asTopicMessages(request);
      request = new Map();
      requestBytes = 0;
    }
    let topicMessages = request.get(topic);
    if (!topicMessages) {
      topicMessages = [];
      request.set(topic, topicMessages);
    }
    topicMessages.push({ key, value, headers });
    requestBytes += bytes;
  }
  if (requestBytes > 0) yield asTopicMessages(request);
}

function asTopicMessages(request: Map<string, TopicMessages['messages']>): TopicMessages[] {
  return [...request].map(([topic, messages]) => ({ topic, messages }));
}

/** Characters as a stand-in for bytes, plus per-record overhead: close enough for a limit with headroom. */
function approximateSize(key: string, value: string, headers: Record<string, string>): number {
  let size = 64 + key.length + value.length;
  for (const [name, text] of Object.entries(headers)) size += name.length + text.length + 8;
  return size;
}
