import { createTestDatabase, postgresServers, type TestDatabase } from '@issuer/test-support';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mapEachRow } from './eachRow';

const text: pg.CustomTypesConfig = { getTypeParser: () => (value: string) => value };

for (const server of await postgresServers()) {
  describe(`mapEachRow (${server.name})`, () => {
    let database: TestDatabase;
    let pool: pg.Pool;

    beforeAll(async () => {
      database = await createTestDatabase(server);
      pool = new pg.Pool({ connectionString: database.url, max: 1 });
    });
    afterAll(async () => {
      await pool.end();
      await database.drop();
    });

    const query = (sql: string) => ({ rowMode: 'array' as const, text: sql, types: text });

    it('given rows, then it returns what the map made of each, in order', async () => {
      const mapped = await mapEachRow(pool, query('SELECT g FROM generate_series(1, 3) g'), (row) =>
        Number(row[0]),
      );

      expect(mapped).toEqual([1, 2, 3]);
    });

    it('given a query failing after some rows, then it rejects and the pool still works', async () => {
      const failing = query('SELECT 1 / (3 - g) FROM generate_series(1, 5) g');

      await expect(mapEachRow(pool, failing, (row) => row)).rejects.toThrow(/division by zero/);
      expect(await mapEachRow(pool, query('SELECT 7'), (row) => row[0])).toEqual(['7']);
    });

    it('given a map that throws, then it rejects with that error and the pool still works', async () => {
      const boom = new Error('cannot map');

      await expect(
        mapEachRow(pool, query('SELECT g FROM generate_series(1, 3) g'), () => {
          throw boom;
        }),
      ).rejects.toBe(boom);
      expect(await mapEachRow(pool, query('SELECT 8'), (row) => row[0])).toEqual(['8']);
    });
  });
}
