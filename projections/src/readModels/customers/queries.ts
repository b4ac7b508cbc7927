import type { InvestorStatus, LeadStatus } from '@issuer/events';
import { namedStatements } from '@issuer/eventstore/namedStatements';
import type { Pool, PoolClient } from 'pg';
import { isoText } from '../isoText';
import { nameMatch, searchWords } from '../searchWords';
import {
  type CustomerRow,
  customerColumns,
  type StoredCustomer,
  toCustomerRow,
} from './customersProjection';
import { fundedRoundSql } from './fundedRoundsProjection';

type Queryable = Pool | PoolClient;

/** Sortable fields and their columns; name, email and createdAt have indexes. */
export const customerSortFields = {
  name: 'name',
  lastName: 'last_name',
  email: 'email',
  createdAt: 'created_at',
  updatedAt: 'updated_at',
  id: 'customer_id',
  company: 'company',
  jobTitle: 'job_title',
  phone: 'phone',
  investorStatus: 'investor_status',
  leadStatus: 'lead_status',
  starred: 'starred',
  tokenPrice: 'token_price',
  tokenBalance: 'token_balance',
  percentageOwned: 'percentage_owned',
} as const;
export type CustomerSortField = keyof typeof customerSortFields;

export interface CustomerFilter {
  /** Substring of name, last name, email, company or phone; every word must match. */
  q?: string;
  starred?: boolean;
  investorStatus?: readonly InvestorStatus[];
  leadStatus?: readonly LeadStatus[];
  /** Customers carrying every one of these tags. */
  tags?: readonly string[];
  /** react-admin's getMany: these ids only. */
  id?: readonly string[];
}

export interface CustomerSort {
  field: CustomerSortField;
  order: 'ASC' | 'DESC';
  /** Read from the end (a deep page): every part of the order turned round. */
  reversed?: boolean;
}

export interface CustomerListQuery {
  companyId: string;
  sort: CustomerSort;
  /** Inclusive, zero-based, as react-admin sends it. */
  range: { start: number; end: number };
  filter: CustomerFilter;
}

export interface CustomerList {
  rows: CustomerRow[];
  total: number;
}

export async function getCustomer(
  db: Queryable,
  companyId: string,
  customerId: string,
): Promise<CustomerRow | undefined> {
  const { rows } = await db.query<StoredCustomer>(
    `SELECT ${answeredColumns} FROM customers
      WHERE customer_id = $1 AND company_id = $2 AND NOT removed`,
    [customerId, companyId],
  );
  return rows[0] && toCustomerRow(rows[0]);
}

/**
 * A holder's tokenBalance and percentageOwned come from the cap table (issue 10) once they have
 * held shares: their shares now, and those over every share issued by the company. Before that,
 * the values the customer was added or imported with. `shares` is the holder's shares as the
 * statement reads them (a subquery, or a joined row).
 */
const heldShares = `(SELECT h.shares FROM cap_table_holders h
  WHERE h.company_id = customers.company_id AND h.customer_id = customers.customer_id)`;
const issuedShares = `(SELECT sum(s.issued) FROM share_classes s
  WHERE s.company_id = customers.company_id)`;
const derivedBalance = (shares: string) =>
  `coalesce(${shares}::double precision, customers.token_balance)`;
/** The company's issued shares are read only for a holder. */
const derivedPercentage = (shares: string) => `CASE WHEN ${shares} IS NULL
  THEN customers.percentage_owned
  ELSE coalesce(round(${shares} * 100.0 / nullif(${issuedShares}, 0), 6)::double precision,
    customers.percentage_owned) END`;
/**
 * A customer's roundId is the round of their most recent token order whose funds were received
 * (issue 10); before any, the value they were added or imported with.
 */
const derivedRound = `coalesce(${fundedRoundSql}, customers.round_id)`;
/** The stored columns with the derived ones, for every answer (never for the projection). */
const answeredColumns = customerColumns
  .replace('round_id,', `${derivedRound} AS round_id,`)
  .replace('token_balance,', `${derivedBalance(heldShares)} AS token_balance,`)
  .replace('percentage_owned,', `${derivedPercentage(heldShares)} AS percentage_owned,`);

/** What a page selects and how a selected row becomes what the caller gets. */
interface Shape<Row> {
  columns: string;
  // biome-ignore lint/suspicious/noExplicitAny: a row as pg decodes `columns`
  map: (selected: any) => Row;
}

