import type { Pool } from 'pg';
import {
  addMoneySearch,
  type CountedDimension,
  type JsonRow,
  type ListTable,
  listPage,
  type Queryable,
  type SearchTotals,
  type SearchWord,
  type Sort,
  searchWords,
  streamRows,
  whereBuilder,
} from './listing';
import {
  type StoredTransaction,
  type TransactionRow,
  toTransactionRow,
  transactionColumns,
  transactionStatuses,
} from './transactionRows';

export const transactionSortFields = {
  createdAt: 'created_at',
  amountCents: 'amount_cents',
} as const;
export type TransactionSortField = keyof typeof transactionSortFields;

export interface TransactionFilter {
  /** Substring of the description, the customer's name or the payment id; every word must match. */
  q?: string;
  /** Kinds to show; the API also takes those later work adds (etransfer, payout). */
  kind?: readonly string[];
  status?: readonly string[];
  customerId?: string;
  terminalId?: string;
  /** Inclusive. */
  createdFrom?: Date;
  /** Exclusive. */
  createdTo?: Date;
  amountMin?: number;
  amountMax?: number;
  /** react-admin's getMany: these ids only. */
  id?: readonly string[];
}

export interface TransactionListQuery {
  companyId: string;
  sort: Sort<TransactionSortField>;
  /** Inclusive, zero-based, as react-admin sends it. */
  range: { start: number; end: number };
  filter: TransactionFilter;
}

export interface TransactionList {
  rows: TransactionRow[];
  total: number;
  /** The exact sum of netCents over every matching row. */
  netCents: bigint;
}

const table: ListTable<TransactionSortField> = {
  table: 'money_transactions',
  columns: transactionColumns,
  id: 'transaction_id',
  sortColumns: transactionSortFields,
};

export async function getTransaction(
  db: Queryable,
  companyId: string,
  transactionId: string,
): Promise<TransactionRow | undefined> {
  const { rows } = await db.query<StoredTransaction>(
    `SELECT ${transactionColumns} FROM money_transactions
      WHERE transaction_id = $1 AND company_id = $2`,
    [transactionId, companyId],
  );
  return rows[0] && toTransactionRow(rows[0]);
}

export async function listTransactions(
  db: Queryable,
  query: TransactionListQuery,
): Promise<TransactionList> {
  const list = await transactionPage<StoredTransaction>(db, table, query);
  return { rows: list.rows.map(toTransactionRow), total: list.total, netCents: list.netCents };
}

export interface TransactionJsonList {
  /** The page as the API answers it: a JSON array of Transaction resources. */
  json: string;
  /** Rows on the page. */
  shown: number;
  total: number;
  netCents: bigint;
}

/**
 * `listTransactions` for the API: the page comes back as the answer's JSON, built by PostgreSQL,
 * so no row is decoded, mapped or serialized in Node (the list is the hottest read).
 */
export async function listTransactionsJson(
  db: Queryable,
  query: TransactionListQuery,
): Promise<TransactionJsonList> {
  const list = await transactionPage<JsonRow>(db, { ...table, json: 'api_json' }, query);
  return {
    json: `[${list.rows.map((row) => row.json__).join(',')}]`,
    shown: list.rows.length,
    total: list.total,
    netCents: list.netCents,
  };
}

function transactionPage<Stored>(
  db: Queryable,
  spec: ListTable<TransactionSortField>,
  query: TransactionListQuery,
) {
  const filter = withoutNoOpStatus(query.filter);
  const { where, searched } = transactionWhere(query.companyId, filter);
  return listPage<Stored, TransactionSortField>(db, spec, {
    companyId: query.companyId,
    where,
    counted: countedDimension(filter),
    searched: searchedOnly(filter, searched),
    sort: query.sort,
    range: query.range,
    netColumn: 'net_cents',
  });
}

/** Every matching transaction in the list's order, in batches (the CSV export). */
export async function* streamTransactions(
  pool: Pool,
  query: Omit<TransactionListQuery, 'range'>,
): AsyncGenerator<TransactionRow[]> {
  const { where } = transactionWhere(query.companyId, withoutNoOpStatus(query.filter));
  for await (const batch of streamRows<StoredTransaction, TransactionSortField>(
    pool,
    table,
    where,
    query.sort,
  )) {
    yield batch.map(toTransactionRow);
  }
}

/** A status filter that names every status filters nothing (answered from the counts). */
function withoutNoOpStatus(filter: TransactionFilter): TransactionFilter {
  const { status, ...rest } = filter;
  if (!status || transactionStatuses.every((known) => status.includes(known))) return rest;
  return filter;
}

function transactionWhere(companyId: string, filter: TransactionFilter) {
  const where = whereBuilder(companyId);
  const searched = addMoneySearch(where, filter.q);
  if (filter.kind) where.add((p) => `kind = ANY(${p})`, filter.kind);
  if (filter.status) where.add((p) => `status = ANY(${p})`, filter.status);
  if (filter.customerId) where.add((p) => `customer_id = ${p}`, filter.customerId);
  if (filter.terminalId) where.add((p) => `terminal_id = ${p}`, filter.terminalId);
  if (filter.createdFrom) where.add((p) => `created_at >= ${p}`, filter.createdFrom);
  if (filter.createdTo) where.add((p) => `created_at < ${p}`, filter.createdTo);
  if (filter.amountMin !== undefined) where.add((p) => `amount_cents >= ${p}`, filter.amountMin);
  if (filter.amountMax !== undefined) where.add((p) => `amount_cents <= ${p}`, filter.amountMax);
  if (filter.id) where.add((p) => `transaction_id = ANY(${p})`, filter.id);
  return { where: where.build(), searched };
}

/** A search and no other filter: its totals come from the per-customer counts. */
function searchedOnly(
  filter: TransactionFilter,
  words: readonly SearchWord[],
): SearchTotals | undefined {
  const { q: _q, ...others } = filter;
  if (words.length === 0 || Object.values(others).some((value) => value !== undefined))
    return undefined;
  return { list: 'transactions', words };
}

/** The stored total when the filter is at most one of kind, customer or terminal. */
function countedDimension(filter: TransactionFilter): CountedDimension | undefined {
  const { kind, customerId, terminalId, ...uncounted } = filter;
  if (searchWords(uncounted.q).length === 0) delete uncounted.q;
  if (Object.values(uncounted).some((value) => value !== undefined)) return undefined;
  const dimensions = [kind, customerId, terminalId].filter((value) => value !== undefined);
  if (dimensions.length > 1) return undefined;
  const list = 'transactions';
  if (kind) return { list, dimension: 'kind', values: kind };
  if (customerId) return { list, dimension: 'customerId', values: [customerId] };
  if (terminalId) return { list, dimension: 'terminalId', values: [terminalId] };
  return { list, dimension: 'all', values: [''] };
}
