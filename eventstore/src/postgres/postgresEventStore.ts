import {
  type AllSubscription,
  type AppendResult,
  type EventMetadata,
  type EventStore,
  type ExpectedRevision,
  type NewEvent,
  type ReadAllOptions,
  type ReadStreamOptions,
  type RecordedEvent,
  type SubscribeToAllOptions,
  WrongExpectedRevisionError,
} from '@issuer/events';
import pg from 'pg';
import { mapEachRow } from './eachRow';
import { namedStatements } from './namedStatements';
import { partialRead, toBigInt } from './partialEvents';
import {
  EVENT_ID_CONSTRAINT,
  EXPECTED_ANY,
  EXPECTED_NO_STREAM,
  EXPECTED_STREAM_EXISTS,
  MAX_EVENTS_PER_TRANSACTION,
  migrateEventStoreSchema,
  VISIBLE_HORIZON,
  WRONG_EXPECTED_REVISION_SQLSTATE,
} from './postgresSchema';

export interface PostgresEventStoreOptions {
  /**
   * Test hook: when set, an append runs `BEGIN; SELECT es_append(…); <hook>; COMMIT` on one
   * connection, so a test can hold the transaction open after the insert (the gap test sleeps).
   */
  insideTransaction?: (client: pg.PoolClient) => Promise<void>;
  /** A subscription with nothing new re-reads at least this often, notification or not (ms). */
  pollIntervalMs?: number;
  /** Events per read of a catching-up subscription. */
  subscriptionBatchSize?: number;
}

/** An event id that is already stored elsewhere: event ids are unique across the whole store. */
export class DuplicateEventIdError extends Error {
  override readonly name = 'DuplicateEventIdError';
  constructor(
    readonly streamId: string,
    detail: string,
  ) {
    super(`Stream ${streamId}: an event id of this append is already stored elsewhere (${detail})`);
  }
}

const NOTIFY_CHANNEL = 'es_appended';
const DEFAULT_MAX_COUNT = 1000;
/** Re-poll delays while a committed event is known but still behind the visibility horizon. */
const FIRST_REPOLL_MS = 1;
const LAST_REPOLL_MS = 50;

const EVENT_COLUMNS = `e.position, e.stream_id, e.revision, e.event_id, e.type, e.data, e.metadata,
  (extract(epoch FROM e.recorded_at) * 1000)::int8 AS recorded_ms`;

/** Every column as PostgreSQL's text, whatever type parsers were set globally; see toRecordedEvent. */
const RAW_TEXT: pg.CustomTypesConfig = { getTypeParser: () => (value: string) => value };

/** A row of EVENT_COLUMNS in array mode (no keyed object per row), every column as text. */
type EventRow = [
  position: string,
  streamId: string,
  revision: string,
  eventId: string,
  type: string,
  data: string,
  metadata: string,
  recordedMs: string,
];

interface AppendRow {
  next_revision: string;
  end_position: string;
  written: boolean;
}

/**
 * Event store on PostgreSQL. Global positions are transaction-id ordered and readers stop at the
 * visibility horizon, so a reader never skips an event whose transaction commits late (see
 * postgresSchema.ts). Construct it from a pool (the caller keeps ownership) or a connection
 * string (the store owns its pool and ends it on close).
 */
export class PostgresEventStore implements EventStore {
  private readonly pool: pg.Pool;
  private readonly ownsPool: boolean;
  private readonly signal: AppendSignal;
  private readonly subscriptions = new Set<PostgresAllSubscription>();
  private schemaReady: Promise<void> | undefined;

  constructor(
    poolOrConnectionString: pg.Pool | string,
    private readonly options: PostgresEventStoreOptions = {},
  ) {
    this.ownsPool = typeof poolOrConnectionString === 'string';
    this.pool =
      typeof poolOrConnectionString === 'string'
        ? ownPool(poolOrConnectionString)
        : poolOrConnectionString;
    this.signal = new AppendSignal(this.pool.options);
  }

  /** Creates or upgrades the schema (idempotent, safe when several processes start at once). */
  migrate(): Promise<void> {
    if (!this.schemaReady) {
      this.schemaReady = migrateEventStoreSchema(this.pool).catch((error: unknown) => {
        this.schemaReady = undefined;
        throw error;
      });
    }
    return this.schemaReady;
  }

