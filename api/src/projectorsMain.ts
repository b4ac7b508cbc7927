import { startProjectors } from '@issuer/projections';
import { allProjections, withInfrastructure } from './infrastructure';
import { startPublishing } from './kafka/publishing';

/**
 * `npm run projections`: the projectors as their own process, for the distributed setup (the
 * API then runs with PROJECTORS=external), with the Kafka publisher when KAFKA_BROKERS is set.
 * Several may run: each projection is applied by one instance at a time, one publisher publishes
 * while the others stand by, and checkpoints live with the read models.
 */
await withInfrastructure(async (infrastructure) => {
  const { store, pool, logger } = infrastructure;
  const runner = await startProjectors({ store, pool, logger, projections: allProjections });
  const publishing = await startPublishing(infrastructure);
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  logger.info('stopping projectors');
  await publishing.stop();
  await runner.stop();
});
