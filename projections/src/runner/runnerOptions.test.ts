import { PostgresEventStore } from '@issuer/eventstore';
import pg from 'pg';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { ProjectorRunner } from './runner';
import { streamCountsProjection } from './testing/streamCounts';

describe('a runner configured with two projections of one name', () => {
  it('refuses to start, since they would share one checkpoint', async () => {
    const pool = new pg.Pool({ connectionString: 'postgres://nobody@127.0.0.1:1/none' });
    const store = new PostgresEventStore(pool);
    const build = () =>
      new ProjectorRunner({
        store,
        pool,
        logger: pino({ level: 'silent' }),
        projections: [
          streamCountsProjection({ name: 'twin' }),
          streamCountsProjection({ name: 'twin' }),
        ],
      });
    expect(build).toThrow('Two projections are named twin');
    await store.close();
    await pool.end();
  });
});
