import type { CapTableEvent } from '@issuer/events';
import { describe, expect, it } from 'vitest';
import { deciderSpecification } from '../auth/testing/deciderSpecification';
import { capTableDecider } from './businessLogic';

const spec = deciderSpecification(capTableDecider);
const companyId = 'c-1';
const actorId = 'u-1';
const now = new Date('2026-03-01T12:00:00.000Z');
const day = 86_400_000;
const daysAgo = (days: number) => new Date(now.getTime() - days * day);
const shareClassId = 'shc_common';
const terms = {
  name: 'Common',
  kind: 'common' as const,
  votesPerShare: 1,
  parValue: '0.0001',
  liquidationPreferenceMultiple: 1,
  seniority: 0,
  authorized: 1000,
};
const acting = { companyId, actorId, now };

const created: CapTableEvent = {
  type: 'ShareClassCreated',
  data: {
    companyId,
    shareClassId,
    ...terms,
    createdBy: actorId,
    createdAt: daysAgo(30).toISOString(),
  },
};
const issued = (customerId: string, shares: number, at: Date, issuanceId = `iss_${customerId}`) =>
  ({
    type: 'SharesIssued',
    data: {
      companyId,
      shareClassId,
      issuanceId,
      customerId,
      shares,
      issuedAt: at.toISOString(),
      reason: 'Founder grant',
      issuedBy: actorId,
    },
  }) satisfies CapTableEvent;

const issue = (customerId: string, shares: number, date = now, issuanceId = 'iss_new') => ({
  type: 'IssueShares' as const,
  data: { ...acting, issuanceId, shareClassId, customerId, shares, date, reason: 'Founder grant' },
});
const transfer = (from: string, to: string, shares: number, date = now) => ({
  type: 'TransferShares' as const,
  data: {
    ...acting,
    transferId: 'trf_new',
    shareClassId,
    fromCustomerId: from,
    toCustomerId: to,
    shares,
    date,
    reason: 'Secondary sale',
  },
});

describe('an empty cap table', () => {
  it('creates a share class with its terms', () => {
    spec
      .given([])
      .when({ type: 'CreateShareClass', data: { ...acting, shareClassId, ...terms } })
      .then([
        {
          type: 'ShareClassCreated',
          data: {
            companyId,
            shareClassId,
            ...terms,
            createdBy: actorId,
            createdAt: now.toISOString(),
          },
        },
      ]);
  });

  it('cannot issue shares of a class it does not have', () => {
    spec.given([]).when(issue('cu-1', 10)).thenThrows({ status: 404 });
  });
});

describe('a share class', () => {
  it('refuses a second class of the same name', () => {
    spec
      .given([created])
      .when({
        type: 'CreateShareClass',
        data: { ...acting, shareClassId: 'shc_other', ...terms, name: ' common ' },
      })
      .thenThrows({ status: 409, fields: { name: 'Already in use' } });
  });

  it('issues up to its authorized count and not one share more', () => {
    spec
      .given([created, issued('cu-1', 900, daysAgo(2))])
      .when(issue('cu-2', 100))
      .then([issued('cu-2', 100, now, 'iss_new')]);
    spec
      .given([created, issued('cu-1', 900, daysAgo(2))])
      .when(issue('cu-2', 101))
      .thenThrows({ status: 409, fields: { shares: expect.stringContaining('Only 100 shares') } });
  });

  it('does nothing when the same issuance id comes again (a retried process)', () => {
    spec
      .given([created, issued('cu-1', 10, daysAgo(2), 'iss_new')])
      .when(issue('cu-1', 10))
      .then([]);
  });

  it('refuses a date in the future, or before the latest movement', () => {
    spec
      .given([created])
      .when(issue('cu-1', 10, new Date(now.getTime() + 60_000)))
      .thenThrows({ status: 400, fields: { date: 'Must not be in the future' } });
    spec
      .given([created, issued('cu-1', 10, daysAgo(2))])
      .when(issue('cu-2', 10, daysAgo(3)))
      .thenThrows({ status: 409, fields: { date: expect.stringContaining('on or after') } });
  });

  it('refuses zero or fractional shares', () => {
    spec
      .given([created])
      .when(issue('cu-1', 0))
      .thenThrows({ status: 400, fields: { shares: expect.any(String) } });
    spec.given([created]).when(issue('cu-1', 1.5)).thenThrows({ status: 400 });
  });

  it('changes every term while unused, then only its name and authorized count', () => {
    const update = (changes: object) => ({
      type: 'UpdateShareClass' as const,
      data: { ...acting, shareClassId, ...terms, ...changes },
    });
    spec
      .given([created])
      .when(update({ kind: 'preferred', liquidationPreferenceMultiple: 1.5 }))
      .then([
        {
          type: 'ShareClassUpdated',
          data: {
            companyId,
            shareClassId,
            ...terms,
            kind: 'preferred',
            liquidationPreferenceMultiple: 1.5,
            updatedBy: actorId,
            updatedAt: now.toISOString(),
          },
        },
      ]);
    const used = [created, issued('cu-1', 600, daysAgo(1))];
    spec
      .given(used)
      .when(update({ votesPerShare: 10 }))
      .thenThrows({ status: 409, fields: { votesPerShare: expect.any(String) } });
    spec
      .given(used)
      .when(update({ authorized: 599 }))
      .thenThrows({
        status: 409,
        fields: { authorized: 'At least 600, the shares already issued' },
      });
    spec
      .given(used)
      .when(update({ authorized: 600 }))
      .then([
        {
          type: 'ShareClassUpdated',
          data: {
            companyId,
            shareClassId,
            ...terms,
            authorized: 600,
            updatedBy: actorId,
            updatedAt: now.toISOString(),
          },
        },
      ]);
    spec.given(used).when(update({})).then([]);
  });
});

describe('transfers', () => {
  const history = [created, issued('cu-1', 100, daysAgo(5))];

  it('moves what the sender holds', () => {
    spec
      .given(history)
      .when(transfer('cu-1', 'cu-2', 100))
      .then([
        {
          type: 'SharesTransferred',
          data: {
            companyId,
            shareClassId,
            transferId: 'trf_new',
            fromCustomerId: 'cu-1',
            toCustomerId: 'cu-2',
            shares: 100,
            transferredAt: now.toISOString(),
            reason: 'Secondary sale',
            transferredBy: actorId,
          },
        },
      ]);
  });

  it('never more than the sender holds, counting earlier transfers', () => {
    spec
      .given(history)
      .when(transfer('cu-1', 'cu-2', 101))
      .thenThrows({ status: 409, fields: { shares: 'The sender holds 100 shares of Common' } });
    const moved: CapTableEvent = {
      type: 'SharesTransferred',
      data: {
        companyId,
        shareClassId,
        transferId: 'trf_1',
        fromCustomerId: 'cu-1',
        toCustomerId: 'cu-2',
        shares: 60,
        transferredAt: daysAgo(1).toISOString(),
        reason: 'Sale',
        transferredBy: actorId,
      },
    };
    spec
      .given([...history, moved])
      .when(transfer('cu-1', 'cu-3', 41))
      .thenThrows({ status: 409, fields: { shares: 'The sender holds 40 shares of Common' } });
    spec
      .given([...history, moved])
      .when(transfer('cu-2', 'cu-3', 60))
      .then([expect.anything()] as never);
  });

  it('not to the sender itself', () => {
    spec
      .given(history)
      .when(transfer('cu-1', 'cu-1', 1))
      .thenThrows({ status: 400, fields: { toCustomerId: 'Must differ from the sender' } });
  });
});
