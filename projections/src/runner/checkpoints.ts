import type { Pool, PoolClient } from 'pg';

/** Channel the runner notifies on in each checkpoint transaction (payload: CheckpointNotice JSON). */
export const CHECKPOINT_CHANNEL = 'projection_checkpoint';

export interface CheckpointNotice {
  name: string;
  /** A bigint as a decimal string (JSON has no bigint). */
  position: string;
}

export function parseCheckpointNotice(payload: string | undefined): CheckpointNotice | undefined {
  if (!payload) return undefined;
  try {
    const parsed: unknown = JSON.parse(payload);
    if (!isCheckpointNotice(parsed)) return undefined;
    return parsed;
  } catch {
    return undefined;
  }
}

function isCheckpointNotice(value: unknown): value is CheckpointNotice {
  if (typeof value !== 'object' || value === null) return false;
  const { name, position } = value as Record<string, unknown>;
  return typeof name === 'string' && typeof position === 'string' && /^-?\d+$/.test(position);
}

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
  const row = rows[0];
  if (!row) throw new Error(`No checkpoint row for projection ${name}: run migrateProjections`);
  return BigInt(row.position);
}

/**
 * Moves the checkpoint forward (never back) and, when asked, notifies listeners on commit.
 * Returns the checkpoint now stored, which may be further on if another instance got there first.
 */
export async function advanceCheckpoint(
  client: PoolClient | Pool,
  name: string,
  position: bigint,
  notify: boolean,
): Promise<bigint> {
  const update = `UPDATE projection_checkpoints
       SET position = GREATEST(position, $2), updated_at = now()
     WHERE name = $1 RETURNING position`;
  const sql = notify
    ? `WITH advanced AS (${update})
       SELECT position, pg_notify('${CHECKPOINT_CHANNEL}',
         json_build_object('name', $1::text, 'position', position::text)::text) FROM advanced`
    : update;
  const { rows } = await client.query<{ position: string }>(sql, [name, position.toString()]);
  const row = rows[0];
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
