import type { EventStore } from '@issuer/events';
import type { TokenStandingCache } from '@issuer/projections';
import type { Hono } from 'hono';
import type { Pool } from 'pg';
import type { Logger } from 'pino';
import type { ChangeFeed } from '../changes/changeFeed';
import type { DocumentStorage } from '../documents/storage';
import type { EtransferProvider } from '../etransfers/provider';
import type { PaymentTerminalGateway } from '../payments/gateway';

/** Who is calling, taken from the verified access token only (never from the body). */
export interface Caller {
  userId: string;
  companyId: string;
  roles: readonly string[];
  tokenId: string;
  /** The sign-in the token belongs to (see `TokenSubject.sessionId`). */
  sessionId: string;
}

/** Waits until every read model has applied the event at `position` (read-your-writes). */
export interface ReadModelWaiter {
  /** Resolves true once caught up, false when `timeoutMs` passed first. */
  waitFor(position: bigint, timeoutMs: number): Promise<boolean>;
}

/** One projector as `GET /api/health` reports it; extra fields are shown too (bigints as strings). */
export interface ProjectionHealth {
  name: string;
  /** Position of the last event applied; null before the first. */
  position?: bigint | number | string | null;
  lagEvents?: number;
  lagSeconds?: number;
  /** How many events this projector gave up on after its retries. */
  failedEvents?: number;
}

/**
 * What the health route needs from the projectors. Structural on purpose: the runner's
 * `status()` and `readProjectionStatus(...)` in `@issuer/projections` fit as they are.
 */
export interface ProjectionsHealth {
  projections: readonly ProjectionHealth[];
  /** The failed events themselves (projection, position, type, error, ...), newest first. */
  recentFailures?: readonly object[];
}

/** Everything a route needs; built once by the composition root (`api/src/app.ts`). */
export interface AppDependencies {
  store: EventStore;
  /** The read-model database (also holds idempotency keys and login throttling). */
  pool: Pool;
  readModels: ReadModelWaiter;
  /**
   * Whether a token was signed out or predates a password change, remembered until PostgreSQL
   * notifies a change (`TokenStandingCache`); without it every request asks the database.
   */
  tokenStanding?: Pick<TokenStandingCache, 'standing' | 'forget'>;
  /** Position, lag and failed events of each projector, for `GET /api/health`. */
  projectionStatus(): Promise<ProjectionsHealth>;
  logger: Logger;
  /** Injected so tests can move time; every command takes its time from here. */
  clock: () => Date;
  config: ApiConfig;
  /** The card-present processor payments go to (the terminal simulator by default). */
  paymentGateway: PaymentTerminalGateway;
  /** The Interac e-transfer provider (the e-transfer simulator by default); without it, 503. */
  etransferProvider?: EtransferProvider;
  /** Live updates for `GET /api/changes` (one LISTEN connection per process); without it, 503. */
  changes?: ChangeFeed;
  /** Where document bytes are kept; PostgreSQL (`postgresDocumentStorage`) when omitted. */
  documentStorage?: DocumentStorage;
}

export interface ApiConfig {
  tokenSecret: Uint8Array;
  tokenIssuer: string;
  tokenAudience: string;
  tokenLifetimeSeconds: number;
  /** How long a command waits for the read models before answering anyway. */
  readYourWritesTimeoutMs: number;
  /** How long a request waits for another one running with its Idempotency-Key (default 10 s). */
  idempotencyWaitMs?: number;
  /** Origins allowed to call the API from a browser (default: any, as tokens travel in headers). */
  corsOrigins?: readonly string[];
  /**
   * Addresses and CIDR networks of the reverse proxies in front of the API (TRUSTED_PROXIES):
   * only their `X-Forwarded-For` names the client. Default: none, the TCP peer is the client.
   */
  trustedProxies?: readonly string[];
  /** Verifies the terminal gateway's webhooks; default: derived from `tokenSecret` (HKDF). */
  terminalWebhookSecret?: Uint8Array;
  /** Verifies the e-transfer provider's webhooks; default: derived from `tokenSecret` (HKDF). */
  etransferWebhookSecret?: Uint8Array;
  /** How long a payment waits for its card before it expires (PAYMENT_TIMEOUT_SECONDS, default 300). */
  paymentTimeoutSeconds?: number;
}

/** Hono environment shared by every route. */
export interface AppEnv {
  Variables: {
    /** Set by the auth middleware on protected routes only; absent on public ones. */
    caller: Caller;
    /** From a valid `X-Request-Id` header, or generated; echoed in the response. */
    requestId: string;
    /** Set once per request by the foundation, so middleware and the command pipeline reach them. */
    deps: AppDependencies;
    /** True once the idempotency middleware owns this request's Idempotency-Key. */
    idempotencyKeyClaimed: boolean | undefined;
  };
}

/** A feature's routes, mounted under `/api` by `createApp`. Paths are relative to `/api`. */
export type Feature = (deps: AppDependencies) => Hono<AppEnv>;
