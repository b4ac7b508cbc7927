import { createHmac, randomUUID } from 'node:crypto';
import { DomainError, invalid } from '@issuer/events';
import type { Context, MiddlewareHandler } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { Pool } from 'pg';
import { idempotencyDescription, withRouteDescription } from './openapiSpec';
import { openBody, sealBody } from './sealedBody';
import type { AppDependencies, AppEnv, Caller } from './types';

/** Keys are kept at least this long; a repeat within it answers the first response again. */
export const idempotencyKeyTtlMs = 24 * 60 * 60 * 1000;
/** A claim older than this is treated as abandoned (its process died) and may be taken over. */
const claimLeaseMs = 60_000;
const defaultWaitMs = 10_000;
const pruneEveryMs = 10 * 60 * 1000;
const replayedHeaders = [
  'content-type',
  'etag',
  'location',
  'content-range',
  'x-read-models',
  'retry-after',
];

export const idempotencyKeysDdl = `
  CREATE TABLE IF NOT EXISTS idempotency_keys (
    scope            text        NOT NULL,
    key              text        NOT NULL,
    fingerprint      text        NOT NULL,
    claim_id         uuid        NOT NULL,
    state            text        NOT NULL CHECK (state IN ('running', 'done')),
    created_at       timestamptz NOT NULL,
    lease_until      timestamptz NOT NULL,
    expires_at       timestamptz NOT NULL,
    response_status  integer,
    response_headers jsonb,
    response_body    bytea,
    PRIMARY KEY (scope, key)
  );
  CREATE INDEX IF NOT EXISTS idempotency_keys_expires_at ON idempotency_keys (expires_at);
`;

interface KeyedRequest {
  scope: string;
  key: string;
  fingerprint: string;
}

interface StoredResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

type ClaimOutcome =
  | { kind: 'claimed'; claimId: string }
  | { kind: 'replay'; response: StoredResponse }
  | { kind: 'reused' }
  | { kind: 'running' };

/**
 * Makes a state-changing route safe to retry. Put it after authentication (the key is scoped to
 * the caller's company and user) and before the body validator:
 * `routes.post('/terminals', authenticate, idempotent, jsonBody(schema), handler)`.
 *
 * Without an `Idempotency-Key` header it does nothing. With one, the first request runs and its
 * 2xx or 4xx response is stored; a repeat with the same body answers that response again (with
 * `Idempotent-Replayed: true`) without running the handler; a different body answers 422; a
 * repeat while the first still runs waits for it (bounded), then replays it or answers 409.
 * A 5xx releases the key, so the client's retry runs the command again.
 */
export const idempotent: MiddlewareHandler<AppEnv> = withRouteDescription(async (c, next) => {
  const key = c.req.header('Idempotency-Key');
  if (key === undefined) return next();
  if (!/^[\x21-\x7e]{1,255}$/.test(key)) {
    throw invalid('Idempotency-Key must be 1 to 255 visible ASCII characters');
  }
  const deps = c.var.deps;
  const request = { scope: scopeOf(c.var.caller), key, fingerprint: await fingerprintOf(c, deps) };
  const outcome = await claimOrWait(deps, request);
  if (outcome.kind === 'replay') return replay(c, outcome.response);
  if (outcome.kind === 'reused') throw keyReused();
  if (outcome.kind === 'running') throw keyInProgress();

  c.set('idempotencyKeyClaimed', true);
  try {
    await next();
  } catch (error) {
    await release(deps.pool, request, outcome.claimId);
    throw error;
  }
  await settle(c, deps, request, outcome.claimId);
}, idempotencyDescription);

/**
 * Register and login carry no token, so their keys are scoped by the key alone: clients must use
 * unguessable keys (UUIDs), since whoever repeats a key with the same body gets its answer.
 */
function scopeOf(caller: Caller | undefined): string {
  return caller ? `user:${caller.companyId}:${caller.userId}` : 'anonymous';
}

/** Keyed with the token secret so the stored fingerprint of a body holding a password is not a plain hash of it. */
async function fingerprintOf(c: Context<AppEnv>, deps: AppDependencies): Promise<string> {
  const url = new URL(c.req.url);
  return createHmac('sha256', deps.config.tokenSecret)
    .update(`${c.req.method} ${url.pathname}${url.search}\n`)
    .update(await c.req.text())
    .digest('base64url');
}

async function claimOrWait(deps: AppDependencies, request: KeyedRequest): Promise<ClaimOutcome> {
  const deadline = Date.now() + (deps.config.idempotencyWaitMs ?? defaultWaitMs);
  let pause = 10;
  for (;;) {
    const claimId = await tryClaim(deps, request);
    if (claimId) return { kind: 'claimed', claimId };
    const existing = await findKey(deps, request);
    if (!existing) continue; // released by a failed first attempt in the meantime: claim again
    if (existing.fingerprint !== request.fingerprint) return { kind: 'reused' };
    if (existing.response) return { kind: 'replay', response: existing.response };
    if (Date.now() >= deadline) return { kind: 'running' };
    await new Promise((resolve) => setTimeout(resolve, pause));
    pause = Math.min(pause * 2, 100);
  }
}

