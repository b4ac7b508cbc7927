import type { PaymentCurrency, PayoutFailureReason } from '@issuer/events';

/**
 * The port to an Interac e-transfer provider (Zum Rails, VoPay and the like). The simulator is the
 * only adapter today; a real provider is a second adapter behind this interface, never a change to
 * the e-transfer's decider. Every call is idempotent by the `etransferId` it carries.
 */
export interface EtransferProvider {
  /** `simulator` while the built-in simulator is the adapter (its sandbox routes exist only then). */
  readonly name: string;
  /** Sends a money request to the customer's email. Idempotent by `etransferId`. */
  requestMoney(request: MoneyRequest): Promise<{ providerTransferId: string }>;
  /** Withdraws a request the customer has not paid yet; one already settled stays as it is. */
  cancelRequest(request: { etransferId: string }): Promise<void>;
  /** Sends money to the customer's email. Idempotent by `etransferId`. */
  sendMoney(request: MoneyTransfer): Promise<{ providerTransferId: string }>;
}

export interface MoneyRequest {
  etransferId: string;
  companyId: string;
  recipientEmail: string;
  amountCents: number;
  currency: PaymentCurrency;
  message: string | null;
  reference: string | null;
  expiresAt: string;
}

export interface MoneyTransfer {
  etransferId: string;
  companyId: string;
  recipientEmail: string;
  amountCents: number;
  currency: PaymentCurrency;
  message: string | null;
}

/**
 * What the provider reports back through a signed webhook: at least once, sometimes twice (same
 * `id`) and in any order. An incoming autodeposit names the company it landed in, not an
 * e-transfer of ours: its stream id is derived from `providerTransferId`, so a duplicate lands on
 * the same stream.
 */
export type ProviderEvent =
  | (ProviderEventBase & {
      type: 'request.deposited';
      etransferId: string;
      amountCents: number;
    })
  | (ProviderEventBase & { type: 'request.declined'; etransferId: string })
  | (ProviderEventBase & { type: 'payout.sent'; etransferId: string })
  | (ProviderEventBase & {
      type: 'payout.failed';
      etransferId: string;
      reason: PayoutFailureReason;
    })
  | (ProviderEventBase & {
      type: 'incoming.received';
      companyId: string;
      fromEmail: string;
      amountCents: number;
      reference: string | null;
    });

interface ProviderEventBase {
  /** The provider's event id: the deduplication key. */
  id: string;
  providerTransferId: string;
  occurredAt: string;
}

export type TransferEvent = Exclude<ProviderEvent, { type: 'incoming.received' }>;
export type IncomingEvent = Extract<ProviderEvent, { type: 'incoming.received' }>;
