import { createHash, randomUUID } from 'node:crypto';
import {
  DomainError,
  invalid,
  notFound,
  type PaymentCurrency,
  type PaymentEvent,
  type PaymentPurpose,
  streamCategories,
  streamName,
} from '@issuer/events';
import { companyDecider } from '../companies/businessLogic';
import { customerDecider } from '../customers/businessLogic';
import { customerStream } from '../customers/customerCommands';
import { type AppDependencies, foldStream } from '../http';
import { type CommandOrigin, runOnStream } from '../http/streamCommands';
import { saveCardOfCapture } from '../paymentMethods/paymentMethodCommands';
import { type PaymentCommand, paymentDecider, saveCardNeedsCustomer } from './businessLogic';
import { type GatewayEvent, RefundRefused, refundRefusedCode } from './gateway';
import { isPayment, type Payment, type PaymentDetails } from './payment';

/**
 * The write operations on a payment, shared by the routes, the webhook, the expiry timer and the
 * resumer. They take the dependencies rather than a request, since most callers have none.
 * Every append carries the stream's expected revision; a concurrent change is re-read and
 * re-decided, so a rule such as "never refund more than was captured" holds under any load.
 */

export type PaymentDeps = Pick<AppDependencies, 'store' | 'clock' | 'logger' | 'paymentGateway'> & {
  config: Pick<AppDependencies['config'], 'paymentTimeoutSeconds'>;
};

export type { CommandOrigin };

export interface PaymentOutcome {
  state: Payment;
  /** The appended events; empty when there was nothing to do. */
  events: PaymentEvent[];
  /** Global position of the last appended event, for read-your-writes; undefined when none. */
  position: bigint | undefined;
}

export const defaultPaymentTimeoutSeconds = 300;

export const paymentStream = (paymentId: string) => streamName(streamCategories.payment, paymentId);

export const newPaymentId = () => `pay_${randomUUID()}`;

