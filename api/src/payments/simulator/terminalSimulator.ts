import { randomUUID } from 'node:crypto';
import { conflict } from '@issuer/events';
import { inTransaction } from '@issuer/projections';
import type { Pool, PoolClient } from 'pg';
import {
  type GatewayEvent,
  type PaymentTerminalGateway,
  RefundRefused,
  type TerminalPaymentRequest,
} from '../gateway';
import { type CardOutcome, outcomeOfCard } from './testCards';
import {
  type SimulatorWebhookOptions,
  simulatorOutbox,
  terminalOutboxChannel,
} from './webhookOutbox';

export const simulatorGatewayName = 'simulator';

/** A payment waiting on a terminal for a card, as the terminal's screen would show it. */
export interface WaitingPayment {
  paymentId: string;
  gatewayPaymentId: string;
  amountCents: number;
  currency: string;
  expiresAt: string;
  waitingSince: string;
}

export interface PresentCardRequest {
  companyId: string;
  terminalId: string;
  /** A test card number; default 4242 4242 4242 4242 (approves). */
  card?: string;
  /** Which waiting payment; default the oldest one on the terminal. */
  paymentId?: string;
}

/** The sandbox controls a real processor does not have: a card "presented" by an API call. */
export interface TerminalSimulatorControls {
  /** Decides the waiting payment with the card; undefined when nothing waits on the terminal. */
  presentCard(request: PresentCardRequest): Promise<{ paymentId: string } | undefined>;
  waitingOn(companyId: string, terminalId: string): Promise<WaitingPayment[]>;
}

export type TerminalSimulatorGateway = PaymentTerminalGateway & TerminalSimulatorControls;

export function isTerminalSimulator(
  gateway: PaymentTerminalGateway | undefined,
): gateway is TerminalSimulatorGateway {
  return (
    gateway?.name === simulatorGatewayName &&
    typeof (gateway as Partial<TerminalSimulatorControls>).presentCard === 'function'
  );
}

export type TerminalSimulatorOptions = SimulatorWebhookOptions;

export interface TerminalSimulator extends TerminalSimulatorGateway {
  /** Starts delivering webhooks in the background (polling for retries). */
  start(): void;
  /** Delivers every webhook due now and resolves with how many went through (tests). */
  deliverDue(): Promise<number>;
  stop(): Promise<void>;
}

/**
 * A card-present processor in a box, behind the same port a real one would be. `sendPayment`
 * puts the payment on the terminal (idempotent by payment id: one row, one charge at most);
 * `presentCard` decides it with a test card and reports the outcome through signed webhooks
 * (approve: authorized then captured; decline: declined with the reason), delivered at least
 * once from an outbox written in the deciding transaction.
 */
export function createTerminalSimulator(options: TerminalSimulatorOptions): TerminalSimulator {
  const { pool, clock } = options;
  const outbox = simulatorOutbox(options, terminalOutboxChannel);

  return {
    name: simulatorGatewayName,
    sendPayment: (request) => sendPayment(pool, clock, request),
    async cancelPayment({ paymentId }) {
      await pool.query(
        `UPDATE terminal_simulator_payments SET status = 'cancelled', decided_at = $2
          WHERE payment_id = $1 AND status = 'waiting'`,
        [paymentId, clock()],
      );
    },
    refundPayment: (request) => inTransaction(pool, (client) => refund(client, clock, request)),
    async presentCard(request) {
      const outcome = outcomeOfCard(request.card);
      const decided = await inTransaction(pool, async (client) => {
        const waiting = await takeWaiting(client, clock(), request);
        if (!waiting) return undefined;
        await decide(client, waiting, outcome, clock());
        await outbox.enqueue(client, gatewayEvents(waiting, outcome, clock()));
        return { paymentId: waiting.paymentId };
      });
      if (decided) outbox.kick();
      return decided;
    },
    waitingOn: (companyId, terminalId) => waitingOn(pool, clock(), companyId, terminalId),
    start: () => outbox.start(),
    deliverDue: () => outbox.deliverDue(),
    stop: () => outbox.stop(),
  };
}

async function sendPayment(
  pool: Pool,
  clock: () => Date,
  request: TerminalPaymentRequest,
): Promise<{ gatewayPaymentId: string }> {
  const { paymentId, companyId, terminalId, amountCents, currency, expiresAt } = request;
  await pool.query(
    `INSERT INTO terminal_simulator_payments
       (payment_id, gateway_payment_id, company_id, terminal_id, amount_cents, currency,
        expires_at, status, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, 'waiting', $8)
     ON CONFLICT (payment_id) DO NOTHING`,
    [
      paymentId,
      `tpi_${randomUUID().replaceAll('-', '')}`,
      companyId,
      terminalId,
      amountCents,
      currency,
      expiresAt,
      clock(),
    ],
  );
  const { rows } = await pool.query<{
    gateway_payment_id: string;
    company_id: string;
    terminal_id: string;
    amount_cents: string;
    currency: string;
  }>(
    `SELECT gateway_payment_id, company_id, terminal_id, amount_cents::text, currency
       FROM terminal_simulator_payments WHERE payment_id = $1`,
    [paymentId],
  );
  const stored = rows[0];
  if (!stored) throw new Error(`terminal simulator lost payment ${paymentId}`);
  // As Stripe does with an idempotency key reused for another request.
  if (
    stored.company_id !== companyId ||
    stored.terminal_id !== terminalId ||
    Number(stored.amount_cents) !== amountCents ||
    stored.currency !== currency
  ) {
    throw conflict(`Payment ${paymentId} was sent before with other details`);
  }
  return { gatewayPaymentId: stored.gateway_payment_id };
}

