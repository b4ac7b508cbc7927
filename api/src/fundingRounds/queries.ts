import type { Pool } from 'pg';
import type { ExistingRound, RoundStatus } from './round';

/** A round as the API answers it: its terms and the figures derived from its orders. */
export interface RoundResource {
  id: string;
  name: string;
  handle: string;
  status: RoundStatus;
  shareClassId: string;
  currency: 'CAD';
  tokenPriceCents: number;
  raiseAmountCents: number;
  minInvestmentCents: number | null;
  maxInvestmentCents: number | null;
  opensAt: string;
  closesAt: string;
  description: string;
  images: string[];
  tokensOffered: number;
  tokensReserved: number;
  tokensAvailable: number;
  tokensPurchased: number;
  amountRaisedCents: number;
  percentageComplete: number;
  remainingDays: number;
  createdAt: string;
  updatedAt: string;
}

export const roundSortFields = {
  createdAt: 'created_at',
  name: 'name',
  status: 'status',
  opensAt: 'opens_at',
  closesAt: 'closes_at',
  raiseAmountCents: 'raise_amount_cents',
  amountRaisedCents: 'amount_raised_cents',
} as const;
export type RoundSortField = keyof typeof roundSortFields;

const dayMs = 86_400_000;

/** Whole days left until the round closes (0 once closed, cancelled or past its close). */
export function remainingDays(status: RoundStatus, closesAt: string, now: Date): number {
  if (status === 'closed' || status === 'cancelled') return 0;
  return Math.max(0, Math.ceil((Date.parse(closesAt) - now.getTime()) / dayMs));
}

/** Amount raised over the raise amount, in percent with 2 decimals. */
export const percentageComplete = (raisedCents: number, raiseCents: number) =>
  raiseCents > 0 ? Math.round((raisedCents * 10_000) / raiseCents) / 100 : 0;

interface Row {
  state: ExistingRound;
  tokens_offered: string;
  updated_at: Date;
}

function describe(row: Row, now: Date): RoundResource {
  const { state } = row;
  const offered = Number(row.tokens_offered);
  return {
    id: state.roundId,
    name: state.terms.name,
    handle: state.terms.handle,
    status: state.status,
    shareClassId: state.terms.shareClassId,
    currency: 'CAD',
    tokenPriceCents: state.terms.tokenPriceCents,
    raiseAmountCents: state.terms.raiseAmountCents,
    minInvestmentCents: state.terms.minInvestmentCents,
    maxInvestmentCents: state.terms.maxInvestmentCents,
    opensAt: state.terms.opensAt,
    closesAt: state.terms.closesAt,
    description: state.terms.description,
    images: state.terms.images,
    tokensOffered: offered,
    tokensReserved: state.reserved,
    tokensAvailable: offered - state.reserved - state.sold,
    tokensPurchased: state.sold,
    amountRaisedCents: state.soldCents,
    percentageComplete: percentageComplete(state.soldCents, state.terms.raiseAmountCents),
    remainingDays: remainingDays(state.status, state.terms.closesAt, now),
    createdAt: state.createdAt,
    updatedAt: row.updated_at.toISOString(),
  };
}

const columns = 'state, tokens_offered::text, updated_at';

export async function getRound(
  pool: Pool,
  companyId: string,
  roundId: string,
  now: Date,
): Promise<RoundResource | undefined> {
  const { rows } = await pool.query<Row>(
    `SELECT ${columns} FROM funding_rounds WHERE company_id = $1 AND round_id = $2`,
    [companyId, roundId],
  );
  return rows[0] && describe(rows[0], now);
}

export interface RoundFilter {
  id?: readonly string[];
  status?: readonly RoundStatus[];
  q?: string;
}

export async function listRounds(
  pool: Pool,
  companyId: string,
  window: {
    sort: { field: RoundSortField; order: 'ASC' | 'DESC' };
    range: { start: number; end: number };
  },
  filter: RoundFilter,
  now: Date,
): Promise<{ rows: RoundResource[]; total: number }> {
  const where = ['company_id = $1'];
  const params: unknown[] = [companyId];
  if (filter.id) {
    params.push(filter.id);
    where.push(`round_id = ANY($${params.length})`);
  }
  if (filter.status) {
    params.push(filter.status);
    where.push(`status = ANY($${params.length})`);
  }
  if (filter.q) {
    params.push(`%${filter.q.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`);
    where.push(`(name ILIKE $${params.length} OR handle ILIKE $${params.length})`);
  }
  const clause = where.join(' AND ');
  const column = roundSortFields[window.sort.field];
  const order = window.sort.order === 'ASC' ? 'ASC' : 'DESC';
  const [page, count] = await Promise.all([
    pool.query<Row>(
      `SELECT ${columns} FROM funding_rounds WHERE ${clause}
        ORDER BY ${column} ${order}, round_id ${order}
        OFFSET ${window.range.start} LIMIT ${window.range.end - window.range.start + 1}`,
      params,
    ),
    pool.query<{ total: string }>(
      `SELECT count(*)::text AS total FROM funding_rounds WHERE ${clause}`,
      params,
    ),
  ]);
  return {
    rows: page.rows.map((row) => describe(row, now)),
    total: Number(count.rows[0]?.total ?? 0),
  };
}

/** Every round of the company, for the seed's products list. */
export async function allRounds(pool: Pool, companyId: string, now: Date) {
  const { rows } = await pool.query<Row>(
    `SELECT ${columns} FROM funding_rounds WHERE company_id = $1 ORDER BY created_at, round_id`,
    [companyId],
  );
  return rows.map((row) => describe(row, now));
}

/**
 * A round in the seed's product shape (its e-commerce app listed rounds as products): the
 * figures a round has, and null where a product field makes no sense for a round.
 */
export function asSeedProduct(round: RoundResource) {
  const price = round.tokenPriceCents / 100;
  return {
    id: round.id,
    name: round.name,
    handle: round.handle,
    description: round.description,
    categories: ['Funding round'],
    tags: [round.status],
    featuredImageId: round.images[0] ?? null,
    images: round.images.map((url, index) => ({ id: String(index), url, type: 'image' })),
    currency: round.currency,
    tokenPrice: price,
    tokenPurchased: round.tokensPurchased,
    percentageComplete: round.percentageComplete,
    raiseAmount: round.raiseAmountCents / 100,
    remainingDays: round.remainingDays,
    priceTaxExcl: price,
    priceTaxIncl: price,
    taxRate: 0,
    comparedPrice: null,
    quantity: round.tokensAvailable,
    sku: round.handle,
    width: null,
    height: null,
    depth: null,
    weight: null,
    extraShippingFee: null,
    active: round.status === 'open',
  };
}
