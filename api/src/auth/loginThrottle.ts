import { inTransaction } from '@issuer/projections';
import type { Pool } from 'pg';
import { applyDdlOnce } from '../http/migrate';

/**
 * Sign-in throttling (OWASP ASVS 5 V6.3, the OWASP authentication cheat sheet): failed sign-ins
 * are counted in three buckets, and past a bucket's free failures each further one makes the
 * next attempt wait, twice as long each time, up to the bucket's cap:
 *
 * - `address`: the client address, whatever the email (password spraying, credential stuffing);
 * - `accountFromAddress`: one email from one address, the strictest (guessing one password);
 * - `account`: one email from every address (a guesser with many addresses), with a short cap,
 *   so that an attacker elsewhere can delay the account's owner by at most `maxDelayMs` per try,
 *   never lock them out; and it does not apply at all from an address the account signed in
 *   from within `knownAddressMs`.
 *
 * An attempt is reserved (counted as a failure) in one transaction before the password is
 * checked, so parallel requests cannot evaluate more guesses than the buckets allow; a success
 * gives the reservation back. Refused attempts (429) count nothing, so hammering does not
 * lengthen the wait. A bucket forgets its failures `forgetAfterMs` after the last one. Unknown
 * emails are throttled alike, so a 429 does not reveal which emails have accounts.
 */
export const loginThrottlePolicy = {
  firstDelayMs: 1_000,
  forgetAfterMs: 24 * 60 * 60 * 1000,
  knownAddressMs: 30 * 24 * 60 * 60 * 1000,
  buckets: {
    address: { freeFailures: 20, maxDelayMs: 15 * 60 * 1000 },
    accountFromAddress: { freeFailures: 5, maxDelayMs: 15 * 60 * 1000 },
    account: { freeFailures: 10, maxDelayMs: 60 * 1000 },
  },
} as const;

type BucketKind = keyof typeof loginThrottlePolicy.buckets;
const bucketKinds = Object.keys(loginThrottlePolicy.buckets) as BucketKind[];

export interface BucketState {
  failures: number;
  lastFailureAt: Date | null;
  retryAt: Date | null;
  /** accountFromAddress only: the last successful sign-in from that address. */
  signedInAt: Date | null;
}

export type LoginAttemptDecision =
  | { outcome: 'refused'; retryAfterMs: number }
  | {
      outcome: 'reserved';
      /** Each counted bucket as it is after this attempt, counted as a failure. */
      counted: Partial<Record<BucketKind, Pick<BucketState, 'failures' | 'retryAt'>>>;
    };

/** The wait a bucket imposes after its n-th failure. */
export function delayAfterFailures(kind: BucketKind, failures: number): number {
  const { freeFailures, maxDelayMs } = loginThrottlePolicy.buckets[kind];
  if (failures < freeFailures) return 0;
  return Math.min(maxDelayMs, loginThrottlePolicy.firstDelayMs * 2 ** (failures - freeFailures));
}

/** Pure: may this attempt be evaluated, and what do the buckets look like once it is counted? */
export function decideLoginAttempt(
  buckets: Record<BucketKind, BucketState>,
  now: Date,
): LoginAttemptDecision {
  const { knownAddressMs, forgetAfterMs } = loginThrottlePolicy;
  const signedInAt = buckets.accountFromAddress.signedInAt;
  const knownAddress = signedInAt !== null && now.getTime() - signedInAt.getTime() < knownAddressMs;
  const kinds = bucketKinds.filter((kind) => !(kind === 'account' && knownAddress));
  const waitMs = Math.max(
    0,
    ...kinds.map((kind) => (buckets[kind].retryAt?.getTime() ?? 0) - now.getTime()),
  );
  if (waitMs > 0) return { outcome: 'refused', retryAfterMs: waitMs };
  const counted: Extract<LoginAttemptDecision, { outcome: 'reserved' }>['counted'] = {};
  for (const kind of kinds) {
    const { failures, lastFailureAt } = buckets[kind];
    const forgotten =
      lastFailureAt === null || now.getTime() - lastFailureAt.getTime() >= forgetAfterMs;
    const next = (forgotten ? 0 : failures) + 1;
    const delay = delayAfterFailures(kind, next);
    counted[kind] = { failures: next, retryAt: delay > 0 ? new Date(now.getTime() + delay) : null };
  }
  return { outcome: 'reserved', counted };
}

export const loginThrottleDdl = `
  CREATE TABLE IF NOT EXISTS login_throttle (
    bucket          text        PRIMARY KEY,
    failures        integer     NOT NULL DEFAULT 0,
    last_failure_at timestamptz,
    retry_at        timestamptz,
    signed_in_at    timestamptz,
    touched_at      timestamptz NOT NULL
  );
  CREATE INDEX IF NOT EXISTS login_throttle_touched_at ON login_throttle (touched_at);
  DROP TABLE IF EXISTS login_failures;
`;

