import type { Pool } from 'pg';
import { applyDdlOnce } from '../http/migrate';

/**
 * Five failed logins for one account within 15 minutes lock that account's login until the
 * oldest of those five is 15 minutes old. Keyed by the normalized email, known or not, so the
 * lock itself does not reveal which emails have accounts.
 */
export const maxLoginFailures = 5;
export const loginFailureWindowMs = 15 * 60 * 1000;

export const loginFailuresDdl = `
  CREATE TABLE IF NOT EXISTS login_failures (
    account   text        NOT NULL,
    failed_at timestamptz NOT NULL
  );
  CREATE INDEX IF NOT EXISTS login_failures_account ON login_failures (account, failed_at DESC);
  CREATE INDEX IF NOT EXISTS login_failures_failed_at ON login_failures (failed_at);
`;

/** Creates the login-throttling table in the read-model database; safe on every start. */
export function migrateAuth(pool: Pool): Promise<void> {
  return applyDdlOnce(pool, 'issuer-portal:migrate-auth', loginFailuresDdl);
}

/** Seconds until this account may try again, or undefined when it may try now. */
export async function loginRetryAfterSeconds(
  pool: Pool,
  account: string,
  now: Date,
): Promise<number | undefined> {
  const { rows } = await pool.query<{ failed_at: Date }>(
    `SELECT failed_at FROM login_failures
      WHERE account = $1 AND failed_at > $2
      ORDER BY failed_at DESC LIMIT $3`,
    [account, new Date(now.getTime() - loginFailureWindowMs), maxLoginFailures],
  );
  const oldestCounted = rows[maxLoginFailures - 1]?.failed_at;
  if (!oldestCounted) return undefined;
  const unlockAt = oldestCounted.getTime() + loginFailureWindowMs;
  return Math.max(1, Math.ceil((unlockAt - now.getTime()) / 1000));
}

/**
 * Records one failure and forgets every failure that fell out of the window, so accounts that
 * never come back do not leave rows behind.
 */
export async function recordLoginFailure(pool: Pool, account: string, now: Date): Promise<void> {
  await pool.query(
    `WITH forgotten AS (
       DELETE FROM login_failures WHERE failed_at <= $3
     )
     INSERT INTO login_failures (account, failed_at) VALUES ($1, $2)`,
    [account, now, new Date(now.getTime() - loginFailureWindowMs)],
  );
}

export async function clearLoginFailures(pool: Pool, account: string): Promise<void> {
  await pool.query('DELETE FROM login_failures WHERE account = $1', [account]);
}
