import {
  asEtransferEvent,
  asPaymentEvent,
  asSubscriptionEvent,
  type CollectionFailureReason,
  type EtransferEvent,
  type InvoiceCollectionAttempted,
  type PaymentEvent,
  type PaymentPurpose,
  type RecordedEvent,
} from '@issuer/events';
import type { Pool } from 'pg';
import { customerDecider } from '../customers/businessLogic';
import { customerStream } from '../customers/customerCommands';
import { etransferDecider } from '../etransfers/businessLogic';
import { isEtransfer } from '../etransfers/etransfer';
import {
  type EtransferDeps,
  etransferStream,
  loadEtransfer,
  sendToProvider,
} from '../etransfers/etransferCommands';
import { applyDdlOnce, foldStream } from '../http';
import { checkpointedPass } from '../http/checkpointedPass';
import { periodic } from '../http/periodic';
import { runOnStream } from '../http/streamCommands';
import { isSavedCard } from '../paymentMethods/businessLogic';
import { loadPaymentMethod } from '../paymentMethods/paymentMethodCommands';
import { isPayment } from '../payments/payment';
import {
  chargeSavedCard,
  loadPayment,
  type PaymentDeps,
  sendPaymentToTerminal,
} from '../payments/paymentCommands';
import { addDays } from './periods';
import { isSubscription } from './subscription';
import { loadSubscription, recordCollectionOutcome } from './subscriptionCommands';

const checkpointName = 'billingCollector';
/** How long the customer has to pay one attempt's e-transfer request before it expires. */
export const collectionWindowDays = 3;

const ddl = `
CREATE TABLE IF NOT EXISTS process_checkpoints (
  name text PRIMARY KEY,
  position bigint NOT NULL
);
INSERT INTO process_checkpoints (name, position) VALUES ('${checkpointName}', -1)
  ON CONFLICT (name) DO NOTHING;
-- etransfer_id: the attempt's collection id, its e-transfer or (by card) its payment.
CREATE TABLE IF NOT EXISTS billing_collections (
  etransfer_id text PRIMARY KEY,
  subscription_id text NOT NULL,
  invoice_id text NOT NULL,
  attempt int NOT NULL
);
`;

export function migrateBillingCollector(pool: Pool): Promise<void> {
  return applyDdlOnce(pool, 'issuer-portal:migrate-billing-collector', ddl);
}

/** The e-transfer side and the card side (the payment gateway) of collection. */
export type CollectorDeps = EtransferDeps & PaymentDeps;

export interface BillingCollector {
  /** Handles every event after the checkpoint; resolves with how many it acted on. */
  runOnce(): Promise<number>;
  start(): void;
  stop(): Promise<void>;
}

type Outcome = CollectionFailureReason | 'paid';
const outcomes: Partial<Record<EtransferEvent['type'] | PaymentEvent['type'], Outcome>> = {
  EtransferDeposited: 'paid',
  EtransferDeclined: 'declined',
  EtransferExpired: 'expired',
  EtransferCancelled: 'cancelled',
  PaymentCaptured: 'paid',
  PaymentDeclined: 'declined',
  PaymentExpired: 'expired',
  PaymentCancelled: 'cancelled',
};

/** An e-transfer's or a payment's end that may answer a collection attempt, by collection id. */
function outcomeOf(event: RecordedEvent): { collectionId: string; outcome: Outcome } | undefined {
  const transfer = asEtransferEvent(event);
  const payment = transfer ? undefined : asPaymentEvent(event);
  const outcome = outcomes[(transfer ?? payment)?.type as keyof typeof outcomes];
  if (!outcome) return undefined;
  if (transfer) return { collectionId: transfer.data.etransferId, outcome };
  return payment && { collectionId: payment.data.paymentId, outcome };
}

const collectionIdOfAttempt = ({ data }: InvoiceCollectionAttempted) =>
  data.paymentId ?? data.etransferId;

/**
 * The process manager between invoices and e-transfers, read from the global log after its own
 * checkpoint (locked for each batch, so a second process skips its turn; moved only after the
 * work, so a crash replays it and every step is idempotent):
 * - InvoiceCollectionAttempted: remembers which invoice the attempt's e-transfer belongs to
 *   (`billing_collections`, written before the request, so its answer always finds it), then
 *   requests the money from the customer (the e-transfer id derives from invoice and attempt: a
 *   replay finds the same request) and hands it to the provider;
 * - the e-transfer deposited, declined, expired or cancelled: the invoice is paid, or the
 *   attempt failed (the subscription decides the retry, or unpaid/cancelled after the last).
 */
