import {
  asCapTableEvent,
  type CapTableEvent,
  capTableEventTypes,
  type RecordedEvent,
} from '@issuer/events';
import type { PoolClient } from 'pg';
import type { Projection } from '../../projection';

/**
 * The cap table's read model. Per company: its share classes; every movement (an issuance or a
 * transfer) with its stream revision and date; each holder's shares per class now
 * (`cap_table_holdings`) and in total (`cap_table_holders`, indexed by shares for the page);
 * each holder's balance per class after every movement that touched it (`cap_table_balances`,
 * for a holder's shares as of a moment); and every `checkpointEvery` movements (5,000 by default) a copy of the
 * holders' totals (`cap_table_checkpoint_holders`), from which the cap table as of a moment is
 * the nearest copy corrected by the few movements between (api/src/capTable/capTableQueries.ts). Movements' dates
 * never go backwards in a company's stream, so "as of a moment" is a prefix of the stream.
 * Each company row keeps the last stream revision applied: a replay changes nothing.
 */
export const defaultCheckpointEvery = 5_000;

export const capTableTables = [
  'share_classes',
  'share_movements',
  'cap_table_holdings',
  'cap_table_holders',
  'cap_table_balances',
  'cap_table_companies',
  'cap_table_checkpoints',
  'cap_table_checkpoint_holders',
] as const;

const migration = `
CREATE TABLE IF NOT EXISTS share_classes (
  share_class_id text PRIMARY KEY,
  company_id text NOT NULL,
  name text NOT NULL,
  kind text NOT NULL,
  votes_per_share integer NOT NULL,
  par_value text NOT NULL,
  liquidation_preference_multiple double precision NOT NULL,
  seniority integer NOT NULL,
  authorized bigint NOT NULL,
  issued bigint NOT NULL,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX IF NOT EXISTS share_classes_company_idx ON share_classes (company_id, created_at);
CREATE TABLE IF NOT EXISTS share_movements (
  movement_id text PRIMARY KEY,
  company_id text NOT NULL,
  kind text NOT NULL,
  share_class_id text NOT NULL,
  from_customer_id text,
  to_customer_id text NOT NULL,
  shares bigint NOT NULL,
  -- After an issuance: the class's issued count (the class totals as of a moment).
  issued_after bigint,
  effective_at timestamptz NOT NULL,
  reason text NOT NULL,
  actor_id text NOT NULL,
  recorded_at timestamptz NOT NULL,
  revision bigint NOT NULL
);
CREATE UNIQUE INDEX IF NOT EXISTS share_movements_revision_idx ON share_movements (company_id, revision);
CREATE INDEX IF NOT EXISTS share_movements_effective_idx
  ON share_movements (company_id, effective_at, revision);
CREATE INDEX IF NOT EXISTS share_movements_kind_idx
  ON share_movements (company_id, kind, effective_at, revision);
CREATE INDEX IF NOT EXISTS share_movements_class_idx
  ON share_movements (company_id, share_class_id, kind, revision);
CREATE TABLE IF NOT EXISTS cap_table_holdings (
  company_id text NOT NULL,
  customer_id text NOT NULL,
  share_class_id text NOT NULL,
  shares bigint NOT NULL,
  PRIMARY KEY (company_id, customer_id, share_class_id)
);
CREATE TABLE IF NOT EXISTS cap_table_holders (
  company_id text NOT NULL,
  customer_id text NOT NULL,
  shares bigint NOT NULL,
  PRIMARY KEY (company_id, customer_id)
);
CREATE INDEX IF NOT EXISTS cap_table_holders_shares_idx
  ON cap_table_holders (company_id, shares DESC, customer_id);
CREATE TABLE IF NOT EXISTS cap_table_balances (
  company_id text NOT NULL,
  customer_id text NOT NULL,
  share_class_id text NOT NULL,
  revision bigint NOT NULL,
  shares bigint NOT NULL,
  PRIMARY KEY (company_id, customer_id, share_class_id, revision)
);
CREATE TABLE IF NOT EXISTS cap_table_companies (
  company_id text PRIMARY KEY,
  revision bigint NOT NULL,
  holders integer NOT NULL,
  movements_since_checkpoint integer NOT NULL
);
CREATE TABLE IF NOT EXISTS cap_table_checkpoints (
  company_id text NOT NULL,
  revision bigint NOT NULL,
  holders integer NOT NULL,
  PRIMARY KEY (company_id, revision)
);
CREATE TABLE IF NOT EXISTS cap_table_checkpoint_holders (
  company_id text NOT NULL,
  revision bigint NOT NULL,
  customer_id text NOT NULL,
  shares bigint NOT NULL,
  PRIMARY KEY (company_id, revision, customer_id)
);
CREATE INDEX IF NOT EXISTS cap_table_checkpoint_holders_shares_idx
  ON cap_table_checkpoint_holders (company_id, revision, shares DESC, customer_id);
`;

