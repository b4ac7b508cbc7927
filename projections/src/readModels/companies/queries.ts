import type { Pool, PoolClient } from 'pg';
import { type CompanyRow, companyColumns, toCompanyRow } from './companiesProjection';

type Queryable = Pool | PoolClient;

export interface CompanyProfile extends CompanyRow {
  fiatBalanceCents: bigint;
  currency: string;
}

type StoredProfile = Parameters<typeof toCompanyRow>[0] & {
  fiat_balance_cents: string;
  currency: string;
};

/** The company of the verified token; undefined until the read model has it. */
export async function getCompanyProfile(
  db: Queryable,
  companyId: string,
): Promise<CompanyProfile | undefined> {
  const { rows } = await db.query<StoredProfile>(
    `SELECT ${companyColumns}, fiat_balance_cents, currency FROM companies WHERE company_id = $1`,
    [companyId],
  );
  const stored = rows[0];
  if (!stored) return undefined;
  return {
    ...toCompanyRow(stored),
    fiatBalanceCents: BigInt(stored.fiat_balance_cents),
    currency: stored.currency,
  };
}

export const companySortFields = {
  id: 'company_id',
  name: 'lower(name)',
  symbol: 'symbol',
  verified: 'verified',
  isIssuer: 'is_issuer',
  registeredAt: 'registered_at',
} as const;

export type CompanySortField = keyof typeof companySortFields;

export interface CompanyListQuery {
  sort: { field: CompanySortField; order: 'ASC' | 'DESC' };
  /** Inclusive, zero-based, as react-admin sends it. */
  range: { start: number; end: number };
  filter: {
    /** Every company whose name, symbol or contact email holds it. */
    q?: string;
    verified?: boolean;
    isIssuer?: boolean;
    companyId?: string;
    excludeCompanyId?: string;
  };
}

export interface CompanyListRow extends CompanyProfile {
  /** The email of the company's first admin (who registered it); null before the users read model has them. */
  contactEmail: string | null;
}

export interface CompanyList {
  rows: CompanyListRow[];
  total: number;
}

/** The company's first admin, the one who opened the account. */
const withContact = `companies LEFT JOIN LATERAL (
    SELECT email AS contact_email FROM users
     WHERE users.company_id = companies.company_id AND 'admin' = ANY (users.roles)
     ORDER BY users.registered_at, users.user_id LIMIT 1
  ) contact ON true`;

export async function listCompanies(db: Queryable, query: CompanyListQuery): Promise<CompanyList> {
  const { where, params } = companyFilter(query.filter);
  const orderBy = `${companySortFields[query.sort.field]} ${query.sort.order}, company_id ASC`;
  const limit = query.range.end - query.range.start + 1;
  const [page, count] = await Promise.all([
    db.query<StoredProfile & { contact_email: string | null }>(
      `SELECT ${companyColumns}, fiat_balance_cents, currency, contact_email FROM ${withContact}
       ${where}
       ORDER BY ${orderBy} LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
      [...params, Math.max(0, limit), Math.max(0, query.range.start)],
    ),
    db.query<{ total: string }>(`SELECT count(*) AS total FROM ${withContact} ${where}`, params),
  ]);
  return {
    rows: page.rows.map((stored) => ({
      ...toCompanyRow(stored),
      fiatBalanceCents: BigInt(stored.fiat_balance_cents),
      currency: stored.currency,
      contactEmail: stored.contact_email,
    })),
    total: Number(count.rows[0]?.total ?? 0),
  };
}

function companyFilter(filter: CompanyListQuery['filter']): { where: string; params: unknown[] } {
  const conditions: string[] = [];
  const params: unknown[] = [];
  const add = (condition: (placeholder: string) => string, value: unknown) => {
    params.push(value);
    conditions.push(condition(`$${params.length}`));
  };
  if (filter.q) {
    const pattern = `%${filter.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    add((p) => `(name ILIKE ${p} OR symbol ILIKE ${p} OR contact_email ILIKE ${p})`, pattern);
  }
  if (filter.verified !== undefined) add((p) => `verified = ${p}`, filter.verified);
  if (filter.isIssuer !== undefined) add((p) => `is_issuer = ${p}`, filter.isIssuer);
  if (filter.companyId) add((p) => `companies.company_id = ${p}`, filter.companyId);
  if (filter.excludeCompanyId) add((p) => `companies.company_id <> ${p}`, filter.excludeCompanyId);
  return { where: conditions.length ? `WHERE ${conditions.join(' AND ')}` : '', params };
}

/** Whether the platform operator has suspended the company (false for an unknown one). */
export async function isCompanySuspended(db: Queryable, companyId: string): Promise<boolean> {
  const { rows } = await db.query<{ suspended: boolean }>(
    'SELECT suspended FROM companies WHERE company_id = $1',
    [companyId],
  );
  return rows[0]?.suspended ?? false;
}
