import type { IntegrationMessage } from '@issuer/events';
import type { Kafka, PartitionerArgs, Producer, TopicMessages } from 'kafkajs';
import { createIdempotentProducer } from './client';
import { partitionOfKey } from './partitioner';

/**
 * Bytes of records per produce request. The broker refuses a partition's record batch over its
 * `message.max.bytes` (1 MB by default), so a large catch-up batch goes out in several requests.
 */
const maxRequestBytes = 900_000;

/** A record and the partition kafkajs's partitioner gives it. */
interface PartitionedMessage {
  message: IntegrationMessage;
  partition: number;
}

/** One lane's share of a batch: its produce requests, to be sent in this order. */
export type LaneRequests = TopicMessages[][];

/**
 * Several idempotent producers, each owning a fixed share of the partitions. kafkajs's idempotent
 * producer sends one request per broker at a time (it holds a lock around each produce), so a
 * second batch can only be in flight on another producer. Each partition is written by exactly one
 * lane, one request after the other, so records keep their send order per partition (and so per
 * stream, the key); the lanes differ only in which partitions they carry.
 */
export class ProducerLanes {
  private constructor(
    private readonly producers: Producer[],
    private readonly partitionsByTopic: ReadonlyMap<string, PartitionerArgs['partitionMetadata']>,
  ) {}

  /** Reads the partition count of `topics` (they must exist) and connects `count` producers. */
  static async connect(kafka: Kafka, topics: readonly string[], count: number) {
    const admin = kafka.admin();
    await admin.connect();
    let partitionsByTopic: Map<string, PartitionerArgs['partitionMetadata']>;
    try {
      const metadata = await admin.fetchTopicMetadata({ topics: [...topics] });
      partitionsByTopic = new Map(
        metadata.topics.map(({ name, partitions }) => [name, partitions]),
      );
    } finally {
      await admin.disconnect();
    }
    const producers = Array.from({ length: Math.max(1, count) }, () =>
      createIdempotentProducer(kafka),
    );
    const connected = await Promise.allSettled(producers.map((producer) => producer.connect()));
    const failed = connected.find((result) => result.status === 'rejected');
    if (failed) {
      await Promise.all(producers.map((producer) => producer.disconnect().catch(() => {})));
      throw failed.reason;
    }
    return new ProducerLanes(producers, partitionsByTopic);
  }

  get count(): number {
    return this.producers.length;
  }

  /**
   * Gives each record its partition (the one kafkajs's default partitioner and the Java client
   * choose: murmur2 of the key) and cuts the records into each lane's produce requests, in send order.
   */
  split(messages: readonly IntegrationMessage[]): LaneRequests[] {
    const perLane: PartitionedMessage[][] = this.producers.map(() => []);
    for (const message of messages) {
      const partitionMetadata = this.partitionsByTopic.get(message.topic);
      if (!partitionMetadata) throw new Error(`no partition metadata for ${message.topic}`);
      const partition = partitionOfKey(message.key, partitionMetadata.length);
      const lane = laneFor(message.topic, partition, this.producers.length);
      perLane[lane]?.push({ message, partition });
    }
    return perLane.map((laneMessages) => [...produceRequests(laneMessages)]);
  }

  /** Sends one lane's requests, one after the other; resolves once all are acknowledged. */
  async send(lane: number, requests: LaneRequests): Promise<void> {
    const producer = this.producers[lane];
    if (!producer) throw new Error(`no lane ${lane}`);
    await sendRequests(producer, requests);
  }

  async disconnect(): Promise<void> {
    await Promise.all(this.producers.map((producer) => producer.disconnect().catch(() => {})));
  }
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
export async function sendRequests(
  producer: Producer,
  requests: Iterable<TopicMessages[]>,
): Promise<void> {
  for (const topicMessages of requests) await producer.sendBatch({ acks: -1, topicMessages });
}

/** Records in send order, cut into produce requests under the size limit, grouped by topic. */
export function* produceRequests(
  messages: readonly (IntegrationMessage | PartitionedMessage)[],
): Generator<TopicMessages[]> {
  let request = new Map<string, TopicMessages['messages']>();
  let requestBytes = 0;
  for (const entry of messages) {
    const { topic, key, value, headers } = 'message' in entry ? entry.message : entry;
    const partition = 'message' in entry ? entry.partition : undefined;
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
    topicMessages.push(
      partition === undefined ? { key, value, headers } : { key, value, headers, partition },
    );
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
