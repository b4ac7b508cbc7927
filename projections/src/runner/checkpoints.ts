import pg, { type Pool, type PoolClient } from 'pg';
import { rowsOfStatement, withTransactionClient } from './transactions';

/**
 * Checkpoint transactions commit without waiting for the WAL flush. A server crash can then lose
 * the last few of them, but each whole (rows and checkpoint together), so the runner re-applies
 * those events from the older checkpoint: nothing is lost or doubled, and the events themselves
 * were stored durably. It takes a disk flush out of every batch, live or rebuild.
 */
const BEGIN_WITHOUT_FLUSH_WAIT = 'BEGIN; SET LOCAL synchronous_commit = off';

interface PositionRow {
  position: string;
}

export interface CheckpointWork<T> {
  result: T;
  /** Where the checkpoint goes at commit; leave it out to keep the locked one. */
  advanceTo?: bigint;
}

/**
 * One transaction around the projection's checkpoint row, locked first. A second runner instance
 * blocks on that lock until the first commits, then sees the moved checkpoint: that is what keeps
 * two instances from applying the same events. `BEGIN` travels with the lock and the checkpoint
 * update with `COMMIT`, so the transaction costs two round trips besides the work itself.
 */
export function inCheckpointTransaction<T>(
  pool: Pool,
  name: string,
  work: (client: PoolClient, locked: bigint) => Promise<CheckpointWork<T>>,
): Promise<{ result: T; checkpoint: bigint }> {
  return withTransactionClient(pool, async (client) => {
    const lockResults: unknown = await client.query(
      `${BEGIN_WITHOUT_FLUSH_WAIT}; SELECT position FROM projection_checkpoints
       WHERE name = ${pg.escapeLiteral(name)} FOR UPDATE`,
    );
    const locked = storedPosition(name, rowsOfStatement<PositionRow>(lockResults, -1)[0]);
    const { result, advanceTo } = await work(client, locked);
    if (advanceTo === undefined || advanceTo <= locked) {
      await client.query('COMMIT');
      return { result, checkpoint: locked };
    }
    const commitResults: unknown = await client.query(
      `UPDATE projection_checkpoints SET position = ${advanceTo.toString()}, updated_at = now()
       WHERE name = ${pg.escapeLiteral(name)} RETURNING position; COMMIT`,
    );
    const checkpoint = storedPosition(name, rowsOfStatement<PositionRow>(commitResults, 0)[0]);
    return { result, checkpoint };
  });
}

/**
 * Moves the checkpoint forward, never back, without locking it: for a batch with nothing to apply,
 * which another instance can only have moved further. One round trip; returns the stored one.
 */
export function advanceCheckpoint(pool: Pool, name: string, position: bigint): Promise<bigint> {
  return withTransactionClient(pool, async (client) => {
    const results: unknown = await client.query(
      `${BEGIN_WITHOUT_FLUSH_WAIT};
       UPDATE projection_checkpoints SET position = GREATEST(position, ${position.toString()}),
         updated_at = now()
       WHERE name = ${pg.escapeLiteral(name)} RETURNING position;
       COMMIT`,
    );
    return storedPosition(name, rowsOfStatement<PositionRow>(results, -2)[0]);
  });
}

function storedPosition(name: string, row: PositionRow | undefined): bigint {
  if (!row) throw new Error(`No checkpoint row for projection ${name}: run migrateProjections`);
  return BigInt(row.position);
}

export async function readCheckpoints(
  db: Pool | PoolClient,
  names: readonly string[],
): Promise<Map<string, bigint>> {
  const { rows } = await db.query<{ name: string; position: string }>(
    'SELECT name, position FROM projection_checkpoints WHERE name = ANY($1::text[])',
    [names],
  );
  return new Map(rows.map((row) => [row.name, BigInt(row.position)]));
}
