import { randomUUID } from 'node:crypto';
import type { RecordedEvent } from '@issuer/events';
import { createDatabase } from '@issuer/test-support';
import pg from 'pg';
import type { Projection } from '../projection';

async function freshDatabasePool(max: number): Promise<pg.Pool> {
  return new pg.Pool({ connectionString: await createDatabase(), max });
}

/** Stored events as the runner hands them over: positions 1, 2, 3… in the order given. */
export function recorded(
  events: readonly { type: string; data: unknown; companyId?: string }[],
  firstPosition = 1n,
): RecordedEvent[] {
  return events.map(({ type, data, companyId }, index) => ({
    id: randomUUID(),
    type,
    data,
    metadata: {
      companyId: companyId ?? 'c-1',
      userId: null,
      correlationId: randomUUID(),
      causationId: null,
      occurredAt: '2025-03-01T10:00:00.000Z',
      schemaVersion: 1,
    },
    streamId: 'Test-1',
    revision: BigInt(index),
    position: firstPosition + BigInt(index),
    recordedAt: new Date('2025-03-01T10:00:00.000Z'),
  }));
}

/** A fresh database with the projections' tables; `apply` runs one batch in a transaction. */
export async function projectionDatabase(projections: readonly Projection[]) {
  const pool = await freshDatabasePool(4);
  const client = await pool.connect();
  try {
    for (const projection of projections) await projection.migrate(client);
  } finally {
    client.release();
  }
  return {
    pool,
    async apply(projection: Projection, events: readonly RecordedEvent[]) {
      const batch = events.filter((event) => projection.handles.includes(event.type));
      const tx = await pool.connect();
      try {
        await tx.query('BEGIN');
        await projection.apply(batch, tx);
        await tx.query('COMMIT');
      } catch (error) {
        await tx.query('ROLLBACK');
        throw error;
      } finally {
        tx.release();
      }
    },
  };
}
