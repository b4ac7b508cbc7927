import { afterEach, describe, expect, it } from 'vitest';
import { ProjectorRunner } from './runner';
import { poolFor } from './testing/database';
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
      for (let append = 0; append < 40; append += 1)
        await f.append(`W-${writer}`, [counted(), counted(), counted()]);
    });
    await Promise.all(writers);
    const head = (await f.store.headPosition()) ?? 0n;

    expect(await first.readModelWaiter.waitFor(head, 20_000)).toBe(true);
    expect(await second.readModelWaiter.waitFor(head, 20_000)).toBe(true);
    const { rows } = await f.pool.query(
      `SELECT count(*)::int AS events, sum(times)::int AS applications, max(times) AS most
       FROM ${APPLY_TALLY_TABLE}`,
    );
    expect(rows[0]).toEqual({ events: 960, applications: 960, most: 1 });
  });
});
