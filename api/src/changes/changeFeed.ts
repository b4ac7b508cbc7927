import { DomainError } from '@issuer/events';
import {
  AUDIT_CHANGES_CHANNEL,
  auditChangesSince,
  type ChangedRecords,
  lastAuditPosition,
  type ReadModelWaiter,
} from '@issuer/projections';
import type { Notification, Pool, PoolClient } from 'pg';
import type { Logger } from 'pino';

/** One Server-Sent Event: `change` (resource and ids), `reset` (refresh everything), `ready`. */
export interface ChangeMessage {
  event: 'change' | 'reset' | 'ready';
  data: string;
  id?: string;
}

export interface ChangeFeedOptions {
  pool: Pool;
  logger: Logger;
  readModels: ReadModelWaiter;
  /** Streams open at once in this process; past it, 503 (CHANGES_MAX_STREAMS, default 5000). */
  maxStreams?: number;
  /** A comment line to each stream this often, so proxies keep it open (default 15 s). */
  heartbeatMs?: number;
  /** Events read per catch-up; past it the client is told to refresh everything (default 2000). */
  catchUpLimit?: number;
}

/** A stream's queue of messages; `next` resolves with the next one, or undefined once closed. */
export interface ChangeSubscription {
  next(): Promise<ChangeMessage | 'heartbeat' | undefined>;
  close(): void;
}

interface Subscriber {
  queue: (ChangeMessage | 'heartbeat')[];
  wake: (() => void) | undefined;
  closed: boolean;
}

interface CompanyFeed {
  subscribers: Set<Subscriber>;
  /** The last position sent to this company's streams. */
  cursor: bigint;
  /** The last position notified; a fetch runs while it is past the cursor. */
  notified: bigint;
  fetching: Promise<void> | undefined;
}

export const tooManyStreams = () =>
  new DomainError(503, 'too_many_streams', 'Too many live update streams: try again shortly');

/**
 * Live updates for every stream of this process from one LISTEN connection. The audit
 * projection notifies each batch's companies and last positions at commit; the feed waits until
 * every read model has reached that position (so a refresh reads the change), reads what changed
 * from the audit log (resources and record ids, never data) and hands it to the company's
 * streams. The message id is the position: a client resumes with `Last-Event-ID` from the log.
 */
export class ChangeFeed {
  readonly #options: Required<ChangeFeedOptions>;
  readonly #companies = new Map<string, CompanyFeed>();
  #open = 0;
  #listener: PoolClient | undefined;
  #heartbeat: NodeJS.Timeout | undefined;
  #closed = false;

  private constructor(options: ChangeFeedOptions) {
    this.#options = { maxStreams: 5000, heartbeatMs: 15_000, catchUpLimit: 2000, ...options };
  }

  static async start(options: ChangeFeedOptions): Promise<ChangeFeed> {
    const feed = new ChangeFeed(options);
    await feed.#listen();
    feed.#heartbeat = setInterval(() => feed.#beat(), feed.#options.heartbeatMs);
    feed.#heartbeat.unref();
    return feed;
  }

  get openStreams(): number {
    return this.#open;
  }

