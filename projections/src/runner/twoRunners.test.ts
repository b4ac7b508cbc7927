import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ProjectorRunner } from './runner';
import { poolFor, postgresServers, useServer } from './testing/database';
import { counted } from './testing/events';
import { type Fixture, fixture } from './testing/fixture';
import { APPLY_TALLY_TABLE, applyTallyProjection } from './testing/streamCounts';

let current: Fixture | undefined;
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
  await current?.close();
  current = undefined;
});
describe.each(await postgresServers())('on the $name PostgreSQL', (server) => {
  beforeAll(() => useServer(server));

  describe('two runner processes on one database', () => {
    it('never apply an event twice, while events keep arriving', async () => {
      current = await fixture([applyTallyProjection()]);
      const f = current;
      const secondPool = poolFor(f.databaseUrl);
      const second = new ProjectorRunner({
        store: f.store,
        pool: secondPool,
        projections: [applyTallyProjection()],
        logger: f.logger,
        batchSize: 5,
      }).start();
      cleanups.push(async () => {
        await second.stop();
        await secondPool.end();
      });
      const first = f.startRunner({ batchSize: 7 });

      const writers = Array.from({ length: 8 }, async (_, writer) => {
        let last = 0n;
        for (let append = 0; append < 40; append += 1)
          last = await f.append(`W-${writer}`, [counted(), counted(), counted()]);
        return last;
      });
      // The highest position an append returned; headPosition() could still hide some behind
      // a transaction open anywhere on the server.
      let head = 0n;
      for (const last of await Promise.all(writers)) if (last > head) head = last;

      expect(await first.readModelWaiter.waitFor(head, 20_000)).toBe(true);
      expect(await second.readModelWaiter.waitFor(head, 20_000)).toBe(true);
      const { rows } = await f.pool.query(
        `SELECT count(*)::int AS events, sum(times)::int AS applications, max(times) AS most
         FROM ${APPLY_TALLY_TABLE}`,
      );
      expect(rows[0]).toEqual({ events: 960, applications: 960, most: 1 });
    });
  });
});
