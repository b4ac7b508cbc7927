import { asPaymentEvent, type PaymentEvent, type RecordedEvent } from '@issuer/events';
import type { Projection } from '@issuer/projections';
import type { PoolClient } from 'pg';

/**
 * What the scheduler needs and nothing else: per payment, whether it was sent to its terminal,
 * when it expires, and whether it is still waiting. A row is kept (done) after the payment ends,
 * so a replay of its older events cannot bring it back: rows ignore events at or before their
 * position, as every read model does.
 */
const migration = `
CREATE TABLE IF NOT EXISTS payment_timers (
  payment_id text PRIMARY KEY,
  requested_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  sent boolean NOT NULL DEFAULT false,
  done boolean NOT NULL DEFAULT false,
  position bigint NOT NULL
);
CREATE INDEX IF NOT EXISTS payment_timers_unsent_idx
  ON payment_timers (requested_at) WHERE NOT sent AND NOT done;
CREATE INDEX IF NOT EXISTS payment_timers_expiry_idx
  ON payment_timers (expires_at) WHERE NOT done;
CREATE TABLE IF NOT EXISTS refund_timers (
  refund_id text PRIMARY KEY,
  payment_id text NOT NULL,
  refunded_at timestamptz NOT NULL,
  done boolean NOT NULL DEFAULT false
);
CREATE INDEX IF NOT EXISTS refund_timers_pending_idx
  ON refund_timers (refunded_at) WHERE NOT done;
`;

interface TimerRow {
  paymentId: string;
  requestedAt: string;
  expiresAt: string;
  sent: boolean;
  done: boolean;
  position: string;
}

/** Events after which nothing is left to send or expire. */
const ending = new Set<PaymentEvent['type']>([
  'PaymentAuthorized',
  'PaymentCaptured',
  'PaymentDeclined',
  'PaymentCancelled',
  'PaymentExpired',
]);

/** Events that settle a refund: the processor confirmed or refused it. */
const refundSettled = new Set<PaymentEvent['type']>([
  'PaymentRefundConfirmed',
  'PaymentRefundFailed',
]);

export const paymentTimersProjection: Projection = {
  name: 'paymentTimers',
  handles: [
    'PaymentRequested',
    'PaymentSentToTerminal',
    ...ending,
    'PaymentRefunded',
    ...refundSettled,
  ],
  tables: ['payment_timers', 'refund_timers'],
  async migrate(client) {
    await client.query(migration);
  },
  async apply(events, client) {
    await trackRefunds(events, client);
    const rows = await loadRows(client, events);
    const changed = new Map<string, TimerRow>();
    for (const recorded of events) {
      const event = asPaymentEvent(recorded);
      if (!event) continue;
      const row = rows.get(event.data.paymentId);
      if (row && BigInt(row.position) >= recorded.position) continue;
      const next = evolve(row, event, recorded.position);
      if (!next) continue;
      rows.set(next.paymentId, next);
      changed.set(next.paymentId, next);
    }
    if (changed.size === 0) return;
    await client.query(
      `INSERT INTO payment_timers AS t (payment_id, requested_at, expires_at, sent, done, position)
       SELECT "paymentId", "requestedAt", "expiresAt", sent, done, position
         FROM jsonb_to_recordset($1::jsonb) AS r("paymentId" text, "requestedAt" timestamptz,
              "expiresAt" timestamptz, sent boolean, done boolean, position bigint)
       ON CONFLICT (payment_id) DO UPDATE SET
         sent = EXCLUDED.sent, done = EXCLUDED.done, position = EXCLUDED.position
       WHERE t.position < EXCLUDED.position`,
      [JSON.stringify([...changed.values()])],
    );
  },
};

function evolve(
  row: TimerRow | undefined,
  event: PaymentEvent,
  position: bigint,
): TimerRow | undefined {
  const at = position.toString();
  if (event.type === 'PaymentRequested') {
    const { paymentId, requestedAt, expiresAt } = event.data;
    return { paymentId, requestedAt, expiresAt, sent: false, done: false, position: at };
  }
  if (!row) return undefined;
  if (event.type === 'PaymentSentToTerminal') return { ...row, sent: true, position: at };
  if (ending.has(event.type)) return { ...row, done: true, position: at };
  return undefined;
}

/**
 * Refunds the processor has not settled yet, for the scheduler to ask again. A settled refund's
 * row stays (done), so a replay of its PaymentRefunded cannot bring it back.
 */
async function trackRefunds(events: readonly RecordedEvent[], client: PoolClient): Promise<void> {
  const recorded = new Map<string, { paymentId: string; refundedAt: string; done: boolean }>();
  for (const stored of events) {
    const event = asPaymentEvent(stored);
    if (event?.type === 'PaymentRefunded') {
      const { refundId, paymentId, refundedAt } = event.data;
      if (!recorded.has(refundId)) recorded.set(refundId, { paymentId, refundedAt, done: false });
    } else if (event && refundSettled.has(event.type)) {
      const { refundId, paymentId } = event.data as { refundId: string; paymentId: string };
      const known = recorded.get(refundId);
      recorded.set(refundId, { paymentId, refundedAt: known?.refundedAt ?? '', done: true });
    }
  }
  if (recorded.size === 0) return;
  const rows = [...recorded].map(([refundId, row]) => ({ refundId, ...row }));
  await client.query(
    `INSERT INTO refund_timers AS t (refund_id, payment_id, refunded_at, done)
     SELECT "refundId", "paymentId", COALESCE(NULLIF("refundedAt", '')::timestamptz, now()), done
       FROM jsonb_to_recordset($1::jsonb)
            AS r("refundId" text, "paymentId" text, "refundedAt" text, done boolean)
     ON CONFLICT (refund_id) DO UPDATE SET done = t.done OR EXCLUDED.done`,
    [JSON.stringify(rows)],
  );
}

async function loadRows(
  client: PoolClient,
  events: readonly RecordedEvent[],
): Promise<Map<string, TimerRow>> {
  const ids = [
    ...new Set(events.map((event) => asPaymentEvent(event)?.data.paymentId).filter(Boolean)),
  ];
  const { rows } = await client.query<TimerRow>(
    `SELECT payment_id AS "paymentId", requested_at AS "requestedAt", expires_at AS "expiresAt",
            sent, done, position::text AS position
       FROM payment_timers WHERE payment_id = ANY($1)`,
    [ids],
  );
  return new Map(rows.map((row) => [row.paymentId, row]));
}
