import {
  type EventStore,
  type IntegrationMessage,
  integrationTopics,
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
  UnreadableBackoff,
  WakeSignal,
  wakeOnNewEvents,
} from '@issuer/projections';
import type { Pool } from 'pg';
import type { Logger } from 'pino';
import { type LaneRequests, ProducerLanes } from './lanes';
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
  /** Batches sent and not yet acknowledged, at most. Default 4. */
  maxBatchesInFlight?: number;
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
 * producers, a few batches in flight), and only once the broker acknowledged it and every batch
 * before it, move the checkpoint. A crash between the two
 * resends that batch (same event ids); a broker outage only delays it. One instance publishes at a
 * time (a PostgreSQL advisory lock), others stand by.
 */
export class KafkaPublisher {
  readonly name: string;
  readonly #options: KafkaPublisherOptions;
  readonly #wake = new WakeSignal();
  readonly #stopping = new AbortController();
  readonly #leadership: PublisherLeadership;
  #running: Promise<void>[] = [];
  #newEventWakes: ReturnType<typeof wakeOnNewEvents> | undefined;
  #lanes: ProducerLanes | undefined;
  #inFlight: InFlightBatches | undefined;
  #state: PublisherState = 'starting';
  #lastError: string | null = null;
  #progressListeners = new Set<(position: bigint) => void>();

  constructor(options: KafkaPublisherOptions) {
    this.#options = options;
    this.name = options.name ?? defaultPublisherName;
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
    await this.#dropLanes();
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
    const since = this.#inFlight?.waitingSince;
    const waitedMs = since === undefined ? 0 : performance.now() - since;
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
        await this.#dropLanes();
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
    await ensureTopics(this.#options.settings);
    const lanes = await this.#connectedLanes();
    const inFlight = new InFlightBatches(lanes);
    this.#inFlight = inFlight;
    let checkpoint = await this.#storedCheckpoint();
    let sentUpTo = checkpoint;
    this.#state = 'publishing';
    const settleOldest = async () => {
      checkpoint = await this.#settle(inFlight);
      onSuccess();
    };
    const unreadable = new UnreadableBackoff(this.#wake);
    // The next batch is read and mapped while the broker works on the ones in flight.
    let prefetched: Promise<PreparedBatch> | undefined;
    while (!abort.aborted) {
      this.#leadership.assertHeld();
      const seenGeneration = this.#wake.generation;
      const batch = await (prefetched ?? this.#prepare(readAfter(sentUpTo), lanes));
      prefetched = undefined;
      if (batch.last === undefined) {
        if (inFlight.size > 0) {
          while (inFlight.size > 0) await settleOldest();
          continue;
        }
        if (await unreadable.heldBack(sentUpTo, abort)) continue;
        if (!this.#wake.hasNewsFor(seenGeneration, checkpoint))
          await this.#wake.waitForWake(seenGeneration, this.#options.idlePollMs ?? 1_000);
        continue;
      }
      sentUpTo = batch.last;
      if (batch.full) {
        prefetched = this.#prepare(batch.last, lanes);
        prefetched.catch(() => {}); // surfaces when taken; never an unhandled rejection
      }
      inFlight.dispatch(batch.last, batch.lanes);
      // Caught up: settle now, so the checkpoint and status follow a trickle of events closely.
      const limit = batch.full ? (this.#options.maxBatchesInFlight ?? 4) : 1;
      while (inFlight.size >= limit) await settleOldest();
    }
    // Stopping: what the broker acknowledges before `stop()` gives up is checkpointed.
    while (inFlight.size > 0) await settleOldest();
  }

  /** Waits for the oldest batch in flight, then moves the checkpoint to its last event. */
  async #settle(inFlight: InFlightBatches): Promise<bigint> {
    const last = await inFlight.acknowledgeOldest();
    const checkpoint = await advanceCheckpoint(this.#options.pool, this.name, last);
    this.#lastError = null;
    this.#state = 'publishing';
    for (const listener of this.#progressListeners) listener(checkpoint);
    return checkpoint;
  }

  async #prepare(after: bigint | undefined, lanes: ProducerLanes): Promise<PreparedBatch> {
    const batchSize = this.#options.batchSize ?? 5_000;
    const events = await this.#options.store.readAll({ after, maxCount: batchSize });
    const messages = integrationMessagesOf(events, this.#options.settings.topicPrefix);
    return {
      last: events.at(-1)?.position,
      full: events.length >= batchSize,
      lanes: lanes.split(messages),
    };
  }

  async #connectedLanes(): Promise<ProducerLanes> {
    if (this.#lanes) return this.#lanes;
    const { settings } = this.#options;
    this.#lanes = await ProducerLanes.connect(
      settings,
      integrationTopics(settings.topicPrefix),
      settings.producerLanes ?? 1,
    );
    return this.#lanes;
  }

  async #dropLanes(): Promise<void> {
    const lanes = this.#lanes;
    this.#lanes = undefined;
    this.#inFlight = undefined;
    await lanes?.disconnect();
  }

  async #storedCheckpoint(): Promise<bigint> {
    const stored = (await readCheckpoints(this.#options.pool, [this.name])).get(this.name);
    if (stored === undefined) throw new Error(`No checkpoint row for ${this.name}`);
    return stored;
  }
}

/** A batch read from the store, mapped and cut into each lane's produce requests, ready to send. */
interface PreparedBatch {
  /** Position of its last event (internal-only ones included); undefined when nothing was new. */
  last: bigint | undefined;
  /** A full batch means more may be waiting. */
  full: boolean;
  lanes: LaneRequests[];
}

/**
 * Batches sent and not yet checkpointed, oldest first. A lane sends a batch's share only after
 * its share of every earlier batch was acknowledged (and never after one failed), so each
 * partition's log is always a gap-free prefix of the publication order; the checkpoint moves
 * batch by batch, oldest first, and so never passes a batch the broker has not acknowledged.
 */
class InFlightBatches {
  readonly #batches: { last: bigint; acknowledged: Promise<unknown> }[] = [];
  #laneTails: Promise<void>[];
  /** Since when the oldest batch has been waiting for the broker: undefined when none is. */
  waitingSince: number | undefined;

  constructor(private readonly lanes: ProducerLanes) {
    this.#laneTails = Array.from({ length: lanes.count }, () => Promise.resolve());
  }

  get size(): number {
    return this.#batches.length;
  }

  dispatch(last: bigint, laneRequests: readonly LaneRequests[]): void {
    const sends = laneRequests.map((requests, lane) => {
      const sent = (this.#laneTails[lane] ?? Promise.resolve()).then(() =>
        this.lanes.send(lane, requests),
      );
      this.#laneTails[lane] = sent;
      return sent;
    });
    const acknowledged = Promise.all(sends);
    acknowledged.catch(() => {}); // a failure surfaces when its batch is settled
    this.#batches.push({ last, acknowledged });
    this.waitingSince ??= performance.now();
  }

  /** Resolves with the oldest batch's last position once the broker acknowledged all of it. */
  async acknowledgeOldest(): Promise<bigint> {
    const oldest = this.#batches[0];
    if (!oldest) throw new Error('no batch in flight');
    await oldest.acknowledged;
    this.#batches.shift();
    this.waitingSince = this.#batches.length > 0 ? performance.now() : undefined;
    return oldest.last;
  }
}

export function integrationMessagesOf(
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
