import type { IntegrationMessage } from '@issuer/events';
import type { MessageToProduce } from '@platformatic/kafka';
import { createIdempotentProducer, type KafkaConnection, type StringProducer } from './client';
import { partitionOfKey } from './partitioner';

/**
 * Bytes of records per produce request. The broker refuses a partition's record batch over its
 * `message.max.bytes` (1 MB by default), so a large catch-up batch goes out in several requests.
 */
const maxRequestBytes = 900_000;

/** A record as the producer sends it: with the partition the Java client would choose. */
export type ProduceRecord = MessageToProduce<string, string, string, string>;

/** One lane's share of a batch: its produce requests, to be sent in this order. */
export type LaneRequests = ProduceRecord[][];

/**
 * Several idempotent producers, each owning a fixed share of the partitions. Each producer sends
 * one request at a time (the next after the broker acknowledged the last), so a second batch can
 * only be in flight on another producer. Each partition is written by exactly one lane, one
 * request after the other, so records keep their send order per partition (and so per stream, the
 * key); the lanes differ only in which partitions they carry.
 */
export class ProducerLanes {
  private constructor(
    private readonly producers: StringProducer[],
    private readonly partitionsByTopic: ReadonlyMap<string, number>,
  ) {}

  /** Reads the partition count of `topics` (they must exist) and connects `count` producers. */
  static async connect(connection: KafkaConnection, topics: readonly string[], count: number) {
    const producers = Array.from({ length: Math.max(1, count) }, () =>
      createIdempotentProducer(connection),
    );
    try {
      const metadata = await Promise.all(
        producers.map((producer) => producer.metadata({ topics: [...topics] })),
      );
      const partitionsByTopic = new Map(
        topics.map((topic) => [topic, metadata[0]?.topics.get(topic)?.partitionsCount ?? 0]),
      );
      return new ProducerLanes(producers, partitionsByTopic);
    } catch (error) {
      await closeAll(producers);
      throw error;
    }
  }

  get count(): number {
    return this.producers.length;
  }

  /**
   * Gives each record its partition (the one Kafka's Java client chooses: murmur2 of the key) and
   * cuts the records into each lane's produce requests, in send order.
   */
  split(messages: readonly IntegrationMessage[]): LaneRequests[] {
    const perLane: ProduceRecord[][] = this.producers.map(() => []);
    for (const { topic, key, value, headers } of messages) {
      const partitions = this.partitionsByTopic.get(topic);
      if (!partitions) throw new Error(`no partition metadata for ${topic}`);
      const partition = partitionOfKey(key, partitions);
      perLane[laneFor(topic, partition, this.producers.length)]?.push({
        topic,
        key,
        value,
        headers,
        partition,
      });
    }
    return perLane.map((records) => [...produceRequests(records)]);
  }

  /** Sends one lane's requests, one after the other; resolves once all are acknowledged. */
  async send(lane: number, requests: LaneRequests): Promise<void> {
    const producer = this.producers[lane];
    if (!producer) throw new Error(`no lane ${lane}`);
    await sendRequests(producer, requests);
  }

  async disconnect(): Promise<void> {
    await closeAll(this.producers);
  }
}

async function closeAll(producers: readonly StringProducer[]): Promise<void> {
  await Promise.all(producers.map((producer) => producer.close(true).catch(() => {})));
}

/** A partition's lane: a function of topic and partition only, so it never changes. */
function laneFor(topic: string, partition: number, lanes: number): number {
  let hash = topicHashes.get(topic);
  if (hash === undefined) {
    hash = 0;
    for (let index = 0; index < topic.length; index++)
      hash = (hash * 31 + topic.charCodeAt(index)) >>> 0;
    topicHashes.set(topic, hash);
  }
  return (hash + partition) % lanes;
}
const topicHashes = new Map<string, number>();

/** One request at a time: the idempotent producer keeps each partition in this order. */
async function sendRequests(
  producer: StringProducer,
  requests: Iterable<ProduceRecord[]>,
): Promise<void> {
  for (const messages of requests) await producer.send({ messages });
}

/** Records in send order, cut into produce requests under the size limit. */
function* produceRequests(records: readonly ProduceRecord[]): Generator<ProduceRecord[]> {
  let request: ProduceRecord[] = [];
  let requestBytes = 0;
  for (const record of records) {
    const bytes = approximateSize(record);
    if (requestBytes > 0 && requestBytes + bytes > maxRequestBytes) {
      yield request;
      request = [];
      requestBytes = 0;
    }
    request.push(record);
    requestBytes += bytes;
  }
  if (requestBytes > 0) yield request;
}

/** Characters as a stand-in for bytes, plus per-record overhead: close enough for a limit with headroom. */
function approximateSize({ key, value, headers }: ProduceRecord): number {
  let size = 64 + (key?.length ?? 0) + (value?.length ?? 0);
  for (const [name, text] of Object.entries(headers ?? {})) size += name.length + text.length + 8;
  return size;
}
