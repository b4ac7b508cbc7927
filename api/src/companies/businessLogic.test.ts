import type { CompanyEvent } from '@issuer/events';
import { describe, expect, it } from 'vitest';
import { deciderSpecification } from '../auth/testing/deciderSpecification';
import { decideCompany } from './businessLogic';
import { evolveCompany, initialCompany } from './company';

const { given } = deciderSpecification({
  decide: decideCompany,
  evolve: evolveCompany,
  initialState: initialCompany,
});

const companyId = 'c-1';
const now = new Date('2025-03-01T10:00:00.000Z');
const registered: CompanyEvent = {
  type: 'CompanyRegistered',
  data: {
    companyId,
    name: 'Acme Mining',
    symbol: 'ACME',
    registeredBy: 'u-1',
    registeredAt: now.toISOString(),
  },
};
const terminal = (n: number): CompanyEvent => ({
  type: 'PaymentTerminalRegistered',
  data: { companyId, terminalId: `t-${n}`, name: `Till ${n}`, deviceId: `dev-${n}` },
});

describe('a company that is not registered', () => {
  it('is registered', () =>
    given([])
      .when({
        type: 'RegisterCompany',
        data: { companyId, name: 'Acme Mining', symbol: 'ACME', registeredBy: 'u-1', now },
      })
      .then([registered]));

  it('cannot be verified', () =>
    given([])
      .when({ type: 'VerifyCompany', data: { operatorId: 'op', now } })
      .thenThrows({ status: 404 }));
});

describe('a registered company', () => {
  it('cannot be registered again', () =>
    given([registered])
      .when({
        type: 'RegisterCompany',
        data: { companyId, name: 'Other', symbol: 'OTH', registeredBy: 'u-2', now },
      })
      .thenThrows({ status: 409 }));

  it('is verified by the operator', () =>
    given([registered])
      .when({ type: 'VerifyCompany', data: { operatorId: 'op', now } })
      .then([
        {
          type: 'CompanyVerified',
          data: { companyId, verifiedBy: 'op', verifiedAt: now.toISOString() },
        },
      ]));

  it('is granted issuer status', () =>
    given([registered])
      .when({ type: 'SetIssuerStatus', data: { isIssuer: true, operatorId: 'op', now } })
      .then([
        {
          type: 'IssuerStatusGranted',
          data: { companyId, grantedBy: 'op', grantedAt: now.toISOString() },
        },
      ]));

  it('without issuer status has nothing to revoke', () =>
    given([registered])
      .when({ type: 'SetIssuerStatus', data: { isIssuer: false, operatorId: 'op', now } })
      .then([]));

  it('updates its profile', () =>
    given([registered])
      .when({ type: 'UpdateCompanyProfile', data: { name: 'Acme Gold', avatar: null } })
      .then([
        { type: 'CompanyProfileUpdated', data: { companyId, name: 'Acme Gold', avatar: null } },
      ]));

  it('registers a payment terminal', () =>
    given([registered])
      .when({
        type: 'RegisterPaymentTerminal',
        data: { terminalId: 't-1', name: 'Till 1', deviceId: 'dev-1' },
      })
      .then([terminal(1)]));

  it('refuses a device registered twice', () =>
    given([registered, terminal(1)])
      .when({
        type: 'RegisterPaymentTerminal',
        data: { terminalId: 't-9', name: 'Again', deviceId: 'dev-1' },
      })
      .thenThrows({ status: 409, fields: { deviceId: expect.any(String) } }));

  it('cannot rename a terminal it does not have', () =>
    given([registered])
      .when({ type: 'RenamePaymentTerminal', data: { terminalId: 't-1', name: 'x' } })
      .thenThrows({ status: 404, message: 'Payment terminal not found' }));
});

describe('a verified issuer', () => {
  const verified: CompanyEvent = {
    type: 'CompanyVerified',
    data: { companyId, verifiedBy: 'op', verifiedAt: now.toISOString() },
  };
  const issuer: CompanyEvent = {
    type: 'IssuerStatusGranted',
    data: { companyId, grantedBy: 'op', grantedAt: now.toISOString() },
  };

  it('is not verified twice', () =>
    given([registered, verified])
      .when({ type: 'VerifyCompany', data: { operatorId: 'op', now } })
      .then([]));

  it('loses issuer status when the operator revokes it', () =>
    given([registered, verified, issuer])
      .when({ type: 'SetIssuerStatus', data: { isIssuer: false, operatorId: 'op', now } })
      .then([
        {
          type: 'IssuerStatusRevoked',
          data: { companyId, revokedBy: 'op', revokedAt: now.toISOString() },
        },
      ]));
});

describe('a company with three payment terminals', () => {
  const three = [registered, terminal(1), terminal(2), terminal(3)];

  it('refuses a fourth with a clear message', () =>
    given(three)
      .when({
        type: 'RegisterPaymentTerminal',
        data: { terminalId: 't-4', name: 'Till 4', deviceId: 'dev-4' },
      })
      .thenThrows({
        status: 409,
        message: 'A company can have at most 3 payment terminals: remove one before adding another',
      }));

  it('accepts a new one after removing one', () =>
    given([...three, { type: 'PaymentTerminalRemoved', data: { companyId, terminalId: 't-2' } }])
      .when({
        type: 'RegisterPaymentTerminal',
        data: { terminalId: 't-4', name: 'Till 4', deviceId: 'dev-4' },
      })
      .then([terminal(4)]));

  it('renames one', () =>
    given(three)
      .when({ type: 'RenamePaymentTerminal', data: { terminalId: 't-2', name: 'Front desk' } })
      .then([
        {
          type: 'PaymentTerminalRenamed',
          data: { companyId, terminalId: 't-2', name: 'Front desk' },
        },
      ]));
});

describe("the operator's undoable decisions", () => {
  const at = now.toISOString();
  const decision = { operatorId: 'op', reason: 'Chargebacks under review', now };
  const verified: CompanyEvent = {
    type: 'CompanyVerified',
    data: { companyId, verifiedBy: 'op', verifiedAt: at },
  };
  const suspended: CompanyEvent = {
    type: 'CompanySuspended',
    data: { companyId, reason: decision.reason, suspendedBy: 'op', suspendedAt: at },
  };

  it('revokes a verification with its reason, and lets it be verified again', () =>
    given([registered, verified])
      .when({ type: 'RevokeVerification', data: decision })
      .then([
        {
          type: 'CompanyVerificationRevoked',
          data: { companyId, reason: decision.reason, revokedBy: 'op', revokedAt: at },
        },
      ]));

  it('refuses to revoke a verification the company does not have', () =>
    given([registered])
      .when({ type: 'RevokeVerification', data: decision })
      .thenThrows({ status: 409 }));

  it('suspends a company once, and reinstates only a suspended one', () => {
    given([registered]).when({ type: 'SuspendCompany', data: decision }).then([suspended]);
    given([registered, suspended])
      .when({ type: 'SuspendCompany', data: decision })
      .thenThrows({ status: 409 });
    given([registered])
      .when({ type: 'ReinstateCompany', data: decision })
      .thenThrows({ status: 409 });
    given([registered, suspended])
      .when({ type: 'ReinstateCompany', data: { ...decision, reason: 'Review closed' } })
      .then([
        {
          type: 'CompanyReinstated',
          data: { companyId, reason: 'Review closed', reinstatedBy: 'op', reinstatedAt: at },
        },
      ]);
  });

  it('is refused for a company that does not exist', () =>
    given([]).when({ type: 'SuspendCompany', data: decision }).thenThrows({ status: 404 }));
});