  /**
   * A stream of the company's changes after `lastEventId` (or from now). Throws 503 when the
   * process already holds its maximum of streams.
   */
  async subscribe(companyId: string, lastEventId?: bigint): Promise<ChangeSubscription> {
    if (this.#open >= this.#options.maxStreams) throw tooManyStreams();
    this.#open += 1;
    const subscriber: Subscriber = { queue: [], wake: undefined, closed: false };
    try {
      const company = await this.#company(companyId);
      if (lastEventId !== undefined && lastEventId < company.cursor) {
        const missed = await auditChangesSince(
          this.#options.pool,
          companyId,
          lastEventId,
          company.cursor,
          this.#options.catchUpLimit,
        );
        if (!missed.complete)
          this.#push(subscriber, { event: 'reset', data: '{}', id: `${company.cursor}` });
        else this.#deliver([subscriber], missed.changes, company.cursor);
      }
      this.#push(subscriber, { event: 'ready', data: '{}', id: `${company.cursor}` });
      company.subscribers.add(subscriber);
    } catch (error) {
      this.#open -= 1;
      throw error;
    }
    return {
      next: () => this.#next(subscriber),
      close: () => {
        if (subscriber.closed) return;
        subscriber.closed = true;
        this.#open -= 1;
        const company = this.#companies.get(companyId);
        company?.subscribers.delete(subscriber);
        if (company && company.subscribers.size === 0 && !company.fetching)
          this.#companies.delete(companyId);
        subscriber.wake?.();
      },
    };
  }

  async close(): Promise<void> {
    this.#closed = true;
    clearInterval(this.#heartbeat);
    for (const company of this.#companies.values())
      for (const subscriber of company.subscribers) {
        subscriber.closed = true;
        subscriber.wake?.();
      }
    const listener = this.#listener;
    this.#listener = undefined;
    if (listener) {
      await listener.query(`UNLISTEN ${AUDIT_CHANGES_CHANNEL}`).catch(() => {});
      listener.release();
    }
  }

  async #company(companyId: string): Promise<CompanyFeed> {
    const known = this.#companies.get(companyId);
    if (known) return known;
    const cursor = await lastAuditPosition(this.#options.pool, companyId);
    const raced = this.#companies.get(companyId);
    if (raced) return raced;
    const company: CompanyFeed = {
      subscribers: new Set(),
      cursor,
      notified: cursor,
      fetching: undefined,
    };
    this.#companies.set(companyId, company);
    return company;
  }

  async #next(subscriber: Subscriber) {
    while (subscriber.queue.length === 0 && !subscriber.closed) {
      await new Promise<void>((resolve) => {
        subscriber.wake = resolve;
      });
      subscriber.wake = undefined;
    }
    return subscriber.closed ? undefined : subscriber.queue.shift();
  }

  #push(subscriber: Subscriber, message: ChangeMessage | 'heartbeat') {
    subscriber.queue.push(message);
    subscriber.wake?.();
  }

  #beat() {
    for (const company of this.#companies.values())
      for (const subscriber of company.subscribers) this.#push(subscriber, 'heartbeat');
  }

  /** One message per resource; only the last carries the id, so a resume repeats, never skips. */
  #deliver(subscribers: Iterable<Subscriber>, changes: readonly ChangedRecords[], last: bigint) {
    const messages = changes.map(
      (change, i): ChangeMessage => ({
        event: 'change',
        data: JSON.stringify(change),
        ...(i === changes.length - 1 ? { id: `${last}` } : {}),
      }),
    );
    for (const subscriber of subscribers)
      for (const message of messages) this.#push(subscriber, message);
  }

  async #listen() {
    const client = await this.#options.pool.connect();
    client.on('notification', (notice) => this.#notified(notice));
    client.on('error', (error) => {
      this.#options.logger.warn({ err: error }, 'live updates: LISTEN connection lost');
      if (this.#listener === client) this.#listener = undefined;
      client.release(error);
      if (!this.#closed) setTimeout(() => void this.#listen().catch(() => {}), 1000).unref();
    });
    await client.query(`LISTEN ${AUDIT_CHANGES_CHANNEL}`);
    this.#listener = client;
    // Changes committed while not listening: look at every company with streams.
    for (const [companyId, company] of this.#companies) {
      company.notified = await lastAuditPosition(this.#options.pool, companyId);
      this.#fetch(companyId, company);
    }
  }

  #notified(notice: Notification) {
    if (notice.channel !== AUDIT_CHANGES_CHANNEL) return;
    let positions: Record<string, string> | undefined;
    try {
      positions = notice.payload
        ? (JSON.parse(notice.payload) as Record<string, string>)
        : undefined;
    } catch {
      positions = undefined;
    }
    for (const [companyId, company] of this.#companies) {
      const position = positions ? positions[companyId] : undefined;
      if (positions && position === undefined) continue;
      if (position !== undefined && BigInt(position) > company.notified)
        company.notified = BigInt(position);
      if (position === undefined)
        void lastAuditPosition(this.#options.pool, companyId).then((last) => {
          if (last > company.notified) company.notified = last;
          this.#fetch(companyId, company);
        });
      else this.#fetch(companyId, company);
    }
  }

  #fetch(companyId: string, company: CompanyFeed) {
    if (company.fetching || company.notified <= company.cursor) return;
    company.fetching = this.#send(companyId, company)
      .catch((error) => this.#options.logger.warn({ err: error }, 'live updates: read failed'))
      .finally(() => {
        company.fetching = undefined;
        if (company.subscribers.size === 0) this.#companies.delete(companyId);
        else this.#fetch(companyId, company);
      });
  }

  async #send(companyId: string, company: CompanyFeed) {
    const upTo = company.notified;
    // A refresh must find the change: wait until every read model has it (bounded).
    await this.#options.readModels.waitFor(upTo, 2_000);
    const read = await auditChangesSince(
      this.#options.pool,
      companyId,
      company.cursor,
      upTo,
      this.#options.catchUpLimit,
    );
    if (read.complete) this.#deliver(company.subscribers, read.changes, read.last);
    else
      for (const subscriber of company.subscribers)
        this.#push(subscriber, { event: 'reset', data: '{}', id: `${upTo}` });
    company.cursor = upTo;
  }
}
