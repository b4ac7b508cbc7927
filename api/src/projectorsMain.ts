import { startProjectors } from '@issuer/projections';
import { allProjections, withInfrastructure } from './infrastructure';

/**
 * `npm run projections`: the projectors as their own process, for the distributed setup (the
 * API then runs with PROJECTORS=external). Several may run: each projection is applied by one
 * instance at a time, and checkpoints live with the read models.
 */
await withInfrastructure(async ({ store, pool, logger }) => {
  const runner = await startProjectors({ store, pool, logger, projections: allProjections });
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  logger.info('stopping projectors');
  await runner.stop();
});