/** Creates the login-throttling table in the read-model database; safe on every start. */
export function migrateAuth(pool: Pool): Promise<void> {
  return applyDdlOnce(pool, 'issuer-portal:migrate-auth', loginThrottleDdl);
}

export interface LoginSource {
  /** The normalized email, known or not. */
  account: string;
  /** From `clientAddress`. */
  address: string;
}

export type LoginAttempt =
  | { outcome: 'refused'; retryAfterSeconds: number }
  | { outcome: 'reserved'; buckets: Partial<Record<BucketKind, string>> };

function bucketKeys({ account, address }: LoginSource): Record<BucketKind, string> {
  return {
    address: `address:${address}`,
    accountFromAddress: `account-from-address:${JSON.stringify([account, address])}`,
    account: `account:${account}`,
  };
}

interface StoredBucket {
  bucket: string;
  failures: number;
  last_failure_at: Date | null;
  retry_at: Date | null;
  signed_in_at: Date | null;
}

/**
 * Reserves one attempt in every bucket of this source, or refuses it, atomically: the upsert
 * locks the source's rows (in one order, so two sign-ins cannot deadlock) until the decision is
 * written.
 */
export async function reserveLoginAttempt(
  pool: Pool,
  source: LoginSource,
  now: Date,
): Promise<LoginAttempt> {
  const keys = bucketKeys(source);
  return inTransaction(pool, async (client) => {
    const { rows } = await client.query<StoredBucket>(
      `INSERT INTO login_throttle AS t (bucket, touched_at)
       SELECT bucket, $2 FROM unnest($1::text[]) AS bucket ORDER BY bucket
       ON CONFLICT (bucket) DO UPDATE SET touched_at = EXCLUDED.touched_at
       RETURNING bucket, failures, last_failure_at, retry_at, signed_in_at`,
      [Object.values(keys), now],
    );
    const byKey = new Map(rows.map((row) => [row.bucket, row]));
    const state = (kind: BucketKind): BucketState => {
      const row = byKey.get(keys[kind]);
      return {
        failures: row?.failures ?? 0,
        lastFailureAt: row?.last_failure_at ?? null,
        retryAt: row?.retry_at ?? null,
        signedInAt: row?.signed_in_at ?? null,
      };
    };
    const decision = decideLoginAttempt(
      {
        address: state('address'),
        accountFromAddress: state('accountFromAddress'),
        account: state('account'),
      },
      now,
    );
    if (decision.outcome === 'refused') {
      return {
        outcome: 'refused',
        retryAfterSeconds: Math.max(1, Math.ceil(decision.retryAfterMs / 1000)),
      } as const;
    }
    const countedKinds = Object.keys(decision.counted) as BucketKind[];
    const counted = countedKinds.map((kind) => ({
      bucket: keys[kind],
      failures: decision.counted[kind]?.failures,
      retryAt: decision.counted[kind]?.retryAt?.toISOString() ?? null,
    }));
    await client.query(
      `UPDATE login_throttle AS t
          SET failures = c.failures, retry_at = c."retryAt", last_failure_at = $2
         FROM jsonb_to_recordset($1::jsonb) AS c(bucket text, failures integer, "retryAt" timestamptz)
        WHERE t.bucket = c.bucket`,
      [JSON.stringify(counted), now],
    );
    return {
      outcome: 'reserved',
      buckets: Object.fromEntries(countedKinds.map((kind) => [kind, keys[kind]])),
    } as const;
  });
}

/**
 * The reserved attempt was the right password: it was no failure. The account-from-address
 * bucket starts over and remembers the address; the shared buckets only give the attempt back.
 */
export async function recordLoginSuccess(
  pool: Pool,
  attempt: Extract<LoginAttempt, { outcome: 'reserved' }>,
  now: Date,
): Promise<void> {
  const { accountFromAddress, ...shared } = attempt.buckets;
  await pool.query(
    `UPDATE login_throttle
        SET failures = CASE WHEN bucket = $1 THEN 0 ELSE greatest(failures - 1, 0) END,
            retry_at = CASE WHEN bucket = $1 THEN NULL ELSE retry_at END,
            signed_in_at = CASE WHEN bucket = $1 THEN $3 ELSE signed_in_at END,
            touched_at = $3
      WHERE bucket = $1 OR bucket = ANY($2::text[])`,
    [accountFromAddress ?? null, Object.values(shared), now],
  );
}

/** Rows of sources not seen for a month; rows in use are skipped, never waited for. */
export async function forgetIdleLoginBuckets(pool: Pool, now: Date): Promise<void> {
  const idleSince = new Date(now.getTime() - loginThrottlePolicy.knownAddressMs);
  await pool.query(
    `DELETE FROM login_throttle WHERE bucket IN (
       SELECT bucket FROM login_throttle WHERE touched_at < $1
        LIMIT 100 FOR UPDATE SKIP LOCKED)`,
    [idleSince],
  );
}
