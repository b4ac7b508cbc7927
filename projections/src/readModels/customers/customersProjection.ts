import {
  asCustomerEvent,
  type CustomerEvent,
  type CustomerProfile,
  customerEventTypes,
  type InvestorStatus,
  type LeadStatus,
  type RecordedEvent,
} from '@issuer/events';
import type { PoolClient } from 'pg';
import type { Projection } from '../../projection';

/** One customer as the list, the detail page and the export show it. */
export interface CustomerRow extends CustomerProfile {
  id: string;
  companyId: string;
  starred: boolean;
  leadStatus: LeadStatus;
  investorStatus: InvestorStatus;
  createdAt: string;
  updatedAt: string;
  /** The Customer stream's revision: the ETag an edit sends back as If-Match. */
  version: number;
  removed: boolean;
  position: bigint;
}

/**
 * `search` is what `q` matches (name, last name, email, company, phone), lower-cased, with a
 * trigram GIN index that also holds the company id (btree_gin), so a substring search touches one
 * company's matches only. The main sorts (name, email, creation) have a (company, column, id)
 * index that serves both directions, which is what lets a deep page be read from the far end;
 * other sorts sort one company's rows in memory (every index slows the rebuild down). Removed customers keep
 * their row (and position, so a replay cannot bring them back) but leave every index.
 */
const migration = `
CREATE EXTENSION IF NOT EXISTS pg_trgm;
CREATE EXTENSION IF NOT EXISTS btree_gin;
CREATE TABLE IF NOT EXISTS customers (
  customer_id text PRIMARY KEY,
  company_id text NOT NULL,
  name text NOT NULL,
  last_name text NOT NULL,
  nickname text NOT NULL,
  avatar text NOT NULL,
  company text NOT NULL,
  job_title text NOT NULL,
  email text NOT NULL,
  phone text NOT NULL,
  address text NOT NULL,
  birthday text NOT NULL,
  notes text NOT NULL,
  tags text[] NOT NULL,
  round_id text NOT NULL,
  token_price double precision,
  token_balance double precision,
  percentage_owned double precision,
  wallet_address text NOT NULL,
  starred boolean NOT NULL,
  lead_status text NOT NULL,
  investor_status text NOT NULL,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  version bigint NOT NULL,
  removed boolean NOT NULL,
  position bigint NOT NULL,
  search text GENERATED ALWAYS AS
    (lower(name || ' ' || last_name || ' ' || email || ' ' || company || ' ' || phone)) STORED
);
CREATE INDEX IF NOT EXISTS customers_search_idx
  ON customers USING gin (company_id, search gin_trgm_ops) WHERE NOT removed;
DROP INDEX IF EXISTS customers_name_idx;
CREATE INDEX IF NOT EXISTS customers_named_first_idx
  ON customers (company_id, (name = ''), name, email, customer_id) WHERE NOT removed;
CREATE INDEX IF NOT EXISTS customers_named_first_desc_idx
  ON customers (company_id, (name = ''), name DESC, email DESC, customer_id DESC) WHERE NOT removed;
CREATE INDEX IF NOT EXISTS customers_email_idx
  ON customers (company_id, email, customer_id) WHERE NOT removed;
CREATE INDEX IF NOT EXISTS customers_created_idx
  ON customers (company_id, created_at, customer_id) WHERE NOT removed;
CREATE TABLE IF NOT EXISTS customer_counts (
  company_id text NOT NULL,
  dimension text NOT NULL,
  value text NOT NULL,
  total bigint NOT NULL,
  PRIMARY KEY (company_id, dimension, value)
);
`;

/**
 * Per batch: load the customers it touches, fold its events in memory, upsert the changed rows
 * and add the count changes, whatever the batch size. A row ignores events at or before its
 * position, so a replay changes nothing (and its counts with it).
 */
export const customersProjection: Projection = {
  name: 'customers',
  handles: customerEventTypes,
  tables: ['customers', 'customer_counts'],
  async migrate(client) {
    await client.query(migration);
  },
  async apply(events, client) {
    const before = await loadCustomers(client, customerIdsOf(events));
    const after = new Map(before);
    const changed = new Set<string>();
    for (const recorded of events) {
      const event = asCustomerEvent(recorded);
      if (!event) continue;
      const id = event.data.customerId;
      const row = after.get(id);
      if (row && row.position >= recorded.position) continue;
      const next = evolveCustomerRow(row, event, recorded);
      if (!next) continue;
      after.set(id, next);
      changed.add(id);
    }
    const rows = [...changed].flatMap((id) => after.get(id) ?? []);
    await upsertCustomers(client, rows);
    await addCounts(client, countChanges(rows, before));
  },
};

