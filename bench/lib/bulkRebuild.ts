import { PostgresEventStore } from '@issuer/eventstore';
import { migrateProjections, rebuildProjections } from '@issuer/projections';
import type pg from 'pg';
import { allProjections } from '../../api/src/infrastructure';

/**
 * After a bulk load straight into the store: rebuilds every read model the app has, analyzes
 * the tables a section measures, and puts the app's processes (wallet recorder, token orders,
 * billing collector) at the head, as a live app's would be. A read model or process left behind
 * would catch up on the whole history on the app's CPU while the section measures it.
 */
export async function rebuildAfterBulkLoad(pool: pg.Pool, analyze: readonly string[]) {
  await pool.query('VACUUM ANALYZE es_events');
  await migrateProjections(pool, allProjections);
  const result = await rebuildProjections({
    store: new PostgresEventStore(pool),
    pool,
    projections: allProjections,
  });
  await pool.query(`VACUUM ANALYZE ${analyze.join(', ')}`);
  await pool.query(
    'UPDATE process_checkpoints SET position = (SELECT max(position) FROM es_events)',
  );
  return result;
}
