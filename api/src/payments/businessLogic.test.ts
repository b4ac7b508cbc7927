import type { PaymentEvent } from '@issuer/events';
import { describe, expect, it } from 'vitest';
import { deciderSpecification } from '../auth/testing/deciderSpecification';
import { type PaymentCommand, paymentDecider } from './businessLogic';
import type { GatewayEvent } from './gateway';

const { given } = deciderSpecification(paymentDecider);

const companyId = 'c-1';
const paymentId = 'pay_1';
const terminalId = 't-1';
const now = new Date('2025-03-01T10:00:00.000Z');
const later = new Date('2025-03-01T10:01:00.000Z');
const expiresAt = new Date('2025-03-01T10:05:00.000Z');
const ids = { paymentId, companyId };

const requested: PaymentEvent = {
  type: 'PaymentRequested',
  data: {
    ...ids,
    terminalId,
    amountCents: 2500,
    currency: 'CAD',
    customerId: 'cu-1',
    description: 'Coffee beans',
    requestedBy: 'u-1',
    requestedAt: now.toISOString(),
    expiresAt: expiresAt.toISOString(),
  },
};
const sent: PaymentEvent = {
  type: 'PaymentSentToTerminal',
  data: { ...ids, terminalId, gatewayPaymentId: 'gw-1', sentAt: now.toISOString() },
};
const card = { cardBrand: 'visa', cardLast4: '4242' };
const gateway = (
  type: 'payment.authorized' | 'payment.captured',
  id: string,
  amountCents = 2500,
): GatewayEvent => ({
  id,
  type,
  paymentId,
  gatewayPaymentId: 'gw-1',
  occurredAt: later.toISOString(),
  amountCents,
  ...card,
});
const declinedReport: GatewayEvent = {
  id: 'ev-d',
  type: 'payment.declined',
  paymentId,
  gatewayPaymentId: 'gw-1',
  occurredAt: later.toISOString(),
  reason: 'insufficient_funds',
};
const authorized = (gatewayEventId = 'ev-a'): PaymentEvent => ({
  type: 'PaymentAuthorized',
  data: { ...ids, gatewayEventId, amountCents: 2500, ...card, authorizedAt: later.toISOString() },
});
const captured = (gatewayEventId = 'ev-c', amountCents = 2500): PaymentEvent => ({
  type: 'PaymentCaptured',
  data: { ...ids, gatewayEventId, amountCents, currency: 'CAD', capturedAt: later.toISOString() },
});
const declined: PaymentEvent = {
  type: 'PaymentDeclined',
  data: {
    ...ids,
    gatewayEventId: 'ev-d',
    reason: 'insufficient_funds',
    declinedAt: later.toISOString(),
  },
};
const cancelled: PaymentEvent = {
  type: 'PaymentCancelled',
  data: { ...ids, cancelledBy: 'u-1', cancelledAt: later.toISOString() },
};
const expired: PaymentEvent = {
  type: 'PaymentExpired',
  data: { ...ids, expiredAt: expiresAt.toISOString() },
};
const refunded = (refundId: string, amountCents: number): PaymentEvent => ({
  type: 'PaymentRefunded',
  data: {
    ...ids,
    refundId,
    amountCents,
    currency: 'CAD',
    reason: 'Damaged',
    refundedBy: 'u-1',
    refundedAt: later.toISOString(),
  },
});

const refundFailed = (refundId: string, amountCents: number): PaymentEvent => ({
  type: 'PaymentRefundFailed',
  data: {
    ...ids,
    refundId,
    amountCents,
    currency: 'CAD',
    reason: 'expired_or_canceled_card',
    failedAt: later.toISOString(),
  },
});

const request = (
  overrides: Partial<Extract<PaymentCommand, { type: 'RequestPayment' }>['data']> = {},
) =>
  ({
    type: 'RequestPayment',
    data: {
      ...ids,
      terminalId,
      amountCents: 2500,
      currency: 'CAD',
      customerId: 'cu-1',
      description: 'Coffee beans',
      requestedBy: 'u-1',
      now,
      expiresAt,
      ...overrides,
    },
  }) as const;
const markSent = (gatewayPaymentId = 'gw-1') =>
  ({ type: 'MarkSentToTerminal', data: { gatewayPaymentId, now } }) as const;
