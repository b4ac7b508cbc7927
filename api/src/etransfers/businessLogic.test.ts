import type { EtransferEvent } from '@issuer/events';
import { describe, expect, it } from 'vitest';
import { deciderSpecification } from '../auth/testing/deciderSpecification';
import { type EtransferCommand, etransferDecider, type RequestEtransfer } from './businessLogic';
import type { IncomingEvent, TransferEvent } from './provider';

const { given } = deciderSpecification(etransferDecider);

const companyId = 'c-1';
const etransferId = 'et_1';
const ids = { etransferId, companyId };
const now = new Date('2025-03-01T10:00:00.000Z');
const later = new Date('2025-03-02T10:00:00.000Z');
const expiresAt = new Date('2025-03-31T10:00:00.000Z');
const email = 'ada@engines.test';

const requested: EtransferEvent = {
  type: 'EtransferRequested',
  data: {
    ...ids,
    customerId: 'cu-1',
    recipientEmail: email,
    amountCents: 5000,
    currency: 'CAD',
    message: 'Invoice 12',
    reference: 'INV-12',
    requestedBy: 'u-1',
    requestedAt: now.toISOString(),
    expiresAt: expiresAt.toISOString(),
  },
};
const sent: EtransferEvent = {
  type: 'EtransferSent',
  data: { ...ids, providerTransferId: 'pt-1', sentAt: now.toISOString() },
};
const deposited = (providerEventId = 'ev-1'): EtransferEvent => ({
  type: 'EtransferDeposited',
  data: {
    ...ids,
    providerEventId,
    amountCents: 5000,
    currency: 'CAD',
    depositedAt: later.toISOString(),
  },
});
const declined: EtransferEvent = {
  type: 'EtransferDeclined',
  data: { ...ids, providerEventId: 'ev-2', declinedAt: later.toISOString() },
};
const cancelled: EtransferEvent = {
  type: 'EtransferCancelled',
  data: { ...ids, cancelledBy: 'u-1', cancelledAt: later.toISOString() },
};
const expired: EtransferEvent = {
  type: 'EtransferExpired',
  data: { ...ids, expiredAt: expiresAt.toISOString() },
};
const payoutRequested: EtransferEvent = {
  type: 'PayoutRequested',
  data: {
    ...ids,
    customerId: 'cu-1',
    recipientEmail: email,
    amountCents: 700,
    currency: 'CAD',
    message: null,
    requestedBy: 'u-1',
    requestedAt: now.toISOString(),
  },
};
const incomingReport: IncomingEvent = {
  id: 'ev-in',
  type: 'incoming.received',
  companyId,
  providerTransferId: 'pt-in',
  fromEmail: email,
  amountCents: 1200,
  reference: null,
  occurredAt: now.toISOString(),
};
const incoming = (customerId: string | null): EtransferEvent => ({
  type: 'IncomingEtransferReceived',
  data: {
    ...ids,
    providerEventId: 'ev-in',
    providerTransferId: 'pt-in',
    fromEmail: email,
    amountCents: 1200,
    currency: 'CAD',
    reference: null,
    customerId,
    matchedBy: customerId === null ? null : 'email',
    receivedAt: now.toISOString(),
  },
});
const matched: EtransferEvent = {
  type: 'EtransferMatched',
  data: {
    ...ids,
    customerId: 'cu-2',
    reason: 'Her husband paid',
    matchedBy: 'u-1',
    matchedAt: later.toISOString(),
  },
};

const request = (overrides: Partial<RequestEtransfer['data']> = {}): EtransferCommand => ({
  type: 'RequestEtransfer',
  data: {
    ...ids,
    customerId: 'cu-1',
    recipientEmail: email,
    amountCents: 5000,
    message: 'Invoice 12',
    reference: 'INV-12',
    requestedBy: 'u-1',
    now,
    expiresAt,
    ...overrides,
  },
});
const payout = (amountCents = 700, message: string | null = null): EtransferCommand => ({
  type: 'RequestPayout',
  data: {
    ...ids,
    customerId: 'cu-1',
    recipientEmail: email,
    amountCents,
    message,
    requestedBy: 'u-1',
    now,
  },
});
const markSent: EtransferCommand = {
  type: 'MarkEtransferSent',
  data: { providerTransferId: 'pt-1', now },
};
const report = (event: TransferEvent): EtransferCommand => ({
  type: 'RecordProviderEvent',
  data: { event },
});
const depositReport = (id = 'ev-1'): TransferEvent => ({
  id,
  type: 'request.deposited',
  etransferId,
  providerTransferId: 'pt-1',
  amountCents: 5000,
  occurredAt: later.toISOString(),
});
const declineReport: TransferEvent = {
  id: 'ev-2',
  type: 'request.declined',
  etransferId,
  providerTransferId: 'pt-1',
  occurredAt: later.toISOString(),
};
const payoutSentReport: TransferEvent = {
  id: 'ev-3',
  type: 'payout.sent',
  etransferId,
  providerTransferId: 'pt-3',
  occurredAt: later.toISOString(),
};
const payoutFailedReport: TransferEvent = {
  id: 'ev-4',
  type: 'payout.failed',
  etransferId,
  providerTransferId: 'pt-3',
  reason: 'recipient_not_registered',
  occurredAt: later.toISOString(),
};
const cancel = (company = companyId): EtransferCommand => ({
  type: 'CancelEtransfer',
  data: { companyId: company, actorId: 'u-1', now: later },
});
const expire = (at: Date): EtransferCommand => ({ type: 'ExpireEtransfer', data: { now: at } });
const receive = (customerId: string | null): EtransferCommand => ({
  type: 'ReceiveIncomingEtransfer',
  data: { etransferId, event: incomingReport, customerId, matchedBy: 'email' },
});
const match = (reason = 'Her husband paid', company = companyId): EtransferCommand => ({
  type: 'MatchEtransfer',
  data: { companyId: company, customerId: 'cu-2', reason, actorId: 'u-1', now: later },
});

