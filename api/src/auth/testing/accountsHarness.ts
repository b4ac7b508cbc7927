import { PostgresEventStore } from '@issuer/eventstore';
import {
  ListeningReadModelWaiter,
  migrateProjections,
  ProjectorRunner,
  TokenStandingCache,
} from '@issuer/projections';
import { createDatabase } from '@issuer/test-support';
import type { Hono } from 'hono';
import pg from 'pg';
import pino from 'pino';
import { createApp } from '../../app';
import { ChangeFeed } from '../../changes/changeFeed';
import { migrateCustomers } from '../../customers';
import { migrateDocumentStorage } from '../../documents/storage';
import type { EtransferProvider } from '../../etransfers/provider';
import { type AppDependencies, type AppEnv, migrateHttp } from '../../http';
import { waitForOlderTransactions } from '../../http/testing/harness';
import { openApiChecker } from '../../http/testing/openApiCheck';
import { allProjections } from '../../infrastructure';
import type { PaymentTerminalGateway } from '../../payments/gateway';
import { recordingGateway } from '../../payments/testing/recordingGateway';
import { migrateAuth } from '../loginThrottle';

export const testTokenConfig = {
  tokenSecret: new TextEncoder().encode('accounts-test-secret-0123456789-abcdef'),
  tokenIssuer: 'issuer-portal-test',
  tokenAudience: 'issuer-portal-api-test',
  tokenLifetimeSeconds: 3600,
};

export interface AccountsHarness {
  app: Hono<AppEnv>;
  deps: AppDependencies;
  store: PostgresEventStore;
  pool: pg.Pool;
  advanceClock(ms: number): void;
  /** Stops the projectors: read models lag from here on, as under load. */
  stopProjectors(): Promise<void>;
  /**
   * The store's head once every transaction begun before the call has ended, so that a read of
   * the log holds every event appended so far. The store hides events behind the oldest open
   * transaction on the server, and test files in other workers share the server.
   */
  settledHead(): Promise<bigint | undefined>;
  /** JSON request with an optional Bearer token. */
  call(
    method: string,
    path: string,
    options?: {
      token?: string;
      body?: unknown;
      headers?: Record<string, string>;
      /** The TCP peer's address, as @hono/node-server's getConnInfo reports it. */
      from?: string;
    },
  ): Promise<Response>;
  close(): Promise<void>;
}

/**
 * The real app (every feature of app.ts) on a fresh database: the PostgreSQL event store, the
 * account read models kept by a real projector runner, the real waiter for read-your-writes.
 */
export async function startAccountsHarness({
  readYourWritesTimeoutMs = 15_000,
  /** 'external': the API waits through LISTEN/NOTIFY, as when `npm run projections` runs apart. */
  projectors = 'in-process' as 'in-process' | 'external',
  trustedProxies = [] as readonly string[],
  /** The card processor; a gateway that only records requests by default. */
  paymentGateway = recordingGateway() as PaymentTerminalGateway,
  /** The e-transfer provider; none by default (its routes answer 503). */
  etransferProvider = undefined as EtransferProvider | undefined,
  /** Live update streams the app holds at once. */
  changesMaxStreams = 5_000,
} = {}): Promise<AccountsHarness> {
  const url = await createDatabase();
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  const storePool = new pg.Pool({ connectionString: url, max: 10 });
  const store = new PostgresEventStore(storePool);
  await store.migrate();
  await migrateHttp(pool);
  await migrateAuth(pool);
  await migrateCustomers(pool);
  await migrateDocumentStorage(pool);
  await migrateProjections(pool, allProjections);
  const logger = pino({ level: 'silent' });
  const runner = new ProjectorRunner({
    store,
    pool,
    projections: allProjections,
    logger,
    notifyCheckpoints: projectors === 'external',
    idlePollMs: 100,
  }).start();
  const waiter =
    projectors === 'external'
      ? await ListeningReadModelWaiter.start({
          pool,
          logger,
          names: allProjections.map((projection) => projection.name),
        })
      : runner.readModelWaiter;
  // As every API process has: the token standing remembered until PostgreSQL notifies a change.
  const tokenStanding = await TokenStandingCache.start({ pool, logger });
  const changes = await ChangeFeed.start({
    pool,
    logger,
    readModels: waiter,
    maxStreams: changesMaxStreams,
  });
  let now = new Date('2025-03-01T10:00:00.000Z').getTime();
  const deps: AppDependencies = {
    store,
    pool,
    readModels: waiter,
    tokenStanding,
    changes,
    projectionStatus: async () => ({ projections: [], recentFailures: [] }),
    logger,
    clock: () => new Date(now),
    config: { ...testTokenConfig, readYourWritesTimeoutMs, trustedProxies },
    paymentGateway,
    ...(etransferProvider ? { etransferProvider } : {}),
  };
  const app = createApp(deps);
  return {
    app,
    deps,
    store,
    pool,
    advanceClock: (ms) => {
      now += ms;
    },
    call: async (method, path, { token, body, headers = {}, from = '127.0.0.1' } = {}) => {
      const response = await app.request(
        path,
        {
          method,
          headers: {
            ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
            ...(token ? { Authorization: `Bearer ${token}` } : {}),
            ...headers,
          },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        },
        { incoming: { socket: { remoteAddress: from } } },
      );
      // Every answer of the tests is held to the published description (GET /api/openapi.json).
      await (await openApiChecker()).check(method, path, response);
      return response;
    },
    stopProjectors: () => runner.stop(),
    settledHead: async () => {
      await waitForOlderTransactions(storePool);
      return store.headPosition();
    },
    close: async () => {
      await runner.stop();
      if (waiter instanceof ListeningReadModelWaiter) await waiter.close();
      await tokenStanding.close();
      await changes.close();
      await store.close();
      await Promise.all([storePool.end(), pool.end()]);
    },
  };
}

let symbolCounter = 0;

/** A valid registration form with a unique email and symbol. */
export function registrationForm(overrides: Record<string, unknown> = {}) {
  symbolCounter += 1;
  const suffix = `${Date.now().toString(36)}${symbolCounter}`.slice(-6).toUpperCase();
  return {
    companyName: 'Acme Mining',
    companySymbol: `A${suffix}`,
    email: `owner-${suffix.toLowerCase()}@acme.test`,
    password: 'tundra-Falcon-42',
    ...overrides,
  };
}

export interface SessionAnswer {
  user: {
    role: string[];
    uid: string;
    from: string;
    data: Record<string, unknown>;
    isIssuer: boolean;
    activeTerminalId: string;
  };
  access_token: string;
}

export async function registered(
  h: AccountsHarness,
  overrides: Record<string, unknown> = {},
): Promise<SessionAnswer & { form: ReturnType<typeof registrationForm> }> {
  const form = registrationForm(overrides);
  const res = await h.call('POST', '/api/auth/register', { body: form });
  if (res.status !== 200) throw new Error(`register: ${res.status} ${await res.text()}`);
  return { ...((await res.json()) as SessionAnswer), form };
}
