import type { Pool } from 'pg';
import { z } from 'zod';
import { type ExistingRound, type RoundStatus, roundStatuses } from './round';

/** A round as the API answers it: its terms and the figures derived from its orders. */
export const roundResourceSchema = z
  .strictObject({
    id: z.string(),
    name: z.string(),
    handle: z.string(),
    status: z.enum(roundStatuses),
    shareClassId: z.string(),
    currency: z.literal('CAD'),
    tokenPriceCents: z.int(),
    raiseAmountCents: z.int(),
    minInvestmentCents: z.int().nullable(),
    maxInvestmentCents: z.int().nullable(),
    opensAt: z.string(),
    closesAt: z.string(),
    description: z.string(),
    images: z.array(z.string()),
    tokensOffered: z.int().meta({ description: 'Derived: raise ÷ price, in whole tokens' }),
    tokensReserved: z.int().meta({ description: 'Held by orders awaiting their money' }),
    tokensAvailable: z.int(),
    tokensPurchased: z.int().meta({ description: 'Tokens of orders whose money arrived' }),
    amountRaisedCents: z.int(),
    percentageComplete: z.number().meta({ description: 'Of the raise, 2 decimals' }),
    remainingDays: z.int().meta({ description: 'Whole days to closesAt; 0 once closed' }),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: 'FundingRound' });
export type RoundResource = z.infer<typeof roundResourceSchema>;

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

const nothing = z.null();

/** The seed's product, as `GET /api/e-commerce-app/products` answers each round. */
export const seedProductSchema = z.strictObject({
  id: z.string(),
  name: z.string(),
  handle: z.string(),
  description: z.string(),
  categories: z.array(z.string()),
  tags: z.array(z.string()),
  featuredImageId: z.string().nullable(),
  images: z.array(z.strictObject({ id: z.string(), url: z.string(), type: z.literal('image') })),
  currency: z.literal('CAD'),
  tokenPrice: z.number(),
  tokenPurchased: z.int(),
  percentageComplete: z.number(),
  raiseAmount: z.number(),
  remainingDays: z.int(),
  priceTaxExcl: z.number(),
  priceTaxIncl: z.number(),
  taxRate: z.number(),
  comparedPrice: nothing,
  quantity: z.int(),
  sku: z.string(),
  width: nothing,
  height: nothing,
  depth: nothing,
  weight: nothing,
  extraShippingFee: nothing,
  active: z.boolean(),
});

/**
 * A round in the seed's product shape (its e-commerce app listed rounds as products): the
 * figures a round has, and null where a product field makes no sense for a round.
 */
export function asSeedProduct(round: RoundResource): z.infer<typeof seedProductSchema> {
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
