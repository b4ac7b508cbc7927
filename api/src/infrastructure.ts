import { join } from 'node:path';
import type { EventStore } from '@issuer/events';
import {
  EventStoreDbEventStore,
  PostgresEventStore,
  runningPostmaster,
  startEmbeddedPostgres,
} from '@issuer/eventstore';
import {
  accountProjections,
  auditProjection,
  customerProjections,
  migrateProjections,
  moneyProjections,
  type Projection,
} from '@issuer/projections';
import pg from 'pg';
import pino, { type Logger } from 'pino';
import { migrateAuth } from './auth/loginThrottle';
import { type Config, ConfigError, loadConfig } from './config';
import { migrateCustomers } from './customers';
import { documentsProjection } from './documents/documentsProjection';
import { migrateDocumentStorage } from './documents/storage';
import { migrateEtransferSimulator } from './etransfers/simulator/etransferSimulator';
import { fundingRoundsProjection } from './fundingRounds/roundsProjection';
import { migrateHttp } from './http';
import { paymentMethodsProjection } from './paymentMethods/paymentMethodsProjection';
import { paymentTimersProjection } from './payments/scheduler/paymentTimersProjection';
import { migrateTerminalSimulator } from './payments/simulator/simulatorTables';
import { migrateBillingCollector } from './subscriptions/billingCollector';
import { billingProjection } from './subscriptions/billingProjection';
import { migrateOrderProcessor } from './tokenOrders/orderProcessor';
import { tokenOrdersProjection } from './tokenOrders/ordersProjection';
import { migrateWalletRecorder } from './wallet/walletRecorder';

/** Every read model the portal keeps, in one list for the runner, rebuild and health. */
export const allProjections: readonly Projection[] = [
  ...accountProjections,
  ...customerProjections,
  ...moneyProjections,
  paymentTimersProjection,
  paymentMethodsProjection,
  billingProjection,
  auditProjection,
  documentsProjection,
  fundingRoundsProjection,
  tokenOrdersProjection,
];

export interface Infrastructure {
  config: Config;
  logger: Logger;
  /** The read-model database; also the event store's on the PostgreSQL default. */
  pool: pg.Pool;
  store: EventStore;
  /**
   * On the embedded default: `listener` runs once if that PostgreSQL stops while this process
   * still uses it (killed, crashed). Nothing restarts it by itself, so the caller stops too.
   */
  onDatabaseGone(listener: (message: string) => void): void;
  close(): Promise<void>;
}

/**
 * Opens the databases and the event store and brings every schema up to date. On the embedded
 * default it starts PostgreSQL under DATA_DIR, or connects to the one already running from that
 * folder: a running `npm start`'s (so `npm run operator` works beside it, and leaves it running),
 * or one a killed process left behind (which `close()` then stops too).
 */
export async function openInfrastructure(config: Config, logger: Logger): Promise<Infrastructure> {
  const database = await openDatabase(config, logger);
  const pool = guardedPool(new pg.Pool({ connectionString: database.url, max: 20 }), logger);
  const store: EventStore & { migrate?: () => Promise<void> } = config.eventStoreUrl
    ? new EventStoreDbEventStore(config.eventStoreUrl)
    : new PostgresEventStore(pool);
  try {
    await store.migrate?.();
    await migrateHttp(pool);
    await migrateAuth(pool);
    await migrateCustomers(pool);
    await migrateTerminalSimulator(pool);
    await migrateEtransferSimulator(pool);
    await migrateWalletRecorder(pool);
    await migrateBillingCollector(pool);
    await migrateOrderProcessor(pool);
    await migrateDocumentStorage(pool);
    await migrateProjections(pool, allProjections);
  } catch (error) {
    await pool.end();
    await database.stop();
    throw error;
  }
  return {
    config,
    logger,
    pool,
    store,
    onDatabaseGone: database.onGone,
    async close() {
      await store.close();
      await endPool(pool);
      await database.stop();
    },
  };
}

/**
 * `pool.end()` resolves once it has asked each connection to close, not once they have: stopping
 * PostgreSQL right after would terminate them and make the pool emit an error (and crash on a
 * pool without an error listener). This waits for every connection's close (bounded).
 */
