import { beforeAll, describe, expect, it } from 'vitest';
import { migrateProjections } from './schema';
import { readProjectionStatus } from './status';
import { poolFor, postgresServers, useServer } from './testing/database';
import { counted } from './testing/events';
import { visible } from './testing/eventually';
import { fixturePerTest } from './testing/fixture';
import { streamCountsProjection } from './testing/streamCounts';

const freshFixture = fixturePerTest();
describe.each(await postgresServers())('on the $name PostgreSQL', (server) => {
  beforeAll(() => useServer(server));

  describe('projection status', () => {
    it('reports the backlog and its age before the runner starts, and none after', async () => {
      const f = await freshFixture([streamCountsProjection()]);
      await f.append('S-1', [counted(), counted(), counted()]);
      const head = await f.append('S-2', [counted()]);
      await visible(f.store, head);
      const [oldest] = await f.store.readAll({ maxCount: 1 });
      const thirtySecondsLater = new Date((oldest?.recordedAt.getTime() ?? 0) + 30_000);

      const before = await readProjectionStatus({
        store: f.store,
        pool: f.pool,
        names: ['stream_counts'],
        now: () => thirtySecondsLater,
      });

      expect(before.projections).toEqual([
        { name: 'stream_counts', position: null, lagEvents: 4, lagSeconds: 30, failedEvents: 0 },
      ]);
      const runner = f.startRunner();
      await runner.readModelWaiter.waitFor(head, 5_000);
      expect(await runner.status()).toEqual({
        projections: [
          { name: 'stream_counts', position: head, lagEvents: 0, lagSeconds: 0, failedEvents: 0 },
        ],
        recentFailures: [],
      });
    });

    it('caps the counted backlog', async () => {
      const current = await freshFixture([streamCountsProjection()]);
      const head = await current.append(
        'S-1',
        Array.from({ length: 12 }, () => counted()),
      );
      await visible(current.store, head);

      const status = await readProjectionStatus({
        store: current.store,
        pool: current.pool,
        names: ['stream_counts'],
        lagCountLimit: 5,
      });

      expect(status.projections[0]?.lagEvents).toBe(5);
    });
  });

  describe('migrations', () => {
    it('run safely from two processes at once, and again', async () => {
      const current = await freshFixture([]);
      const otherPool = poolFor(current.databaseUrl);
      const projections = [streamCountsProjection()];
      try {
        await Promise.all([
          migrateProjections(current.pool, projections),
          migrateProjections(otherPool, projections),
          migrateProjections(otherPool, projections),
        ]);
        await migrateProjections(current.pool, projections);
      } finally {
        await otherPool.end();
      }
      expect(await current.checkpointOf('stream_counts')).toBe(-1n);
    });
  });
});
