import {
  type CustomerEvent,
  type CustomerProfile,
  emptyCustomerProfile,
  type InvestorStatus,
  investorStatuses,
  type TransitionKind,
} from '@issuer/events';
import { describe, expect, it } from 'vitest';
import { deciderSpecification } from '../auth/testing/deciderSpecification';
import { customerDecider, investorStatusHasItsOwnCommand } from './businessLogic';
import { customerEmailDecider, customerEmailTakenMessage } from './emailReservation';
import { nextInvestorStatuses } from './investorWorkflow';

const { given } = deciderSpecification(customerDecider);

const companyId = 'c-1';
const customerId = 'cu-1';
const now = new Date('2025-03-01T10:00:00.000Z');
const profile: CustomerProfile = {
  ...emptyCustomerProfile,
  name: 'Ada',
  lastName: 'Lovelace',
  company: 'Analytical Engines',
  jobTitle: 'CTO',
  email: 'ada@engines.test',
};
const added = (investorStatus: InvestorStatus = 'Not Registered'): CustomerEvent => ({
  type: 'CustomerAdded',
  data: {
    customerId,
    companyId,
    profile,
    leadStatus: 'Cold',
    investorStatus,
    starred: false,
    addedAt: now.toISOString(),
  },
});
const ids = { customerId, companyId };
const scoped = <Data extends object>(data: Data) => ({ ...data, companyId });

const changeTo = (to: InvestorStatus, reason: string | null = null) => ({
  type: 'ChangeInvestorStatus' as const,
  data: scoped({ to, reason, evidence: null, actorId: 'u-1', now }),
});

// Written out independently of the table in investorWorkflow.ts, so a slip in either shows.
const allowed: [InvestorStatus, InvestorStatus, TransitionKind][] = [
  ['Not Registered', 'Registered with the product', 'forward'],
  ['Not Registered', 'Cancelled', 'failure'],
  ['Registered with the product', 'KYC Under Review', 'forward'],
  ['Registered with the product', 'KYC Complete', 'forward'],
  ['Registered with the product', 'KYC Failed', 'failure'],
  ['Registered with the product', 'Cancelled', 'failure'],
  ['Registered with the product', 'Not Registered', 'reversal'],
  ['KYC Under Review', 'KYC Complete', 'forward'],
  ['KYC Under Review', 'KYC Failed', 'failure'],
  ['KYC Under Review', 'Cancelled', 'failure'],
  ['KYC Under Review', 'Registered with the product', 'reversal'],
  ['KYC Failed', 'KYC Under Review', 'forward'],
  ['KYC Failed', 'Cancelled', 'failure'],
  ['KYC Failed', 'Registered with the product', 'reversal'],
  ['KYC Complete', 'Documents Signed', 'forward'],
  ['KYC Complete', 'Cancelled', 'failure'],
  ['KYC Complete', 'KYC Under Review', 'reversal'],
  ['KYC Complete', 'Registered with the product', 'reversal'],
  ['Documents Signed', 'Funds Received', 'forward'],
  ['Documents Signed', 'Cancelled', 'failure'],
  ['Documents Signed', 'KYC Complete', 'reversal'],
  ['Funds Received', 'Distribute Tokens', 'forward'],
  ['Funds Received', 'Refunded', 'failure'],
  ['Funds Received', 'Documents Signed', 'reversal'],
  ['Distribute Tokens', 'Complete', 'forward'],
  ['Distribute Tokens', 'Refunded', 'failure'],
  ['Distribute Tokens', 'Funds Received', 'reversal'],
  ['Complete', 'Distribute Tokens', 'reversal'],
  ['Cancelled', 'Not Registered', 'reversal'],
  ['Cancelled', 'Registered with the product', 'reversal'],
  ['Refunded', 'Funds Received', 'reversal'],
];
const kindOf = (from: InvestorStatus, to: InvestorStatus) =>
  allowed.find(([f, t]) => f === from && t === to)?.[2];
const allPairs = investorStatuses.flatMap((from) =>
  investorStatuses.filter((to) => to !== from).map((to) => [from, to] as const),
);