const report = (event: GatewayEvent) => ({ type: 'RecordGatewayEvent', data: { event } }) as const;
const cancel = (company = companyId) =>
  ({ type: 'CancelPayment', data: { companyId: company, actorId: 'u-1', now: later } }) as const;
const expire = (at: Date) => ({ type: 'ExpirePayment', data: { now: at } }) as const;
const refund = (amountCents: number, refundId = 'rf-1', reason = 'Damaged', company = companyId) =>
  ({
    type: 'RefundPayment',
    data: { companyId: company, refundId, amountCents, reason, actorId: 'u-1', now: later },
  }) as const;

const failRefund = (refundId = 'rf-1') =>
  ({
    type: 'FailRefund',
    data: { refundId, reason: 'expired_or_canceled_card', now: later },
  }) as const;

const confirmRefund = (refundId = 'rf-1') =>
  ({ type: 'ConfirmRefund', data: { refundId, now: later } }) as const;

const refundConfirmed = (refundId: string): PaymentEvent => ({
  type: 'PaymentRefundConfirmed',
  data: { ...ids, refundId, confirmedAt: later.toISOString() },
});

const capturedHistory = [requested, sent, authorized(), captured()];

describe('RequestPayment', () => {
  it('records the request with its expiry', () => {
    given([]).when(request()).then([requested]);
  });

  it.each([0, -1, 1.5, 100_000_000, Number.NaN])('refuses amountCents %s', (amountCents) => {
    given([])
      .when(request({ amountCents }))
      .thenThrows({ status: 400, fields: { amountCents: expect.any(String) } });
  });

  it('takes the limits themselves', () => {
    given([])
      .when(request({ amountCents: 1 }))
      .then([{ ...requested, data: { ...requested.data, amountCents: 1 } } as PaymentEvent]);
    expect(
      paymentDecider.decide(request({ amountCents: 99_999_999 }), { status: 'none' }),
    ).toHaveLength(1);
  });

  it('refuses another currency and a description over 500 characters', () => {
    given([])
      .when(request({ currency: 'USD' as 'CAD' }))
      .thenThrows({ status: 400, fields: { currency: 'Must be CAD' } });
    given([])
      .when(request({ description: 'x'.repeat(501) }))
      .thenThrows({ status: 400, fields: { description: expect.any(String) } });
  });

  it('refuses a payment id already used', () => {
    given([requested]).when(request()).thenThrows({ status: 409 });
  });
});

describe('MarkSentToTerminal', () => {
  it('records that the terminal waits for the card', () => {
    given([requested]).when(markSent()).then([sent]);
  });

  it('changes nothing when already sent or already decided', () => {
    given([requested, sent]).when(markSent('gw-2')).then([]);
    given([requested, cancelled]).when(markSent()).then([]);
    given([requested, authorized(), captured()]).when(markSent()).then([]);
  });

  it('is "not found" for a payment that does not exist', () => {
    given([]).when(markSent()).thenThrows({ status: 404, message: 'Payment not found' });
  });
});

