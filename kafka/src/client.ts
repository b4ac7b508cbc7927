import {
  Admin,
  type BaseOptions,
  Consumer,
  type ConsumerOptions,
  Producer,
  stringDeserializers,
  stringSerializers,
} from '@platformatic/kafka';
import type { KafkaSettings } from './settings';

/** Which brokers to reach, and as whom: what every client of the portal's shares. */
export type KafkaConnection = Pick<KafkaSettings, 'brokers' | 'clientId'>;

/** Records as the portal writes them: string keys, values (JSON) and headers. */
export type StringProducer = Producer<string, string, string, string>;
export type StringConsumer = Consumer<string, string, string, string>;

/**
 * What each request of every client does while a broker is away: a few attempts, 100 ms to 1 s
 * apart, then it fails and its caller retries with a backoff of its own (the publisher's loop).
 */
export function clientOptions(connection: KafkaConnection): BaseOptions {
  return {
    clientId: connection.clientId,
    bootstrapBrokers: [...connection.brokers],
    connectTimeout: 1_000,
    timeout: 10_000,
    retries: 5,
    retryDelay: (_client, _operation, attempt) => Math.min(100 * 2 ** attempt, 1_000),
  };
}

/**
 * acks=all and idempotent: the broker drops a resent batch it already has, so a retry during an
 * outage does not duplicate. Callers send one request at a time per producer, which keeps each
 * partition in send order. Partitions are given with each record (`partitionOfKey`), never chosen here.
 */
export function createIdempotentProducer(connection: KafkaConnection): StringProducer {
  return new Producer({
    ...clientOptions(connection),
    idempotent: true,
    acks: -1,
    autocreateTopics: false,
    serializers: stringSerializers,
  });
}

export function createAdmin(connection: KafkaConnection): Admin {
  return new Admin(clientOptions(connection));
}

/** A consumer in `groupId` that reads string keys, values and headers. */
export function createConsumer(
  connection: KafkaConnection,
  options: Omit<
    ConsumerOptions<string, string, string, string>,
    keyof BaseOptions | 'deserializers'
  >,
): StringConsumer {
  return new Consumer({
    ...clientOptions(connection),
    ...options,
    deserializers: stringDeserializers,
  });
}
