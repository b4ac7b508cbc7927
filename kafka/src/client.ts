import { Kafka, type KafkaConfig, logLevel, Partitioners, type Producer } from 'kafkajs';
import type { Logger } from 'pino';
import type { KafkaSettings } from './settings';

/** Backoff between kafkajs's own attempts while a broker is unreachable: capped, never giving up. */
const reconnectBackoff = {
  initialRetryTime: 100,
  maxRetryTime: 2_000,
  retries: Number.MAX_SAFE_INTEGER,
};

export function createKafka(
  settings: Pick<KafkaSettings, 'brokers' | 'clientId'>,
  logger: Logger,
  overrides: Partial<KafkaConfig> = {},
): Kafka {
  return new Kafka({
    clientId: settings.clientId,
    brokers: [...settings.brokers],
    connectionTimeout: 1_000,
    // Admin and consumer requests give up after a few seconds and the caller retries, with
    // backoff (the publisher's loop); only the producer retries forever (below).
    retry: { initialRetryTime: 100, maxRetryTime: 1_000, retries: 5 },
    logLevel: logLevel.WARN,
    logCreator: pinoLogCreator(logger),
    ...overrides,
  });
}

/**
 * acks=all and idempotent: the broker drops a resent batch it already has, so a retry during an
 * outage does not duplicate; one request in flight keeps each partition in send order.
 */
export function createIdempotentProducer(kafka: Kafka): Producer {
  return kafka.producer({
    idempotent: true,
    maxInFlightRequests: 1,
    allowAutoTopicCreation: false,
    createPartitioner: Partitioners.DefaultPartitioner,
    retry: reconnectBackoff,
  });
}

/** kafkajs's own log lines, through the process's pino logger. */
function pinoLogCreator(logger: Logger): KafkaConfig['logCreator'] {
  const kafkaLogger = logger.child({ component: 'kafkajs' });
  return () =>
    ({ level, log }) => {
      const { message, ...rest } = log;
      if (level <= logLevel.ERROR) kafkaLogger.error(rest, message);
      else if (level === logLevel.WARN) kafkaLogger.warn(rest, message);
      else if (level === logLevel.INFO) kafkaLogger.info(rest, message);
      else kafkaLogger.debug(rest, message);
    };
}