describe('RecordGatewayEvent', () => {
  it('records an authorization, then its capture', () => {
    given([requested, sent])
      .when(report(gateway('payment.authorized', 'ev-a')))
      .then([authorized()]);
    given([requested, sent, authorized()])
      .when(report(gateway('payment.captured', 'ev-c')))
      .then([captured()]);
  });

  it('records an authorization that arrives before the send was recorded', () => {
    given([requested])
      .when(report(gateway('payment.authorized', 'ev-a')))
      .then([authorized()]);
  });

  it('ignores an event id it has already seen', () => {
    given([requested, sent, authorized()])
      .when(report(gateway('payment.authorized', 'ev-a')))
      .then([]);
    given(capturedHistory)
      .when(report(gateway('payment.captured', 'ev-c')))
      .then([]);
    given([requested, sent, declined]).when(report(declinedReport)).then([]);
  });

  it('records a capture that arrives before its authorization as both', () => {
    given([requested, sent])
      .when(report(gateway('payment.captured', 'ev-c')))
      .then([authorized('ev-c'), captured()]);
  });

  it('ignores an authorization that arrives after the capture', () => {
    given([requested, sent, authorized('ev-c'), captured()])
      .when(report(gateway('payment.authorized', 'ev-a')))
      .then([]);
  });

  it('ignores a second capture under another event id', () => {
    given(capturedHistory)
      .when(report(gateway('payment.captured', 'ev-c2')))
      .then([]);
  });

  it('records a decline while the card is awaited or authorized', () => {
    given([requested, sent]).when(report(declinedReport)).then([declined]);
    given([requested, sent, authorized()]).when(report(declinedReport)).then([declined]);
  });

  it('ignores a decline after a final status', () => {
    for (const final of [[authorized(), captured()], [cancelled], [expired]]) {
      given([requested, sent, ...final])
        .when(report(declinedReport))
        .then([]);
    }
    given([requested, sent, declined])
      .when(report({ ...declinedReport, id: 'ev-d2' }))
      .then([]);
  });

  it('ignores an authorization after a cancel or an expiry, and a capture after a decline', () => {
    given([requested, sent, cancelled])
      .when(report(gateway('payment.authorized', 'ev-a')))
      .then([]);
    given([requested, sent, expired])
      .when(report(gateway('payment.authorized', 'ev-a')))
      .then([]);
    given([requested, sent, declined])
      .when(report(gateway('payment.captured', 'ev-c')))
      .then([]);
  });

  it('still records a capture after a cancel or an expiry: the money moved', () => {
    given([requested, sent, cancelled])
      .when(report(gateway('payment.captured', 'ev-c')))
      .then([authorized('ev-c'), captured()]);
    given([requested, sent, expired])
      .when(report(gateway('payment.captured', 'ev-c')))
      .then([authorized('ev-c'), captured()]);
    // …and the payment can then be refunded.
    given([requested, sent, cancelled, authorized('ev-c'), captured()])
      .when(refund(2500))
      .then([refunded('rf-1', 2500)]);
  });

  it('is "not found" for an unknown payment', () => {
    given([]).when(report(declinedReport)).thenThrows({ status: 404 });
  });
});

describe('CancelPayment', () => {
  it('cancels a payment waiting to be sent or waiting for the card', () => {
    given([requested]).when(cancel()).then([cancelled]);
    given([requested, sent]).when(cancel()).then([cancelled]);
  });

  it.each([
    ['authorized', [authorized()]],
    ['captured', [authorized(), captured()]],
    ['declined', [declined]],
    ['cancelled', [cancelled]],
    ['expired', [expired]],
  ])('refuses a payment already %s (409)', (_status, after) => {
    given([requested, sent, ...after])
      .when(cancel())
      .thenThrows({ status: 409, code: 'conflict' });
  });

  it("is 'not found' for another company's payment or none", () => {
    given([requested, sent])
      .when(cancel('c-2'))
      .thenThrows({ status: 404, message: 'Payment not found' });
    given([]).when(cancel()).thenThrows({ status: 404 });
  });
});

describe('ExpirePayment', () => {
  it('expires a payment still waiting at or after its expiry time', () => {
    given([requested, sent]).when(expire(expiresAt)).then([expired]);
    given([requested])
      .when(expire(new Date(expiresAt.getTime() + 1000)))
      .then([
        { ...expired, data: { ...ids, expiredAt: '2025-03-01T10:05:01.000Z' } } as PaymentEvent,
      ]);
  });

  it('does nothing before the expiry time', () => {
    given([requested, sent])
      .when(expire(new Date(expiresAt.getTime() - 1)))
      .then([]);
  });

  it('does nothing once the payment moved on', () => {
    for (const after of [
      [authorized()],
      [authorized(), captured()],
      [declined],
      [cancelled],
      [expired],
    ]) {
      given([requested, sent, ...after])
        .when(expire(expiresAt))
        .then([]);
    }
  });
});

