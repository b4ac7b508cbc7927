import { beforeAll, describe, expect, it } from 'vitest';
import { rebuildProjections, snapshotTables } from './rebuild';
import { postgresServers, useServer } from './testing/database';
import { counted, ignored } from './testing/events';
import { fixturePerTest } from './testing/fixture';
import { STREAM_COUNTS_TABLE, streamCountsProjection } from './testing/streamCounts';

const freshFixture = fixturePerTest();
describe.each(await postgresServers())('on the $name PostgreSQL', (server) => {
  beforeAll(() => useServer(server));

  describe('read models rebuilt from event zero', () => {
    it('equal the incrementally built ones row by row', async () => {
      const projection = streamCountsProjection();
      const f = await freshFixture([projection]);
      const runner = f.startRunner({ batchSize: 3 });
      let head = 0n;
      for (let round = 0; round < 40; round += 1) {
        const events = round % 5 === 0 ? [ignored(), counted()] : [counted()];
        head = await f.append(`Stream-${round % 7}`, events);
        if (round % 10 === 0) await runner.readModelWaiter.waitFor(head, 5_000);
      }
      expect(await runner.readModelWaiter.waitFor(head, 10_000)).toBe(true);
      await runner.stop();
      const incremental = await snapshotTables(f.pool, projection.tables);
      await f.pool.query(`UPDATE ${STREAM_COUNTS_TABLE} SET events = events + 100`);

      const result = await rebuildProjections({
        store: f.store,
        pool: f.pool,
        projections: [projection],
        batchSize: 11,
      });

      const rebuilt = await snapshotTables(f.pool, projection.tables);
      expect(rebuilt).toEqual(incremental);
      expect(rebuilt[STREAM_COUNTS_TABLE]).toHaveLength(7);
      expect(result.events).toBe(48);
      expect(await f.checkpointOf(projection.name)).toBe(head);
    });

    it('forget earlier failures', async () => {
      const projection = streamCountsProjection();
      const f = await freshFixture([projection]);
      const position = await f.append('F-1', [counted()]);
      await f.pool.query(
        `INSERT INTO projection_failures (projection, position, event_id, event_type, error, attempts)
         VALUES ('stream_counts', $1, 'x', 'Counted', 'old failure', 4)`,
        [position.toString()],
      );

      await rebuildProjections({ store: f.store, pool: f.pool, projections: [projection] });

      const { rows } = await f.pool.query('SELECT * FROM projection_failures');
      expect(rows).toEqual([]);
    });
  });
});