describe('RequestEtransfer', () => {
  it('records the request with its expiry', () => {
    given([]).when(request()).then([requested]);
  });

  it('names the subscription invoice a billing request collects', () => {
    given([])
      .when(request({ invoiceId: 'in_1_0', requestedBy: 'billing' }))
      .then([
        { ...requested, data: { ...requested.data, invoiceId: 'in_1_0', requestedBy: 'billing' } },
      ]);
  });

  it.each([0, -1, 1.5, 100_000_000, Number.NaN])('refuses amountCents %s', (amountCents) => {
    given([])
      .when(request({ amountCents }))
      .thenThrows({ status: 400, fields: { amountCents: expect.any(String) } });
  });

  it('refuses a message or a reference over its length', () => {
    given([])
      .when(request({ message: 'x'.repeat(401) }))
      .thenThrows({ status: 400, fields: { message: expect.any(String) } });
    given([])
      .when(request({ reference: 'x'.repeat(101) }))
      .thenThrows({ status: 400, fields: { reference: expect.any(String) } });
  });

  it.each([
    ['in the past', new Date('2025-02-28T10:00:00.000Z')],
    ['now', now],
    ['over 45 days away', new Date('2025-04-16T10:00:00.000Z')],
  ])('refuses an expiry %s', (_, at) => {
    given([])
      .when(request({ expiresAt: at }))
      .thenThrows({ status: 400, fields: { expiresAt: expect.any(String) } });
  });

  it('refuses a second request on the same stream', () => {
    given([requested]).when(request()).thenThrows({ status: 409 });
  });
});

describe('MarkEtransferSent', () => {
  it('marks a requested one sent, once', () => {
    given([requested]).when(markSent).then([sent]);
    given([requested, sent]).when(markSent).then([]);
  });

  it('leaves a request the customer already paid (the webhook came first)', () => {
    given([requested, deposited()]).when(markSent).then([]);
  });

  it('is 404 on a stream that does not exist', () => {
    given([]).when(markSent).thenThrows({ status: 404 });
  });
});

describe('RecordProviderEvent on a money request', () => {
  it('records a deposit, once (a duplicate changes nothing)', () => {
    given([requested, sent]).when(report(depositReport())).then([deposited()]);
    given([requested, sent, deposited()]).when(report(depositReport())).then([]);
    given([requested, sent, deposited()])
      .when(report(depositReport('ev-9')))
      .then([]);
  });

  it('records a deposit that arrives before the sent mark', () => {
    given([requested]).when(report(depositReport())).then([deposited()]);
  });

  it('records a deposit after a cancel or an expiry: the money moved', () => {
    given([requested, sent, cancelled]).when(report(depositReport())).then([deposited()]);
    given([requested, sent, expired]).when(report(depositReport())).then([deposited()]);
  });

  it('records a decline while waiting, and ignores it (or a deposit) once settled', () => {
    given([requested, sent]).when(report(declineReport)).then([declined]);
    given([requested, sent, deposited()]).when(report(declineReport)).then([]);
    given([requested, sent, declined]).when(report(depositReport())).then([]);
    given([requested, sent, cancelled]).when(report(declineReport)).then([]);
  });

  it('ignores payout reports on a request', () => {
    given([requested, sent]).when(report(payoutSentReport)).then([]);
    given([requested, sent]).when(report(payoutFailedReport)).then([]);
  });
});

describe('CancelEtransfer', () => {
  it('cancels a request the customer has not answered', () => {
    given([requested]).when(cancel()).then([cancelled]);
    given([requested, sent]).when(cancel()).then([cancelled]);
  });

  it('refuses once settled (409) and hides another company’s (404)', () => {
    given([requested, sent, deposited()]).when(cancel()).thenThrows({ status: 409 });
    given([requested, sent, declined]).when(cancel()).thenThrows({ status: 409 });
    given([requested, cancelled]).when(cancel()).thenThrows({ status: 409 });
    given([payoutRequested]).when(cancel()).thenThrows({ status: 409 });
    given([requested]).when(cancel('c-2')).thenThrows({ status: 404 });
    given([]).when(cancel()).thenThrows({ status: 404 });
  });
});