interface CompanyRow {
  revision: number;
  holders: number;
  movementsSinceCheckpoint: number;
}

/** One company's batch, folded in memory, then written set-based. */
class CompanyBatch {
  readonly classes = new Map<string, Record<string, unknown>>();
  readonly movements: Record<string, unknown>[] = [];
  readonly balances: Record<string, unknown>[] = [];
  /** `customer|class` → shares now. */
  readonly holdings = new Map<string, number>();
  /** customer → total shares now. */
  readonly holders = new Map<string, number>();
  readonly issued = new Map<string, number>();

  constructor(
    readonly companyId: string,
    readonly row: CompanyRow,
  ) {}

  move(customerId: string, shareClassId: string, delta: number, revision: number) {
    const key = `${customerId}|${shareClassId}`;
    const shares = (this.holdings.get(key) ?? 0) + delta;
    this.holdings.set(key, shares);
    const before = this.holders.get(customerId) ?? 0;
    const total = before + delta;
    this.holders.set(customerId, total);
    this.row.holders += Number(total > 0) - Number(before > 0);
    this.balances.push({ customerId, shareClassId, revision, shares });
  }

  apply(event: CapTableEvent, recorded: RecordedEvent) {
    const revision = Number(recorded.revision);
    const base = { recordedAt: recorded.metadata.occurredAt, revision };
    switch (event.type) {
      case 'ShareClassCreated':
      case 'ShareClassUpdated': {
        const { companyId: _c, ...terms } = event.data;
        const known = this.classes.get(event.data.shareClassId);
        this.classes.set(event.data.shareClassId, {
          ...known,
          ...terms,
          createdAt: 'createdAt' in terms ? terms.createdAt : (known?.createdAt ?? terms.updatedAt),
          updatedAt: recorded.metadata.occurredAt,
        });
        return;
      }
      case 'SharesIssued': {
        const { shareClassId, customerId, shares } = event.data;
        const issued = (this.issued.get(shareClassId) ?? 0) + shares;
        this.issued.set(shareClassId, issued);
        this.move(customerId, shareClassId, shares, revision);
        this.row.movementsSinceCheckpoint += 1;
        this.movements.push({
          ...base,
          movementId: event.data.issuanceId,
          kind: 'issuance',
          shareClassId,
          fromCustomerId: null,
          toCustomerId: customerId,
          shares,
          issuedAfter: issued,
          effectiveAt: event.data.issuedAt,
          reason: event.data.reason,
          actorId: event.data.issuedBy,
        });
        return;
      }
      case 'SharesTransferred': {
        const { shareClassId, fromCustomerId, toCustomerId, shares } = event.data;
        this.move(fromCustomerId, shareClassId, -shares, revision);
        this.move(toCustomerId, shareClassId, shares, revision);
        this.row.movementsSinceCheckpoint += 1;
        this.movements.push({
          ...base,
          movementId: event.data.transferId,
          kind: 'transfer',
          shareClassId,
          fromCustomerId,
          toCustomerId,
          shares,
          issuedAfter: null,
          effectiveAt: event.data.transferredAt,
          reason: event.data.reason,
          actorId: event.data.transferredBy,
        });
        return;
      }
      default: {
        const unknownEvent: never = event;
        return unknownEvent;
      }
    }
  }
}

function customersOf(event: CapTableEvent): string[] {
  if (event.type === 'SharesIssued') return [event.data.customerId];
  if (event.type === 'SharesTransferred') {
    return [event.data.fromCustomerId, event.data.toCustomerId];
  }
  return [];
}

