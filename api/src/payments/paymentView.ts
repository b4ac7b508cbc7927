import { declineReason, paymentPurpose, streamCategories, streamName } from '@issuer/events';
import { z } from 'zod';
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

const refundSchema = z.strictObject({
  id: z.string(),
  amountCents: z.int(),
  reason: z.string(),
  refundedBy: z.string(),
  refundedAt: z.string(),
  status: z.enum(['pending', 'succeeded', 'failed']).meta({
    description: '`pending` until the processor confirms it; `failed` no longer counts',
  }),
  failureReason: z.string().nullable().meta({ description: "The processor's reason, if failed" }),
}) satisfies z.ZodType<PaymentRefund>;

/** Null on payments a person took; set on the ones the portal requested itself. */
export const purposeSchema = paymentPurpose.nullable().meta({
  description:
    'What the portal asked the payment for: a token order (`token_order`: orderId, roundName, ' +
    'tokens) or an invoice (`invoice`: invoiceNumber, planName); null when a person took it. ' +
    'The description says the same in English.',
});

/** The Payment resource of the API (see the payments contract), as every payment route answers. */
export const paymentSchema = z
  .strictObject({
    id: z.string(),
    terminalId: z.string(),
    terminalName: z.string().nullable().meta({ description: 'Null once the terminal is removed' }),
    amountCents: z.int(),
    currency: z.literal('CAD'),
    customerId: z.string().nullable(),
    customerName: z.string().nullable(),
    description: z.string().nullable(),
    purpose: purposeSchema,
    status: z.enum(paymentViewStatuses),
    declineReason: declineReason.nullable(),
    cardBrand: z.string().nullable(),
    cardLast4: z.string().nullable(),
    refundedCents: z.int(),
    refundableCents: z.int(),
    refunds: z.array(refundSchema),
    requestedBy: z.string(),
    requestedAt: z.string(),
    expiresAt: z.string(),
    completedAt: z.string().nullable(),
  })
  .meta({ id: 'Payment' });
export type PaymentResource = z.infer<typeof paymentSchema>;

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
    purpose: state.purpose,
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
