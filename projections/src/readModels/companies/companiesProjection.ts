import {
  asCompanyEvent,
  type CompanyEvent,
  companyEventTypes,
  type RecordedEvent,
} from '@issuer/events';
import type { PoolClient } from 'pg';
import type { Projection } from '../../projection';
import { addColumnIfMissing } from '../../runner/schema';
import { companyStandingTriggers } from '../revokedTokens/tokenStandingNotices';

export interface TerminalRow {
  id: string;
  name: string;
  deviceId: string;
}

/** One company as the profile, the operator list and the user object need it. */
export interface CompanyRow {
  companyId: string;
  name: string;
  symbol: string;
  avatar: string | null;
  verified: boolean;
  isIssuer: boolean;
  /** Suspended by the operator, and why (null when not suspended). */
  suspended: boolean;
  suspensionReason: string | null;
  /** In slot order: terminalDeviceId, …2, …3. */
  terminals: TerminalRow[];
  registeredAt: string;
  position: bigint;
}

const migration = `
CREATE TABLE IF NOT EXISTS companies (
  company_id text PRIMARY KEY,
  name text NOT NULL,
  symbol text NOT NULL,
  avatar text,
  verified boolean NOT NULL DEFAULT false,
  is_issuer boolean NOT NULL DEFAULT false,
  terminals jsonb NOT NULL DEFAULT '[]',
  fiat_balance_cents bigint NOT NULL DEFAULT 0,
  currency text NOT NULL DEFAULT 'CAD',
  registered_at timestamptz NOT NULL,
  position bigint NOT NULL
);
${addColumnIfMissing('companies', 'suspended', 'boolean NOT NULL DEFAULT false')}
${addColumnIfMissing('companies', 'suspension_reason', 'text')}
CREATE INDEX IF NOT EXISTS companies_name_idx ON companies (lower(name));
CREATE INDEX IF NOT EXISTS companies_symbol_idx ON companies (symbol);
`;

/**
 * Each batch costs two statements whatever its size: load the rows it touches, fold its events
 * in memory, upsert the changed rows. A row ignores events at or before its position, so a
 * replay changes nothing. `fiat_balance_cents` stays 0 here: the balance belongs to payments.
 */
export const companiesProjection: Projection = {
  name: 'companies',
  handles: companyEventTypes,
  reads: [],
  tables: ['companies'],
  async migrate(client) {
    await client.query(migration);
    await client.query(companyStandingTriggers());
  },
  async apply(events, client) {
    const touched = await loadCompanies(client, companyIdsOf(events));
    const changed = new Map<string, CompanyRow>();
    for (const recorded of events) {
      const event = asCompanyEvent(recorded);
      if (!event) continue;
      const id = event.data.companyId;
      const row = touched.get(id);
      if (row && row.position >= recorded.position) continue;
      const next = evolveCompanyRow(row, event, recorded.position);
      if (!next) continue;
      touched.set(id, next);
      changed.set(id, next);
    }
    await upsertCompanies(client, [...changed.values()]);
  },
};

function companyIdsOf(events: readonly RecordedEvent[]): string[] {
  const ids = new Set<string>();
  for (const recorded of events) {
    const event = asCompanyEvent(recorded);
    if (event) ids.add(event.data.companyId);
  }
  return [...ids];
}