function customerIdsOf(events: readonly RecordedEvent[]): string[] {
  const ids = new Set<string>();
  for (const recorded of events) {
    const event = asCustomerEvent(recorded);
    if (event) ids.add(event.data.customerId);
  }
  return [...ids];
}

/** Undefined when the event cannot apply (a change before the customer was added). */
export function evolveCustomerRow(
  row: CustomerRow | undefined,
  event: CustomerEvent,
  recorded: Pick<RecordedEvent, 'position' | 'revision' | 'metadata'>,
): CustomerRow | undefined {
  const stamp = {
    position: recorded.position,
    version: Number(recorded.revision),
    updatedAt: recorded.metadata.occurredAt,
  };
  if (event.type === 'CustomerAdded') {
    const { customerId, companyId, profile, leadStatus, investorStatus, starred, addedAt } =
      event.data;
    return {
      ...profile,
      id: customerId,
      companyId,
      starred,
      leadStatus,
      investorStatus,
      createdAt: addedAt,
      removed: false,
      ...stamp,
    };
  }
  if (!row) return undefined;
  switch (event.type) {
    case 'CustomerUpdated':
      return { ...row, ...event.data.changes, ...stamp };
    case 'CustomerRemoved':
      return { ...row, removed: true, ...stamp };
    case 'CustomerStarred':
      return { ...row, starred: true, ...stamp };
    case 'CustomerUnstarred':
      return { ...row, starred: false, ...stamp };
    case 'InvestorStatusChanged':
      return { ...row, investorStatus: event.data.to, ...stamp };
    case 'LeadStatusChanged':
      return { ...row, leadStatus: event.data.to, ...stamp };
    case 'PushNotificationSent':
      return { ...row, ...stamp };
    default: {
      const _exhaustive: never = event;
      return row;
    }
  }
}

/** The count keys a live customer adds to: everyone, starred, its investor and lead status. */
export function countKeys(row: CustomerRow | undefined): string[] {
  if (!row || row.removed) return [];
  const keys = [
    countKey(row.companyId, 'all', ''),
    countKey(row.companyId, 'investorStatus', row.investorStatus),
    countKey(row.companyId, 'leadStatus', row.leadStatus),
  ];
  if (row.starred) keys.push(countKey(row.companyId, 'starred', 'true'));
  return keys;
}

const countKey = (companyId: string, dimension: string, value: string) =>
  JSON.stringify([companyId, dimension, value]);

function countChanges(
  rows: readonly CustomerRow[],
  before: ReadonlyMap<string, CustomerRow>,
): Map<string, number> {
  const deltas = new Map<string, number>();
  const add = (key: string, by: number) => deltas.set(key, (deltas.get(key) ?? 0) + by);
  for (const row of rows) {
    for (const key of countKeys(before.get(row.id))) add(key, -1);
    for (const key of countKeys(row)) add(key, 1);
  }
  return deltas;
}

async function addCounts(client: PoolClient, deltas: ReadonlyMap<string, number>): Promise<void> {
  const records = [...deltas]
    .filter(([, delta]) => delta !== 0)
    .map(([key, delta]) => [...(JSON.parse(key) as string[]), delta]);
  if (records.length === 0) return;
  await client.query(
    `INSERT INTO customer_counts AS c (company_id, dimension, value, total)
     SELECT r->>0, r->>1, r->>2, (r->>3)::bigint FROM jsonb_array_elements($1::jsonb) AS r
     ON CONFLICT (company_id, dimension, value) DO UPDATE SET total = c.total + EXCLUDED.total`,
    [JSON.stringify(records)],
  );
  // A count back at zero goes, so the table is the same whatever the batches were (a rebuild's
  // one big batch never writes the rows that smaller live batches took up and back down).
  await client.query(
    'DELETE FROM customer_counts WHERE total = 0 AND company_id = ANY($1::text[])',
    [[...new Set(records.map((record) => String(record[0])))]],
  );
}

