import type { Pool, PoolClient } from 'pg';

/**
 * Locks the projection's checkpoint row for the rest of the transaction and returns it. A second
 * runner instance blocks here until the first commits, then sees the moved checkpoint, which is
 * what keeps two instances from applying the same events.
 */
export async function lockCheckpoint(client: PoolClient, name: string): Promise<bigint> {
  const { rows } = await client.query<{ position: string }>(
    'SELECT position FROM projection_checkpoints WHERE name = $1 FOR UPDATE',
    [name],
  );
  return storedPosition(name, rows[0]);
}

/** Moves the checkpoint forward, never back; returns the one now stored (maybe further on). */
export async function advanceCheckpoint(
  db: PoolClient | Pool,
  name: string,
  position: bigint,
): Promise<bigint> {
  const { rows } = await db.query<{ position: string }>(
    `UPDATE projection_checkpoints SET position = GREATEST(position, $2), updated_at = now()
     WHERE name = $1 RETURNING position`,
    [name, position.toString()],
  );
  return storedPosition(name, rows[0]);
}

function storedPosition(name: string, row: { position: string } | undefined): bigint {
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
