import type { Pool } from 'pg';
import { z } from 'zod';
import { type OrderDetails, type OrderStatus, orderPaymentMethods, orderStatuses } from './order';

/** An order as the API answers it. */
export const orderResourceSchema = z
  .strictObject({
    id: z.string(),
    status: z.enum(orderStatuses),
    roundId: z.string(),
    roundName: z.string().nullable(),
    customerId: z.string(),
    customerName: z.string().nullable(),
    shareClassId: z.string(),
    tokens: z.int(),
    tokenPriceCents: z.int(),
    amountCents: z.int(),
    currency: z.literal('CAD'),
    walletAddress: z.string(),
    paymentMethod: z.enum(orderPaymentMethods),
    terminalId: z.string().nullable().meta({ description: "A terminal order's terminal" }),
    paymentId: z.string().nullable().meta({ description: "A terminal order's payment" }),
    etransferId: z
      .string()
      .nullable()
      .meta({ description: "An e-transfer order's money request to the customer" }),
    distributionAttempts: z.int(),
    held: z.boolean().meta({ description: 'Distribution failed every retry; waits for a person' }),
    lastError: z.string().nullable(),
    transactionHash: z.string().nullable(),
    blockNumber: z.int().nullable(),
    issuanceId: z.string().nullable(),
    refundId: z.string().nullable(),
    failureReason: z.string().nullable(),
    history: z.array(z.strictObject({ status: z.enum(orderStatuses), at: z.string() })),
    placedAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: 'TokenOrder' });
export type OrderResource = z.infer<typeof orderResourceSchema>;

export const orderSortFields = {
  placedAt: 'o.placed_at',
  updatedAt: 'o.updated_at',
  status: 'o.status',
  tokens: 'o.tokens',
  amountCents: 'o.amount_cents',
} as const;
export type OrderSortField = keyof typeof orderSortFields;

interface Row {
  state: OrderDetails;
  round_name: string | null;
  customer_name: string | null;
}

function describe({ state, round_name, customer_name }: Row): OrderResource {
  return {
    id: state.orderId,
    status: state.status,
    roundId: state.roundId,
    roundName: round_name,
    customerId: state.customerId,
    customerName: customer_name,
    shareClassId: state.shareClassId,
    tokens: state.tokens,
    tokenPriceCents: state.tokenPriceCents,
    amountCents: state.amountCents,
    currency: state.currency,
    walletAddress: state.walletAddress,
    paymentMethod: state.paymentMethod,
    terminalId: state.terminalId ?? null,
    paymentId: state.paymentId ?? null,
    etransferId: state.etransferId ?? null,
    distributionAttempts: state.attempts,
    held: state.held,
    lastError: state.lastError,
    transactionHash: state.transactionHash,
    blockNumber: state.blockNumber,
    issuanceId: state.issuanceId,
    refundId: state.refundId,
    failureReason: state.failureReason,
    history: state.history,
    placedAt: state.placedAt,
    updatedAt: state.updatedAt,
  };
}

const select = `SELECT o.state, r.name AS round_name,
    nullif(trim(c.name || ' ' || c.last_name), '') AS customer_name
  FROM token_orders o
  LEFT JOIN funding_rounds r ON r.round_id = o.round_id
  LEFT JOIN customers c ON c.customer_id = o.customer_id`;

export async function getOrder(pool: Pool, companyId: string, orderId: string) {
  const { rows } = await pool.query<Row>(`${select} WHERE o.company_id = $1 AND o.order_id = $2`, [
    companyId,
    orderId,
  ]);
  return rows[0] && describe(rows[0]);
}

export interface OrderFilter {
  id?: readonly string[];
  status?: readonly OrderStatus[];
  roundId?: string;
  customerId?: string;
}

