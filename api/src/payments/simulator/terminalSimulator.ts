import { randomUUID } from 'node:crypto';
import { conflict } from '@issuer/events';
import { inTransaction } from '@issuer/projections';
import type { Pool, PoolClient } from 'pg';
import {
  type GatewayEvent,
  offSessionTerminalId,
  type PaymentTerminalGateway,
  RefundRefused,
  type SavedCardChargeRequest,
  type SavedCardDetails,
  type TerminalPaymentRequest,
} from '../gateway';
import { type CardOutcome, defaultTestCard, outcomeOfCard } from './testCards';
import {
  type SimulatorWebhookOptions,
  simulatorOutbox,
  terminalOutboxChannel,
  type WebhookOutbox,
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
      const card = request.card ?? defaultTestCard;
      const outcome = outcomeOfCard(card);
      const decided = await inTransaction(pool, async (client) => {
        const waiting = await takeWaiting(client, clock(), request);
        if (!waiting) return undefined;
        await decide(client, waiting, outcome, clock());
        const saved =
          waiting.saveCard && outcome.approved
            ? await saveCard(client, clock(), waiting, request.companyId, card, outcome)
            : undefined;
        await outbox.enqueue(client, gatewayEvents(waiting, outcome, clock(), saved));
        return { paymentId: waiting.paymentId };
      });
      if (decided) outbox.kick();
      return decided;
    },
    async chargeSavedCard(request) {
      const charged = await inTransaction(pool, (client) =>
        chargeSaved(client, clock(), request, outbox),
      );
      if (charged.decided) outbox.kick();
      return { gatewayPaymentId: charged.gatewayPaymentId };
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
        expires_at, status, created_at, save_card)
     VALUES ($1, $2, $3, $4, $5, $6, $7, 'waiting', $8, $9)
     ON CONFLICT (payment_id) DO NOTHING`,
    [
      paymentId,
      gatewayPaymentIdOf(),
      companyId,
      terminalId,
      amountCents,
      currency,
      expiresAt,
      clock(),
      request.saveCard === true,
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

const gatewayPaymentIdOf = () => `tpi_${randomUUID().replaceAll('-', '')}`;

interface Waiting {
  paymentId: string;
  gatewayPaymentId: string;
  amountCents: number;
  saveCard: boolean;
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
    save_card: boolean;
  }>(
    `SELECT payment_id, gateway_payment_id, amount_cents::text, save_card
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
        saveCard: row.save_card,
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

/**
 * Keeps the card on the processor's side and hands back its reusable token (one per payment: a
 * redelivered decision finds the same). Test cards take any future expiry: three years ahead.
 */
async function saveCard(
  client: PoolClient,
  now: Date,
  waiting: Waiting,
  companyId: string,
  card: string,
  outcome: CardOutcome,
): Promise<SavedCardDetails> {
  const expYear = now.getUTCFullYear() + 3;
  await client.query(
    `INSERT INTO terminal_simulator_cards
       (card_token, company_id, card_number, brand, last4, exp_month, exp_year, payment_id, created_at)
     VALUES ($1, $2, $3, $4, $5, 12, $6, $7, $8) ON CONFLICT (payment_id) DO NOTHING`,
    [
      `card_${randomUUID().replaceAll('-', '')}`,
      companyId,
      card.replace(/[\s-]/g, ''),
      outcome.brand,
      outcome.last4,
      expYear,
      waiting.paymentId,
      now,
    ],
  );
  const { rows } = await client.query<{ card_token: string; exp_month: number; exp_year: number }>(
    'SELECT card_token, exp_month, exp_year FROM terminal_simulator_cards WHERE payment_id = $1',
    [waiting.paymentId],
  );
  const row = rows[0];
  if (!row) throw new Error(`terminal simulator lost the card of ${waiting.paymentId}`);
  return { cardToken: row.card_token, cardExpMonth: row.exp_month, cardExpYear: row.exp_year };
}

/**
 * An off-session charge: recorded once per payment id (a repeat answers the first one's id and
 * decides nothing again), decided at once by the saved card's test number. A token this company
 * never saved is declined, as a processor answers a detached or foreign payment method.
 */
async function chargeSaved(
  client: PoolClient,
  now: Date,
  request: SavedCardChargeRequest,
  outbox: Pick<WebhookOutbox<GatewayEvent>, 'enqueue'>,
): Promise<{ gatewayPaymentId: string; decided: boolean }> {
  const { paymentId, companyId, amountCents, currency } = request;
  const inserted = await client.query<{ gateway_payment_id: string }>(
    `INSERT INTO terminal_simulator_payments
       (payment_id, gateway_payment_id, company_id, terminal_id, amount_cents, currency,
        expires_at, status, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, 'waiting', $7)
     ON CONFLICT (payment_id) DO NOTHING RETURNING gateway_payment_id`,
    [paymentId, gatewayPaymentIdOf(), companyId, offSessionTerminalId, amountCents, currency, now],
  );
  const created = inserted.rows[0];
  if (!created) {
    const { rows } = await client.query<{ gateway_payment_id: string; company_id: string }>(
      'SELECT gateway_payment_id, company_id FROM terminal_simulator_payments WHERE payment_id = $1',
      [paymentId],
    );
    const stored = rows[0];
    if (!stored || stored.company_id !== companyId) {
      throw conflict(`Payment ${paymentId} was sent before with other details`);
    }
    return { gatewayPaymentId: stored.gateway_payment_id, decided: false };
  }
  const { rows } = await client.query<{ card_number: string }>(
    'SELECT card_number FROM terminal_simulator_cards WHERE card_token = $1 AND company_id = $2',
    [request.cardToken, companyId],
  );
  const card = rows[0] && outcomeOfCard(rows[0].card_number);
  const outcome: CardOutcome =
    card?.approved && card.offSessionDeclines === null
      ? card
      : {
          approved: false,
          reason: (card?.approved && card.offSessionDeclines) || 'card_declined',
          brand: card?.brand ?? 'unknown',
          last4: card?.last4 ?? '0000',
        };
  const waiting = {
    paymentId,
    gatewayPaymentId: created.gateway_payment_id,
    amountCents,
    saveCard: false,
  };
  await decide(client, waiting, outcome, now);
  await outbox.enqueue(client, gatewayEvents(waiting, outcome, now));
  return { gatewayPaymentId: created.gateway_payment_id, decided: true };
}

function gatewayEvents(
  waiting: Waiting,
  outcome: CardOutcome,
  now: Date,
  saved?: SavedCardDetails,
): GatewayEvent[] {
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
    { ...base, ...card, ...saved, id: eventId(), type: 'payment.captured' },
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