  async appendToStream(
    streamId: string,
    events: readonly NewEvent[],
    options: { expectedRevision: ExpectedRevision },
  ): Promise<AppendResult> {
    if (events.length === 0 || events.length > MAX_EVENTS_PER_TRANSACTION) {
      throw new RangeError(`An append takes 1 to ${MAX_EVENTS_PER_TRANSACTION} events`);
    }
    await this.migrate();
    const values = [streamId, encodeExpected(options.expectedRevision), serializeEvents(events)];
    const row = await this.callAppendFunction(values).catch((error: unknown) => {
      throw translateAppendError(error, streamId, options.expectedRevision);
    });
    const result = {
      nextExpectedRevision: BigInt(row.next_revision),
      position: BigInt(row.end_position),
    };
    if (row.written) this.signal.appended(result.position);
    return result;
  }

  async readStream(streamId: string, options: ReadStreamOptions = {}): Promise<RecordedEvent[]> {
    await this.migrate();
    const { rows } = await this.pool.query<EventRow>({
      rowMode: 'array',
      text: `SELECT ${EVENT_COLUMNS} FROM es_events e
        WHERE e.stream_id = $1 AND e.revision BETWEEN $2 AND $3
          AND e.recorded_at <= coalesce($4::timestamptz, 'infinity')
        ORDER BY e.revision`,
      values: [
        streamId,
        String(options.fromRevision ?? 0n),
        String(options.toRevision ?? 2n ** 63n - 1n),
        options.recordedUntil ?? null,
      ],
      types: RAW_TEXT,
    });
    return rows.map(toRecordedEvent);
  }

  async readAll(options: ReadAllOptions = {}): Promise<RecordedEvent[]> {
    const maxCount = options.maxCount ?? DEFAULT_MAX_COUNT;
    if (!Number.isInteger(maxCount) || maxCount < 1) {
      throw new RangeError('maxCount must be a positive integer');
    }
    await this.migrate();
    const partial = options.parts && partialRead(options.parts, 3);
    return mapEachRow(
      this.pool,
      {
        rowMode: 'array',
        ...preparedRead(`SELECT ${partial?.columns ?? EVENT_COLUMNS} FROM es_events e
          WHERE e.position > $1 AND e.position < ${VISIBLE_HORIZON}
          ORDER BY e.position LIMIT $2`),
        values: [String(options.after ?? -1n), maxCount, ...(partial?.values ?? [])],
        types: partial?.types ?? RAW_TEXT,
      },
      partial ? partial.decode : (row) => toRecordedEvent(row as EventRow),
    );
  }

  subscribeToAll(options: SubscribeToAllOptions = {}): AllSubscription {
    const subscription = new PostgresAllSubscription(
      options.after ?? -1n,
      {
        readAll: (readOptions) => this.readAll(readOptions),
        signal: this.signal,
        pollIntervalMs: this.options.pollIntervalMs ?? 500,
        batchSize: this.options.subscriptionBatchSize ?? DEFAULT_MAX_COUNT,
      },
      () => this.subscriptions.delete(subscription),
    );
    this.subscriptions.add(subscription);
    void this.signal.listen();
    return subscription;
  }

  async *watchCommitted(abort: AbortSignal): AsyncGenerator<bigint> {
    const pollMs = this.options.pollIntervalMs ?? 500;
    let told = this.signal.latestCommitted;
    const stop = () => this.signal.wakeAll();
    abort.addEventListener('abort', stop, { once: true });
    try {
      while (!abort.aborted && !this.signal.closed) {
        const seen = this.signal.generation;
        if (this.signal.latestCommitted > told) {
          told = this.signal.latestCommitted;
          yield told;
          continue;
        }
        // Also (re)starts listening, so a dropped connection is replaced within one poll.
        await this.signal.nextSignal(seen, pollMs);
      }
    } finally {
      abort.removeEventListener('abort', stop);
    }
  }

  async headPosition(): Promise<bigint | undefined> {
    await this.migrate();
    const { rows } = await this.pool.query<{ head: string | null }>(
      preparedRead(
        `SELECT max(position)::text AS head FROM es_events WHERE position < ${VISIBLE_HORIZON}`,
      ),
    );
    const head = rows[0]?.head;
    return head == null ? undefined : BigInt(head);
  }

  async close(): Promise<void> {
    await Promise.all([...this.subscriptions].map((subscription) => subscription.close()));
    await this.signal.close();
    if (this.ownsPool) await this.pool.end();
  }

