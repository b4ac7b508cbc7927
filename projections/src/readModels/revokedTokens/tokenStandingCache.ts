import type { Pool, PoolClient } from 'pg';
import type { Logger } from 'pino';
import { sleep } from '../../runner/wakeSignal';
import { getTokenStanding, type TokenStanding } from './revokedTokensProjection';
import { TOKEN_STANDING_CHANNEL } from './tokenStandingNotices';

export interface TokenStandingCacheOptions {
  pool: Pool;
  logger: Logger;
  /** Pause before reconnecting the LISTEN connection. Default 1000 ms. */
  reconnectMs?: number;
  /** Tokens remembered at most; past it the cache starts again empty. Default 50,000. */
  maxEntries?: number;
}

/**
 * `getTokenStanding` without its round trip on every request: a token's standing is remembered
 * until PostgreSQL says it may have changed. One pooled connection LISTENs on `token_standing`,
 * which triggers on `revoked_tokens` and `users` notify at commit (whichever process wrote), so a
 * sign-out or a password change reaches every API process within milliseconds. Without that
 * connection (before it is up, while it reconnects) nothing is remembered and every request asks
 * the database, as before.
 */
export class TokenStandingCache {
  readonly #options: TokenStandingCacheOptions;
  readonly #closing = new AbortController();
  readonly #byUser = new Map<string, Map<string, TokenStanding>>();
  #entries = 0;
  /** Moves on every notice and (re)connection: a lookup that overlapped one is not remembered. */
  #generation = 0;
  #listener: PoolClient | undefined;

  private constructor(options: TokenStandingCacheOptions) {
    this.#options = options;
  }

  /** Resolves once listening. */
  static async start(options: TokenStandingCacheOptions): Promise<TokenStandingCache> {
    const cache = new TokenStandingCache(options);
    await cache.#listen();
    return cache;
  }

  async standing(ids: {
    userId: string;
    tokenId: string;
    sessionId?: string;
    /** The token's company: a suspended one refuses every token of it. */
    companyId?: string;
  }): Promise<TokenStanding> {
    const key = `${ids.tokenId} ${ids.sessionId ?? ''}`;
    const known = this.#byUser.get(ids.userId)?.get(key);
    if (known) return known;
    const generation = this.#generation;
    const standing = await getTokenStanding(this.#options.pool, ids);
    if (this.#listener && generation === this.#generation)
      this.#remember(ids.userId, key, standing);
    return standing;
  }

  /**
   * Forgets a user's tokens at once ('' everyone): for the process that changed their standing,
   * so its next request sees the change without waiting for the notice.
   */
  forget(userId: string): void {
    this.#forget(userId);
  }

  async close(): Promise<void> {
    this.#closing.abort();
    this.#forget('');
    const listener = this.#listener;
    this.#listener = undefined;
    if (listener) {
      await listener.query(`UNLISTEN ${TOKEN_STANDING_CHANNEL}`).catch(() => {});
      listener.release();
    }
  }

  #remember(userId: string, key: string, standing: TokenStanding): void {
    if (this.#entries >= (this.#options.maxEntries ?? 50_000)) this.#forget('');
    let tokens = this.#byUser.get(userId);
    if (!tokens) {
      tokens = new Map();
      this.#byUser.set(userId, tokens);
    }
    if (!tokens.has(key)) this.#entries += 1;
    tokens.set(key, standing);
  }

  /** '' forgets everyone. */
  #forget(userId: string): void {
    this.#generation += 1;
    if (userId === '') {
      this.#byUser.clear();
      this.#entries = 0;
      return;
    }
    this.#entries -= this.#byUser.get(userId)?.size ?? 0;
    this.#byUser.delete(userId);
  }

  async #listen(): Promise<void> {
    const client = await this.#options.pool.connect();
    client.on('notification', (message) => {
      if (message.channel === TOKEN_STANDING_CHANNEL) this.#forget(message.payload ?? '');
    });
    client.on('error', (error) => this.#onListenerLost(client, error));
    try {
      await client.query(`LISTEN ${TOKEN_STANDING_CHANNEL}`);
    } catch (error) {
      client.release(true);
      throw error;
    }
    if (this.#closing.signal.aborted) {
      client.release();
      return;
    }
    // Whatever changed while nobody listened is unknown: start empty.
    this.#forget('');
    this.#listener = client;
  }

  #onListenerLost(client: PoolClient, error: Error): void {
    if (this.#listener !== client) return;
    this.#listener = undefined;
    this.#forget('');
    client.release(error);
    this.#options.logger.warn({ err: error }, 'token standing listener lost; reconnecting');
    void this.#reconnect();
  }

  async #reconnect(): Promise<void> {
    const abort = this.#closing.signal;
    while (!abort.aborted && !this.#listener) {
      await sleep(this.#options.reconnectMs ?? 1000, abort);
      if (abort.aborted) return;
      try {
        await this.#listen();
      } catch (error) {
        this.#options.logger.warn({ err: error }, 'token standing listener reconnect failed');
      }
    }
  }
}