export async function endPool(pool: pg.Pool, timeoutMs = 5_000): Promise<void> {
  const open = pool.totalCount;
  let closed = 0;
  const allClosed = new Promise<void>((resolve) => {
    if (open === 0) resolve();
    pool.on('remove', () => {
      closed += 1;
      if (closed >= open) resolve();
    });
  });
  await pool.end();
  let timer: NodeJS.Timeout | undefined;
  const bound = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, timeoutMs);
  });
  await Promise.race([allClosed, bound]);
  clearTimeout(timer);
}

interface Database {
  url: string;
  /** Stops watching the server too, before stopping it. */
  stop(): Promise<void>;
  onGone(listener: (message: string) => void): void;
}

async function openDatabase(config: Config, logger: Logger): Promise<Database> {
  if (config.databaseUrl) {
    // A server of its own: it may come back, and health answers 503 meanwhile.
    return { url: config.databaseUrl, stop: async () => {}, onGone: () => {} };
  }
  const dataDir = join(config.dataDir, 'postgres');
  const server = await startEmbeddedPostgres({
    dataDir,
    port: config.embeddedPostgresPort,
    persistent: true,
    log: (message) => logger.warn(message),
  });
  const { port, origin } = server;
  logger.info({ dataDir: server.dataDir, port, origin }, embeddedPostgresMessages[origin]);
  const watch = new PostmasterWatch(server.dataDir);
  return {
    url: server.url,
    stop: () => {
      watch.stop();
      return server.stop();
    },
    onGone: (listener) => watch.start(listener),
  };
}

/** Checks once a second that the embedded cluster's postmaster still runs. */
class PostmasterWatch {
  #timer: NodeJS.Timeout | undefined;

  constructor(private readonly dataDir: string) {}

  start(listener: (message: string) => void): void {
    this.stop();
    this.#timer = setInterval(() => {
      void runningPostmaster(this.dataDir).then((running) => {
        if (running || this.#timer === undefined) return;
        this.stop();
        listener(
          `The embedded PostgreSQL (data in ${this.dataDir}) stopped unexpectedly, and the portal ` +
            'cannot work without it: stopping. Start again with `npm start`; the data is kept.',
        );
      });
    }, 1_000);
    this.#timer.unref();
  }

  stop(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
  }
}

const embeddedPostgresMessages = {
  started: 'started the embedded PostgreSQL',
  adopted: 'took over the embedded PostgreSQL a stopped process left running in this data folder',
  shared: 'using the embedded PostgreSQL another process runs for this data folder',
};

export function createLogger(config: Pick<Config, 'logLevel'>): Logger {
  return pino({
    level: config.logLevel,
    redact: ['req.headers.authorization', 'password', '*.password', 'access_token'],
  });
}

/**
 * For command-line tools and worker processes: load the configuration (a bad one exits with a
 * message naming the variable), open everything, run `work`, close everything.
 */
export async function withInfrastructure<T>(
  work: (infrastructure: Infrastructure) => Promise<T>,
  serves: 'api' | 'background' = 'background',
): Promise<T> {
  const config = await loadConfigOrExit(serves);
  const infrastructure = await openInfrastructure(config, createLogger(config));
  try {
    return await work(infrastructure);
  } finally {
    await infrastructure.close();
  }
}

export async function loadConfigOrExit(serves: 'api' | 'background'): Promise<Config> {
  try {
    return await loadConfig(process.env, { serves });
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(error.message);
    process.exit(1);
  }
}

/**
 * A pool whose connections never take the process down: pg emits `error` on a checked-out client
 * when the server ends its connection (a PostgreSQL restart: 57P01), and an `error` event nobody
 * listens to is fatal in Node. The query in flight still fails; the pool replaces the connection.
 */
export function guardedPool(pool: pg.Pool, logger: Logger): pg.Pool {
  const logged = (error: Error & { code?: string }) =>
    // One line, without the connection object pg attaches.
    logger.error(
      { err: { message: error.message, code: error.code } },
      'database connection failed',
    );
  pool.on('error', logged);
  pool.on('connect', (client) => client.on('error', logged));
  return pool;
}
