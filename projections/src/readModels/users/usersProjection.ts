import { asUserEvent, type RecordedEvent, type UserEvent, type UserSettings } from '@issuer/events';
import type { Pool, PoolClient } from 'pg';
import type { Projection } from '../../projection';
import { tokenStandingTriggers } from '../revokedTokens/tokenStandingNotices';

/** A user without the password hash: no read model keeps it. */
export interface UserRow {
  userId: string;
  companyId: string;
  email: string;
  displayName: string;
  roles: string[];
  settings: UserSettings;
  /** null until the user saves shortcuts; readers show the defaults then. */
  shortcuts: string[] | null;
  passwordVersion: number;
  registeredAt: string;
  position: bigint;
}

const migration = `
CREATE TABLE IF NOT EXISTS users (
  user_id text PRIMARY KEY,
  company_id text NOT NULL,
  email text NOT NULL,
  display_name text NOT NULL,
  roles text[] NOT NULL,
  settings jsonb NOT NULL DEFAULT '{}',
  shortcuts jsonb,
  password_version integer NOT NULL DEFAULT 0,
  registered_at timestamptz NOT NULL,
  position bigint NOT NULL
);
CREATE INDEX IF NOT EXISTS users_company_idx ON users (company_id);
`;

const handledTypes = ['UserRegistered', 'UserSettingsUpdated', 'UserPasswordChanged'] as const;

/**
 * Two statements per batch: load the touched rows, fold in memory, upsert. `password_version`
 * is also raised synchronously by the password-change command (see `raisePasswordVersion`), so
 * the projection only ever raises it too.
 */
export const usersProjection: Projection = {
  name: 'users',
  handles: handledTypes,
  reads: [],
  tables: ['users'],
  async migrate(client) {
    await client.query(migration);
    await client.query(
      tokenStandingTriggers('users', 'OLD.password_version IS DISTINCT FROM NEW.password_version'),
    );
  },
  async apply(events, client) {
    const touched = await loadUsers(client, userIdsOf(events));
    // Rows this batch has changed: its own copies, so later events fold into them in place.
    const changed = new Map<string, UserRow>();
    for (const recorded of events) {
      const event = asUserEvent(recorded);
      if (!event) continue;
      const id = event.data.userId;
      const owned = changed.get(id);
      const row = owned ?? touched.get(id);
      if (row && row.position >= recorded.position) continue;
      if (owned && event.type !== 'UserRegistered') {
        updateUserRow(owned, event, recorded.position);
        continue;
      }
      const next = evolveUserRow(row, event, recorded.position);
      if (next) changed.set(next.userId, next);
    }
    await upsertUsers(client, [...changed.values()]);
  },
};

function userIdsOf(events: readonly RecordedEvent[]): string[] {
  const ids = new Set<string>();
  for (const recorded of events) {
    const event = asUserEvent(recorded);
    if (event) ids.add(event.data.userId);
  }
  return [...ids];
}

export function evolveUserRow(
  row: UserRow | undefined,
  event: UserEvent,
  position: bigint,
): UserRow | undefined {
  if (event.type === 'UserRegistered') {
    const { userId, companyId, email, displayName, roles, registeredAt } = event.data;
    return {
      userId,
      companyId,
      email,
      displayName,
      roles,
      settings: {},
      shortcuts: null,
      passwordVersion: 0,
      registeredAt,
      position,
    };
  }
  if (!row) return undefined;
  const next = { ...row };
  return updateUserRow(next, event, position) ? next : undefined;
}

/** Applies an event other than the registration to `row` in place; false (row untouched) when it does not apply. */
function updateUserRow(
  row: UserRow,
  event: Exclude<UserEvent, { type: 'UserRegistered' }>,
  position: bigint,
): boolean {
  switch (event.type) {
    case 'UserSettingsUpdated':
      row.settings = event.data.settings;
      row.shortcuts = event.data.shortcuts;
      row.position = position;
      return true;
    case 'UserPasswordChanged':
      row.passwordVersion = Math.max(row.passwordVersion, event.data.passwordVersion);
      row.position = position;
      return true;
    case 'UserSignedOut':
      return false;
    default: {
      const _exhaustive: never = event;
      return false;
    }
  }
}

export interface StoredUser {
  user_id: string;
  company_id: string;
  email: string;
  display_name: string;
  roles: string[];
  settings: UserSettings;
  shortcuts: string[] | null;
  password_version: number;
  registered_at: Date;
  position: string;
}

export const userColumns =
  'user_id, company_id, email, display_name, roles, settings, shortcuts, password_version, registered_at, position';

export function toUserRow(stored: StoredUser): UserRow {
  return {
    userId: stored.user_id,
    companyId: stored.company_id,
    email: stored.email,
    displayName: stored.display_name,
    roles: stored.roles,
    settings: stored.settings,
    shortcuts: stored.shortcuts,
    passwordVersion: stored.password_version,
    registeredAt: stored.registered_at.toISOString(),
    position: BigInt(stored.position),
  };
}

async function loadUsers(
  client: PoolClient,
  userIds: readonly string[],
): Promise<Map<string, UserRow>> {
  if (userIds.length === 0) return new Map();
  const { rows } = await client.query<StoredUser>(
    `SELECT ${userColumns} FROM users WHERE user_id = ANY($1)`,
    [userIds],
  );
  return new Map(rows.map((stored) => [stored.user_id, toUserRow(stored)]));
}

async function upsertUsers(client: PoolClient, rows: readonly UserRow[]): Promise<void> {
  if (rows.length === 0) return;
  const records = rows.map((row) => ({ ...row, position: row.position.toString() }));
  await client.query(
    `INSERT INTO users AS u
       (user_id, company_id, email, display_name, roles, settings, shortcuts,
        password_version, registered_at, position)
     SELECT "userId", "companyId", email, "displayName", roles, settings, shortcuts,
            "passwordVersion", "registeredAt", position
       FROM jsonb_to_recordset($1::jsonb) AS r(
         "userId" text, "companyId" text, email text, "displayName" text, roles text[],
         settings jsonb, shortcuts jsonb, "passwordVersion" integer, "registeredAt" timestamptz,
         position bigint)
     ON CONFLICT (user_id) DO UPDATE SET
       email = EXCLUDED.email, display_name = EXCLUDED.display_name, roles = EXCLUDED.roles,
       settings = EXCLUDED.settings, shortcuts = EXCLUDED.shortcuts,
       password_version = GREATEST(u.password_version, EXCLUDED.password_version),
       position = EXCLUDED.position
     WHERE u.position < EXCLUDED.position`,
    [JSON.stringify(records)],
  );
}

/**
 * Makes a password change cut off older tokens at once, even while the projection lags. Same
 * row and same rule (only ever raise) as the projection, so the two never disagree.
 */
export async function raisePasswordVersion(
  db: Pool | PoolClient,
  userId: string,
  passwordVersion: number,
): Promise<void> {
  await db.query(
    'UPDATE users SET password_version = GREATEST(password_version, $2) WHERE user_id = $1',
    [userId, passwordVersion],
  );
}
