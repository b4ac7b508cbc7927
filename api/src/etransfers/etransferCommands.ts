import { createHash, randomUUID } from 'node:crypto';
import {
  DomainError,
  type EtransferEvent,
  type EtransferMatchMethod,
  notFound,
  type PaymentPurpose,
  streamCategories,
  streamName,
} from '@issuer/events';
import type { Pool } from 'pg';
import { customerDecider } from '../customers/businessLogic';
import { customerStream } from '../customers/customerCommands';
import { customerEmailDecider, customerEmailStream } from '../customers/emailReservation';
import { type AppDependencies, foldStream } from '../http';
import { type CommandOrigin, runOnStream, type StreamOutcome } from '../http/streamCommands';
import { debitForPayout, releasePayout } from '../wallet/walletCommands';
import { recordWalletMovements } from '../wallet/walletRecorder';
import { defaultExpiryDays, type EtransferCommand, etransferDecider } from './businessLogic';
import { type Etransfer, type EtransferDetails, isEtransfer } from './etransfer';
import type { EtransferProvider, IncomingEvent, TransferEvent } from './provider';

/**
 * The write operations on e-transfers, shared by the routes, the provider's webhook and the
 * timers. Each append carries its stream's expected revision (runOnStream); a payout is guarded
 * by the company wallet's revision before it is recorded.
 */
export type EtransferDeps = Pick<AppDependencies, 'store' | 'clock' | 'logger'> & {
  pool: Pool;
  etransferProvider?: EtransferProvider;
};
export type EtransferOutcome = StreamOutcome<Etransfer, EtransferEvent>;

export const etransferStream = (etransferId: string) =>
  streamName(streamCategories.etransfer, etransferId);

export const newEtransferId = () => `et_${randomUUID()}`;