/** Payment ids as this API makes them; any other id names no payment. */
export const isPaymentId = (id: string) =>
  /^pay_[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(id);

/**
 * A refund id. Derived from the request's Idempotency-Key when there is one, so a retry after
 * a failed gateway call names the same refund (recorded once, sent again); random otherwise.
 */
export function refundIdFor(idempotencyScope?: string): string {
  if (idempotencyScope === undefined) return `rf_${randomUUID()}`;
  const hex = createHash('sha256').update(`refund\n${idempotencyScope}`).digest('hex');
  return `rf_${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

export async function loadPayment(deps: Pick<PaymentDeps, 'store'>, paymentId: string) {
  return foldStream(deps.store, paymentStream(paymentId), paymentDecider);
}

/** The caller's payment, or 404 (missing, or another company's). */
export async function ownPayment(
  deps: Pick<PaymentDeps, 'store'>,
  companyId: string,
  paymentId: string,
): Promise<PaymentDetails> {
  const { state } = isPaymentId(paymentId)
    ? await loadPayment(deps, paymentId)
    : { state: { status: 'none' } as Payment };
  if (!isPayment(state) || state.companyId !== companyId) throw notFound('Payment');
  return state;
}

export interface RequestPaymentInput extends CommandOrigin {
  companyId: string;
  actorId: string;
  terminalId: string;
  amountCents: number;
  currency: PaymentCurrency;
  customerId: string | null;
  description: string | null;
  /** What the portal asked this payment for (a token order, an invoice). */
  purpose?: PaymentPurpose;
  /** The customer agreed to have the card saved for later charges. */
  saveCard?: boolean;
  /** Chosen by a caller that records the payment's id first (a token order); new otherwise. */
  paymentId?: string;
}

/**
 * Records the payment, then puts it on its terminal. The intent is stored before the gateway
 * is called: a crash in between leaves a requested payment that the resumer sends (the gateway
 * call is idempotent by the payment id, so a second send never charges twice).
 */
export async function requestPayment(
  deps: PaymentDeps,
  input: RequestPaymentInput,
): Promise<{ paymentId: string; position: bigint | undefined }> {
  if (input.saveCard && input.customerId === null) {
    throw invalid(saveCardNeedsCustomer, { saveCard: saveCardNeedsCustomer });
  }
  await checkTerminal(deps, input.companyId, input.terminalId);
  if (input.customerId !== null) await checkCustomer(deps, input.companyId, input.customerId);
  const paymentId = input.paymentId ?? newPaymentId();
  const now = deps.clock();
  const timeoutSeconds = deps.config.paymentTimeoutSeconds ?? defaultPaymentTimeoutSeconds;
  const requested = await runOnPayment(
    deps,
    paymentId,
    {
      type: 'RequestPayment',
      data: {
        paymentId,
        companyId: input.companyId,
        terminalId: input.terminalId,
        amountCents: input.amountCents,
        currency: input.currency,
        customerId: input.customerId,
        description: input.description,
        ...(input.purpose ? { purpose: input.purpose } : {}),
        requestedBy: input.actorId,
        now,
        expiresAt: new Date(now.getTime() + timeoutSeconds * 1000),
        saveCard: input.saveCard === true,
      },
    },
    { ...input, userId: input.actorId },
  );
  try {
    const sent = await sendPaymentToTerminal(deps, paymentId, input);
    return { paymentId, position: sent.position ?? requested.position };
  } catch (error) {
    // Recorded and answered as pending: the resumer sends it again, or it expires.
    deps.logger.warn({ err: error, paymentId }, 'sending the payment to its terminal failed');
    return { paymentId, position: requested.position };
  }
}

/** The terminal must be one of the company's, not removed (the Company stream is the truth). */
export async function checkTerminal(deps: PaymentDeps, companyId: string, terminalId: string) {
  const { state } = await foldStream(
    deps.store,
    streamName(streamCategories.company, companyId),
    companyDecider,
  );
  const terminals = state.status === 'registered' ? state.terminals : [];
  if (!terminals.some((terminal) => terminal.terminalId === terminalId)) {
    throw notFound('Payment terminal');
  }
}

async function checkCustomer(deps: PaymentDeps, companyId: string, customerId: string) {
  const { state } = await foldStream(deps.store, customerStream(customerId), customerDecider);
  if (state.status !== 'active' || state.companyId !== companyId) throw notFound('Customer');
}

/**
 * Sends a requested payment to its terminal and records that it waits there. Safe to call
 * again at any time: a payment already sent or decided is left alone.
 */
export async function sendPaymentToTerminal(
  deps: PaymentDeps,
  paymentId: string,
  origin: CommandOrigin = {},
): Promise<PaymentOutcome> {
  const { state } = await loadPayment(deps, paymentId);
  if (!isPayment(state)) throw notFound('Payment');
  if (state.status !== 'pending') return { state, events: [], position: undefined };
  const { gatewayPaymentId } = state.cardToken
    ? await deps.paymentGateway.chargeSavedCard({
        paymentId,
        companyId: state.companyId,
        cardToken: state.cardToken,
        amountCents: state.amountCents,
        currency: state.currency,
      })
    : await deps.paymentGateway.sendPayment({
        paymentId,
        companyId: state.companyId,
        terminalId: state.terminalId,
        amountCents: state.amountCents,
        currency: state.currency,
        expiresAt: state.expiresAt,
        ...(state.saveCard ? { saveCard: true } : {}),
      });
  return runOnPayment(
    deps,
    paymentId,
    { type: 'MarkSentToTerminal', data: { gatewayPaymentId, now: deps.clock() } },
    origin,
  );
}

/**
 * A webhook's report; a duplicate or a late one changes nothing. The event id is the cause. A
 * capture that hands back a reusable card (the customer agreed) saves it, also on a redelivery,
 * so a crash between the two is mended by the processor's retry.
 */
export async function recordGatewayEvent(
  deps: PaymentDeps,
  event: GatewayEvent,
  origin: CommandOrigin = {},
): Promise<PaymentOutcome> {
  const cause = { causationId: event.id, ...origin };
  const outcome = await runOnPayment(
    deps,
    event.paymentId,
    { type: 'RecordGatewayEvent', data: { event } },
    cause,
  );
  if (isPayment(outcome.state)) await saveCardOfCapture(deps, outcome.state, event, cause);
  return outcome;
}

export interface ChargeSavedCardInput extends CommandOrigin {
  /** Derived by the caller (an invoice attempt), so a replay finds the same payment. */
  paymentId: string;
  companyId: string;
  customerId: string;
  paymentMethodId: string;
  cardToken: string;
  amountCents: number;
  description: string | null;
  purpose?: PaymentPurpose;
  requestedBy: string;
}

/**
 * Charges a saved card off-session: recorded first (a payment like any other, under the
 * `off_session` terminal id), then handed to the gateway, idempotent by the payment id. A payment
 * already recorded is only sent again if it is still pending (the resumer does the same).
 */
export async function chargeSavedCard(
  deps: PaymentDeps,
  input: ChargeSavedCardInput,
): Promise<PaymentOutcome> {
  const now = deps.clock();
  const timeoutSeconds = deps.config.paymentTimeoutSeconds ?? defaultPaymentTimeoutSeconds;
  const { state } = await loadPayment(deps, input.paymentId);
  if (!isPayment(state)) {
    await runOnPayment(
      deps,
      input.paymentId,
      {
        type: 'RequestCardCharge',
        data: {
          ...input,
          currency: 'CAD',
          now,
          expiresAt: new Date(now.getTime() + timeoutSeconds * 1000),
        },
      },
      input,
    ).catch((error: unknown) => {
      // Another process recorded the same charge at the same moment: the same derived id.
      if (!(error instanceof DomainError && error.status === 409)) throw error;
    });
  }
  return sendPaymentToTerminal(deps, input.paymentId, input);
}

/** Cancels a payment still waiting for its card, then clears it from the terminal. */
export async function cancelPayment(
  deps: PaymentDeps,
  input: { companyId: string; paymentId: string; actorId: string } & CommandOrigin,
): Promise<PaymentOutcome> {
  await ownPayment(deps, input.companyId, input.paymentId);
  const outcome = await runOnPayment(
    deps,
    input.paymentId,
    {
      type: 'CancelPayment',
      data: { companyId: input.companyId, actorId: input.actorId, now: deps.clock() },
    },
    { ...input, userId: input.actorId },
  );
  await clearTerminal(deps, outcome);
  return outcome;
}

/** The timeout: expires the payment if it still waits at its expiry time; otherwise nothing. */
export async function expirePayment(
  deps: PaymentDeps,
  paymentId: string,
  origin: CommandOrigin = {},
): Promise<PaymentOutcome> {
  const outcome = await runOnPayment(
    deps,
    paymentId,
    { type: 'ExpirePayment', data: { now: deps.clock() } },
    origin,
  );
  await clearTerminal(deps, outcome);
  return outcome;
}

/** The cancel is recorded whatever the terminal says; a capture that still comes is recorded too. */
async function clearTerminal(deps: PaymentDeps, outcome: PaymentOutcome) {
  if (outcome.events.length === 0 || !isPayment(outcome.state)) return;
  const { paymentId, terminalId } = outcome.state;
  try {
    await deps.paymentGateway.cancelPayment({ paymentId, terminalId });
  } catch (error) {
    deps.logger.warn({ err: error, paymentId }, 'clearing the payment from its terminal failed');
  }
}

export interface RefundPaymentInput extends CommandOrigin {
  companyId: string;
  paymentId: string;
  amountCents: number;
  reason: string;
  actorId: string;
  refundId: string;
}

/**
 * Records the refund (never above what remains, even against concurrent refunds: the append
 * expects the revision the decision was made on), then settles it with the processor.
 * A repeat of the same refund id records nothing and settles it if it is still pending.
 */
export async function refundPayment(
  deps: PaymentDeps,
  input: RefundPaymentInput,
): Promise<PaymentOutcome> {
  await ownPayment(deps, input.companyId, input.paymentId);
  const origin = { ...input, userId: input.actorId };
  const recorded = await runOnPayment(
    deps,
    input.paymentId,
    {
      type: 'RefundPayment',
      data: {
        companyId: input.companyId,
        refundId: input.refundId,
        amountCents: input.amountCents,
        reason: input.reason,
        actorId: input.actorId,
        now: deps.clock(),
      },
    },
    origin,
  );
  const settled = await settleRefund(deps, input.paymentId, input.refundId, origin);
  return settled.position === undefined ? { ...settled, position: recorded.position } : settled;
}

/**
 * Returns a recorded refund's money through the gateway (idempotent by the refund id) and records
 * the answer: confirmed, or refused for good (the balance gets the money back; 409). A transient
 * failure answers 503 and leaves the refund pending: a retry with the same Idempotency-Key, or the
 * payment scheduler, asks again. Used by the refund route and the scheduler.
 */
export async function settleRefund(
  deps: PaymentDeps,
  paymentId: string,
  refundId: string,
  origin: CommandOrigin,
): Promise<PaymentOutcome> {
  const { state } = await foldStream(deps.store, paymentStream(paymentId), paymentDecider);
  const refund = isPayment(state) ? state.refunds.find((each) => each.id === refundId) : undefined;
  if (!refund || !isPayment(state)) return { state, events: [], position: undefined };
  if (refund.status === 'failed') throw refundRefused(refund.failureReason ?? 'unknown');
  if (refund.status === 'succeeded') return { state, events: [], position: undefined };
  try {
    await deps.paymentGateway.refundPayment({
      paymentId,
      refundId,
      amountCents: refund.amountCents,
      currency: state.currency,
    });
  } catch (error) {
    const refusal =
      error instanceof RefundRefused
        ? await recordedRefusal(deps, paymentId, refundId, error.reason, origin)
        : undefined;
    if (refusal && error instanceof RefundRefused) throw refundRefused(error.reason, refusal);
    deps.logger.error({ err: error, paymentId }, 'gateway refund failed');
    throw new DomainError(
      503,
      'gateway_unavailable',
      'The refund is recorded but the card processor did not confirm it yet; it is retried in the background, or retry with the same Idempotency-Key',
    );
  }
  return runOnPayment(
    deps,
    paymentId,
    { type: 'ConfirmRefund', data: { refundId, now: deps.clock() } },
    origin,
  );
}

/** The 409 of a refused refund; `position`: where its failure was appended, for read-your-writes. */
export class RefundRefusedError extends DomainError {
  constructor(
    reason: string,
    readonly position?: bigint,
  ) {
    super(409, refundRefusedCode, `The card processor refused the refund: ${reason}`);
  }
}

const refundRefused = (reason: string, recorded?: { position: bigint | undefined }) =>
  new RefundRefusedError(reason, recorded?.position);

/**
 * Records the refusal; undefined if that failed, so the caller answers 503: a retry with the same
 * key asks the processor again, which refuses again, and is recorded then.
 */
async function recordedRefusal(
  deps: PaymentDeps,
  paymentId: string,
  refundId: string,
  reason: string,
  origin: CommandOrigin,
): Promise<PaymentOutcome | undefined> {
  try {
    return await runOnPayment(
      deps,
      paymentId,
      { type: 'FailRefund', data: { refundId, reason, now: deps.clock() } },
      origin,
    );
  } catch (error) {
    deps.logger.error({ err: error, paymentId }, 'recording a refused refund failed');
    return undefined;
  }
}

/** Load, decide, append with the expected revision; on a concurrent change, again from the top. */
function runOnPayment(
  deps: PaymentDeps,
  paymentId: string,
  command: PaymentCommand,
  origin: CommandOrigin,
): Promise<PaymentOutcome> {
  return runOnStream(
    deps,
    paymentStream(paymentId),
    paymentDecider,
    command,
    (state) => (isPayment(state) ? state.companyId : undefined),
    origin,
  );
}