const storedShape: Shape<CustomerRow> = { columns: answeredColumns, map: toCustomerRow };

/**
 * A customer as the API answers it (the record: the row without companyId, removed, position),
 * field by field: a stored column, or what is derived from the cap table and the funded rounds.
 */
const answerFields: [field: string, sql: string][] = [
  ['id', 'customers.customer_id'],
  ...stored(['name', 'last_name', 'nickname', 'avatar', 'company', 'job_title', 'email']),
  ...stored(['phone', 'address', 'birthday', 'notes', 'tags']),
  ['roundId', derivedRound],
  ['tokenPrice', 'customers.token_price'],
  ['tokenBalance', derivedBalance('held.shares')],
  ['percentageOwned', derivedPercentage('held.shares')],
  ...stored(['wallet_address', 'starred', 'lead_status', 'investor_status']),
  ['createdAt', isoText('customers.created_at')],
  ['updatedAt', isoText('customers.updated_at')],
  ['version', 'customers.version'],
];

/** Stored columns answered as they are, each under its camelCase name. */
function stored(columns: string[]): [field: string, sql: string][] {
  return columns.map((column) => [
    column.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase()),
    `customers.${column}`,
  ]);
}

/**
 * The answer as JSON text: `row_to_json` of a row whose types are known once (not
 * `json_build_object`, which looks up each argument's type on every row); the holder is looked
 * up once per customer, the company's issued shares only for a holder.
 */
const jsonShape: Shape<string> = {
  columns: `(SELECT row_to_json(answer)::text FROM (
    SELECT ${answerFields.map(([field, sql]) => `${sql} AS "${field}"`).join(', ')}
    FROM (SELECT) one LEFT JOIN cap_table_holders held
      ON held.company_id = customers.company_id AND held.customer_id = customers.customer_id
  ) answer) AS json`,
  map: (selected: { json: string }) => selected.json,
};

export function listCustomers(db: Queryable, query: CustomerListQuery): Promise<CustomerList> {
  return listShaped(db, query, storedShape);
}

/**
 * `listCustomers` for the API: the page as the answer's JSON array of records, built by
 * PostgreSQL, so no row is decoded, mapped or serialized in Node.
 */
export async function listCustomersJson(
  db: Queryable,
  query: CustomerListQuery,
): Promise<{ json: string; shown: number; total: number }> {
  const list = await listShaped(db, query, jsonShape);
  return { json: `[${list.rows.join(',')}]`, shown: list.rows.length, total: list.total };
}

/**
 * A page and the exact total. Without a search the total comes from `customer_counts` (one
 * row), and a page past the middle is read from the far end in reverse, so the last page of a
 * large company costs what the first does. With a search, the matches are few enough to count
 * in the same statement.
 */
async function listShaped<Row>(
  db: Queryable,
  query: CustomerListQuery,
  shape: Shape<Row>,
): Promise<{ rows: Row[]; total: number }> {
  const { start, end } = query.range;
  const limit = Math.max(0, end - start + 1);
  const where = customerWhere(query.companyId, query.filter);
  const counted = countedTotal(query.companyId, query.filter);
  if (!counted) return countedPage(db, shape, where, query.sort, start, limit);
  if (start < shallowPages) {
    // The usual case in one round trip: the page and its total from the counts row.
    const n = where.params.length;
    const bounds = pageBounds(start, limit, n + counted.params.length, isUnfiltered(query.filter));
    const { rows } = await db.query<{ total: string }>({
      ...prepared(
        `SELECT ${shape.columns}, (${counted.sql(n)}) AS total FROM customers WHERE ${where.sql}
        ORDER BY ${orderBy(query.sort)} ${bounds.sql}`,
      ),
      values: [...where.params, ...counted.params, ...bounds.params],
    });
    const first = rows[0];
    if (first) return { rows: rows.map(shape.map), total: Number(first.total) };
  }
  const total = await storedTotal(db, counted);
  if (start >= total || limit === 0) return { rows: [], total };
  if (start <= total / 2) {
    return { rows: await page(db, shape, where, query.sort, start, limit), total };
  }
  const reversedStart = Math.max(0, total - 1 - end);
  const reversedLimit = total - start - reversedStart;
  const reversed = await page(db, shape, where, flip(query.sort), reversedStart, reversedLimit);
  return { rows: reversed.reverse(), total };
}

