import type { RecordedEvent } from '@issuer/events';
import { asUserEvent } from '@issuer/events';
import type { Pool, PoolClient } from 'pg';
import type { Projection } from '../../projection';
import { addColumnIfMissing } from '../../runner/schema';
import { tokenStandingTriggers } from './tokenStandingNotices';

type Queryable = Pool | PoolClient;

const migration = `
CREATE TABLE IF NOT EXISTS revoked_tokens (
  token_id text PRIMARY KEY,
  user_id text NOT NULL,
  company_id text NOT NULL,
  expires_at timestamptz NOT NULL,
  position bigint NOT NULL
);
${addColumnIfMissing('revoked_tokens', 'session_id', 'text')}
CREATE INDEX IF NOT EXISTS revoked_tokens_session_id ON revoked_tokens (session_id)
  WHERE session_id IS NOT NULL;
`;

export interface RevokedToken {
  tokenId: string;
  /** The sign-in that ended: every token carrying it is refused. Absent on older sign-outs. */
  sessionId?: string | undefined;
  userId: string;
  companyId: string;
  expiresAt: string;
  position: bigint;
}

/**
 * Signed-out tokens and the sign-ins (sessions) they ended. The logout command also writes its row synchronously with the same
 * statement (`recordRevokedTokens`), so a revoked token is refused at once even while this
 * projection lags; whichever write comes second changes nothing.
 */
export const revokedTokensProjection: Projection = {
  name: 'revoked_tokens',
  handles: ['UserSignedOut'],
  reads: ['metadata'],
  tables: ['revoked_tokens'],
  async migrate(client) {
    await client.query(migration);
    await client.query(tokenStandingTriggers('revoked_tokens', 'true'));
  },
  async apply(events, client) {
    await recordRevokedTokens(client, events.flatMap(revokedTokenOf));
  },
};

function revokedTokenOf(recorded: RecordedEvent): RevokedToken[] {
  const event = asUserEvent(recorded);
  if (event?.type !== 'UserSignedOut') return [];
  const { tokenId, sessionId, userId, expiresAt } = event.data;
  return [
    {
      tokenId,
      sessionId,
      userId,
      companyId: recorded.metadata.companyId,
      expiresAt,
      position: recorded.position,
    },
  ];
}

export async function recordRevokedTokens(
  db: Queryable,
  tokens: readonly RevokedToken[],
): Promise<void> {
  if (tokens.length === 0) return;
  const records = tokens.map((token) => ({ ...token, position: token.position.toString() }));
  await db.query(
    `INSERT INTO revoked_tokens AS t
       (token_id, session_id, user_id, company_id, expires_at, position)
     SELECT "tokenId", "sessionId", "userId", "companyId", "expiresAt", position
       FROM jsonb_to_recordset($1::jsonb) AS r("tokenId" text, "sessionId" text, "userId" text,
         "companyId" text, "expiresAt" timestamptz, position bigint)
     ON CONFLICT (token_id) DO UPDATE SET position = GREATEST(t.position, EXCLUDED.position)`,
    [JSON.stringify(records)],
  );
}

export interface TokenStanding {
  revoked: boolean;
  /** The user's current password version; 0 when the read model has no row for them yet. */
  passwordVersion: number;
  /** The token's company is suspended by the platform operator. */
  companySuspended: boolean;
}

/**
 * One round trip per authenticated request: is this token, or the sign-in it belongs to, signed
 * out, and is it too old? A token without a session id is a session of its own.
 */
export async function getTokenStanding(
  db: Queryable,
  ids: { userId: string; tokenId: string; sessionId?: string; companyId?: string },
): Promise<TokenStanding> {
  const { rows } = await db.query<{
    revoked: boolean;
    password_version: number | null;
    suspended: boolean | null;
  }>(
    `SELECT EXISTS (SELECT 1 FROM revoked_tokens WHERE token_id = $2)
              OR EXISTS (SELECT 1 FROM revoked_tokens WHERE session_id = $3) AS revoked,
            (SELECT password_version FROM users WHERE user_id = $1) AS password_version,
            (SELECT suspended FROM companies WHERE company_id = $4) AS suspended`,
    [ids.userId, ids.tokenId, ids.sessionId ?? ids.tokenId, ids.companyId ?? ''],
  );
  const row = rows[0];
  return {
    revoked: row?.revoked ?? false,
    passwordVersion: row?.password_version ?? 0,
    companySuspended: row?.suspended ?? false,
  };
}
