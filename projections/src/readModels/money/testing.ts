import type { PaymentEvent, PaymentPurpose } from '@issuer/events';

/** Payment events for tests, each with the fields the projection reads and sensible defaults. */
export const paymentEvents = (companyId: string, paymentId: string) => {
  const ids = { companyId, paymentId };
  return {
    requested: (
      over: Partial<{
        terminalId: string;
        amountCents: number;
        customerId: string | null;
        description: string | null;
        purpose: PaymentPurpose;
        requestedAt: string;
      }> = {},
    ): PaymentEvent => ({
      type: 'PaymentRequested',
      data: {
        ...ids,
        terminalId: 'term-1',
        amountCents: 1000,
        currency: 'CAD',
        customerId: null,
        description: null,
        requestedBy: 'user-1',
        requestedAt: '2026-01-10T10:00:00.000Z',
        expiresAt: '2026-01-10T10:05:00.000Z',
        ...over,
      },
    }),
    sent: (): PaymentEvent => ({
      type: 'PaymentSentToTerminal',
      data: {
        ...ids,
        terminalId: 'term-1',
        gatewayPaymentId: `gw-${paymentId}`,
        sentAt: '2026-01-10T10:00:01.000Z',
      },
    }),
    authorized: (amountCents = 1000, cardBrand = 'visa', cardLast4 = '4242'): PaymentEvent => ({
      type: 'PaymentAuthorized',
      data: {
        ...ids,
        gatewayEventId: `auth-${paymentId}`,
        amountCents,
        cardBrand,
        cardLast4,
        authorizedAt: '2026-01-10T10:00:30.000Z',
      },
    }),
    captured: (amountCents = 1000, capturedAt = '2026-01-10T10:00:31.000Z'): PaymentEvent => ({
      type: 'PaymentCaptured',
      data: {
        ...ids,
        gatewayEventId: `cap-${paymentId}`,
        amountCents,
        currency: 'CAD',
        capturedAt,
      },
    }),
    declined: (reason: 'card_declined' | 'insufficient_funds' = 'card_declined'): PaymentEvent => ({
      type: 'PaymentDeclined',
      data: {
        ...ids,
        gatewayEventId: `dec-${paymentId}`,
        reason,
        declinedAt: '2026-01-10T10:00:30.000Z',
      },
    }),
    cancelled: (): PaymentEvent => ({
      type: 'PaymentCancelled',
      data: { ...ids, cancelledBy: 'user-1', cancelledAt: '2026-01-10T10:01:00.000Z' },
    }),
    expired: (): PaymentEvent => ({
      type: 'PaymentExpired',
      data: { ...ids, expiredAt: '2026-01-10T10:05:00.000Z' },
    }),
    refunded: (
      refundId: string,
      amountCents: number,
      refundedAt = '2026-01-11T09:00:00.000Z',
      reason = 'requested_by_customer',
    ): PaymentEvent => ({
      type: 'PaymentRefunded',
      data: {
        ...ids,
        refundId,
        amountCents,
        currency: 'CAD',
        reason,
        refundedBy: 'user-1',
        refundedAt,
      },
    }),
    refundConfirmed: (
      refundId: string,
      confirmedAt = '2026-01-11T09:00:02.000Z',
    ): PaymentEvent => ({
      type: 'PaymentRefundConfirmed',
      data: { ...ids, refundId, confirmedAt },
    }),
    refundFailed: (
      refundId: string,
      amountCents: number,
      failedAt = '2026-01-11T09:00:05.000Z',
      reason = 'expired_or_canceled_card',
    ): PaymentEvent => ({
      type: 'PaymentRefundFailed',
      data: { ...ids, refundId, amountCents, currency: 'CAD', reason, failedAt },
    }),
  };
};
