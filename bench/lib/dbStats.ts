import pg from 'pg';

/**
 * Counts write transactions on the bench's PostgreSQL server: the next transaction id to be
 * assigned only moves when a transaction writes, and each of those waits for a WAL flush at
 * commit. Server-wide, so read it around a run while nothing else on the server writes.
 */
export class WriteTransactionCounter {
  readonly #client: pg.Client;

  private constructor(client: pg.Client) {
    this.#client = client;
  }

  static async open(adminUrl: string): Promise<WriteTransactionCounter> {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    return new WriteTransactionCounter(client);
  }

  async next(): Promise<number> {
    const { rows } = await this.#client.query<{ next: string }>(
      'SELECT pg_snapshot_xmax(pg_current_snapshot())::text AS next',
    );
    return Number(rows[0]?.next ?? 0);
  }

  close(): Promise<void> {
    return this.#client.end();
  }
}