export interface StoredCustomer {
  customer_id: string;
  company_id: string;
  name: string;
  last_name: string;
  nickname: string;
  avatar: string;
  company: string;
  job_title: string;
  email: string;
  phone: string;
  address: string;
  birthday: string;
  notes: string;
  tags: string[];
  round_id: string;
  token_price: number | null;
  token_balance: number | null;
  percentage_owned: number | null;
  wallet_address: string;
  starred: boolean;
  lead_status: LeadStatus;
  investor_status: InvestorStatus;
  created_at: Date;
  updated_at: Date;
  version: string;
  removed: boolean;
  position: string;
}

export const customerColumns = `customer_id, company_id, name, last_name, nickname, avatar,
  company, job_title, email, phone, address, birthday, notes, tags, round_id, token_price,
  token_balance, percentage_owned, wallet_address, starred, lead_status, investor_status,
  created_at, updated_at, version, removed, position`;

export function toCustomerRow(stored: StoredCustomer): CustomerRow {
  return {
    id: stored.customer_id,
    companyId: stored.company_id,
    name: stored.name,
    lastName: stored.last_name,
    nickname: stored.nickname,
    avatar: stored.avatar,
    company: stored.company,
    jobTitle: stored.job_title,
    email: stored.email,
    phone: stored.phone,
    address: stored.address,
    birthday: stored.birthday,
    notes: stored.notes,
    tags: stored.tags,
    roundId: stored.round_id,
    tokenPrice: stored.token_price,
    tokenBalance: stored.token_balance,
    percentageOwned: stored.percentage_owned,
    walletAddress: stored.wallet_address,
    starred: stored.starred,
    leadStatus: stored.lead_status,
    investorStatus: stored.investor_status,
    createdAt: stored.created_at.toISOString(),
    updatedAt: stored.updated_at.toISOString(),
    version: Number(stored.version),
    removed: stored.removed,
    position: BigInt(stored.position),
  };
}

async function loadCustomers(
  client: PoolClient,
  ids: readonly string[],
): Promise<Map<string, CustomerRow>> {
  if (ids.length === 0) return new Map();
  const { rows } = await client.query<StoredCustomer>(
    `SELECT ${customerColumns} FROM customers WHERE customer_id = ANY($1)`,
    [ids],
  );
  return new Map(rows.map((stored) => [stored.customer_id, toCustomerRow(stored)]));
}

async function upsertCustomers(client: PoolClient, rows: readonly CustomerRow[]): Promise<void> {
  if (rows.length === 0) return;
  const records = rows.map((row) => ({ ...row, position: row.position.toString() }));
  await client.query(
    `INSERT INTO customers AS c (${customerColumns})
     SELECT id, "companyId", name, "lastName", nickname, avatar, company, "jobTitle", email,
            phone, address, birthday, notes, tags, "roundId", "tokenPrice", "tokenBalance",
            "percentageOwned", "walletAddress", starred, "leadStatus", "investorStatus",
            "createdAt", "updatedAt", version, removed, position
       FROM jsonb_to_recordset($1::jsonb) AS r(
         id text, "companyId" text, name text, "lastName" text, nickname text, avatar text,
         company text, "jobTitle" text, email text, phone text, address text, birthday text,
         notes text, tags text[], "roundId" text, "tokenPrice" double precision,
         "tokenBalance" double precision, "percentageOwned" double precision,
         "walletAddress" text, starred boolean, "leadStatus" text, "investorStatus" text,
         "createdAt" timestamptz, "updatedAt" timestamptz, version bigint, removed boolean,
         position bigint)
     ON CONFLICT (customer_id) DO UPDATE SET
       name = EXCLUDED.name, last_name = EXCLUDED.last_name, nickname = EXCLUDED.nickname,
       avatar = EXCLUDED.avatar, company = EXCLUDED.company, job_title = EXCLUDED.job_title,
       email = EXCLUDED.email, phone = EXCLUDED.phone, address = EXCLUDED.address,
       birthday = EXCLUDED.birthday, notes = EXCLUDED.notes, tags = EXCLUDED.tags,
       round_id = EXCLUDED.round_id, token_price = EXCLUDED.token_price,
       token_balance = EXCLUDED.token_balance, percentage_owned = EXCLUDED.percentage_owned,
       wallet_address = EXCLUDED.wallet_address, starred = EXCLUDED.starred,
       lead_status = EXCLUDED.lead_status, investor_status = EXCLUDED.investor_status,
       updated_at = EXCLUDED.updated_at, version = EXCLUDED.version, removed = EXCLUDED.removed,
       position = EXCLUDED.position
     WHERE c.position < EXCLUDED.position`,
    [JSON.stringify(records)],
  );
}