/**
 * The first pages' statement is named, so each connection parses it once (and plans it once too
 * when its limit is in the text: see `pageBounds`). Planning this text took about as long as
 * running it (0.22 against 0.28 ms for a page of 25). Its texts differ only by sort, by which
 * filters are set and by those limits, so there are few of them.
 */
const prepared = namedStatements('customers_page');

/** The page sizes the list offers (react-admin's choices). */
const offeredPageSizes = new Set([5, 10, 25, 50, 100]);

/**
 * `LIMIT … OFFSET …` of a page. The first page of the whole list, at an offered size, has its
 * limit in the text: a generic plan then knows it, so PostgreSQL plans the statement once per
 * connection instead of on every request (with a parameter it estimates the limit at a tenth of
 * the company's rows, and a plan for the actual values always looks cheaper). Only unfiltered: a
 * generic plan cannot tell a rare status from a common one, and a filter's plan must.
 */
function pageBounds(start: number, limit: number, paramsBefore: number, unfiltered: boolean) {
  if (unfiltered && start === 0 && offeredPageSizes.has(limit))
    return { sql: `LIMIT ${limit}`, params: [] };
  return {
    sql: `LIMIT $${paramsBefore + 1} OFFSET $${paramsBefore + 2}`,
    params: [limit, start],
  };
}

/** Pages starting below this offset are read forwards in one statement with their total. */
const shallowPages = 1_000;

const flip = (sort: CustomerSort): CustomerSort => ({
  ...sort,
  order: sort.order === 'ASC' ? 'DESC' : 'ASC',
  reversed: !sort.reversed,
});

/**
 * Customers without a name come after the named ones in both directions (the email then orders
 * them); a page read backwards (`reversed`) puts them first, to be turned round after.
 */
function orderBy({ field, order, reversed }: CustomerSort): string {
  const column = customerSortFields[field];
  const ordered = `${column} ${order}, customer_id ${order}`;
  if (field !== 'name') return ordered;
  const empty = reversed ? 'DESC' : 'ASC';
  return `(name = '') ${empty}, ${column} ${order}, email ${order}, customer_id ${order}`;
}

interface Where {
  sql: string;
  params: unknown[];
}

export function customerWhere(companyId: string, filter: CustomerFilter): Where {
  const params: unknown[] = [companyId];
  const conditions = ['company_id = $1', 'NOT removed'];
  const add = (condition: (placeholder: string) => string, value: unknown) => {
    params.push(value);
    conditions.push(condition(`$${params.length}`));
  };
  for (const word of searchWords(filter.q)) {
    const { operator, value } = nameMatch(word);
    add((p) => `search ${operator} ${p}`, value);
  }
  if (filter.starred !== undefined) add((p) => `starred = ${p}`, filter.starred);
  if (filter.investorStatus) add((p) => `investor_status = ANY(${p})`, filter.investorStatus);
  if (filter.leadStatus) add((p) => `lead_status = ANY(${p})`, filter.leadStatus);
  if (filter.tags?.length) add((p) => `tags @> ${p}::text[]`, filter.tags);
  if (filter.id) add((p) => `customer_id = ANY(${p})`, filter.id);
  return { sql: conditions.join(' AND '), params };
}

interface CountedTotal {
  /** A scalar subquery for the total, its parameters numbered after the first `offset`. */
  sql(offset: number): string;
  params: unknown[];
}

/** The whole list: no search, star, status, tag or id filter. */
function isUnfiltered({ q, starred, investorStatus, leadStatus, tags, id }: CustomerFilter) {
  return (
    searchWords(q).length === 0 &&
    starred === undefined &&
    investorStatus === undefined &&
    leadStatus === undefined &&
    !tags?.length &&
    id === undefined
  );
}

/**
 * The total kept in `customer_counts` when the filter is at most one counted dimension (star,
 * investor status or lead status); undefined when rows must be counted.
 */