describe('RefundPayment', () => {
  it('refunds part of a capture, then the rest', () => {
    given(capturedHistory)
      .when(refund(1000))
      .then([refunded('rf-1', 1000)]);
    given([...capturedHistory, refunded('rf-1', 1000)])
      .when(refund(1500, 'rf-2'))
      .then([refunded('rf-2', 1500)]);
  });

  it('refuses more than remains (409 naming amountCents)', () => {
    given(capturedHistory)
      .when(refund(2501))
      .thenThrows({
        status: 409,
        message: 'The refund exceeds what remains refundable (2500 cents)',
        fields: { amountCents: expect.any(String) },
      });
    given([...capturedHistory, refunded('rf-1', 2000)])
      .when(refund(501, 'rf-2'))
      .thenThrows({
        status: 409,
        message: 'The refund exceeds what remains refundable (500 cents)',
      });
    given([...capturedHistory, refunded('rf-1', 2500)])
      .when(refund(1, 'rf-2'))
      .thenThrows({ status: 409 });
  });

  it('refunds against the captured amount, not the requested one', () => {
    const partialCapture = [requested, sent, authorized(), captured('ev-c', 2000)];
    given(partialCapture).when(refund(2001)).thenThrows({ status: 409 });
    given(partialCapture)
      .when(refund(2000))
      .then([refunded('rf-1', 2000)]);
  });

  it.each([0, -5, 2.5])('refuses amountCents %s (400)', (amountCents) => {
    given(capturedHistory)
      .when(refund(amountCents))
      .thenThrows({ status: 400, fields: { amountCents: expect.any(String) } });
  });

  it('needs a reason of at most 500 characters', () => {
    given(capturedHistory)
      .when(refund(100, 'rf-1', '  '))
      .thenThrows({ status: 400, fields: { reason: 'Reason is required' } });
    given(capturedHistory)
      .when(refund(100, 'rf-1', 'x'.repeat(501)))
      .thenThrows({ status: 400, fields: { reason: expect.any(String) } });
  });

  it('changes nothing for a refund id already recorded', () => {
    given([...capturedHistory, refunded('rf-1', 2500)])
      .when(refund(2500))
      .then([]);
  });

  it.each([
    ['pending', []],
    ['authorized', [sent, authorized()]],
    ['declined', [sent, declined]],
    ['cancelled', [sent, cancelled]],
    ['expired', [sent, expired]],
  ])('refuses a payment that is %s (409)', (_status, after) => {
    given([requested, ...after])
      .when(refund(100))
      .thenThrows({ status: 409, code: 'conflict' });
  });

  it("is 'not found' for another company's payment", () => {
    given(capturedHistory)
      .when(refund(100, 'rf-1', 'Damaged', 'c-2'))
      .thenThrows({ status: 404 });
  });
});

describe('ConfirmRefund', () => {
  it('records the processor’s confirmation of a pending refund', () => {
    given([...capturedHistory, refunded('rf-1', 1000)])
      .when(confirmRefund('rf-1'))
      .then([refundConfirmed('rf-1')]);
  });

  it('changes nothing for a refund already confirmed or refused', () => {
    given([...capturedHistory, refunded('rf-1', 1000), refundConfirmed('rf-1')])
      .when(confirmRefund('rf-1'))
      .then([]);
    given([...capturedHistory, refunded('rf-1', 1000), refundFailed('rf-1', 1000)])
      .when(confirmRefund('rf-1'))
      .then([]);
  });

  it("is 'not found' for a refund never recorded", () => {
    given([...capturedHistory, refunded('rf-1', 1000)])
      .when(confirmRefund('rf-9'))
      .thenThrows({ status: 404 });
  });

  it('shows the refund pending until confirmed, counted as refunded either way', () => {
    const pending = [...capturedHistory, refunded('rf-1', 1000)];
    const statusOf = (history: PaymentEvent[]) =>
      history.reduce(paymentDecider.evolve, paymentDecider.initialState());
    expect(statusOf(pending)).toMatchObject({
      refundedCents: 1000,
      refunds: [{ id: 'rf-1', status: 'pending' }],
    });
    expect(statusOf([...pending, refundConfirmed('rf-1')])).toMatchObject({
      refundedCents: 1000,
      refunds: [{ id: 'rf-1', status: 'succeeded' }],
    });
  });
});