export async function listOrders(
  pool: Pool,
  companyId: string,
  window: {
    sort: { field: OrderSortField; order: 'ASC' | 'DESC' };
    range: { start: number; end: number };
  },
  filter: OrderFilter,
): Promise<{ rows: OrderResource[]; total: number }> {
  const where = ['o.company_id = $1'];
  const params: unknown[] = [companyId];
  const add = (clause: (p: string) => string, value: unknown) => {
    params.push(value);
    where.push(clause(`$${params.length}`));
  };
  if (filter.id) add((p) => `o.order_id = ANY(${p})`, filter.id);
  if (filter.status) add((p) => `o.status = ANY(${p})`, filter.status);
  if (filter.roundId) add((p) => `o.round_id = ${p}`, filter.roundId);
  if (filter.customerId) add((p) => `o.customer_id = ${p}`, filter.customerId);
  const clause = where.join(' AND ');
  const column = orderSortFields[window.sort.field];
  const order = window.sort.order === 'ASC' ? 'ASC' : 'DESC';
  const [page, count] = await Promise.all([
    pool.query<Row>(
      `${select} WHERE ${clause} ORDER BY ${column} ${order}, o.order_id ${order}
        OFFSET ${window.range.start} LIMIT ${window.range.end - window.range.start + 1}`,
      params,
    ),
    pool.query<{ total: string }>(
      `SELECT count(*)::text AS total FROM token_orders o WHERE ${clause}`,
      params,
    ),
  ]);
  return { rows: page.rows.map(describe), total: Number(count.rows[0]?.total ?? 0) };
}

const seedStatusNames: Record<OrderStatus, string> = {
  created: 'Created',
  awaiting_payment: 'Awaiting payment',
  funds_received: 'Funds received',
  distributing: 'Distributing tokens',
  distribution_failed: 'Distribution failed',
  tokens_distributed: 'Tokens distributed',
  complete: 'Complete',
  payment_failed: 'Payment failed',
  cancelled: 'Cancelled',
  refunded: 'Refunded',
};

const nothing = z.null();

/** The seed's order, as `GET /api/contacts-app/nftorders` answers each token order. */
export const seedOrderSchema = z.strictObject({
  id: z.string(),
  reference: z.string(),
  subtotal: z.number(),
  tax: z.number(),
  discount: z.number(),
  total: z.number(),
  date: z.string(),
  customer: z.strictObject({
    id: z.string(),
    names: z.string().nullable(),
    avatar: nothing,
    company: nothing,
    jobTitle: nothing,
    email: nothing,
    phone: nothing,
    invoiceAddress: nothing,
    shippingAddress: nothing,
  }),
  products: z.array(
    z.strictObject({
      id: z.string(),
      name: z.string().nullable(),
      price: z.number(),
      quantity: z.int(),
      total: z.number(),
      image: nothing,
    }),
  ),
  status: z.array(
    z.strictObject({ id: z.string(), name: z.string(), color: nothing, date: z.string() }),
  ),
  payment: z.strictObject({
    transactionId: z.string(),
    amount: z.number(),
    method: z.enum(orderPaymentMethods),
    date: z.string(),
  }),
  shippingDetails: nothing,
});

/**
 * An order in the seed's order shape (its NFT orders app): reference, totals, the customer, the
 * round as the one product, the status history and the payment; null where it has no meaning.
 */
export function asSeedOrder(order: OrderResource): z.infer<typeof seedOrderSchema> {
  const total = order.amountCents / 100;
  return {
    id: order.id,
    reference: order.id.slice(4, 12).toUpperCase(),
    subtotal: total,
    tax: 0,
    discount: 0,
    total,
    date: order.placedAt,
    customer: {
      id: order.customerId,
      names: order.customerName,
      avatar: null,
      company: null,
      jobTitle: null,
      email: null,
      phone: null,
      invoiceAddress: null,
      shippingAddress: null,
    },
    products: [
      {
        id: order.roundId,
        name: order.roundName,
        price: order.tokenPriceCents / 100,
        quantity: order.tokens,
        total,
        image: null,
      },
    ],
    status: order.history.map((step, index) => ({
      id: String(index + 1),
      name: seedStatusNames[step.status],
      color: null,
      date: step.at,
    })),
    payment: {
      transactionId: order.paymentId ?? order.etransferId ?? '',
      amount: total,
      method: order.paymentMethod,
      date: order.placedAt,
    },
    shippingDetails: null,
  };
}
