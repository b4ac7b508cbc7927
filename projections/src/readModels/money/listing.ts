import { createHash } from 'node:crypto';
import type { Pool, PoolClient } from 'pg';
import { escapeLike, likePattern, nameMatch, searchWords } from '../searchWords';

export type Queryable = Pool | PoolClient;

export interface Sort<Field extends string> {
  field: Field;
  order: 'ASC' | 'DESC';
}

export interface Where {
  sql: string;
  params: unknown[];
}

/** Builds `a AND b AND …` with numbered parameters; the company always comes first. */
export function whereBuilder(companyId: string) {
  const params: unknown[] = [companyId];
  const conditions = ['company_id = $1'];
  return {
    add(condition: (...placeholders: string[]) => string, ...values: unknown[]) {
      const placeholders = values.map((value) => `$${params.push(value)}`);
      conditions.push(condition(...placeholders));
    },
    build: (): Where => ({ sql: conditions.join(' AND '), params }),
  };
}

export { likePattern, searchWords } from '../searchWords';

/** One word of a search: the customers whose name holds it, and what else a row may match. */
export interface SearchWord {
  /** `SELECT customer_id …` of the company's customers whose name holds the word. */
  customers: string;
  /** The row's own columns that may hold the word instead (description, payment id prefix). */
  other: string;
}

/**
 * Adds `q`: every word must be in the customer's name ("name lastName"), in the description, or
 * begin the payment id. Each is an index lookup (see the schema). Returns each word's parts, so
 * that the totals can be counted from the stored per-customer counts (`searchTotals`).
 */
export function addMoneySearch(
  where: ReturnType<typeof whereBuilder>,
  q: string | undefined,
): SearchWord[] {
  const words: SearchWord[] = [];
  for (const word of searchWords(q)) {
    const name = nameMatch(word);
    where.add(
      (anywhere, prefix, named) => {
        const searched = {
          customers: `SELECT customer_id FROM money_customer_names
           WHERE company_id = $1 AND lower(first_name || ' ' || last_name) ${name.operator} ${named}`,
          other: `lower(description) LIKE ${anywhere} OR payment_id LIKE ${prefix}`,
        };
        words.push(searched);
        return `(customer_id = ANY(ARRAY(${searched.customers})) OR ${searched.other})`;
      },
      likePattern(word),
      `${escapeLike(word)}%`,
      name.value,
    );
  }
  return words;
}

/** One table's list: its columns, its id column and the column behind each sort field. */
export interface ListTable<Field extends string> {
  table: string;
  columns: string;
  id: string;
  sortColumns: Record<Field, string>;
  /**
   * The column holding the row as the API shows it (JSON text, kept by the table's trigger):
   * pages then come back as one text column per row (`json__`), nothing decoded or mapped.
   */
  json?: string;
}

/** A page row when the table has `json`: the row's API object as JSON text. */
export interface JsonRow {
  json__: string;
}

/** What a page selects from rows that have `columns`: those, or the row's JSON when there is one. */
const shown = <Field extends string>(spec: ListTable<Field>) =>
  spec.json ? `${spec.json} AS json__` : spec.columns;

/** What a page's matches must carry: the columns, and the JSON when the page shows it. */
const carried = <Field extends string>(spec: ListTable<Field>) =>
  spec.json ? `${spec.columns}, ${spec.json}` : spec.columns;

/** The total of a filter as `money_counts` keeps it: a sum over values of one dimension. */
export interface CountedDimension {
  list: string;
  dimension: string;
  values: readonly string[];
}

/**
 * A search whose totals come from `money_counts`' per-customer rows: the customers matching every
 * word, summed, plus the rows of other customers (or none) that match through their own columns.
 */
export interface SearchTotals {
  list: string;
  words: readonly SearchWord[];
}

export interface Totals {
  total: number;
  netCents: bigint;
}

/**
 * A page and the exact totals. Totals come from `money_counts` when the filter is one counted
 * dimension (one row read), else from counting the matches. The common cases take one
 * statement: an unfiltered shallow page with its stored totals, and a filter with few matches
 * (a search) read whole. A page past the middle is read from the far end in reverse, so the last
 * page of a large company costs what the first does (the sort columns have (company, column, id)
 * indexes).
 */