describe('the investor-status workflow', () => {
  it.each(allowed)('%s → %s is allowed as %s', (from, to, kind) =>
    given([added(from)])
      .when(changeTo(to, 'checked the documents'))
      .then([
        {
          type: 'InvestorStatusChanged',
          data: {
            ...ids,
            from,
            to,
            kind,
            reason: 'checked the documents',
            evidence: null,
            changedBy: 'u-1',
            changedAt: now.toISOString(),
          },
        },
      ]),
  );

  it.each(allPairs.filter(([from, to]) => !kindOf(from, to)))(
    '%s → %s is refused with 409 naming both',
    (from, to) =>
      given([added(from)])
        .when(changeTo(to, 'a reason does not help'))
        .thenThrows({
          status: 409,
          message: `The investor status cannot change from '${from}' to '${to}'`,
        }),
  );

  it.each(allowed.filter(([, , kind]) => kind !== 'forward'))(
    '%s → %s (%s) needs a reason',
    (from, to) => {
      for (const reason of [null, '', '   ']) {
        given([added(from)])
          .when(changeTo(to, reason))
          .thenThrows({ status: 400, fields: { reason: expect.stringContaining(from) } });
      }
    },
  );

  it.each(allowed.filter(([, , kind]) => kind === 'forward'))(
    '%s → %s goes forward without a reason',
    (from, to) => {
      const [event] = customerDecider.decide(
        changeTo(to),
        customerDecider.evolve(customerDecider.initialState(), added(from)),
      );
      expect(event).toMatchObject({ type: 'InvestorStatusChanged', data: { to, reason: null } });
    },
  );

  it('records the evidence, trimmed', () => {
    const state = customerDecider.evolve(customerDecider.initialState(), added('KYC Complete'));
    const [event] = customerDecider.decide(
      {
        type: 'ChangeInvestorStatus',
        data: scoped({
          to: 'Documents Signed',
          reason: null,
          evidence: ' doc-42 ',
          actorId: 'u-1',
          now,
        }),
      },
      state,
    );
    expect(event?.data).toMatchObject({ evidence: 'doc-42' });
  });

  it('does nothing when the status is already the one asked for', () =>
    given([added('KYC Complete')])
      .when(changeTo('KYC Complete'))
      .then([]));

  it('offers the next steps of a status to the UI', () =>
    expect(nextInvestorStatuses('Funds Received')).toEqual([
      { status: 'Distribute Tokens', kind: 'forward', reasonRequired: false },
      { status: 'Refunded', kind: 'failure', reasonRequired: true },
      { status: 'Documents Signed', kind: 'reversal', reasonRequired: true },
    ]));
});

describe('a customer not yet added', () => {
  it('is added', () =>
    given([])
      .when({
        type: 'AddCustomer',
        data: scoped({
          customerId,
          profile,
          leadStatus: 'Cold',
          investorStatus: 'Not Registered',
          starred: false,
          now,
        }),
      })
      .then([added()]));

  it.each([
    { type: 'StarCustomer', data: scoped({}) },
    { type: 'RemoveCustomer', data: scoped({ reason: null }) },
    { type: 'ChangeLeadStatus', data: scoped({ to: 'Hot' as const }) },
  ] as const)('is not found by $type', (command) =>
    given([]).when(command).thenThrows({ status: 404 }),
  );
});

