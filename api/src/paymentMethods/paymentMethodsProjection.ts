import { asPaymentMethodEvent, paymentMethodEventTypes } from '@issuer/events';
import type { Projection } from '@issuer/projections';
import { z } from 'zod';

/**
 * The saved cards read model: one row per card, never its token (the write side keeps that for
 * the gateway). A removed card stays, marked, so the customer's history shows it.
 */
const migration = `
CREATE TABLE IF NOT EXISTS payment_methods (
  payment_method_id text PRIMARY KEY,
  company_id text NOT NULL,
  customer_id text NOT NULL,
  card_brand text NOT NULL,
  card_last4 text NOT NULL,
  exp_month int NOT NULL,
  exp_year int NOT NULL,
  payment_id text NOT NULL,
  status text NOT NULL,
  saved_at timestamptz NOT NULL,
  removed_at timestamptz,
  position bigint NOT NULL
);
CREATE INDEX IF NOT EXISTS payment_methods_customer_idx
  ON payment_methods (company_id, customer_id, saved_at DESC);
`;

export const paymentMethodsProjection: Projection = {
  name: 'paymentMethods',
  handles: paymentMethodEventTypes,
  tables: ['payment_methods'],
  async migrate(client) {
    await client.query(migration);
  },
  async apply(events, client) {
    for (const recorded of events) {
      const event = asPaymentMethodEvent(recorded);
      if (event?.type === 'CardSaved') {
        const d = event.data;
        await client.query(
          `INSERT INTO payment_methods (payment_method_id, company_id, customer_id, card_brand,
             card_last4, exp_month, exp_year, payment_id, status, saved_at, position)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'saved', $9, $10)
           ON CONFLICT (payment_method_id) DO NOTHING`,
          [
            d.paymentMethodId,
            d.companyId,
            d.customerId,
            d.cardBrand,
            d.cardLast4,
            d.expMonth,
            d.expYear,
            d.paymentId,
            d.savedAt,
            String(recorded.position),
          ],
        );
      } else if (event?.type === 'CardRemoved') {
        await client.query(
          `UPDATE payment_methods SET status = 'removed', removed_at = $2, position = $3
            WHERE payment_method_id = $1 AND position < $3`,
          [event.data.paymentMethodId, event.data.removedAt, String(recorded.position)],
        );
      }
    }
  },
};

/** A saved card as the API shows it (the processor's token never leaves the write side). */
export const savedCardSchema = z
  .strictObject({
    id: z.string(),
    customerId: z.string(),
    cardBrand: z.string(),
    cardLast4: z.string(),
    expMonth: z.int(),
    expYear: z.int(),
    paymentId: z.string().meta({ description: 'The payment that saved it' }),
    status: z.enum(['saved', 'removed']),
    savedAt: z.string(),
    removedAt: z.string().nullable(),
  })
  .meta({ id: 'SavedCard' });
export type SavedCardRow = z.infer<typeof savedCardSchema>;

type Queryable = { query: import('pg').Pool['query'] };

const columns = `payment_method_id, customer_id, card_brand, card_last4, exp_month, exp_year,
  payment_id, status, saved_at, removed_at`;

function toRow(row: Record<string, unknown>): SavedCardRow {
  return {
    id: row.payment_method_id as string,
    customerId: row.customer_id as string,
    cardBrand: row.card_brand as string,
    cardLast4: row.card_last4 as string,
    expMonth: row.exp_month as number,
    expYear: row.exp_year as number,
    paymentId: row.payment_id as string,
    status: row.status as SavedCardRow['status'],
    savedAt: (row.saved_at as Date).toISOString(),
    removedAt: row.removed_at ? (row.removed_at as Date).toISOString() : null,
  };
}

/** A customer's cards, newest first; removed ones only when asked for. */
export async function customerCards(
  db: Queryable,
  input: { companyId: string; customerId: string; includeRemoved: boolean },
): Promise<SavedCardRow[]> {
  const { rows } = await db.query(
    `SELECT ${columns} FROM payment_methods
      WHERE company_id = $1 AND customer_id = $2 AND ($3 OR status = 'saved')
      ORDER BY saved_at DESC, payment_method_id`,
    [input.companyId, input.customerId, input.includeRemoved],
  );
  return rows.map(toRow);
}

export async function cardById(
  db: Queryable,
  companyId: string,
  paymentMethodId: string,
): Promise<SavedCardRow | undefined> {
  const { rows } = await db.query(
    `SELECT ${columns} FROM payment_methods WHERE company_id = $1 AND payment_method_id = $2`,
    [companyId, paymentMethodId],
  );
  return rows[0] ? toRow(rows[0]) : undefined;
}

/** The card a subscription charges when none is named: the customer's newest saved one. */
export async function defaultCardId(
  db: Queryable,
  companyId: string,
  customerId: string,
): Promise<string | undefined> {
  return (await customerCards(db, { companyId, customerId, includeRemoved: false }))[0]?.id;
}