describe('FailRefund', () => {
  it('records the refusal of a recorded refund, with its amount', () => {
    given([...capturedHistory, refunded('rf-1', 1000), refunded('rf-2', 500)])
      .when(failRefund('rf-2'))
      .then([refundFailed('rf-2', 500)]);
  });

  it('changes nothing for a refund already failed', () => {
    given([...capturedHistory, refunded('rf-1', 1000), refundFailed('rf-1', 1000)])
      .when(failRefund('rf-1'))
      .then([]);
  });

  it("is 'not found' for a refund never recorded", () => {
    given([...capturedHistory, refunded('rf-1', 1000)])
      .when(failRefund('rf-9'))
      .thenThrows({ status: 404 });
    given([requested]).when(failRefund()).thenThrows({ status: 404 });
  });

  it('gives the amount back to what may be refunded, so a new refund can take it', () => {
    const history = [...capturedHistory, refunded('rf-1', 2500), refundFailed('rf-1', 2500)];
    given(history)
      .when(refund(2500, 'rf-2'))
      .then([refunded('rf-2', 2500)]);
    given(history).when(refund(2501, 'rf-2')).thenThrows({ status: 409 });
  });

  it('a repeat of the failed refund id records nothing new', () => {
    given([...capturedHistory, refunded('rf-1', 1000), refundFailed('rf-1', 1000)])
      .when(refund(1000, 'rf-1'))
      .then([]);
  });
});

describe('evolvePayment', () => {
  it('shows a failed refund with its reason, no longer counted as refunded', () => {
    const state = [
      ...capturedHistory,
      refunded('rf-1', 1000),
      refunded('rf-2', 500),
      refundFailed('rf-1', 1000),
    ].reduce(paymentDecider.evolve, paymentDecider.initialState());
    expect(state).toMatchObject({
      status: 'captured',
      refundedCents: 500,
      refunds: [
        {
          id: 'rf-1',
          amountCents: 1000,
          status: 'failed',
          failureReason: 'expired_or_canceled_card',
        },
        { id: 'rf-2', amountCents: 500, status: 'pending', failureReason: null },
      ],
    });
  });

  it('keeps the refunded total, the refunds and the seen gateway event ids', () => {
    const state = [...capturedHistory, refunded('rf-1', 1000), refunded('rf-2', 500)].reduce(
      paymentDecider.evolve,
      paymentDecider.initialState(),
    );
    expect(state).toMatchObject({
      status: 'captured',
      capturedCents: 2500,
      refundedCents: 1500,
      refunds: [{ id: 'rf-1' }, { id: 'rf-2' }],
      seenGatewayEventIds: ['ev-a', 'ev-c'],
      cardBrand: 'visa',
      completedAt: later.toISOString(),
    });
  });
});

describe('saving the card and charging a saved card', () => {
  it('records the customer’s agreement to save the card; without a customer it is a 400 naming saveCard', () => {
    given([])
      .when(request({ saveCard: true }))
      .then([{ ...requested, data: { ...requested.data, saveCard: true } } as PaymentEvent]);
    given([])
      .when(request({ saveCard: true, customerId: null }))
      .thenThrows({ status: 400, fields: { saveCard: expect.any(String) } });
  });

  const charge = {
    type: 'RequestCardCharge',
    data: {
      ...ids,
      customerId: 'cu-1',
      paymentMethodId: 'pm_1',
      cardToken: 'card_tok',
      amountCents: 1500,
      currency: 'CAD',
      description: 'Invoice 1',
      requestedBy: 'billing',
      now,
      expiresAt,
    },
  } as const;

  it('an off-session charge is a payment under the off_session terminal, carrying its card', () => {
    given([])
      .when(charge)
      .then([
        {
          type: 'PaymentRequested',
          data: {
            ...ids,
            terminalId: 'off_session',
            amountCents: 1500,
            currency: 'CAD',
            customerId: 'cu-1',
            description: 'Invoice 1',
            requestedBy: 'billing',
            requestedAt: now.toISOString(),
            expiresAt: expiresAt.toISOString(),
            paymentMethodId: 'pm_1',
            cardToken: 'card_tok',
          },
        },
      ]);
  });

  it('is recorded once (a replay is a 409) and its amount checked like any payment', () => {
    given([requested]).when(charge).thenThrows({ status: 409 });
    given([])
      .when({ ...charge, data: { ...charge.data, amountCents: 0 } })
      .thenThrows({ status: 400, fields: { amountCents: expect.any(String) } });
  });
});
