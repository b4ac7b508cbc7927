import { rebuildProjections } from '@issuer/projections';
import { allProjections, withInfrastructure } from './infrastructure';

/** `npm run projections:rebuild`: drop every read model and rebuild it from event zero. */
await withInfrastructure(async ({ store, pool, logger }) => {
  const result = await rebuildProjections({ store, pool, logger, projections: allProjections });
  console.log(
    `Rebuilt ${allProjections.length} read models from ${result.events} events in ${result.seconds.toFixed(1)} s ` +
      `(${Math.round(result.eventsPerSecond)} events/s, ${result.failedEvents} failed).`,
  );
});