/** Undefined when the event cannot apply (a company event before its registration). */
export function evolveCompanyRow(
  row: CompanyRow | undefined,
  event: CompanyEvent,
  position: bigint,
): CompanyRow | undefined {
  if (event.type === 'CompanyRegistered') {
    const { companyId, name, symbol, registeredAt } = event.data;
    return {
      companyId,
      name,
      symbol,
      avatar: null,
      verified: false,
      isIssuer: false,
      suspended: false,
      suspensionReason: null,
      terminals: [],
      registeredAt,
      position,
    };
  }
  if (!row) return undefined;
  switch (event.type) {
    case 'CompanyProfileUpdated':
      return { ...row, name: event.data.name, avatar: event.data.avatar, position };
    case 'CompanyVerified':
      return { ...row, verified: true, position };
    case 'IssuerStatusGranted':
      return { ...row, isIssuer: true, position };
    case 'IssuerStatusRevoked':
      return { ...row, isIssuer: false, position };
    case 'CompanyVerificationRevoked':
      return { ...row, verified: false, position };
    case 'CompanySuspended':
      return { ...row, suspended: true, suspensionReason: event.data.reason, position };
    case 'CompanyReinstated':
      return { ...row, suspended: false, suspensionReason: null, position };
    case 'PaymentTerminalRegistered': {
      const { terminalId, name, deviceId } = event.data;
      return {
        ...row,
        terminals: [...row.terminals, { id: terminalId, name, deviceId }],
        position,
      };
    }
    case 'PaymentTerminalRenamed': {
      const { terminalId, name } = event.data;
      const terminals = row.terminals.map((t) => (t.id === terminalId ? { ...t, name } : t));
      return { ...row, terminals, position };
    }
    case 'PaymentTerminalRemoved': {
      const terminals = row.terminals.filter((t) => t.id !== event.data.terminalId);
      return { ...row, terminals, position };
    }
    default: {
      const _exhaustive: never = event;
      return row;
    }
  }
}

interface StoredCompany {
  company_id: string;
  name: string;
  symbol: string;
  avatar: string | null;
  verified: boolean;
  is_issuer: boolean;
  suspended: boolean;
  suspension_reason: string | null;
  terminals: TerminalRow[];
  registered_at: Date;
  position: string;
}

export function toCompanyRow(stored: StoredCompany): CompanyRow {
  return {
    companyId: stored.company_id,
    name: stored.name,
    symbol: stored.symbol,
    avatar: stored.avatar,
    verified: stored.verified,
    isIssuer: stored.is_issuer,
    suspended: stored.suspended,
    suspensionReason: stored.suspension_reason,
    terminals: stored.terminals,
    registeredAt: stored.registered_at.toISOString(),
    position: BigInt(stored.position),
  };
}

export const companyColumns =
  'company_id, name, symbol, avatar, verified, is_issuer, suspended, suspension_reason, terminals, registered_at, position';

async function loadCompanies(
  client: PoolClient,
  companyIds: readonly string[],
): Promise<Map<string, CompanyRow>> {
  if (companyIds.length === 0) return new Map();
  const { rows } = await client.query<StoredCompany>(
    `SELECT ${companyColumns} FROM companies WHERE company_id = ANY($1)`,
    [companyIds],
  );
  return new Map(rows.map((stored) => [stored.company_id, toCompanyRow(stored)]));
}

async function upsertCompanies(client: PoolClient, rows: readonly CompanyRow[]): Promise<void> {
  if (rows.length === 0) return;
  const records = rows.map((row) => ({ ...row, position: row.position.toString() }));
  await client.query(
    `INSERT INTO companies AS c
       (company_id, name, symbol, avatar, verified, is_issuer, suspended, suspension_reason,
        terminals, registered_at, position)
     SELECT "companyId", name, symbol, avatar, verified, "isIssuer", suspended, "suspensionReason",
            terminals, "registeredAt", position
       FROM jsonb_to_recordset($1::jsonb) AS r(
         "companyId" text, name text, symbol text, avatar text, verified boolean,
         "isIssuer" boolean, suspended boolean, "suspensionReason" text, terminals jsonb,
         "registeredAt" timestamptz, position bigint)
     ON CONFLICT (company_id) DO UPDATE SET
       name = EXCLUDED.name, symbol = EXCLUDED.symbol, avatar = EXCLUDED.avatar,
       verified = EXCLUDED.verified, is_issuer = EXCLUDED.is_issuer,
       suspended = EXCLUDED.suspended, suspension_reason = EXCLUDED.suspension_reason,
       terminals = EXCLUDED.terminals, position = EXCLUDED.position
     WHERE c.position < EXCLUDED.position`,
    [JSON.stringify(records)],
  );
}
