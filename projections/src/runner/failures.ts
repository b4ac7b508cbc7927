import type { RecordedEvent } from '@issuer/events';
import type { Pool, PoolClient } from 'pg';

export interface ProjectionFailure {
  projection: string;
  position: bigint;
  eventId: string;
  eventType: string;
  error: string;
  attempts: number;
  failedAt: Date;
}

export async function recordFailure(
  client: PoolClient,
  projection: string,
  event: RecordedEvent,
  error: unknown,
  attempts: number,
): Promise<void> {
  await client.query(
    `INSERT INTO projection_failures (projection, position, event_id, event_type, error, attempts)
     VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT (projection, position) DO UPDATE
       SET error = EXCLUDED.error, attempts = EXCLUDED.attempts, failed_at = now()`,
    [projection, event.position.toString(), event.id, event.type, describeError(error), attempts],
  );
}

export function describeError(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  return String(error);
}

export async function countFailures(
  db: Pool | PoolClient,
  names: readonly string[],
): Promise<Map<string, number>> {
  const { rows } = await db.query<{ projection: string; failed: number }>(
    `SELECT projection, count(*)::int AS failed FROM projection_failures
     WHERE projection = ANY($1::text[]) GROUP BY projection`,
    [names],
  );
  return new Map(rows.map((row) => [row.projection, row.failed]));
}

interface FailureRow {
  projection: string;
  position: string;
  event_id: string;
  event_type: string;
  error: string;
  attempts: number;
  failed_at: Date;
}

export async function recentFailures(
  db: Pool | PoolClient,
  names: readonly string[],
  limit: number,
): Promise<ProjectionFailure[]> {
  const { rows } = await db.query<FailureRow>(
    `SELECT projection, position, event_id, event_type, error, attempts, failed_at
     FROM projection_failures WHERE projection = ANY($1::text[])
     ORDER BY failed_at DESC, position DESC LIMIT $2`,
    [names, limit],
  );
  return rows.map((row) => ({
    projection: row.projection,
    position: BigInt(row.position),
    eventId: row.event_id,
    eventType: row.event_type,
    error: row.error,
    attempts: row.attempts,
    failedAt: row.failed_at,
  }));
}