describe('ExpireEtransfer', () => {
  it('expires a waiting request at its expiry time, not before', () => {
    given([requested, sent]).when(expire(expiresAt)).then([expired]);
    given([requested, sent]).when(expire(later)).then([]);
  });

  it('leaves a request that moved on, and payouts', () => {
    given([requested, sent, deposited()]).when(expire(expiresAt)).then([]);
    given([requested, cancelled]).when(expire(expiresAt)).then([]);
    given([payoutRequested]).when(expire(expiresAt)).then([]);
  });
});

describe('ReceiveIncomingEtransfer', () => {
  it('records the autodeposit, matched or not', () => {
    given([])
      .when(receive('cu-1'))
      .then([incoming('cu-1')]);
    given([])
      .when(receive(null))
      .then([incoming(null)]);
  });

  it('changes nothing when redelivered', () => {
    given([incoming(null)])
      .when(receive('cu-1'))
      .then([]);
  });
});

describe('MatchEtransfer', () => {
  it('matches an unmatched incoming e-transfer, recording who and why', () => {
    given([incoming(null)])
      .when(match())
      .then([matched]);
  });

  it('is idempotent for the same match, 409 for another', () => {
    given([incoming(null), matched])
      .when(match())
      .then([]);
    given([incoming(null), matched])
      .when(match('Another reason'))
      .thenThrows({ status: 409 });
    given([incoming('cu-1')])
      .when(match())
      .thenThrows({ status: 409 });
  });

  it('needs a reason of at most 500 characters', () => {
    given([incoming(null)])
      .when(match('  '))
      .thenThrows({ status: 400, fields: { reason: expect.any(String) } });
    given([incoming(null)])
      .when(match('x'.repeat(501)))
      .thenThrows({ status: 400, fields: { reason: expect.any(String) } });
  });

  it('refuses a request or a payout, and another company’s', () => {
    given([requested]).when(match()).thenThrows({ status: 409 });
    given([payoutRequested]).when(match()).thenThrows({ status: 409 });
    given([incoming(null)])
      .when(match('Why', 'c-2'))
      .thenThrows({ status: 404 });
    given([]).when(match()).thenThrows({ status: 404 });
  });
});

describe('RequestPayout', () => {
  const sentPayout: EtransferEvent = {
    type: 'PayoutSent',
    data: {
      ...ids,
      providerEventId: 'ev-3',
      providerTransferId: 'pt-3',
      sentAt: later.toISOString(),
    },
  };
  const failedPayout: EtransferEvent = {
    type: 'PayoutFailed',
    data: {
      ...ids,
      providerEventId: 'ev-4',
      amountCents: 700,
      reason: 'recipient_not_registered',
      failedAt: later.toISOString(),
    },
  };

  it('records the payout; a retry of the same id changes nothing', () => {
    given([]).when(payout()).then([payoutRequested]);
    given([payoutRequested]).when(payout()).then([]);
  });

  it('refuses a bad amount or an over-long message', () => {
    given([])
      .when(payout(0))
      .thenThrows({ status: 400, fields: { amountCents: expect.any(String) } });
    given([])
      .when(payout(700, 'x'.repeat(401)))
      .thenThrows({ status: 400, fields: { message: expect.any(String) } });
  });

  it('records sent or failed once; the other report after it changes nothing', () => {
    given([payoutRequested]).when(report(payoutSentReport)).then([sentPayout]);
    given([payoutRequested]).when(report(payoutFailedReport)).then([failedPayout]);
    given([payoutRequested, sentPayout]).when(report(payoutFailedReport)).then([]);
    given([payoutRequested, failedPayout]).when(report(payoutSentReport)).then([]);
    given([payoutRequested, sentPayout]).when(report(payoutSentReport)).then([]);
  });

  it('ignores request reports on a payout', () => {
    given([payoutRequested]).when(report(depositReport())).then([]);
    given([payoutRequested]).when(report(declineReport)).then([]);
  });
});

describe('evolve', () => {
  it('folds a request to deposited, an incoming one to matched', () => {
    const fold = (events: EtransferEvent[]) =>
      events.reduce(etransferDecider.evolve, etransferDecider.initialState());
    expect(fold([requested, sent, deposited()])).toMatchObject({
      kind: 'request',
      status: 'deposited',
      providerTransferId: 'pt-1',
      completedAt: later.toISOString(),
    });
    expect(fold([incoming(null), matched])).toMatchObject({
      kind: 'incoming',
      status: 'deposited',
      customerId: 'cu-2',
      matchedBy: 'manual',
      matchedByUser: 'u-1',
      matchReason: 'Her husband paid',
    });
  });
});