function countedTotal(companyId: string, filter: CustomerFilter): CountedTotal | undefined {
  const { q, starred, investorStatus, leadStatus, tags, id } = filter;
  if (searchWords(q).length > 0 || tags?.length || id) return undefined;
  const dimensions = [starred !== undefined, investorStatus, leadStatus].filter(Boolean);
  if (dimensions.length > 1) return undefined;
  const sum = (dimension: string, values: readonly string[]) => ({
    sql: (offset: number) =>
      `SELECT coalesce(sum(total), 0) FROM customer_counts
        WHERE company_id = $${offset + 1} AND dimension = $${offset + 2} AND value = ANY($${offset + 3})`,
    params: [companyId, dimension, values],
  });
  if (investorStatus) return sum('investorStatus', investorStatus);
  if (leadStatus) return sum('leadStatus', leadStatus);
  if (starred === true) return sum('starred', ['true']);
  if (starred === false) {
    const all = sum('all', ['']);
    const starredOnes = sum('starred', ['true']);
    return {
      sql: (offset) => `(${all.sql(offset)}) - (${starredOnes.sql(offset + 3)})`,
      params: [...all.params, ...starredOnes.params],
    };
  }
  return sum('all', ['']);
}

async function storedTotal(db: Queryable, counted: CountedTotal): Promise<number> {
  const { rows } = await db.query<{ total: string }>(
    `SELECT (${counted.sql(0)}) AS total`,
    counted.params,
  );
  return Number(rows[0]?.total ?? 0);
}

async function page<Row>(
  db: Queryable,
  shape: Shape<Row>,
  where: Where,
  sort: CustomerSort,
  offset: number,
  limit: number,
): Promise<Row[]> {
  const n = where.params.length;
  const { rows } = await db.query(
    `SELECT ${shape.columns} FROM customers WHERE ${where.sql}
      ORDER BY ${orderBy(sort)} LIMIT $${n + 1} OFFSET $${n + 2}`,
    [...where.params, limit, offset],
  );
  return rows.map(shape.map);
}

async function countedPage<Row>(
  db: Queryable,
  shape: Shape<Row>,
  where: Where,
  sort: CustomerSort,
  offset: number,
  limit: number,
): Promise<{ rows: Row[]; total: number }> {
  const n = where.params.length;
  const { rows } = await db.query<{ total: string }>(
    `SELECT ${shape.columns}, count(*) OVER () AS total FROM customers WHERE ${where.sql}
      ORDER BY ${orderBy(sort)} LIMIT $${n + 1} OFFSET $${n + 2}`,
    [...where.params, limit, offset],
  );
  const first = rows[0];
  if (first) return { rows: rows.map(shape.map), total: Number(first.total) };
  const counted = await db.query<{ total: string }>(
    `SELECT count(*) AS total FROM customers WHERE ${where.sql}`,
    where.params,
  );
  return { rows: [], total: Number(counted.rows[0]?.total ?? 0) };
}

/**
 * Every customer matching the filter, in the list's order, a batch at a time through a server
 * cursor: memory stays flat however many rows there are. Holds one connection while it runs.
 */
export async function* streamCustomers(
  pool: Pool,
  query: Omit<CustomerListQuery, 'range'>,
  batchSize = 500,
): AsyncGenerator<CustomerRow[]> {
  const where = customerWhere(query.companyId, query.filter);
  const client = await pool.connect();
  let finished = false;
  try {
    await client.query('BEGIN READ ONLY');
    await client.query(
      `DECLARE customers_export NO SCROLL CURSOR FOR
       SELECT ${answeredColumns} FROM customers WHERE ${where.sql} ORDER BY ${orderBy(query.sort)}`,
      where.params,
    );
    for (;;) {
      const { rows } = await client.query<StoredCustomer>(
        `FETCH ${Math.trunc(batchSize)} FROM customers_export`,
      );
      if (rows.length === 0) break;
      yield rows.map(toCustomerRow);
    }
    await client.query('COMMIT');
    finished = true;
  } finally {
    // Also when the reader stopped early (the HTTP client went away): end the transaction.
    if (!finished) await client.query('ROLLBACK').catch(() => undefined);
    client.release();
  }
}

/**
 * How many of the company's customers are in each investor status, from `customer_counts` (one
 * row per status kept by the projection, so this is as cheap at a million customers as at ten).
 * Statuses nobody is in are absent.
 */
export async function countCustomersByInvestorStatus(
  db: Queryable,
  companyId: string,
): Promise<Map<string, number>> {
  const { rows } = await db.query<{ value: string; total: string }>(
    `SELECT value, total FROM customer_counts
      WHERE company_id = $1 AND dimension = 'investorStatus' AND total > 0`,
    [companyId],
  );
  return new Map(rows.map((row) => [row.value, Number(row.total)]));
}