export const isEtransferId = (id: string) =>
  /^et_[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(id);

/** An autodeposit's id, from the provider's transfer id: a redelivery finds the same stream. */
export function incomingEtransferId(companyId: string, providerTransferId: string): string {
  const hex = createHash('sha256')
    .update(`incoming\n${companyId}\n${providerTransferId}`)
    .digest('hex');
  return `et_${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

export async function loadEtransfer(deps: Pick<EtransferDeps, 'store'>, etransferId: string) {
  return (await foldStream(deps.store, etransferStream(etransferId), etransferDecider)).state;
}

/** The caller's e-transfer, or 404 (missing, or another company's). */
export async function ownEtransfer(
  deps: Pick<EtransferDeps, 'store'>,
  companyId: string,
  etransferId: string,
): Promise<EtransferDetails> {
  const state = isEtransferId(etransferId)
    ? await loadEtransfer(deps, etransferId)
    : ({ status: 'none' } as Etransfer);
  if (!isEtransfer(state) || state.companyId !== companyId) throw notFound('E-transfer');
  return state;
}

function runOnEtransfer(
  deps: EtransferDeps,
  etransferId: string,
  command: EtransferCommand,
  origin: CommandOrigin,
): Promise<EtransferOutcome> {
  return runOnStream(
    deps,
    etransferStream(etransferId),
    etransferDecider,
    command,
    (state) => (isEtransfer(state) ? state.companyId : undefined),
    origin,
  );
}

export function providerOf(deps: EtransferDeps): EtransferProvider {
  if (!deps.etransferProvider) {
    throw new DomainError(503, 'provider_unavailable', 'No e-transfer provider is configured');
  }
  return deps.etransferProvider;
}

/** The company's active customer and the email to reach them at; 404 otherwise. */
export async function customerEmail(deps: EtransferDeps, companyId: string, customerId: string) {
  const { state } = await foldStream(deps.store, customerStream(customerId), customerDecider);
  if (state.status !== 'active' || state.companyId !== companyId) throw notFound('Customer');
  const email = state.profile.email.trim();
  if (!email) {
    const message = 'This customer has no email to send an e-transfer to';
    throw new DomainError(400, 'validation_failed', message, { customerId: message });
  }
  return email;
}

export interface RequestMoneyInput extends CommandOrigin {
  companyId: string;
  actorId: string;
  customerId: string;
  amountCents: number;
  message: string | null;
  reference: string | null;
  expiresAt: Date | null;
  /** The token order the request collects, and its id (derived from the order's). */
  orderId?: string;
  etransferId?: string;
  /** What the request collects (a token order), for each reader's language. */
  purpose?: PaymentPurpose;
}

/**
 * Records the request, then asks the provider to notify the customer. A provider failure leaves a
 * recorded request that stays "requested" (it can be cancelled, or it expires); the provider call
 * is idempotent by the e-transfer id, so sending it again never asks twice.
 */
export async function requestMoney(deps: EtransferDeps, input: RequestMoneyInput) {
  providerOf(deps); // 503 before anything is recorded
  const recipientEmail = await customerEmail(deps, input.companyId, input.customerId);
  const etransferId = input.etransferId ?? newEtransferId();
  const now = deps.clock();
  const expiresAt = input.expiresAt ?? new Date(now.getTime() + defaultExpiryDays * 86_400_000);
  const origin = { ...input, userId: input.actorId };
  const requested = await runOnEtransfer(
    deps,
    etransferId,
    {
      type: 'RequestEtransfer',
      data: {
        etransferId,
        companyId: input.companyId,
        customerId: input.customerId,
        recipientEmail,
        amountCents: input.amountCents,
        message: input.message,
        reference: input.reference,
        requestedBy: input.actorId,
        now,
        expiresAt,
        ...(input.orderId ? { orderId: input.orderId } : {}),
        ...(input.purpose ? { purpose: input.purpose } : {}),
      },
    },
    origin,
  );
  try {
    const sent = await sendToProvider(deps, etransferId, origin);
    return { etransferId, position: sent?.position ?? requested.position };
  } catch (error) {
    deps.logger.warn({ err: error, etransferId }, 'sending the money request failed');
    return { etransferId, position: requested.position };
  }
}

/**
 * Hands a recorded request or payout to the provider (again): safe at any time, the provider is
 * idempotent by the e-transfer id and one already answered is left alone. The timer calls it for
 * those a failed provider call left behind.
 */
export async function sendToProvider(
  deps: EtransferDeps,
  etransferId: string,
  origin: CommandOrigin = {},
): Promise<EtransferOutcome | undefined> {
  const provider = providerOf(deps);
  const state = await loadEtransfer(deps, etransferId);
  if (!isEtransfer(state) || state.status !== 'requested') return undefined;
  const transfer = {
    etransferId,
    companyId: state.companyId,
    recipientEmail: state.email,
    amountCents: state.amountCents,
    currency: state.currency,
    message: state.message,
  };
  if (state.kind === 'payout') {
    await provider.sendMoney(transfer);
    return undefined;
  }
  if (state.kind !== 'request' || state.expiresAt === null) return undefined;
  const { providerTransferId } = await provider.requestMoney({
    ...transfer,
    reference: state.reference,
    expiresAt: state.expiresAt,
  });
  return runOnEtransfer(
    deps,
    etransferId,
    { type: 'MarkEtransferSent', data: { providerTransferId, now: deps.clock() } },
    origin,
  );
}

export interface PayoutInput extends CommandOrigin {
  companyId: string;
  actorId: string;
  customerId: string;
  amountCents: number;
  message: string | null;
  /** Derived by the caller when a repeat must find the same payout (a token order's refund). */
  etransferId?: string;
}

/**
 * Sends money to a customer. The wallet reserves the amount first (409 naming amountCents when
 * the balance does not cover it, decided on the wallet's revision so concurrent payouts queue and
 * never overdraw); then the payout is recorded; then the provider is asked. Should recording the
 * payout fail, the reservation is given back.
 */
export async function sendPayout(deps: EtransferDeps, input: PayoutInput) {
  providerOf(deps); // 503 before anything is recorded
  const recipientEmail = await customerEmail(deps, input.companyId, input.customerId);
  const etransferId = input.etransferId ?? newEtransferId();
  const origin = { ...input, userId: input.actorId };
  const command: EtransferCommand = {
    type: 'RequestPayout',
    data: {
      etransferId,
      companyId: input.companyId,
      customerId: input.customerId,
      recipientEmail,
      amountCents: input.amountCents,
      message: input.message,
      requestedBy: input.actorId,
      now: deps.clock(),
    },
  };
  // Validation first (a bad message must not reserve anything), on an empty state.
  etransferDecider.decide(command, etransferDecider.initialState());
  const reservation = { companyId: input.companyId, etransferId, amountCents: input.amountCents };
  await debitOrCatchUp(deps, reservation, origin);
  let recorded: EtransferOutcome;
  try {
    recorded = await runOnEtransfer(deps, etransferId, command, origin);
  } catch (error) {
    await releasePayout(deps, reservation);
    throw error;
  }
  try {
    await sendToProvider(deps, etransferId, origin);
  } catch (error) {
    deps.logger.warn({ err: error, etransferId }, 'sending the payout to the provider failed');
  }
  return { etransferId, position: recorded.position };
}

/**
 * The balance the user sees is read from the money itself, the wallet a moment later (its
 * recorder): a refusal first records what the recorder has not reached, then decides again,
 * so a payout is never refused for money the balance already shows.
 */
async function debitOrCatchUp(
  deps: EtransferDeps,
  reservation: { companyId: string; etransferId: string; amountCents: number },
  origin: CommandOrigin,
) {
  try {
    await debitForPayout(deps, reservation, origin);
  } catch (error) {
    if (!(error instanceof DomainError && error.fields?.amountCents)) throw error;
    if ((await recordWalletMovements(deps, { waitForTurn: true })) === 0) throw error;
    await debitForPayout(deps, reservation, origin);
  }
}

export async function cancelEtransfer(
  deps: EtransferDeps,
  input: { companyId: string; etransferId: string; actorId: string } & CommandOrigin,
): Promise<EtransferOutcome> {
  await ownEtransfer(deps, input.companyId, input.etransferId);
  const outcome = await runOnEtransfer(
    deps,
    input.etransferId,
    {
      type: 'CancelEtransfer',
      data: { companyId: input.companyId, actorId: input.actorId, now: deps.clock() },
    },
    { ...input, userId: input.actorId },
  );
  if (outcome.events.length > 0) {
    try {
      await deps.etransferProvider?.cancelRequest({ etransferId: input.etransferId });
    } catch (error) {
      // A deposit that still comes is recorded: the money moved.
      deps.logger.warn({ err: error, etransferId: input.etransferId }, 'provider cancel failed');
    }
  }
  return outcome;
}

export function expireEtransfer(deps: EtransferDeps, etransferId: string) {
  return runOnEtransfer(
    deps,
    etransferId,
    { type: 'ExpireEtransfer', data: { now: deps.clock() } },
    {},
  );
}

export async function matchEtransfer(
  deps: EtransferDeps,
  input: {
    companyId: string;
    etransferId: string;
    customerId: string;
    reason: string;
    actorId: string;
  } & CommandOrigin,
): Promise<EtransferOutcome> {
  await ownEtransfer(deps, input.companyId, input.etransferId);
  await customerEmail(deps, input.companyId, input.customerId).catch((error) => {
    if (error instanceof DomainError && error.status === 400) return '';
    throw error;
  });
  return runOnEtransfer(
    deps,
    input.etransferId,
    {
      type: 'MatchEtransfer',
      data: {
        companyId: input.companyId,
        customerId: input.customerId,
        reason: input.reason,
        actorId: input.actorId,
        now: deps.clock(),
      },
    },
    { ...input, userId: input.actorId },
  );
}

/** A webhook's report on one of our e-transfers; a duplicate or a late one changes nothing. */
export function recordProviderEvent(
  deps: EtransferDeps,
  event: TransferEvent,
  origin: CommandOrigin = {},
): Promise<EtransferOutcome> {
  return runOnEtransfer(
    deps,
    event.etransferId,
    { type: 'RecordProviderEvent', data: { event } },
    { causationId: event.id, ...origin },
  );
}

/**
 * An autodeposit: matched to the company's customer with the sender's email, else to the
 * customer of the company's money request with that reference, else left unmatched.
 */
export async function receiveIncoming(
  deps: EtransferDeps,
  event: IncomingEvent,
  origin: CommandOrigin = {},
): Promise<EtransferOutcome> {
  const etransferId = incomingEtransferId(event.companyId, event.providerTransferId);
  const match = await matchOf(deps, event);
  return runOnEtransfer(
    deps,
    etransferId,
    {
      type: 'ReceiveIncomingEtransfer',
      data: {
        etransferId,
        event,
        customerId: match?.customerId ?? null,
        matchedBy: match?.by ?? null,
      },
    },
    { causationId: event.id, ...origin },
  );
}

async function matchOf(
  deps: EtransferDeps,
  event: IncomingEvent,
): Promise<{ customerId: string; by: EtransferMatchMethod } | undefined> {
  for (const email of new Set([event.fromEmail.trim(), event.fromEmail.trim().toLowerCase()])) {
    const { state } = await foldStream(
      deps.store,
      customerEmailStream(event.companyId, email),
      customerEmailDecider,
    );
    if (state.status === 'reserved') return { customerId: state.customerId, by: 'email' };
  }
  if (event.reference === null) return undefined;
  // The read model suffices here: a match is a convenience a user can correct, not an invariant.
  const { rows } = await deps.pool.query<{ customer_id: string }>(
    `SELECT customer_id FROM etransfers
      WHERE company_id = $1 AND kind = 'request' AND reference = $2 AND customer_id IS NOT NULL
      ORDER BY created_at DESC LIMIT 1`,
    [event.companyId, event.reference],
  );
  const row = rows[0];
  return row ? { customerId: row.customer_id, by: 'reference' } : undefined;
}