  private async callAppendFunction(values: readonly unknown[]): Promise<AppendRow> {
    const query = {
      name: 'es_append',
      text: 'SELECT next_revision::text, end_position::text, written FROM es_append($1, $2, $3)',
      values: [...values],
    };
    const hook = this.options.insideTransaction;
    if (!hook) return firstRow((await this.pool.query<AppendRow>(query)).rows);
    return inTransaction(this.pool, async (client) => {
      const row = firstRow((await client.query<AppendRow>(query)).rows);
      await hook(client);
      return row;
    });
  }
}

function ownPool(connectionString: string): pg.Pool {
  const pool = new pg.Pool({ connectionString });
  // An idle connection that breaks (server restart, terminated backend) is dropped by the pool;
  // without a listener its error event would crash the process.
  pool.on('error', () => {});
  return pool;
}

async function inTransaction<T>(
  pool: pg.Pool,
  work: (client: pg.PoolClient) => Promise<T>,
): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    client.release();
    return result;
  } catch (error) {
    const rolledBack = await client.query('ROLLBACK').then(
      () => true,
      () => false,
    );
    client.release(rolledBack ? undefined : true);
    throw error;
  }
}

function firstRow<T>(rows: T[]): T {
  const [row] = rows;
  if (!row) throw new Error('es_append returned no row');
  return row;
}

function encodeExpected(expected: ExpectedRevision): string {
  if (expected === 'no_stream') return String(EXPECTED_NO_STREAM);
  if (expected === 'any') return String(EXPECTED_ANY);
  if (expected === 'stream_exists') return String(EXPECTED_STREAM_EXISTS);
  if (expected < 0n) throw new RangeError(`Expected revision must be >= 0, got ${expected}`);
  return String(expected);
}

function serializeEvents(events: readonly NewEvent[]): string {
  return JSON.stringify(
    events.map(({ id, type, data, metadata }) => ({ id, type, data: data ?? null, metadata })),
  );
}

function translateAppendError(
  error: unknown,
  streamId: string,
  expected: ExpectedRevision,
): unknown {
  if (!(error instanceof pg.DatabaseError)) return error;
  if (error.code === WRONG_EXPECTED_REVISION_SQLSTATE) {
    const actual = BigInt(error.detail ?? '-1');
    return new WrongExpectedRevisionError(streamId, expected, actual < 0n ? undefined : actual);
  }
  if (error.code === '23505' && error.constraint === EVENT_ID_CONSTRAINT) {
    return new DuplicateEventIdError(streamId, error.detail ?? 'duplicate event id');
  }
  return error;
}

function toRecordedEvent(row: EventRow): RecordedEvent {
  return {
    id: row[3],
    type: row[4],
    data: JSON.parse(row[5]),
    metadata: JSON.parse(row[6]) as EventMetadata,
    streamId: row[1],
    revision: toBigInt(row[2]),
    position: toBigInt(row[0]),
    recordedAt: new Date(Number(row[7])),
  };
}

/**
 * Tells subscriptions that events were committed. Appends in this process wake local
 * subscriptions at once; other processes learn of them through NOTIFY on one dedicated
 * connection per store, which also LISTENs while subscriptions exist.
 *
 * The NOTIFY is sent after the append commits, not inside its transaction: PostgreSQL serializes
 * the commits of all notifying transactions (a database-wide lock held until commit), which
 * halved append throughput with 16 writers. Notifications are coalesced, one in flight at a
 * time. They only shorten latency: subscriptions also poll, so a lost one delays, never loses.
 */
class AppendSignal {
  /** Highest position known to be committed (it may still be behind the visibility horizon). */
  latestCommitted = -1n;
  /** Counts signals, so that a reader can tell whether one came while it was reading. */
  generation = 0;
  private readonly waiters = new Set<() => void>();
  private client: Promise<pg.Client> | undefined;
  private listening = false;
  private pendingNotify: bigint | undefined;
  private notifying = false;
  closed = false;

  constructor(private readonly clientConfig: pg.ClientConfig) {}

  appended(position: bigint): void {
    this.committed(position);
    this.pendingNotify = position;
    if (!this.notifying) void this.flushNotifications();
  }

