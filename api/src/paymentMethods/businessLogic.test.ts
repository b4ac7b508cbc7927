import type { PaymentMethodEvent } from '@issuer/events';
import { describe, it } from 'vitest';
import { deciderSpecification } from '../auth/testing/deciderSpecification';
import { paymentMethodDecider } from './businessLogic';

const { given } = deciderSpecification(paymentMethodDecider);
const now = new Date('2026-03-01T10:00:00.000Z');
const ids = { paymentMethodId: 'pm_1', companyId: 'c-1', customerId: 'cu-1' };
const card = {
  paymentId: 'pay_1',
  cardToken: 'card_tok',
  cardBrand: 'visa',
  cardLast4: '4242',
  expMonth: 12,
  expYear: 2029,
};
const save = { type: 'SaveCard', data: { ...ids, ...card, savedBy: 'u-1', now } } as const;
const saved: PaymentMethodEvent = {
  type: 'CardSaved',
  data: { ...ids, ...card, savedBy: 'u-1', savedAt: now.toISOString() },
};
const remove = (companyId = 'c-1') =>
  ({ type: 'RemoveCard', data: { companyId, actorId: 'u-2', now } }) as const;
const removed: PaymentMethodEvent = {
  type: 'CardRemoved',
  data: { ...ids, removedBy: 'u-2', removedAt: now.toISOString() },
};

describe('saved cards', () => {
  it('saves a card once: a redelivered capture saves nothing again', () => {
    given([]).when(save).then([saved]);
    given([saved]).when(save).then([]);
    given([saved, removed]).when(save).then([]);
  });

  it('records a removal once, with who removed it', () => {
    given([saved]).when(remove()).then([removed]);
    given([saved, removed]).when(remove()).then([]);
  });

  it('another company’s card, or none, is not found', () => {
    given([saved]).when(remove('c-2')).thenThrows({ status: 404 });
    given([]).when(remove()).thenThrows({ status: 404 });
  });
});
