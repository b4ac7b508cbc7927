import { asTokenOrderEvent, tokenOrderEventTypes } from '@issuer/events';
import type { Projection } from '@issuer/projections';
import type { PoolClient } from 'pg';
import { evolveOrder, isOrder, type Order } from './order';

/**
 * The token orders read model: one row per order with the columns lists sort and filter on and
 * the order's state (folded with the write side's evolve) as jsonb. A row ignores events at or
 * before its position, so a replay changes nothing.
 */
const migration = `
CREATE TABLE IF NOT EXISTS token_orders (
  order_id text PRIMARY KEY,
  company_id text NOT NULL,
  round_id text NOT NULL,
  customer_id text NOT NULL,
  payment_id text NOT NULL,
  status text NOT NULL,
  tokens bigint NOT NULL,
  amount_cents bigint NOT NULL,
  placed_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  state jsonb NOT NULL,
  position bigint NOT NULL
);
CREATE INDEX IF NOT EXISTS token_orders_company_idx ON token_orders (company_id, placed_at, order_id);
CREATE INDEX IF NOT EXISTS token_orders_round_idx ON token_orders (round_id, placed_at);
CREATE INDEX IF NOT EXISTS token_orders_customer_idx ON token_orders (customer_id);
`;

interface Loaded {
  state: Order;
  position: bigint;
}

export const tokenOrdersProjection: Projection = {
  name: 'token-orders',
  handles: tokenOrderEventTypes,
  tables: ['token_orders'],
  async migrate(client) {
    await client.query(migration);
  },
  async apply(events, client) {
    const ids = [
      ...new Set(events.flatMap((event) => asTokenOrderEvent(event)?.data.orderId ?? [])),
    ];
    if (ids.length === 0) return;
    const rows = await load(client, ids);
    const changed = new Set<string>();
    for (const recorded of events) {
      const event = asTokenOrderEvent(recorded);
      if (!event) continue;
      const id = event.data.orderId;
      const row = rows.get(id);
      if (row && row.position >= recorded.position) continue;
      rows.set(id, {
        state: evolveOrder(row?.state ?? { status: 'none' }, event),
        position: recorded.position,
      });
      changed.add(id);
    }
    await save(
      client,
      [...changed].flatMap((id) => rows.get(id) ?? []),
    );
  },
};

async function load(client: PoolClient, ids: string[]): Promise<Map<string, Loaded>> {
  const { rows } = await client.query<{ id: string; state: Order; position: string }>(
    'SELECT order_id AS id, state, position::text FROM token_orders WHERE order_id = ANY($1)',
    [ids],
  );
  return new Map(rows.map((row) => [row.id, { state: row.state, position: BigInt(row.position) }]));
}

async function save(client: PoolClient, rows: Loaded[]) {
  const records = rows.flatMap(({ state, position }) =>
    isOrder(state)
      ? [
          {
            orderId: state.orderId,
            companyId: state.companyId,
            roundId: state.roundId,
            customerId: state.customerId,
            // The order's money by its id: the terminal payment's, or the e-transfer request's.
            paymentId: state.paymentId ?? state.etransferId,
            status: state.status,
            tokens: state.tokens,
            amountCents: state.amountCents,
            placedAt: state.placedAt,
            updatedAt: state.updatedAt,
            state,
            position: position.toString(),
          },
        ]
      : [],
  );
  if (records.length === 0) return;
  await client.query(
    `INSERT INTO token_orders AS t (order_id, company_id, round_id, customer_id, payment_id,
       status, tokens, amount_cents, placed_at, updated_at, state, position)
     SELECT r."orderId", r."companyId", r."roundId", r."customerId", r."paymentId", r.status,
            r.tokens, r."amountCents", r."placedAt", r."updatedAt", r.state, r.position
       FROM jsonb_to_recordset($1::jsonb) AS r("orderId" text, "companyId" text, "roundId" text,
            "customerId" text, "paymentId" text, status text, tokens bigint,
            "amountCents" bigint, "placedAt" timestamptz, "updatedAt" timestamptz, state jsonb,
            position bigint)
     ON CONFLICT (order_id) DO UPDATE SET status = EXCLUDED.status,
       updated_at = EXCLUDED.updated_at, state = EXCLUDED.state, position = EXCLUDED.position
     WHERE t.position < EXCLUDED.position`,
    [JSON.stringify(records)],
  );
}
