import { defaultPublisherName, KafkaPublisher } from '@issuer/kafka';
import type { ProjectionsHealth } from '../http';
import type { Infrastructure } from '../infrastructure';

export interface Publishing {
  /** Adds the publisher's position, lag and state to the projectors' status (for /api/health). */
  withStatus(status: () => Promise<ProjectionsHealth>): () => Promise<ProjectionsHealth>;
  stop(): Promise<void>;
}

/** Nothing to publish without KAFKA_BROKERS: the status stays the projectors' alone. */
const off: Publishing = { withStatus: (status) => status, stop: async () => {} };

/**
 * Starts the Kafka publisher when KAFKA_BROKERS is set. It runs where the projectors run: in
 * `npm start` unless PROJECTORS=external, and in `npm run projections`.
 */
export async function startPublishing({
  config,
  store,
  pool,
  logger,
}: Pick<Infrastructure, 'store' | 'pool' | 'logger'> & {
  config: Pick<Infrastructure['config'], 'kafka'>;
}): Promise<Publishing> {
  if (config.kafka === undefined) return off;
  const publisher = await new KafkaPublisher({
    store,
    pool,
    settings: config.kafka,
    logger,
  }).start();
  return {
    withStatus: (status) => async () => {
      const [projectors, published] = await Promise.all([status(), publisher.status()]);
      return { ...projectors, projections: [...projectors.projections, published] };
    },
    stop: () => publisher.stop(),
  };
}

/**
 * For an API whose projectors (and publisher) run elsewhere: the publisher's checkpoint is read
 * from the database like the projectors' ones.
 */
export function publisherCheckpointNames(config: Infrastructure['config']): string[] {
  return config.kafka === undefined ? [] : [defaultPublisherName];
}
