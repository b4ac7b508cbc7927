import {
  addMoneySearch,
  type CountedDimension,
  type ListTable,
  listPage,
  type Queryable,
  type Sort,
  searchWords,
  whereBuilder,
} from './listing';
import {
  type PaymentRow,
  type PaymentStatus,
  paymentColumns,
  type StoredPayment,
  toPaymentRow,
} from './paymentRows';

export const paymentSortFields = {
  requestedAt: 'requested_at',
  amountCents: 'amount_cents',
} as const;
export type PaymentSortField = keyof typeof paymentSortFields;

export interface PaymentFilter {
  /** Substring of the description, the customer's name or the payment id; every word must match. */
  q?: string;
  status?: readonly PaymentStatus[];
  terminalId?: string;
  customerId?: string;
  /** react-admin's getMany: these ids only. */
  id?: readonly string[];
}

export interface PaymentListQuery {
  companyId: string;
  sort: Sort<PaymentSortField>;
  /** Inclusive, zero-based, as react-admin sends it. */
  range: { start: number; end: number };
  filter: PaymentFilter;
}

const table: ListTable<PaymentSortField> = {
  table: 'payments',
  columns: paymentColumns,
  id: 'payment_id',
  sortColumns: paymentSortFields,
};

/** The company's payment; undefined for a missing or another company's one. */
export async function getPayment(
  db: Queryable,
  companyId: string,
  paymentId: string,
): Promise<PaymentRow | undefined> {
  const { rows } = await db.query<StoredPayment>(
    `SELECT ${paymentColumns} FROM payments WHERE payment_id = $1 AND company_id = $2`,
    [paymentId, companyId],
  );
  return rows[0] && toPaymentRow(rows[0]);
}

export async function listPayments(
  db: Queryable,
  query: PaymentListQuery,
): Promise<{ rows: PaymentRow[]; total: number }> {
  const { filter } = query;
  const where = whereBuilder(query.companyId);
  addMoneySearch(where, filter.q);
  if (filter.status) where.add((p) => `status = ANY(${p})`, filter.status);
  if (filter.terminalId) where.add((p) => `terminal_id = ${p}`, filter.terminalId);
  if (filter.customerId) where.add((p) => `customer_id = ${p}`, filter.customerId);
  if (filter.id) where.add((p) => `payment_id = ANY(${p})`, filter.id);
  const list = await listPage<StoredPayment, PaymentSortField>(db, table, {
    companyId: query.companyId,
    where: where.build(),
    counted: countedDimension(filter),
    sort: query.sort,
    range: query.range,
  });
  return { rows: list.rows.map(toPaymentRow), total: list.total };
}

/** The stored total for no filter or a status filter alone. */
function countedDimension(filter: PaymentFilter): CountedDimension | undefined {
  const { status, ...rest } = filter;
  if (searchWords(rest.q).length > 0 || rest.terminalId || rest.customerId || rest.id) {
    return undefined;
  }
  if (status) return { list: 'payments', dimension: 'status', values: status };
  return { list: 'payments', dimension: 'all', values: [''] };
}

/** The company's pending payments (waiting at a terminal): how many, and their sum in cents. */
export async function pendingPaymentsSummary(
  db: Queryable,
  companyId: string,
): Promise<{ count: number; amountCents: number }> {
  const { rows } = await db.query<{ count: string; amount_cents: string }>(
    `SELECT count(*)::text AS count, coalesce(sum(amount_cents), 0)::text AS amount_cents
       FROM payments WHERE company_id = $1 AND status = 'pending'`,
    [companyId],
  );
  return { count: Number(rows[0]?.count ?? 0), amountCents: Number(rows[0]?.amount_cents ?? 0) };
}