async function loadCompany(client: PoolClient, companyId: string): Promise<CompanyRow> {
  const { rows } = await client.query<{ revision: string; holders: number; since: number }>(
    `SELECT revision, holders, movements_since_checkpoint AS since
       FROM cap_table_companies WHERE company_id = $1`,
    [companyId],
  );
  const row = rows[0];
  return row
    ? { revision: Number(row.revision), holders: row.holders, movementsSinceCheckpoint: row.since }
    : { revision: -1, holders: 0, movementsSinceCheckpoint: 0 };
}

async function loadCurrent(client: PoolClient, batch: CompanyBatch, customers: string[]) {
  const holdings = await client.query<{
    customer_id: string;
    share_class_id: string;
    shares: string;
  }>(
    `SELECT customer_id, share_class_id, shares FROM cap_table_holdings
      WHERE company_id = $1 AND customer_id = ANY($2)`,
    [batch.companyId, customers],
  );
  for (const row of holdings.rows) {
    batch.holdings.set(`${row.customer_id}|${row.share_class_id}`, Number(row.shares));
    batch.holders.set(
      row.customer_id,
      (batch.holders.get(row.customer_id) ?? 0) + Number(row.shares),
    );
  }
  const classes = await client.query<{ share_class_id: string; issued: string }>(
    'SELECT share_class_id, issued FROM share_classes WHERE company_id = $1',
    [batch.companyId],
  );
  for (const row of classes.rows) batch.issued.set(row.share_class_id, Number(row.issued));
}

const json = (value: unknown) => JSON.stringify(value);

async function write(client: PoolClient, batch: CompanyBatch, checkpointEvery: number) {
  const { companyId } = batch;
  await client.query(
    `INSERT INTO share_classes (share_class_id, company_id, name, kind, votes_per_share, par_value,
       liquidation_preference_multiple, seniority, authorized, issued, created_at, updated_at)
     SELECT c."shareClassId", $1, c.name, c.kind, c."votesPerShare", c."parValue",
       c."liquidationPreferenceMultiple", c.seniority, c.authorized, 0, c."createdAt", c."updatedAt"
       FROM jsonb_to_recordset($2::jsonb) AS c("shareClassId" text, name text, kind text,
         "votesPerShare" integer, "parValue" text, "liquidationPreferenceMultiple" double precision,
         seniority integer, authorized bigint, "createdAt" timestamptz, "updatedAt" timestamptz)
     ON CONFLICT (share_class_id) DO UPDATE SET name = EXCLUDED.name, kind = EXCLUDED.kind,
       votes_per_share = EXCLUDED.votes_per_share, par_value = EXCLUDED.par_value,
       liquidation_preference_multiple = EXCLUDED.liquidation_preference_multiple,
       seniority = EXCLUDED.seniority, authorized = EXCLUDED.authorized,
       updated_at = EXCLUDED.updated_at`,
    [companyId, json([...batch.classes.values()])],
  );
  await client.query(
    `UPDATE share_classes s SET issued = i.issued::bigint
       FROM jsonb_each_text($2::jsonb) AS i(id, issued)
      WHERE s.company_id = $1 AND s.share_class_id = i.id`,
    [companyId, json(Object.fromEntries(batch.issued))],
  );
  await client.query(
    `INSERT INTO share_movements (movement_id, company_id, kind, share_class_id, from_customer_id,
       to_customer_id, shares, issued_after, effective_at, reason, actor_id, recorded_at, revision)
     SELECT m."movementId", $1, m.kind, m."shareClassId", m."fromCustomerId", m."toCustomerId",
       m.shares, m."issuedAfter", m."effectiveAt", m.reason, m."actorId", m."recordedAt", m.revision
       FROM jsonb_to_recordset($2::jsonb) AS m("movementId" text, kind text, "shareClassId" text,
         "fromCustomerId" text, "toCustomerId" text, shares bigint, "issuedAfter" bigint,
         "effectiveAt" timestamptz, reason text, "actorId" text, "recordedAt" timestamptz,
         revision bigint)
     ON CONFLICT DO NOTHING`,
    [companyId, json(batch.movements)],
  );
  await client.query(
    `INSERT INTO cap_table_balances (company_id, customer_id, share_class_id, revision, shares)
     SELECT $1, b."customerId", b."shareClassId", b.revision, b.shares
       FROM jsonb_to_recordset($2::jsonb)
         AS b("customerId" text, "shareClassId" text, revision bigint, shares bigint)
     ON CONFLICT (company_id, customer_id, share_class_id, revision)
       DO UPDATE SET shares = EXCLUDED.shares`,
    [companyId, json(batch.balances)],
  );
  const holdings = [...batch.holdings].map(([key, shares]) => {
    const [customerId, shareClassId] = key.split('|');
    return { customerId, shareClassId, shares };
  });
  await client.query(
    `INSERT INTO cap_table_holdings (company_id, customer_id, share_class_id, shares)
     SELECT $1, h."customerId", h."shareClassId", h.shares
       FROM jsonb_to_recordset($2::jsonb) AS h("customerId" text, "shareClassId" text, shares bigint)
     ON CONFLICT (company_id, customer_id, share_class_id) DO UPDATE SET shares = EXCLUDED.shares`,
    [companyId, json(holdings)],
  );
  await client.query(
    `INSERT INTO cap_table_holders (company_id, customer_id, shares)
     SELECT $1, h.key, h.value::bigint FROM jsonb_each_text($2::jsonb) AS h
     ON CONFLICT (company_id, customer_id) DO UPDATE SET shares = EXCLUDED.shares`,
    [companyId, json(Object.fromEntries(batch.holders))],
  );
  await writeCheckpoint(client, batch, checkpointEvery);
  await client.query(
    `INSERT INTO cap_table_companies (company_id, revision, holders, movements_since_checkpoint)
     VALUES ($1, $2, $3, $4)
     ON CONFLICT (company_id) DO UPDATE SET revision = EXCLUDED.revision,
       holders = EXCLUDED.holders, movements_since_checkpoint = EXCLUDED.movements_since_checkpoint`,
    [companyId, batch.row.revision, batch.row.holders, batch.row.movementsSinceCheckpoint],
  );
}