export function createBillingCollector(
  deps: CollectorDeps,
  { intervalMs = 1_000, batchSize = 500, concurrency = 8 } = {},
): BillingCollector {
  /** The subscription each event of the batch acts on; events of no subscription are left out. */
  async function subscriptionsOf(events: readonly RecordedEvent[]) {
    const keys = new Map<RecordedEvent, string>();
    const known = new Map<string, string>();
    const unknown: string[] = [];
    for (const event of events) {
      const attempt = asSubscriptionEvent(event);
      if (attempt?.type === 'InvoiceCollectionAttempted') {
        known.set(collectionIdOfAttempt(attempt), attempt.data.subscriptionId);
      } else {
        const ended = outcomeOf(event);
        if (ended) unknown.push(ended.collectionId);
      }
    }
    if (unknown.length > 0) {
      const { rows } = await deps.pool.query<{ etransfer_id: string; subscription_id: string }>(
        'SELECT etransfer_id, subscription_id FROM billing_collections WHERE etransfer_id = ANY($1)',
        [unknown],
      );
      for (const row of rows) known.set(row.etransfer_id, row.subscription_id);
    }
    for (const event of events) {
      const attempt = asSubscriptionEvent(event);
      const collectionId =
        attempt?.type === 'InvoiceCollectionAttempted'
          ? collectionIdOfAttempt(attempt)
          : outcomeOf(event)?.collectionId;
      const subscriptionId = collectionId && known.get(collectionId);
      if (subscriptionId) keys.set(event, subscriptionId);
    }
    return keys;
  }

  async function handle(event: RecordedEvent): Promise<void> {
    const attempt = asSubscriptionEvent(event);
    if (attempt?.type === 'InvoiceCollectionAttempted') {
      if (attempt.data.paymentId) await collectByCard(deps, attempt, event);
      else await collect(deps, attempt, event);
      return;
    }
    const ended = outcomeOf(event);
    if (!ended) return;
    const { collectionId, outcome } = ended;
    const { rows } = await deps.pool.query<{ subscription_id: string }>(
      'SELECT subscription_id FROM billing_collections WHERE etransfer_id = $1',
      [collectionId],
    );
    const subscriptionId = rows[0]?.subscription_id;
    if (!subscriptionId) return;
    await recordCollectionOutcome(
      deps,
      {
        subscriptionId,
        collectionId,
        outcome: outcome === 'paid' ? { paid: true } : { paid: false, reason: outcome },
      },
      { causationId: event.id, correlationId: event.metadata.correlationId },
    );
  }

  /**
   * A batch: each subscription's events in log order, different subscriptions side by side
   * (`concurrency` at a time); the checkpoint moves past the batch only once all are done.
   */
  async function handleBatch(events: readonly RecordedEvent[]): Promise<number> {
    const keys = await subscriptionsOf(events);
    const chains = new Map<string, RecordedEvent[]>();
    for (const event of events) {
      const key = keys.get(event);
      if (key) chains.set(key, [...(chains.get(key) ?? []), event]);
    }
    const queue = [...chains.values()];
    const worker = async () => {
      for (let chain = queue.shift(); chain; chain = queue.shift()) {
        for (const event of chain) await handle(event);
      }
    };
    await Promise.all(Array.from({ length: concurrency }, worker));
    return keys.size;
  }

  const runOnce = () => checkpointedPass(deps, checkpointName, batchSize, handleBatch);

  return {
    runOnce,
    ...periodic(runOnce, { intervalMs, logger: deps.logger, label: 'billing collector' }),
  };
}

