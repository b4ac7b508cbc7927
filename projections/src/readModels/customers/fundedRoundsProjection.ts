import { asTokenOrderEvent } from '@issuer/events';
import type { PoolClient } from 'pg';
import type { Projection } from '../../projection';

/**
 * Which round each customer's token orders are in and when their money arrived, so a customer's
 * `roundId` is derived (issue 10): the round of their most recent order whose funds were
 * received (`TokenOrderFundsReceived`), now or as of a moment. An order's row is added when it is
 * placed and gets `received_at` once, so a replay changes nothing.
 */
const migration = `
CREATE TABLE IF NOT EXISTS customer_funded_orders (
  order_id text PRIMARY KEY,
  company_id text NOT NULL,
  customer_id text NOT NULL,
  round_id text NOT NULL,
  received_at timestamptz
);
CREATE INDEX IF NOT EXISTS customer_funded_orders_received_idx
  ON customer_funded_orders (customer_id, received_at DESC, order_id DESC)
  WHERE received_at IS NOT NULL;
`;

export const fundedRoundsProjection: Projection = {
  name: 'customer-funded-rounds',
  handles: ['TokenOrderPlaced', 'TokenOrderFundsReceived'],
  tables: ['customer_funded_orders'],
  async migrate(client) {
    await client.query(migration);
  },
  async apply(events, client) {
    const placed: { orderId: string; companyId: string; customerId: string; roundId: string }[] =
      [];
    const received: { orderId: string; receivedAt: string }[] = [];
    for (const recorded of events) {
      const event = asTokenOrderEvent(recorded);
      if (event?.type === 'TokenOrderPlaced') {
        const { orderId, companyId, customerId, roundId } = event.data;
        placed.push({ orderId, companyId, customerId, roundId });
      } else if (event?.type === 'TokenOrderFundsReceived') {
        received.push({ orderId: event.data.orderId, receivedAt: event.data.receivedAt });
      }
    }
    await save(client, placed, received);
  },
};

async function save(
  client: PoolClient,
  placed: { orderId: string; companyId: string; customerId: string; roundId: string }[],
  received: { orderId: string; receivedAt: string }[],
) {
  if (placed.length > 0) {
    await client.query(
      `INSERT INTO customer_funded_orders (order_id, company_id, customer_id, round_id)
       SELECT r."orderId", r."companyId", r."customerId", r."roundId"
         FROM jsonb_to_recordset($1::jsonb)
           AS r("orderId" text, "companyId" text, "customerId" text, "roundId" text)
       ON CONFLICT (order_id) DO NOTHING`,
      [JSON.stringify(placed)],
    );
  }
  if (received.length > 0) {
    await client.query(
      `UPDATE customer_funded_orders o SET received_at = r."receivedAt"
         FROM jsonb_to_recordset($1::jsonb) AS r("orderId" text, "receivedAt" timestamptz)
        WHERE o.order_id = r."orderId" AND o.received_at IS NULL`,
      [JSON.stringify(received)],
    );
  }
}

/** SQL for a customers row's round now (`customers` in scope), null before any money arrived. */
export const fundedRoundSql = `(SELECT f.round_id FROM customer_funded_orders f
  WHERE f.customer_id = customers.customer_id AND f.company_id = customers.company_id
    AND f.received_at IS NOT NULL
  ORDER BY f.received_at DESC, f.order_id DESC LIMIT 1)`;

/**
 * The customer's round as of a moment: that of their most recent order whose funds were received
 * by then, or undefined when none was.
 */
export async function fundedRoundAsOf(
  db: { query: PoolClient['query'] },
  companyId: string,
  customerId: string,
  asOf: Date,
): Promise<string | undefined> {
  const { rows } = await db.query<{ round_id: string }>(
    `SELECT round_id FROM customer_funded_orders
      WHERE customer_id = $1 AND company_id = $2 AND received_at IS NOT NULL
        AND received_at <= $3
      ORDER BY received_at DESC, order_id DESC LIMIT 1`,
    [customerId, companyId, asOf],
  );
  return rows[0]?.round_id;
}