/** A copy of the holders' totals at the batch's last revision, every `checkpointEvery` movements (5,000 by default). */
async function writeCheckpoint(client: PoolClient, batch: CompanyBatch, every: number) {
  if (batch.row.movementsSinceCheckpoint < every) return;
  const { companyId, row } = batch;
  await client.query(
    `INSERT INTO cap_table_checkpoint_holders (company_id, revision, customer_id, shares)
     SELECT company_id, $2, customer_id, shares FROM cap_table_holders
      WHERE company_id = $1 AND shares > 0
     ON CONFLICT DO NOTHING`,
    [companyId, row.revision],
  );
  await client.query(
    `INSERT INTO cap_table_checkpoints (company_id, revision, holders) VALUES ($1, $2, $3)
     ON CONFLICT DO NOTHING`,
    [companyId, row.revision, row.holders],
  );
  row.movementsSinceCheckpoint = 0;
}

export function createCapTableProjection({
  checkpointEvery = defaultCheckpointEvery,
} = {}): Projection {
  return {
    name: 'cap-table',
    handles: capTableEventTypes,
    tables: capTableTables,
    async migrate(client) {
      await client.query(migration);
    },
    async apply(events, client) {
      const byCompany = new Map<string, { event: CapTableEvent; recorded: RecordedEvent }[]>();
      for (const recorded of events) {
        const event = asCapTableEvent(recorded);
        if (!event) continue;
        const list = byCompany.get(event.data.companyId) ?? [];
        list.push({ event, recorded });
        byCompany.set(event.data.companyId, list);
      }
      for (const [companyId, list] of byCompany) {
        const row = await loadCompany(client, companyId);
        const fresh = list.filter(({ recorded }) => Number(recorded.revision) > row.revision);
        if (fresh.length === 0) continue;
        const batch = new CompanyBatch(companyId, row);
        await loadCurrent(client, batch, [
          ...new Set(fresh.flatMap(({ event }) => customersOf(event))),
        ]);
        for (const { event, recorded } of fresh) {
          batch.apply(event, recorded);
          row.revision = Number(recorded.revision);
        }
        await write(client, batch, checkpointEvery);
      }
    },
  };
}

export const capTableProjection = createCapTableProjection();
