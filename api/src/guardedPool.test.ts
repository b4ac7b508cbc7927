import { createTestDatabase, type TestDatabase } from '@issuer/test-support';
import pg from 'pg';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { guardedPool } from './infrastructure';

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.drop());

describe('the API pool', () => {
  it('survives the server ending a connection that is checked out between queries (a PostgreSQL restart)', async () => {
    const failures: string[] = [];
    const logger = pino({ level: 'silent' });
    logger.error = ((entry: { err: { code?: string } }) => {
      failures.push(entry.err.code ?? 'none');
    }) as typeof logger.error;
    const pool = guardedPool(new pg.Pool({ connectionString: database.url, max: 2 }), logger);
    const client = await pool.connect();
    const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
    // Without a listener on the checked-out client, this `error` event would end the process.
    await pool.query('SELECT pg_terminate_backend($1)', [rows[0]?.pid]);
    await expect.poll(() => failures).toContain('57P01');
    client.release(true);
    expect((await pool.query<{ one: number }>('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
    await pool.end();
  });
});
