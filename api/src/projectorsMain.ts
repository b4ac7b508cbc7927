import { startProjectors } from '@issuer/projections';
import { allProjections, withInfrastructure } from './infrastructure';
import { startPublishing } from './kafka/publishing';
import { createBillingScheduler } from './subscriptions/billingScheduler';

/**
 * `npm run projections`: the projectors as their own process, for the distributed setup (the
 * API then runs with PROJECTORS=external), with the Kafka publisher when KAFKA_BROKERS is set.
 * Several may run: each projection is applied by one instance at a time, one publisher publishes
 * while the others stand by, and checkpoints live with the read models. The billing scheduler runs
 * here too (see api/src/subscriptions/billingScheduler.ts).
 */
await withInfrastructure(async (infrastructure) => {
  const { store, pool, logger } = infrastructure;
  const runner = await startProjectors({ store, pool, logger, projections: allProjections });
  const publishing = await startPublishing(infrastructure);
  // The billing timer runs where the projectors run; several processes at once bill once.
  const billing = createBillingScheduler({ store, pool, logger, clock: () => new Date() });
  billing.start();
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  logger.info('stopping projectors');
  await billing.stop();
  await publishing.stop();
  await runner.stop();
});
