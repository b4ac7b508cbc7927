import {
  type EtransferKind,
  type EtransferRow,
  type EtransferStatus,
  etransferColumns,
  type StoredEtransfer,
  toEtransferRow,
} from './etransferRows';
import {
  type ListTable,
  likePattern,
  listPage,
  type Queryable,
  type Sort,
  searchWords,
  whereBuilder,
} from './listing';

export const etransferSortFields = {
  createdAt: 'created_at',
  amountCents: 'amount_cents',
} as const;
export type EtransferSortField = keyof typeof etransferSortFields;

/** The list's views, as the address names them (`/etransfers/unmatched`). */
export const etransferViews = ['all', 'requested', 'deposited', 'sent', 'unmatched'] as const;
export type EtransferView = (typeof etransferViews)[number];

/**
 * What each view holds: money requests still waiting for the customer (a request is `sent` as
 * soon as the provider has it), money received, payouts whatever became of them, and incoming
 * transfers no customer was found for.
 */
const viewConditions: Record<EtransferView, string | undefined> = {
  all: undefined,
  requested: `kind = 'request' AND status IN ('requested', 'sent')`,
  deposited: `status = 'deposited'`,
  sent: `kind = 'payout'`,
  unmatched: `kind = 'incoming' AND customer_id IS NULL`,
};

export interface EtransferFilter {
  view?: EtransferView;
  status?: readonly EtransferStatus[];
  kind?: readonly EtransferKind[];
  customerId?: string;
  /** Every word in the email or the reference, or beginning the id. */
  q?: string;
  id?: readonly string[];
}

/** A row with the customer's current name (joined on read, so a rename shows at once). */
export type EtransferListRow = EtransferRow & { customerName: string | null };

const table: ListTable<EtransferSortField> = {
  table: 'etransfers',
  columns: etransferColumns,
  id: 'etransfer_id',
  sortColumns: etransferSortFields,
};

export async function listEtransfers(
  db: Queryable,
  query: {
    companyId: string;
    sort: Sort<EtransferSortField>;
    range: { start: number; end: number };
    filter: EtransferFilter;
  },
): Promise<{ rows: EtransferListRow[]; total: number }> {
  const { filter } = query;
  const where = whereBuilder(query.companyId);
  const view = filter.view && viewConditions[filter.view];
  if (view) where.add(() => view);
  if (filter.status) where.add((p) => `status = ANY(${p})`, filter.status);
  if (filter.kind) where.add((p) => `kind = ANY(${p})`, filter.kind);
  if (filter.customerId) where.add((p) => `customer_id = ${p}`, filter.customerId);
  if (filter.id) where.add((p) => `etransfer_id = ANY(${p})`, filter.id);
  for (const word of searchWords(filter.q)) {
    where.add(
      (anywhere, prefix) =>
        `(lower(email) LIKE ${anywhere} OR lower(reference) LIKE ${anywhere} OR etransfer_id LIKE ${prefix})`,
      likePattern(word),
      `${word.replace(/[\\%_]/g, (c) => `\\${c}`)}%`,
    );
  }
  const list = await listPage<StoredEtransfer, EtransferSortField>(db, table, {
    companyId: query.companyId,
    where: where.build(),
    counted: undefined,
    sort: query.sort,
    range: query.range,
  });
  return { rows: await withNames(db, list.rows.map(toEtransferRow)), total: list.total };
}

/** The company's e-transfer; undefined for a missing or another company's one. */
export async function getEtransfer(
  db: Queryable,
  companyId: string,
  etransferId: string,
): Promise<EtransferListRow | undefined> {
  const { rows } = await db.query<StoredEtransfer>(
    `SELECT ${etransferColumns} FROM etransfers WHERE etransfer_id = $1 AND company_id = $2`,
    [etransferId, companyId],
  );
  const [row] = await withNames(db, rows.map(toEtransferRow));
  return row;
}

async function withNames(db: Queryable, rows: EtransferRow[]): Promise<EtransferListRow[]> {
  const ids = [...new Set(rows.flatMap((row) => (row.customerId ? [row.customerId] : [])))];
  const names = new Map<string, string>();
  if (ids.length > 0) {
    const found = await db.query<{ customer_id: string; name: string }>(
      `SELECT customer_id, trim(first_name || ' ' || last_name) AS name
         FROM money_customer_names WHERE customer_id = ANY($1)`,
      [ids],
    );
    for (const row of found.rows) names.set(row.customer_id, row.name);
  }
  return rows.map((row) => ({
    ...row,
    customerName: row.customerId ? (names.get(row.customerId) ?? null) : null,
  }));
}
