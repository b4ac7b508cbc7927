import type { TokenOrderEvent } from '@issuer/events';
import { describe, expect, it } from 'vitest';
import { deciderSpecification } from '../auth/testing/deciderSpecification';
import { type OrderCommand, orderDecider } from './businessLogic';

const spec = deciderSpecification(orderDecider);
const now = new Date('2026-03-01T12:00:00.000Z');
const at = now.toISOString();
const ids = { companyId: 'c-1', orderId: 'ord_1' };

const placed: TokenOrderEvent = {
  type: 'TokenOrderPlaced',
  data: {
    ...ids,
    roundId: 'rnd_1',
    customerId: 'cu-1',
    shareClassId: 'shc_1',
    tokens: 10,
    tokenPriceCents: 100,
    amountCents: 1000,
    currency: 'CAD',
    walletAddress: '0x52908400098527886E0F7030069857D2E4169EE7',
    paymentMethod: 'terminal',
    terminalId: 'trm_1',
    paymentId: 'pay_1',
    placedBy: 'u-1',
    placedAt: at,
  },
};
const awaiting: TokenOrderEvent = {
  type: 'TokenOrderPaymentRequested',
  data: { ...ids, paymentId: 'pay_1', requestedAt: at },
};
const funds: TokenOrderEvent = {
  type: 'TokenOrderFundsReceived',
  data: { ...ids, paymentId: 'pay_1', amountCents: 1000, receivedAt: at },
};
const started = (attempt: number): TokenOrderEvent => ({
  type: 'TokenOrderDistributionStarted',
  data: { ...ids, attempt, startedAt: at },
});
const failed = (attempt: number, held: boolean): TokenOrderEvent => ({
  type: 'TokenOrderDistributionFailed',
  data: { ...ids, attempt, error: 'down', held, failedAt: at },
});
const cancel: OrderCommand = {
  type: 'CancelOrder',
  data: { companyId: 'c-1', actorId: 'u-1', reason: 'Changed their mind', now },
};

describe('an order awaiting payment', () => {
  it('records its funds once', () => {
    spec
      .given([placed, awaiting])
      .when({ type: 'RecordFundsReceived', data: { amountCents: 1000, now } })
      .then([funds]);
    spec
      .given([placed, awaiting, funds])
      .when({ type: 'RecordFundsReceived', data: { amountCents: 1000, now } })
      .then([]);
  });
  it('fails with its payment', () =>
    spec
      .given([placed, awaiting])
      .when({ type: 'RecordPaymentFailed', data: { reason: 'expired', now } })
      .then([
        {
          type: 'TokenOrderPaymentFailed',
          data: { ...ids, paymentId: 'pay_1', reason: 'expired', failedAt: at },
        },
      ]));
  it('is cancelled', () =>
    spec
      .given([placed, awaiting])
      .when(cancel)
      .then([
        {
          type: 'TokenOrderCancelled',
          data: { ...ids, cancelledBy: 'u-1', reason: 'Changed their mind', cancelledAt: at },
        },
      ]));
  it('is another company’s: not found', () =>
    spec
      .given([placed])
      .when({ ...cancel, data: { ...cancel.data, companyId: 'c-2' } } as OrderCommand)
      .thenThrows({ status: 404 }));
});

describe('an order whose funds were received', () => {
  it('cannot be cancelled: it is refunded instead', () =>
    spec
      .given([placed, awaiting, funds])
      .when(cancel)
      .thenThrows({ status: 409, message: expect.stringContaining('refund it instead') }));
  it('starts its distribution once, attempt by attempt', () => {
    spec
      .given([placed, awaiting, funds])
      .when({ type: 'StartDistribution', data: { attempt: 1, now } })
      .then([started(1)]);
    spec
      .given([placed, awaiting, funds, started(1)])
      .when({ type: 'StartDistribution', data: { attempt: 1, now } })
      .then([]);
  });
  it('is held after its third failed attempt, until a person retries', () => {
    spec
      .given([
        placed,
        awaiting,
        funds,
        started(1),
        failed(1, false),
        started(2),
        failed(2, false),
        started(3),
      ])
      .when({ type: 'RecordDistributionFailed', data: { attempt: 3, error: 'down', now } })
      .then([failed(3, true)]);
    const held = [
      placed,
      awaiting,
      funds,
      started(1),
      failed(1, false),
      started(2),
      failed(2, false),
      started(3),
      failed(3, true),
    ];
    spec
      .given(held)
      .when({ type: 'StartDistribution', data: { attempt: 4, now } })
      .then([]);
    spec
      .given(held)
      .when({ type: 'StartDistribution', data: { attempt: 4, manual: true, now } })
      .then([started(4)]);
  });
});

describe('an order paid by e-transfer', () => {
  const {
    terminalId: _terminal,
    paymentId: _payment,
    ...terminalOrder
  } = placed.data as Extract<TokenOrderEvent, { type: 'TokenOrderPlaced' }>['data'];
  const byEtransfer: TokenOrderEvent = {
    type: 'TokenOrderPlaced',
    data: { ...terminalOrder, paymentMethod: 'etransfer', etransferId: 'et_1' },
  };

  it('names its request, not a payment, in every money event', () => {
    spec
      .given([byEtransfer])
      .when({ type: 'MarkPaymentRequested', data: { now } })
      .then([
        {
          type: 'TokenOrderPaymentRequested',
          data: { ...ids, etransferId: 'et_1', requestedAt: at },
        },
      ]);
    const requested: TokenOrderEvent = {
      type: 'TokenOrderPaymentRequested',
      data: { ...ids, etransferId: 'et_1', requestedAt: at },
    };
    spec
      .given([byEtransfer, requested])
      .when({ type: 'RecordFundsReceived', data: { amountCents: 1000, now } })
      .then([
        {
          type: 'TokenOrderFundsReceived',
          data: { ...ids, etransferId: 'et_1', amountCents: 1000, receivedAt: at },
        },
      ]);
    spec
      .given([byEtransfer, requested])
      .when({ type: 'RecordPaymentFailed', data: { reason: 'expired', now } })
      .then([
        {
          type: 'TokenOrderPaymentFailed',
          data: { ...ids, etransferId: 'et_1', reason: 'expired', failedAt: at },
        },
      ]);
  });
});
