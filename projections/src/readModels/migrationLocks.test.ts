import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountProjections, customerProjections, moneyProjections } from '.';
import { projectionDatabase } from './testing';

const projections = [...accountProjections, ...customerProjections, ...moneyProjections];
let db: Awaited<ReturnType<typeof projectionDatabase>>;
beforeAll(async () => {
  db = await projectionDatabase(projections);
});
afterAll(() => db.pool.end());

describe('migrating a schema that is already current', () => {
  it('takes no ACCESS EXCLUSIVE lock, so readers are neither blocked nor deadlocked by a restart', async () => {
    const client = await db.pool.connect();
    try {
      await client.query('BEGIN');
      for (const projection of projections) await projection.migrate(client);
      const { rows } = await client.query<{ relation: string }>(
        `SELECT relation::regclass::text AS relation FROM pg_locks
          WHERE pid = pg_backend_pid() AND mode = 'AccessExclusiveLock' AND locktype = 'relation'`,
      );
      expect(rows).toEqual([]);
    } finally {
      await client.query('ROLLBACK');
      client.release();
    }
  });

  it('still adds a column that is missing', async () => {
    await db.pool.query('ALTER TABLE companies DROP COLUMN suspension_reason');
    const client = await db.pool.connect();
    try {
      for (const projection of projections) await projection.migrate(client);
    } finally {
      client.release();
    }
    const { rows } = await db.pool.query(
      `SELECT 1 FROM information_schema.columns
        WHERE table_name = 'companies' AND column_name = 'suspension_reason'`,
    );
    expect(rows).toHaveLength(1);
  });
});
