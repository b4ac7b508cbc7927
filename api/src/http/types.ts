import type { EventStore } from '@issuer/events';
import type { Logger } from 'pino';
import type { Pool } from 'pg';

/** Who is calling, taken from the verified access token only (never from the body). */
export interface Caller {
  userId: string;
  companyId: string;
  roles: readonly string[];
  tokenId: string;
}

/** Waits until every read model has applied the event at `position` (read-your-writes). */
export interface ReadModelWaiter {
  /** Resolves true once caught up, false when `timeoutMs` passed first. */
  waitFor(position: bigint, timeoutMs: number): Promise<boolean>;
}

/** Everything a route needs; built once by the composition root (`api/src/app.ts`). */
export interface AppDependencies {
  store: EventStore;
  /** The read-model database (also holds idempotency keys and login throttling). */
  pool: Pool;
  readModels: ReadModelWaiter;
  logger: Logger;
  /** Injected so tests can move time; every command takes its time from here. */
  clock: () => Date;
  config: ApiConfig;
}

export interface ApiConfig {
  tokenSecret: Uint8Array;
  tokenIssuer: string;
  tokenAudience: string;
  tokenLifetimeSeconds: number;
  /** How long a command waits for the read models before answering anyway. */
  readYourWritesTimeoutMs: number;
}

/** Hono environment: `c.var.caller` is set by the auth middleware on protected routes. */
export interface AppEnv {
  Variables: {
    caller: Caller;
    requestId: string;
  };
}