describe('an added customer', () => {
  it('cannot be added twice', () =>
    given([added()])
      .when({
        type: 'AddCustomer',
        data: scoped({
          customerId,
          profile,
          leadStatus: 'Cold',
          investorStatus: 'Not Registered',
          starred: false,
          now,
        }),
      })
      .thenThrows({ status: 409 }));

  it("is not found by another company's command", () =>
    given([added()])
      .when({ type: 'StarCustomer', data: { companyId: 'c-2' } })
      .thenThrows({ status: 404 }));

  it('records only the fields that changed, with lead status and star as their own events', () =>
    given([added()])
      .when({
        type: 'UpdateCustomer',
        data: scoped({
          changes: { ...profile, phone: '+1 555 0100', tags: ['vip'] },
          leadStatus: 'Warm',
          starred: true,
          investorStatus: 'Not Registered',
        }),
      })
      .then([
        {
          type: 'CustomerUpdated',
          data: { ...ids, changes: { phone: '+1 555 0100', tags: ['vip'] } },
        },
        { type: 'LeadStatusChanged', data: { ...ids, from: 'Cold', to: 'Warm' } },
        { type: 'CustomerStarred', data: ids },
      ]));

  it('records nothing for an update that changes nothing', () =>
    given([added()])
      .when({ type: 'UpdateCustomer', data: scoped({ changes: profile }) })
      .then([]));

  it('refuses an investor status change through an update', () =>
    given([added()])
      .when({
        type: 'UpdateCustomer',
        data: scoped({ changes: {}, investorStatus: 'KYC Complete' }),
      })
      .thenThrows({ status: 400, message: investorStatusHasItsOwnCommand }));

  it('is starred, then starring again does nothing, and toggling unstars', () => {
    given([added()])
      .when({ type: 'StarCustomer', data: scoped({}) })
      .then([{ type: 'CustomerStarred', data: ids }]);
    const starred: CustomerEvent = { type: 'CustomerStarred', data: ids };
    given([added(), starred])
      .when({ type: 'StarCustomer', data: scoped({}) })
      .then([]);
    given([added(), starred])
      .when({ type: 'ToggleCustomerStar', data: scoped({}) })
      .then([{ type: 'CustomerUnstarred', data: ids }]);
    given([added()])
      .when({ type: 'UnstarCustomer', data: scoped({}) })
      .then([]);
  });

  it('changes lead status', () =>
    given([added()])
      .when({ type: 'ChangeLeadStatus', data: scoped({ to: 'Hot' }) })
      .then([{ type: 'LeadStatusChanged', data: { ...ids, from: 'Cold', to: 'Hot' } }]));

  it('gets a push notification', () =>
    given([added()])
      .when({
        type: 'SendPushNotification',
        data: scoped({ notificationId: 'n-1', title: 'Round open', message: 'Join us' }),
      })
      .then([
        {
          type: 'PushNotificationSent',
          data: { ...ids, notificationId: 'n-1', title: 'Round open', message: 'Join us' },
        },
      ]));

  it('is removed with its email, and is then not found', () => {
    given([added()])
      .when({ type: 'RemoveCustomer', data: scoped({ reason: 'duplicate' }) })
      .then([
        { type: 'CustomerRemoved', data: { ...ids, email: profile.email, reason: 'duplicate' } },
      ]);
    const removed: CustomerEvent = {
      type: 'CustomerRemoved',
      data: { ...ids, email: profile.email, reason: null },
    };
    given([added(), removed])
      .when({ type: 'StarCustomer', data: scoped({}) })
      .thenThrows({ status: 404 });
  });
});

describe('a customer email within a company', () => {
  const email = deciderSpecification(customerEmailDecider);
  const data = { companyId, email: 'ada@engines.test', customerId };
  const reserved = { type: 'CustomerEmailReserved' as const, data };

  it('is reserved once, and a second customer is refused with the seed message', () => {
    email.given([]).when({ type: 'ReserveCustomerEmail', data }).then([reserved]);
    email
      .given([reserved])
      .when({ type: 'ReserveCustomerEmail', data: { ...data, customerId: 'cu-2' } })
      .thenThrows({ status: 409, message: customerEmailTakenMessage });
    email.given([reserved]).when({ type: 'ReserveCustomerEmail', data }).then([]);
  });

  it('is released by its customer only', () => {
    email
      .given([reserved])
      .when({ type: 'ReleaseCustomerEmail', data: { ...data, customerId: 'cu-2' } })
      .then([]);
    email
      .given([reserved])
      .when({ type: 'ReleaseCustomerEmail', data })
      .then([{ type: 'CustomerEmailReleased', data }]);
  });
});