interface Waiting {
  paymentId: string;
  gatewayPaymentId: string;
  amountCents: number;
}

/** Locks the payment the card goes to: the named one, or the terminal's oldest still waiting. */
async function takeWaiting(
  client: PoolClient,
  now: Date,
  { companyId, terminalId, paymentId }: PresentCardRequest,
): Promise<Waiting | undefined> {
  await expireWaiting(client, now);
  const { rows } = await client.query<{
    payment_id: string;
    gateway_payment_id: string;
    amount_cents: string;
  }>(
    `SELECT payment_id, gateway_payment_id, amount_cents::text
       FROM terminal_simulator_payments
      WHERE company_id = $1 AND terminal_id = $2 AND status = 'waiting' AND expires_at > $3
        AND ($4::text IS NULL OR payment_id = $4)
      ORDER BY created_at, seq
      LIMIT 1
      FOR UPDATE SKIP LOCKED`,
    [companyId, terminalId, now, paymentId ?? null],
  );
  const row = rows[0];
  return row
    ? {
        paymentId: row.payment_id,
        gatewayPaymentId: row.gateway_payment_id,
        amountCents: Number(row.amount_cents),
      }
    : undefined;
}

/** The simulator's own timeout: a payment nobody presented a card to stops waiting at expiresAt. */
async function expireWaiting(client: Pool | PoolClient, now: Date): Promise<void> {
  await client.query(
    `UPDATE terminal_simulator_payments SET status = 'expired', decided_at = expires_at
      WHERE status = 'waiting' AND expires_at <= $1`,
    [now],
  );
}

async function decide(client: PoolClient, waiting: Waiting, outcome: CardOutcome, now: Date) {
  await client.query(
    `UPDATE terminal_simulator_payments
        SET status = $2, decline_reason = $3, card_brand = $4, card_last4 = $5, decided_at = $6,
            refund_failure = $7
      WHERE payment_id = $1`,
    [
      waiting.paymentId,
      outcome.approved ? 'captured' : 'declined',
      outcome.approved ? null : outcome.reason,
      outcome.brand,
      outcome.last4,
      now,
      outcome.approved ? outcome.refundFailure : null,
    ],
  );
}

function gatewayEvents(waiting: Waiting, outcome: CardOutcome, now: Date): GatewayEvent[] {
  const base = {
    paymentId: waiting.paymentId,
    gatewayPaymentId: waiting.gatewayPaymentId,
    occurredAt: now.toISOString(),
  };
  const eventId = () => `tevt_${randomUUID().replaceAll('-', '')}`;
  if (!outcome.approved) {
    return [{ ...base, id: eventId(), type: 'payment.declined', reason: outcome.reason }];
  }
  const card = {
    amountCents: waiting.amountCents,
    cardBrand: outcome.brand,
    cardLast4: outcome.last4,
  };
  return [
    { ...base, ...card, id: eventId(), type: 'payment.authorized' },
    { ...base, ...card, id: eventId(), type: 'payment.captured' },
  ];
}

async function refund(
  client: PoolClient,
  clock: () => Date,
  request: Parameters<PaymentTerminalGateway['refundPayment']>[0],
): Promise<void> {
  const { paymentId, refundId, amountCents, currency } = request;
  const { rows } = await client.query<{
    status: string;
    amount_cents: string;
    refunded: string;
    refund_failure: string | null;
  }>(
    `SELECT p.status, p.amount_cents::text, p.refund_failure,
            (SELECT coalesce(sum(amount_cents), 0)::text FROM terminal_simulator_refunds r
              WHERE r.payment_id = p.payment_id) AS refunded
       FROM terminal_simulator_payments p WHERE p.payment_id = $1 FOR UPDATE`,
    [paymentId],
  );
  const payment = rows[0];
  const already = await client.query(
    'SELECT 1 FROM terminal_simulator_refunds WHERE refund_id = $1',
    [refundId],
  );
  if (already.rowCount) return;
  // Refusals for good, as a processor's `failed` refund: asking again is refused again.
  if (payment?.status !== 'captured') throw new RefundRefused('charge_not_captured');
  if (Number(payment.refunded) + amountCents > Number(payment.amount_cents)) {
    throw new RefundRefused('amount_exceeds_captured');
  }
  if (payment.refund_failure) throw new RefundRefused(payment.refund_failure);
  await client.query(
    `INSERT INTO terminal_simulator_refunds (refund_id, payment_id, amount_cents, currency, created_at)
     VALUES ($1, $2, $3, $4, $5)`,
    [refundId, paymentId, amountCents, currency, clock()],
  );
}

async function waitingOn(
  pool: Pool,
  now: Date,
  companyId: string,
  terminalId: string,
): Promise<WaitingPayment[]> {
  const { rows } = await pool.query<{
    payment_id: string;
    gateway_payment_id: string;
    amount_cents: string;
    currency: string;
    expires_at: Date;
    created_at: Date;
  }>(
    `SELECT payment_id, gateway_payment_id, amount_cents::text, currency, expires_at, created_at
       FROM terminal_simulator_payments
      WHERE company_id = $1 AND terminal_id = $2 AND status = 'waiting' AND expires_at > $3
      ORDER BY created_at, seq`,
    [companyId, terminalId, now],
  );
  return rows.map((row) => ({
    paymentId: row.payment_id,
    gatewayPaymentId: row.gateway_payment_id,
    amountCents: Number(row.amount_cents),
    currency: row.currency,
    expiresAt: row.expires_at.toISOString(),
    waitingSince: row.created_at.toISOString(),
  }));
}