export async function listPage<Stored, Field extends string>(
  db: Queryable,
  spec: ListTable<Field>,
  query: {
    companyId: string;
    where: Where;
    counted: CountedDimension | undefined;
    /** A search (and nothing else) counted from the per-customer totals. */
    searched?: SearchTotals | undefined;
    sort: Sort<Field>;
    range: { start: number; end: number };
    /** The column summed into `netCents`; without it the sum is 0. */
    netColumn?: string;
  },
): Promise<{ rows: Stored[] } & Totals> {
  const { start, end } = query.range;
  const limit = Math.max(0, end - start + 1);
  const filtered = query.where.params.length > 1;
  if (query.counted && !filtered && start < shallowPages && limit > 0) {
    // The usual request (a first page, no filter): page and totals in one round trip.
    const first = await pageWithTotals<Stored, Field>(db, spec, query, start, limit);
    if (first) return first;
  }
  if (!query.counted && !query.searched && limit > 0) {
    // Usually few matches (a filter): all of them, their totals and the page in one statement.
    const few = await fewMatchesPage<Stored, Field>(db, spec, query, start, limit);
    if (few) return few;
  }
  const totals = query.counted
    ? await countedTotals(db, query.companyId, query.counted)
    : query.searched
      ? await searchTotals(db, spec.table, query.where, query.searched)
      : await countMatches(db, spec.table, query.where, query.netColumn);
  if (start >= totals.total || limit === 0) return { rows: [], ...totals };
  // A filter with few matches: sort them, rather than walk the sort index past rows that do not
  // match (the planner's estimate can be far off, as for the pending payments of a busy company).
  const few = filtered && totals.total <= fewMatches;
  if (few || start <= totals.total / 2) {
    return { rows: await page(db, spec, query.where, query.sort, start, limit, few), ...totals };
  }
  const reversedStart = Math.max(0, totals.total - 1 - end);
  const reversedLimit = totals.total - start - reversedStart;
  const reversed = await page<Stored, Field>(
    db,
    spec,
    query.where,
    { ...query.sort, order: query.sort.order === 'ASC' ? 'DESC' : 'ASC' },
    reversedStart,
    reversedLimit,
  );
  return { rows: reversed.reverse(), ...totals };
}

/** Pages starting below this offset are read forwards, with their totals, in one statement. */
const shallowPages = 1_000;

/** Undefined when the page is empty (past the end): the caller then reads the totals alone. */
async function pageWithTotals<Stored, Field extends string>(
  db: Queryable,
  spec: ListTable<Field>,
  query: { companyId: string; where: Where; counted?: CountedDimension; sort: Sort<Field> },
  start: number,
  limit: number,
): Promise<({ rows: Stored[] } & Totals) | undefined> {
  const counted = query.counted;
  if (!counted) return undefined;
  const n = query.where.params.length;
  const text = `SELECT ${shown(spec)}, totals__.total AS total__, totals__.net AS net__
      FROM (SELECT ${carried(spec)} FROM ${spec.table} WHERE ${query.where.sql}
             ORDER BY ${orderBy(spec, query.sort)} LIMIT $${n + 5} OFFSET $${n + 6}) page__,
       (SELECT coalesce(sum(total), 0) AS total, coalesce(sum(net_cents), 0) AS net
         FROM money_counts WHERE company_id = $${n + 1} AND list = $${n + 2}
          AND dimension = $${n + 3} AND value = ANY($${n + 4})) totals__
     ORDER BY ${orderBy(spec, query.sort)}`;
  const { rows } = await db.query<Record<string, unknown> & { total__: string; net__: string }>({
    // The hottest read: prepared once per connection, it is not parsed and planned again.
    name: preparedName(text),
    text,
    values: [
      ...query.where.params,
      query.companyId,
      counted.list,
      counted.dimension,
      counted.values,
      limit,
      start,
    ],
  });
  const first = rows[0];
  if (!first) return undefined;
  return {
    rows: rows.map(({ total__: _total, net__: _net, ...row }) => row as Stored),
    total: Number(first.total__),
    netCents: BigInt(first.net__),
  };
}

/**
 * A prepared statement's name for a query text, worked out once per text. Only for texts drawn
 * from a small fixed set (each connection keeps every statement it prepared).
 */
const preparedNames = new Map<string, string>();
function preparedName(text: string): string {
  let name = preparedNames.get(text);
  if (!name) {
    name = `list_${createHash('sha1').update(text).digest('hex').slice(0, 20)}`;
    preparedNames.set(text, name);
  }
  return name;
}

/** Undefined when there are more than `fewMatches` matches. */
async function fewMatchesPage<Stored, Field extends string>(
  db: Queryable,
  spec: ListTable<Field>,
  query: { where: Where; sort: Sort<Field>; netColumn?: string },
  start: number,
  limit: number,
): Promise<({ rows: Stored[] } & Totals) | undefined> {
  const n = query.where.params.length;
  const net = query.netColumn ? `coalesce(sum(${query.netColumn}), 0)` : '0';
  const { rows } = await db.query<Record<string, unknown> & { total__: string; net__: string }>(
    `WITH matches AS MATERIALIZED (
       SELECT ${carried(spec)} FROM ${spec.table} WHERE ${query.where.sql} LIMIT ${fewMatches + 1}
     ), totals AS (SELECT count(*) AS total__, ${net} AS net__ FROM matches)
     SELECT * FROM totals LEFT JOIN LATERAL (
       SELECT ${shown(spec)} FROM matches ORDER BY ${orderBy(spec, query.sort)}
        LIMIT $${n + 1} OFFSET $${n + 2}
     ) page ON true`,
    [...query.where.params, limit, start],
  );
  const first = rows[0];
  if (!first || Number(first.total__) > fewMatches) return undefined;
  return {
    rows: rows
      .filter((row) => row[spec.json ? 'json__' : spec.id] !== null)
      .map(({ total__: _total, net__: _net, ...row }) => row as Stored),
    total: Number(first.total__),
    netCents: BigInt(first.net__),
  };
}