/** Inserts the key, or takes over an expired or abandoned one; undefined when someone else holds it. */
async function tryClaim(deps: AppDependencies, request: KeyedRequest): Promise<string | undefined> {
  const now = deps.clock();
  const result = await deps.pool.query<{ claim_id: string }>(
    `INSERT INTO idempotency_keys AS k
       (scope, key, fingerprint, claim_id, state, created_at, lease_until, expires_at)
     VALUES ($1, $2, $3, $4, 'running', $5, $6, $7)
     ON CONFLICT (scope, key) DO UPDATE SET
       fingerprint = EXCLUDED.fingerprint, claim_id = EXCLUDED.claim_id, state = 'running',
       created_at = EXCLUDED.created_at, lease_until = EXCLUDED.lease_until,
       expires_at = EXCLUDED.expires_at,
       response_status = NULL, response_headers = NULL, response_body = NULL
     WHERE k.expires_at <= EXCLUDED.created_at
        OR (k.state = 'running' AND k.lease_until <= EXCLUDED.created_at)
     RETURNING claim_id`,
    [
      request.scope,
      request.key,
      request.fingerprint,
      randomUUID(),
      now,
      new Date(now.getTime() + claimLeaseMs),
      new Date(now.getTime() + idempotencyKeyTtlMs),
    ],
  );
  return result.rows[0]?.claim_id;
}

async function findKey(
  deps: AppDependencies,
  request: KeyedRequest,
): Promise<{ fingerprint: string; response?: StoredResponse } | undefined> {
  const result = await deps.pool.query<{
    fingerprint: string;
    state: 'running' | 'done';
    response_status: number | null;
    response_headers: Record<string, string> | null;
    response_body: Buffer | null;
  }>(
    `SELECT fingerprint, state, response_status, response_headers, response_body
       FROM idempotency_keys WHERE scope = $1 AND key = $2`,
    [request.scope, request.key],
  );
  const row = result.rows[0];
  if (!row) return undefined;
  if (row.state !== 'done' || row.response_status === null) return { fingerprint: row.fingerprint };
  const body = openBody(deps.config.tokenSecret, row.response_body ?? Buffer.alloc(0));
  // Sealed under another secret: the fingerprint (keyed the same way) no longer matches either.
  if (body === undefined) return { fingerprint: `unreadable:${row.fingerprint}` };
  return {
    fingerprint: row.fingerprint,
    response: { status: row.response_status, headers: row.response_headers ?? {}, body },
  };
}

/**
 * Client errors are stored like successes (the same request would fail the same way again),
 * except 408 and 429, which say "try again later".
 */
function isReplayable(status: number): boolean {
  return status < 500 && status !== 408 && status !== 429;
}

async function settle(
  c: Context<AppEnv>,
  deps: AppDependencies,
  request: KeyedRequest,
  claimId: string,
): Promise<void> {
  const status = c.res.status;
  if (!isReplayable(status)) {
    await release(deps.pool, request, claimId);
    return;
  }
  const headers: Record<string, string> = {};
  for (const name of replayedHeaders) {
    const value = c.res.headers.get(name);
    if (value !== null) headers[name] = value;
  }
  const body = sealBody(deps.config.tokenSecret, Buffer.from(await c.res.clone().arrayBuffer()));
  try {
    await deps.pool.query(
      `UPDATE idempotency_keys
          SET state = 'done', response_status = $4, response_headers = $5, response_body = $6
        WHERE scope = $1 AND key = $2 AND claim_id = $3`,
      [request.scope, request.key, claimId, status, headers, body],
    );
  } catch (error) {
    // The command already took effect: answer it. The key stays claimed until its lease ends.
    deps.logger.error({ err: error, requestId: c.var.requestId }, 'idempotency key not stored');
    return;
  }
  pruneExpiredKeys(deps);
}

async function release(pool: Pool, request: KeyedRequest, claimId: string): Promise<void> {
  await pool.query('DELETE FROM idempotency_keys WHERE scope = $1 AND key = $2 AND claim_id = $3', [
    request.scope,
    request.key,
    claimId,
  ]);
}

const lastPruneByPool = new WeakMap<Pool, number>();

/** At most once per interval per process, in the background: requests never wait for it. */
function pruneExpiredKeys(deps: AppDependencies): void {
  const now = deps.clock();
  const last = lastPruneByPool.get(deps.pool);
  if (last !== undefined && now.getTime() - last < pruneEveryMs) return;
  lastPruneByPool.set(deps.pool, now.getTime());
  deps.pool
    .query('DELETE FROM idempotency_keys WHERE expires_at < $1', [now])
    .catch((error: unknown) => deps.logger.warn({ err: error }, 'pruning idempotency keys failed'));
}

function replay(c: Context<AppEnv>, response: StoredResponse): Response {
  return c.body(new Uint8Array(response.body), response.status as ContentfulStatusCode, {
    ...response.headers,
    'Idempotent-Replayed': 'true',
  });
}

function keyReused(): DomainError {
  return new DomainError(
    422,
    'idempotency_key_reused',
    'This Idempotency-Key was already used for a different request; use a new key',
  );
}

function keyInProgress(): DomainError {
  return new DomainError(
    409,
    'idempotency_key_in_progress',
    'A request with this Idempotency-Key is still running; retry shortly',
  );
}
