import type { Pool, PoolClient } from 'pg';

/** First key of the two-key advisory lock; the second is a hash of the publisher's name. */
const PUBLISHER_LOCK_CLASS = 7_214_530;

/**
 * One publishing instance per name: a session-level advisory lock on a connection held while
 * publishing. It takes no transaction id, so unlike a row lock it never holds back the event
 * store's readers; when the process dies, the server drops the session and the lock with it.
 */
export class PublisherLeadership {
  #client: PoolClient | undefined;
  #lost: Error | undefined;

  constructor(
    private readonly pool: Pool,
    private readonly name: string,
  ) {}

  /** True when this instance holds (or just took) the lock. */
  async acquire(): Promise<boolean> {
    if (this.#client && !this.#lost) return true;
    await this.release();
    const client = await this.pool.connect();
    const { rows } = await client
      .query<{ locked: boolean }>('SELECT pg_try_advisory_lock($1, hashtext($2)) AS locked', [
        PUBLISHER_LOCK_CLASS,
        this.name,
      ])
      .catch((error: unknown) => {
        client.release(true);
        throw error;
      });
    if (!rows[0]?.locked) {
      client.release();
      return false;
    }
    client.on('error', (error) => {
      this.#lost = error;
    });
    this.#client = client;
    this.#lost = undefined;
    return true;
  }

  /** Throws when the lock's connection broke: another instance may be publishing now. */
  assertHeld(): void {
    if (this.#lost) throw new Error(`publisher lock connection lost: ${this.#lost.message}`);
    if (!this.#client) throw new Error('publisher lock not held');
  }

  async release(): Promise<void> {
    const client = this.#client;
    this.#client = undefined;
    if (!client) return;
    // Destroying the connection ends the session, which releases the lock even if it broke.
    client.release(true);
  }
}
