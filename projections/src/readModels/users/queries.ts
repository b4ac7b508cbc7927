import type { Pool, PoolClient } from 'pg';
import type { CompanyProfile } from '../companies/queries';
import { type StoredUser, toUserRow, type UserRow, userColumns } from './usersProjection';

type Queryable = Pool | PoolClient;

export interface UserWithCompany {
  user: UserRow;
  /** Undefined for the platform operator, whose company has no Company stream. */
  company: CompanyProfile | undefined;
}

type StoredUserWithCompany = StoredUser & {
  c_company_id: string | null;
  c_name: string;
  c_symbol: string;
  c_avatar: string | null;
  c_verified: boolean;
  c_is_issuer: boolean;
  c_suspended: boolean;
  c_suspension_reason: string | null;
  c_terminals: CompanyProfile['terminals'];
  c_registered_at: Date;
  c_position: string;
  c_fiat_balance_cents: string;
  c_currency: string;
};

const prefixed = (columns: string, alias: string) =>
  columns
    .split(',')
    .map((column) => `${alias}.${column.trim()}`)
    .join(', ');

/**
 * The user and their company in one round trip. Both ids come from the verified token, so a
 * token of one company never reads another company's user.
 */
export async function getUserWithCompany(
  db: Queryable,
  ids: { userId: string; companyId: string },
): Promise<UserWithCompany | undefined> {
  const { rows } = await db.query<StoredUserWithCompany>(
    `SELECT ${prefixed(userColumns, 'u')},
            c.company_id AS c_company_id, c.name AS c_name, c.symbol AS c_symbol,
            c.avatar AS c_avatar, c.verified AS c_verified, c.is_issuer AS c_is_issuer,
            c.suspended AS c_suspended, c.suspension_reason AS c_suspension_reason,
            c.terminals AS c_terminals, c.registered_at AS c_registered_at,
            c.position AS c_position, c.fiat_balance_cents AS c_fiat_balance_cents,
            c.currency AS c_currency
       FROM users u LEFT JOIN companies c ON c.company_id = u.company_id
      WHERE u.user_id = $1 AND u.company_id = $2`,
    [ids.userId, ids.companyId],
  );
  const stored = rows[0];
  if (!stored) return undefined;
  return { user: toUserRow(stored), company: companyOf(stored) };
}

function companyOf(stored: StoredUserWithCompany): CompanyProfile | undefined {
  if (stored.c_company_id === null) return undefined;
  return {
    companyId: stored.c_company_id,
    name: stored.c_name,
    symbol: stored.c_symbol,
    avatar: stored.c_avatar,
    verified: stored.c_verified,
    isIssuer: stored.c_is_issuer,
    suspended: stored.c_suspended,
    suspensionReason: stored.c_suspension_reason,
    terminals: stored.c_terminals,
    registeredAt: stored.c_registered_at.toISOString(),
    position: BigInt(stored.c_position),
    fiatBalanceCents: BigInt(stored.c_fiat_balance_cents),
    currency: stored.c_currency,
  };
}

/** Whether any user holds a role (the operator bootstrap asks for 'operator'). */
export async function anyUserWithRole(db: Queryable, role: string): Promise<boolean> {
  const { rows } = await db.query<{ found: boolean }>(
    'SELECT EXISTS (SELECT 1 FROM users WHERE $1 = ANY(roles)) AS found',
    [role],
  );
  return rows[0]?.found ?? false;
}

/** Who acted, for histories: email and display name of these users of one company. */
export async function getUserNames(
  db: Queryable,
  companyId: string,
  userIds: readonly string[],
): Promise<Map<string, { email: string; displayName: string }>> {
  if (userIds.length === 0) return new Map();
  const { rows } = await db.query<{ user_id: string; email: string; display_name: string }>(
    `SELECT user_id, email, display_name FROM users WHERE company_id = $1 AND user_id = ANY($2)`,
    [companyId, userIds],
  );
  return new Map(
    rows.map((row) => [row.user_id, { email: row.email, displayName: row.display_name }]),
  );
}