/** Up to this many matches are read by their filter's indexes and sorted in memory. */
const fewMatches = 5_000;

export function orderBy<Field extends string>(spec: ListTable<Field>, sort: Sort<Field>): string {
  return `${spec.sortColumns[sort.field]} ${sort.order}, ${spec.id} ${sort.order}`;
}

async function page<Stored, Field extends string>(
  db: Queryable,
  spec: ListTable<Field>,
  where: Where,
  sort: Sort<Field>,
  offset: number,
  limit: number,
  materialized = false,
): Promise<Stored[]> {
  const n = where.params.length;
  const ordered = `ORDER BY ${orderBy(spec, sort)} LIMIT $${n + 1} OFFSET $${n + 2}`;
  const { rows } = await db.query(
    materialized
      ? `WITH matches AS MATERIALIZED (
           SELECT ${carried(spec)} FROM ${spec.table} WHERE ${where.sql}
         ) SELECT ${shown(spec)} FROM matches ${ordered}`
      : `SELECT ${shown(spec)} FROM ${spec.table} WHERE ${where.sql} ${ordered}`,
    [...where.params, limit, offset],
  );
  return rows as Stored[];
}

async function countedTotals(
  db: Queryable,
  companyId: string,
  counted: CountedDimension,
): Promise<Totals> {
  const { rows } = await db.query<{ total: string; net: string }>(
    `SELECT coalesce(sum(total), 0) AS total, coalesce(sum(net_cents), 0) AS net FROM money_counts
      WHERE company_id = $1 AND list = $2 AND dimension = $3 AND value = ANY($4)`,
    [companyId, counted.list, counted.dimension, counted.values],
  );
  return { total: Number(rows[0]?.total ?? 0), netCents: BigInt(rows[0]?.net ?? 0) };
}

/**
 * A search's exact totals without reading every match: the stored totals of the customers whose
 * name matches every word, plus the rows outside those customers that match through their own
 * columns (description, payment id; the trigram and prefix indexes find them). A row outside
 * those customers matches only if some word is in its own columns, so nothing is missed or
 * counted twice.
 */
async function searchTotals(
  db: Queryable,
  table: string,
  where: Where,
  searched: SearchTotals,
): Promise<Totals> {
  const n = where.params.length;
  const customers = searched.words.map((word) => `(${word.customers})`).join(' INTERSECT ');
  const other = searched.words.map((word) => `(${word.other})`).join(' OR ');
  const { rows } = await db.query<{ total: string; net: string }>(
    `WITH named AS MATERIALIZED (SELECT ARRAY(${customers}) AS ids),
     counted AS (
       SELECT coalesce(sum(total), 0) AS total, coalesce(sum(net_cents), 0) AS net
         FROM money_counts, named
        WHERE company_id = $1 AND list = $${n + 1} AND dimension = 'customerId'
          AND value = ANY(named.ids)
     ), rest AS (
       SELECT count(*) AS total, coalesce(sum(net_cents), 0) AS net FROM ${table}, named
        WHERE ${where.sql} AND (${other}) AND NOT coalesce(customer_id = ANY(named.ids), false)
     )
     SELECT counted.total + rest.total AS total, counted.net + rest.net AS net FROM counted, rest`,
    [...where.params, searched.list],
  );
  return { total: Number(rows[0]?.total ?? 0), netCents: BigInt(rows[0]?.net ?? 0) };
}

async function countMatches(
  db: Queryable,
  table: string,
  where: Where,
  netColumn: string | undefined,
): Promise<Totals> {
  const { rows } = await db.query<{ total: string; net: string }>(
    `SELECT count(*) AS total, ${netColumn ? `coalesce(sum(${netColumn}), 0)` : '0'} AS net
       FROM ${table} WHERE ${where.sql}`,
    where.params,
  );
  return { total: Number(rows[0]?.total ?? 0), netCents: BigInt(rows[0]?.net ?? 0) };
}

/**
 * Every matching row in the list's order, a batch at a time through a server cursor: memory
 * stays flat however many rows there are. Holds one connection while it runs.
 */
export async function* streamRows<Stored, Field extends string>(
  pool: Pool,
  spec: ListTable<Field>,
  where: Where,
  sort: Sort<Field>,
  batchSize = 500,
): AsyncGenerator<Stored[]> {
  const client = await pool.connect();
  let finished = false;
  try {
    await client.query('BEGIN READ ONLY');
    await client.query(
      `DECLARE money_export NO SCROLL CURSOR FOR
       SELECT ${spec.columns} FROM ${spec.table} WHERE ${where.sql} ORDER BY ${orderBy(spec, sort)}`,
      where.params,
    );
    for (;;) {
      const { rows } = await client.query(`FETCH ${Math.trunc(batchSize)} FROM money_export`);
      if (rows.length === 0) break;
      yield rows as Stored[];
    }
    await client.query('COMMIT');
    finished = true;
  } finally {
    // Also when the reader stopped early (the HTTP client went away): end the transaction.
    if (!finished) await client.query('ROLLBACK').catch(() => undefined);
    client.release();
  }
}