  /**
   * Resolves on the next signal after `seen` (a `generation` read before the caller's last read),
   * at once if one came meanwhile, or after `timeoutMs`.
   */
  async nextSignal(seen: number, timeoutMs: number): Promise<void> {
    void this.listen();
    if (this.generation !== seen) return;
    await new Promise<void>((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        this.waiters.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, timeoutMs);
      this.waiters.add(wake);
    });
  }

  wakeAll(): void {
    this.generation += 1;
    for (const wake of [...this.waiters]) wake();
  }

  async close(): Promise<void> {
    this.closed = true;
    this.wakeAll();
    const client = await this.client?.catch(() => undefined);
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }

  private committed(position: bigint): void {
    if (position > this.latestCommitted) this.latestCommitted = position;
    this.wakeAll();
  }

  private async flushNotifications(): Promise<void> {
    this.notifying = true;
    try {
      while (this.pendingNotify !== undefined && !this.closed) {
        const position = this.pendingNotify;
        this.pendingNotify = undefined;
        const client = await this.connection();
        await client.query('SELECT pg_notify($1, $2)', [NOTIFY_CHANNEL, String(position)]);
      }
    } catch {
      // Best effort: other processes' subscriptions still poll. The broken connection was dropped.
      this.pendingNotify = undefined;
    } finally {
      this.notifying = false;
    }
  }

  /**
   * Starts listening unless already listening. Notifications sent before LISTEN took effect are
   * lost, so once it does, waiting subscriptions are woken to read again.
   */
  async listen(): Promise<void> {
    if (this.listening || this.closed) return;
    this.listening = true;
    try {
      const client = await this.connection();
      await client.query(`LISTEN ${NOTIFY_CHANNEL}`);
      await this.learnLastCommitted(client);
      this.wakeAll();
    } catch {
      this.listening = false; // retried on the next wait; polling covers the gap
    }
  }

  /**
   * What was committed before LISTEN took effect sent no notice here: the last stored position
   * stands in for those (watchers of committed positions would otherwise wait for a poll). Before
   * the schema exists there is nothing to learn, and the query's error is ignored.
   */
  private async learnLastCommitted(client: pg.Client): Promise<void> {
    const last = await client
      .query<{ last: string | null }>('SELECT max(position)::text AS last FROM es_events')
      .then(({ rows }) => rows[0]?.last)
      .catch(() => undefined);
    if (last) this.committed(BigInt(last));
  }

  private connection(): Promise<pg.Client> {
    if (!this.client) {
      this.client = this.connect();
      this.client.catch(() => this.dropConnection());
    }
    return this.client;
  }

  private async connect(): Promise<pg.Client> {
    const client = new pg.Client(this.clientConfig);
    client.on('notification', ({ payload }) => {
      if (payload && /^\d+$/.test(payload)) this.committed(BigInt(payload));
    });
    client.on('error', () => this.dropConnection());
    client.on('end', () => this.dropConnection());
    await client.connect();
    return client;
  }

  private dropConnection(): void {
    this.client = undefined;
    this.listening = false;
  }
}

interface SubscriptionSource {
  readAll(options: ReadAllOptions): Promise<RecordedEvent[]>;
  signal: AppendSignal;
  pollIntervalMs: number;
  batchSize: number;
}

/** Catch-up then live: reads pages up to the horizon, then waits for a commit signal or a poll. */
class PostgresAllSubscription implements AllSubscription {
  private closed = false;
  private started = false;

  constructor(
    private checkpoint: bigint,
    private readonly source: SubscriptionSource,
    private readonly onClose: () => void,
  ) {}

  [Symbol.asyncIterator](): AsyncIterator<RecordedEvent> {
    if (this.started) throw new Error('A subscription can be iterated only once');
    this.started = true;
    return this.events();
  }

  async close(): Promise<void> {
    this.closed = true;
    this.onClose();
    this.source.signal.wakeAll();
  }

  private async *events(): AsyncGenerator<RecordedEvent> {
    let repollMs = FIRST_REPOLL_MS;
    try {
      while (!this.closed) {
        const seen = this.source.signal.generation;
        const page = await this.source.readAll({
          after: this.checkpoint,
          maxCount: this.source.batchSize,
        });
        for (const event of page) {
          if (this.closed) return;
          yield event;
          this.checkpoint = event.position;
        }
        if (page.length === this.source.batchSize) continue;
        if (this.source.signal.latestCommitted > this.checkpoint) {
          // Committed but still behind the horizon (an older transaction is open): re-read soon.
          await sleep(repollMs);
          repollMs = Math.min(repollMs * 2, LAST_REPOLL_MS);
          continue;
        }
        repollMs = FIRST_REPOLL_MS;
        if (!this.closed) await this.source.signal.nextSignal(seen, this.source.pollIntervalMs);
      }
    } finally {
      await this.close();
    }
  }
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Reads are named statements: the horizon's subqueries would otherwise be planned on every read. */
const preparedRead = namedStatements('es_read');