async function collect(
  deps: EtransferDeps,
  { data }: InvoiceCollectionAttempted,
  event: RecordedEvent,
) {
  await deps.pool.query(
    `INSERT INTO billing_collections (etransfer_id, subscription_id, invoice_id, attempt)
     VALUES ($1, $2, $3, $4) ON CONFLICT (etransfer_id) DO NOTHING`,
    [data.etransferId, data.subscriptionId, data.invoiceId, data.attempt],
  );
  const origin = { causationId: event.id, correlationId: event.metadata.correlationId };
  const existing = await loadEtransfer(deps, data.etransferId);
  if (!isEtransfer(existing)) {
    const subscription = await loadSubscription(deps, data.subscriptionId);
    if (!isSubscription(subscription)) return;
    const email = await customerEmail(deps, subscription.companyId, subscription.customerId);
    const invoice = subscription.invoices.find((i) => i.invoiceId === data.invoiceId);
    if (email === undefined || !invoice) {
      await recordCollectionOutcome(
        deps,
        {
          subscriptionId: data.subscriptionId,
          collectionId: data.etransferId,
          outcome: { paid: false, reason: 'not_sent' },
        },
        origin,
      );
      return;
    }
    const now = deps.clock();
    await runOnStream(
      deps,
      etransferStream(data.etransferId),
      etransferDecider,
      {
        type: 'RequestEtransfer',
        data: {
          etransferId: data.etransferId,
          companyId: subscription.companyId,
          customerId: subscription.customerId,
          recipientEmail: email,
          amountCents: data.amountCents,
          message: invoiceLine(invoice),
          reference: invoice.number,
          requestedBy: 'billing',
          now,
          expiresAt: addDays(now, collectionWindowDays),
          invoiceId: invoice.invoiceId,
          purpose: invoicePurpose(invoice),
        },
      },
      (state) => (isEtransfer(state) ? state.companyId : undefined),
      origin,
    ).catch((error: unknown) => {
      // Another process requested it at the same moment: the same request, derived id.
      if (!(error instanceof Error && 'status' in error && error.status === 409)) throw error;
    });
  }
  try {
    await sendToProvider(deps, data.etransferId, origin);
  } catch (error) {
    // The e-transfer timer hands a request still `requested` to the provider again.
    deps.logger.warn(
      { err: error, etransferId: data.etransferId },
      'sending an invoice request failed',
    );
  }
}

/**
 * A card attempt: remembers its payment (as `collect` does its e-transfer), then charges the
 * subscription's saved card off-session under the payment id the attempt derived, so a replay
 * finds the same payment and the gateway, idempotent by that id, charges once. A card removed
 * since (or gone) fails the attempt as not sent: the retry schedule goes on.
 */
async function collectByCard(
  deps: CollectorDeps,
  { data }: InvoiceCollectionAttempted,
  event: RecordedEvent,
) {
  const paymentId = data.paymentId ?? '';
  await deps.pool.query(
    `INSERT INTO billing_collections (etransfer_id, subscription_id, invoice_id, attempt)
     VALUES ($1, $2, $3, $4) ON CONFLICT (etransfer_id) DO NOTHING`,
    [paymentId, data.subscriptionId, data.invoiceId, data.attempt],
  );
  const origin = { causationId: event.id, correlationId: event.metadata.correlationId };
  const existing = await loadPayment(deps, paymentId);
  if (!isPayment(existing.state)) {
    const subscription = await loadSubscription(deps, data.subscriptionId);
    if (!isSubscription(subscription)) return;
    const card = subscription.paymentMethodId
      ? await loadPaymentMethod(deps, subscription.paymentMethodId)
      : undefined;
    const invoice = subscription.invoices.find((i) => i.invoiceId === data.invoiceId);
    if (!card || !isSavedCard(card) || card.status === 'removed' || !invoice) {
      await recordCollectionOutcome(
        deps,
        {
          subscriptionId: data.subscriptionId,
          collectionId: paymentId,
          outcome: { paid: false, reason: 'not_sent' },
        },
        origin,
      );
      return;
    }
    try {
      await chargeSavedCard(deps, {
        ...origin,
        paymentId,
        companyId: subscription.companyId,
        customerId: subscription.customerId,
        paymentMethodId: card.paymentMethodId,
        cardToken: card.cardToken,
        amountCents: data.amountCents,
        description: invoiceLine(invoice),
        purpose: invoicePurpose(invoice),
        requestedBy: 'billing',
      });
    } catch (error) {
      // Recorded and pending: the payment resumer hands it to the gateway again.
      deps.logger.warn({ err: error, paymentId }, 'charging a saved card failed');
    }
    return;
  }
  try {
    await sendPaymentToTerminal(deps, paymentId, origin);
  } catch (error) {
    deps.logger.warn({ err: error, paymentId }, 'charging a saved card failed');
  }
}

async function customerEmail(deps: EtransferDeps, companyId: string, customerId: string) {
  const { state } = await foldStream(deps.store, customerStream(customerId), customerDecider);
  if (state.status !== 'active' || state.companyId !== companyId) return undefined;
  return state.profile.email.trim() || undefined;
}

type InvoiceNames = { invoiceId: string; number: string; planName: string };

/** An invoice's collection in English, for the customer's e-transfer and the card statement. */
const invoiceLine = (invoice: InvoiceNames) => `Invoice ${invoice.number}: ${invoice.planName}`;

/** The same, for each reader of the portal to name in their own language. */
const invoicePurpose = (invoice: InvoiceNames): PaymentPurpose => ({
  kind: 'invoice',
  invoiceId: invoice.invoiceId,
  invoiceNumber: invoice.number,
  planName: invoice.planName,
});
