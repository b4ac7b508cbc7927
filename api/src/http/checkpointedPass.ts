import type { EventStore, RecordedEvent } from '@issuer/events';
import type { Pool } from 'pg';

/**
 * One pass of a process manager over the global log after its row in `process_checkpoints`, a
 * batch at a time. Each batch has its own transaction, which locks the row (a second process
 * skips its turn) and moves it once the batch is handled; a crash replays that batch only, and
 * the handlers ignore what they did already. A long catch-up (a process new to a large store)
 * keeps its progress and holds no transaction open, which would stop VACUUM everywhere.
 * Resolves with the sum of what `handleBatch` answered. `waitForTurn` waits for a pass running
 * elsewhere instead of skipping, for a caller that needs the log handled up to now.
 */
export async function checkpointedPass(
  deps: { store: EventStore; pool: Pool },
  checkpointName: string,
  batchSize: number,
  handleBatch: (events: readonly RecordedEvent[]) => Promise<number>,
  { waitForTurn = false } = {},
): Promise<number> {
  let handled = 0;
  const pass = {
    checkpointName,
    batchSize,
    lock: waitForTurn ? 'FOR UPDATE' : 'FOR UPDATE SKIP LOCKED',
  };
  for (;;) {
    const batch = await handleNextBatch(deps, pass, handleBatch);
    if (!batch) return handled;
    handled += batch.handled;
    if (batch.read < batchSize) return handled;
  }
}

async function handleNextBatch(
  deps: { store: EventStore; pool: Pool },
  { checkpointName, batchSize, lock }: { checkpointName: string; batchSize: number; lock: string },
  handleBatch: (events: readonly RecordedEvent[]) => Promise<number>,
): Promise<{ read: number; handled: number } | undefined> {
  const client = await deps.pool.connect();
  try {
    await client.query('BEGIN');
    const { rows } = await client.query<{ position: string }>(
      `SELECT position::text FROM process_checkpoints WHERE name = $1 ${lock}`,
      [checkpointName],
    );
    const row = rows[0];
    if (!row) {
      await client.query('ROLLBACK');
      return undefined;
    }
    const events = await deps.store.readAll({ after: BigInt(row.position), maxCount: batchSize });
    const handled = events.length > 0 ? await handleBatch(events) : 0;
    const last = events.at(-1);
    if (last) {
      await client.query('UPDATE process_checkpoints SET position = $2 WHERE name = $1', [
        checkpointName,
        String(last.position),
      ]);
    }
    await client.query('COMMIT');
    return { read: events.length, handled };
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}
