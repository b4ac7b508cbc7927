import { type DeclineReason, streamCategories, streamName } from '@issuer/events';
import { companyDecider } from '../companies/businessLogic';
import { customerDecider } from '../customers/businessLogic';
import { customerStream } from '../customers/customerCommands';
import { foldStream } from '../http';
import { type PaymentDetails, type PaymentRefund, refundableCents } from './payment';
import type { PaymentDeps } from './paymentCommands';

/** The statuses a client sees: "pending" covers requested, sent and authorized-not-captured. */
export const paymentViewStatuses = [
  'pending',
  'captured',
  'partially_refunded',
  'refunded',
  'declined',
  'cancelled',
  'expired',
] as const;
export type PaymentViewStatus = (typeof paymentViewStatuses)[number];

/** The Payment resource of the API (see the payments contract). */
export interface PaymentResource {
  id: string;
  terminalId: string;
  terminalName: string | null;
  amountCents: number;
  currency: 'CAD';
  customerId: string | null;
  customerName: string | null;
  description: string | null;
  status: PaymentViewStatus;
  declineReason: DeclineReason | null;
  cardBrand: string | null;
  cardLast4: string | null;
  refundedCents: number;
  refundableCents: number;
  refunds: PaymentRefund[];
  requestedBy: string;
  requestedAt: string;
  expiresAt: string;
  completedAt: string | null;
}

export interface PaymentNames {
  terminalName: string | null;
  customerName: string | null;
}

export function viewStatus(state: PaymentDetails): PaymentViewStatus {
  switch (state.status) {
    case 'pending':
    case 'sent':
    case 'authorized':
      return 'pending';
    case 'captured':
      if (state.refundedCents === 0) return 'captured';
      return state.refundedCents >= state.capturedCents ? 'refunded' : 'partially_refunded';
    default:
      return state.status;
  }
}

export function paymentResource(state: PaymentDetails, names: PaymentNames): PaymentResource {
  return {
    id: state.paymentId,
    terminalId: state.terminalId,
    terminalName: names.terminalName,
    amountCents: state.amountCents,
    currency: state.currency,
    customerId: state.customerId,
    customerName: names.customerName,
    description: state.description,
    status: viewStatus(state),
    declineReason: state.declineReason,
    cardBrand: state.cardBrand,
    cardLast4: state.cardLast4,
    refundedCents: state.refundedCents,
    refundableCents: refundableCents(state),
    refunds: [...state.refunds],
    requestedBy: state.requestedBy,
    requestedAt: state.requestedAt,
    expiresAt: state.expiresAt,
    completedAt: state.completedAt,
  };
}

/**
 * The names from the write side: the terminal's current name (null once removed) and the
 * customer's last known name (kept after removal, as the payment's history refers to them).
 */
export async function paymentNames(
  deps: Pick<PaymentDeps, 'store'>,
  state: PaymentDetails,
): Promise<PaymentNames> {
  const [company, customer] = await Promise.all([
    foldStream(deps.store, streamName(streamCategories.company, state.companyId), companyDecider),
    state.customerId === null
      ? undefined
      : foldStream(deps.store, customerStream(state.customerId), customerDecider),
  ]);
  const terminal =
    company.state.status === 'registered'
      ? company.state.terminals.find((each) => each.terminalId === state.terminalId)
      : undefined;
  const person = customer?.state;
  const customerName =
    person && person.status !== 'none' && person.companyId === state.companyId
      ? `${person.profile.name} ${person.profile.lastName}`.trim()
      : null;
  return { terminalName: terminal?.name ?? null, customerName };
}

export async function describePayment(
  deps: Pick<PaymentDeps, 'store'>,
  state: PaymentDetails,
): Promise<PaymentResource> {
  return paymentResource(state, await paymentNames(deps, state));
}
