import type { SubscriptionEvent } from '@issuer/events';
import { describe, expect, it } from 'vitest';
import { deciderSpecification } from '../auth/testing/deciderSpecification';
import {
  type BillingSettings,
  defaultBillingSettings,
  nextInvoiceAt,
  type SubscriptionCommand,
  subscriptionDecider,
} from './businessLogic';
import { addIntervals, collectionEtransferId, collectionPaymentId, invoiceIdOf } from './periods';
import { type PlanDetails, planDecider } from './plan';
import type { Subscription, SubscriptionDetails } from './subscription';

const companyId = 'c-1';
const actorId = 'u-1';
const subscriptionId = 'sub_00000000-0000-4000-8000-000000000001';
const t0 = new Date('2026-01-31T10:00:00.000Z');
const day = 86_400_000;
const at = (days: number) => new Date(t0.getTime() + days * day);

const plan = (overrides: Partial<PlanDetails> = {}): PlanDetails => ({
  status: 'active',
  planId: 'plan_1',
  companyId,
  name: 'Gold',
  amountCents: 1500,
  currency: 'CAD',
  interval: 'month',
  intervalCount: 1,
  trialDays: 0,
  createdAt: t0.toISOString(),
  archivedAt: null,
  ...overrides,
});

/** Runs commands one after another, as the stream would, and keeps every event. */
function scenario() {
  let state: Subscription = subscriptionDecider.initialState();
  const history: SubscriptionEvent[] = [];
  return {
    run(command: SubscriptionCommand) {
      const events = subscriptionDecider.decide(command, state);
      history.push(...events);
      state = events.reduce(subscriptionDecider.evolve, state);
      return events;
    },
    get state() {
      return state as SubscriptionDetails;
    },
    history,
  };
}

const create = (
  overrides: Partial<Extract<SubscriptionCommand, { type: 'CreateSubscription' }>['data']> = {},
): SubscriptionCommand => ({
  type: 'CreateSubscription',
  data: {
    subscriptionId,
    companyId,
    actorId,
    now: t0,
    customerId: 'cu-1',
    plan: plan(),
    collectionMethod: 'etransfer',
    paymentMethodId: null,
    startAt: null,
    ...overrides,
  },
});
const billDue = (now: Date): SubscriptionCommand => ({ type: 'BillDue', data: { now } });
const outcome = (
  invoiceIndex: number,
  attempt: number,
  paid: boolean,
  now: Date,
  settings: BillingSettings = defaultBillingSettings,
): SubscriptionCommand => ({
  type: 'RecordCollectionOutcome',
  data: {
    collectionId: collectionEtransferId(invoiceIdOf(subscriptionId, invoiceIndex), attempt),
    outcome: paid ? { paid: true } : { paid: false, reason: 'declined' },
    settings,
    now,
  },
});
const types = (events: SubscriptionEvent[]) => events.map((event) => event.type);

describe('plans', () => {
  const { given } = deciderSpecification(planDecider);
  const terms = {
    name: 'Gold',
    amountCents: 1500,
    interval: 'month' as const,
    intervalCount: 1,
    trialDays: 14,
  };
  const created = planDecider.decide(
    { type: 'CreatePlan', data: { ...terms, planId: 'plan_1', companyId, actorId, now: t0 } },
    planDecider.initialState(),
  );

  it('creates a plan with its terms', () => {
    expect(created).toEqual([
      {
        type: 'PlanCreated',
        data: {
          planId: 'plan_1',
          companyId,
          ...terms,
          currency: 'CAD',
          createdBy: actorId,
          createdAt: t0.toISOString(),
        },
      },
    ]);
  });

  it('refuses bad terms, naming the field', () => {
    const bad = (change: object, field: string) =>
      given([])
        .when({
          type: 'CreatePlan',
          data: { ...terms, ...change, planId: 'p', companyId, actorId, now: t0 },
        })
        .thenThrows({ status: 400, fields: { [field]: expect.any(String) } });
    bad({ name: '  ' }, 'name');
    bad({ amountCents: 0 }, 'amountCents');
    bad({ intervalCount: 13 }, 'intervalCount');
    bad({ interval: 'year', intervalCount: 2 }, 'intervalCount');
    bad({ trialDays: -1 }, 'trialDays');
  });

  it('updates the terms (nothing when unchanged), and another company gets 404', () => {
    given(created)
      .when({
        type: 'UpdatePlan',
        data: { ...terms, amountCents: 2000, companyId, actorId, now: t0 },
      })
      .then([
        {
          type: 'PlanUpdated',
          data: {
            planId: 'plan_1',
            companyId,
            ...terms,
            amountCents: 2000,
            currency: 'CAD',
            updatedBy: actorId,
            updatedAt: t0.toISOString(),
          },
        },
      ]);
    given(created)
      .when({ type: 'UpdatePlan', data: { ...terms, companyId, actorId, now: t0 } })
      .then([]);
    given(created)
      .when({ type: 'UpdatePlan', data: { ...terms, companyId: 'c-2', actorId, now: t0 } })
      .thenThrows({ status: 404 });
  });

  it('archives once; an archived plan is kept (never deleted) but cannot change', () => {
    const archived = [
      ...created,
      {
        type: 'PlanArchived' as const,
        data: { planId: 'plan_1', companyId, archivedBy: actorId, archivedAt: t0.toISOString() },
      },
    ];
    given(created)
      .when({ type: 'ArchivePlan', data: { companyId, actorId, now: t0 } })
      .then([archived[1] as (typeof archived)[number]]);
    given(archived)
      .when({ type: 'ArchivePlan', data: { companyId, actorId, now: t0 } })
      .then([]);
    given(archived)
      .when({ type: 'UpdatePlan', data: { ...terms, companyId, actorId, now: t0 } })
      .thenThrows({ status: 409 });
  });
});

describe('subscribing', () => {
  it('with a trial: trialing, billed first when the trial ends', () => {
    const s = scenario();
    s.run(create({ plan: plan({ trialDays: 14 }) }));
    expect(s.state).toMatchObject({
      status: 'trialing',
      trialEndsAt: at(14).toISOString(),
      nextBillAt: at(14).toISOString(),
    });
    expect(s.run(billDue(at(13)))).toEqual([]);
    expect(types(s.run(billDue(at(14))))).toEqual(['InvoiceIssued', 'InvoiceCollectionAttempted']);
    expect(s.state.status).toBe('active');
  });

  it('refuses an archived plan, a card without a saved card, a start in the past (naming the field)', () => {
    const { given } = deciderSpecification(subscriptionDecider);
    given([])
      .when(create({ plan: plan({ status: 'archived' }) }))
      .thenThrows({ status: 400, fields: { planId: expect.any(String) } });
    given([])
      .when(create({ collectionMethod: 'card' }))
      .thenThrows({ status: 400, fields: { paymentMethodId: expect.any(String) } });
    given([])
      .when(create({ paymentMethodId: 'pm_1' }))
      .thenThrows({ status: 400, fields: { paymentMethodId: expect.any(String) } });
    given([])
      .when(create({ startAt: at(-1) }))
      .thenThrows({ status: 400, fields: { startAt: expect.any(String) } });
    given([])
      .when(create({ plan: plan({ companyId: 'c-2' }) }))
      .thenThrows({ status: 404 });
  });
});

describe('period invoicing', () => {
  it('invoices each period exactly once, with a derived invoice id, months clamped to the month end', () => {
    const s = scenario();
    s.run(create());
    const first = s.run(billDue(t0));
    expect(first[0]).toMatchObject({
      type: 'InvoiceIssued',
      data: {
        invoiceId: invoiceIdOf(subscriptionId, 0),
        periodIndex: 0,
        periodStart: t0.toISOString(),
        periodEnd: '2026-02-28T10:00:00.000Z',
        amountCents: 1500,
      },
    });
    expect(first[1]).toMatchObject({
      type: 'InvoiceCollectionAttempted',
      data: { attempt: 1, etransferId: collectionEtransferId(invoiceIdOf(subscriptionId, 0), 1) },
    });
    expect(s.run(billDue(t0))).toEqual([]); // a replayed timer does nothing
    expect(s.run(billDue(new Date('2026-02-28T09:59:59.999Z')))).toEqual([]);
    const second = s.run(billDue(new Date('2026-02-28T10:00:00.000Z')));
    expect(second[0]).toMatchObject({
      data: { periodIndex: 1, periodEnd: '2026-03-31T10:00:00.000Z' },
    });
    expect(addIntervals(t0, 'month', 3).toISOString()).toBe('2026-04-30T10:00:00.000Z');
  });

  it('a deposit pays the open invoice once; a late failure of it changes nothing', () => {
    const s = scenario();
    s.run(create());
    s.run(billDue(t0));
    expect(s.run(outcome(0, 1, true, at(1)))).toMatchObject([
      { type: 'InvoicePaid', data: { amountCents: 1500 } },
    ]);
    expect(s.run(outcome(0, 1, true, at(1)))).toEqual([]);
    expect(s.run(outcome(0, 1, false, at(2)))).toEqual([]);
    expect(s.state.invoices[0]).toMatchObject({ status: 'paid', paidAt: at(1).toISOString() });
  });
});

describe('failed collection', () => {
  function failedThrice(settings: BillingSettings) {
    const s = scenario();
    s.run(create());
    s.run(billDue(t0));
    const failed = s.run(outcome(0, 1, false, at(0.5), settings));
    expect(failed).toMatchObject([
      { type: 'InvoicePaymentFailed', data: { attempt: 1, nextAttemptAt: at(1.5).toISOString() } },
    ]);
    expect(s.state.status).toBe('past_due');
    expect(s.run(outcome(0, 1, false, at(0.6), settings))).toEqual([]); // a repeat
    expect(s.run(billDue(at(1.4)))).toEqual([]);
    expect(s.run(billDue(at(1.5)))).toMatchObject([
      { type: 'InvoiceCollectionAttempted', data: { attempt: 2 } },
    ]);
    expect(s.run(outcome(0, 2, false, at(1.6), settings))[0]).toMatchObject({
      data: { nextAttemptAt: at(3.5).toISOString() },
    });
    s.run(billDue(at(3.5)));
    expect(s.run(outcome(0, 3, false, at(3.6), settings))[0]).toMatchObject({
      data: { nextAttemptAt: at(5.5).toISOString() },
    });
    s.run(billDue(at(5.5)));
    return { s, last: s.run(outcome(0, 4, false, at(5.6), settings)) };
  }

  it('retries after 1, 3 and 5 days (past_due meanwhile), then unpaid by default: billing stops', () => {
    const { s, last } = failedThrice(defaultBillingSettings);
    expect(types(last)).toEqual(['InvoicePaymentFailed', 'SubscriptionMarkedUnpaid']);
    expect(last[0]).toMatchObject({ data: { attempt: 4, nextAttemptAt: null } });
    expect(s.state.status).toBe('unpaid');
    expect(s.run(billDue(at(60)))).toEqual([]);
    // Paid late after all: active again.
    s.run(outcome(0, 4, true, at(61)));
    expect(s.state.status).toBe('active');
  });

  it('or cancelled with the invoice uncollectible, when the company says so', () => {
    const { s, last } = failedThrice({ retryDays: [1, 3, 5], afterFinalFailure: 'cancel' });
    expect(types(last)).toEqual([
      'InvoicePaymentFailed',
      'InvoiceMarkedUncollectible',
      'SubscriptionCancelled',
    ]);
    expect(last[2]).toMatchObject({ data: { reason: 'payment_failed', cancelledBy: null } });
    expect(s.state).toMatchObject({ status: 'cancelled', invoices: [{ status: 'uncollectible' }] });
  });

  it('paying during a retry ends past_due', () => {
    const s = scenario();
    s.run(create());
    s.run(billDue(t0));
    s.run(outcome(0, 1, false, at(0.5)));
    s.run(outcome(0, 1, true, at(0.7)));
    expect(s.state.status).toBe('active');
    expect(s.run(billDue(at(1.5)))).toEqual([]);
  });
});

describe('pause, resume, cancel, change plan', () => {
  const actor = (now: Date) => ({ companyId, actorId, now });

  it('pause skips the periods that start while paused; resume bills from the next period start', () => {
    const s = scenario();
    s.run(create({ plan: plan({ interval: 'week' }) }));
    s.run(billDue(t0));
    s.run({ type: 'PauseSubscription', data: actor(at(1)) });
    expect(s.state.status).toBe('paused');
    expect(s.run({ type: 'PauseSubscription', data: actor(at(1)) })).toEqual([]);
    expect(s.run(billDue(at(7)))).toEqual([]);
    expect(s.run({ type: 'ResumeSubscription', data: actor(at(16)) })).toMatchObject([
      {
        type: 'SubscriptionResumed',
        data: { nextPeriodIndex: 3, nextBillAt: at(21).toISOString() },
      },
    ]);
    expect(s.state.status).toBe('active');
    expect(s.run(billDue(at(20)))).toEqual([]);
    expect(s.run(billDue(at(21)))[0]).toMatchObject({
      data: { periodIndex: 3, periodStart: at(21).toISOString() },
    });
  });

  it('cancel at period end: no more invoices, cancelled when the period ends', () => {
    const s = scenario();
    s.run(create({ plan: plan({ interval: 'week' }) }));
    s.run(billDue(t0));
    s.run(outcome(0, 1, true, at(1)));
    expect(
      s.run({ type: 'CancelSubscription', data: { ...actor(at(2)), atPeriodEnd: true } }),
    ).toMatchObject([
      { type: 'SubscriptionCancellationScheduled', data: { cancelAt: at(7).toISOString() } },
    ]);
    expect(s.state.status).toBe('active');
    expect(s.run(billDue(at(7)))).toMatchObject([
      { type: 'SubscriptionCancelled', data: { reason: 'period_end' } },
    ]);
    expect(s.run(billDue(at(14)))).toEqual([]);
  });

  it('cancel now voids the open invoice; twice changes nothing; another company gets 404', () => {
    const s = scenario();
    s.run(create());
    s.run(billDue(t0));
    expect(() =>
      s.run({
        type: 'CancelSubscription',
        data: { ...actor(at(1)), companyId: 'c-2', atPeriodEnd: false },
      }),
    ).toThrow(/not found/);
    expect(
      types(s.run({ type: 'CancelSubscription', data: { ...actor(at(1)), atPeriodEnd: false } })),
    ).toEqual(['InvoiceVoided', 'SubscriptionCancelled']);
    expect(
      s.run({ type: 'CancelSubscription', data: { ...actor(at(1)), atPeriodEnd: false } }),
    ).toEqual([]);
    expect(s.run(outcome(0, 1, true, at(2)))).toEqual([]);
    expect(() => s.run({ type: 'PauseSubscription', data: actor(at(2)) })).toThrow(/cancelled/);
  });

  it('a plan change takes effect from the next period, with its own interval from there', () => {
    const s = scenario();
    s.run(create());
    s.run(billDue(t0));
    const yearly = plan({ planId: 'plan_2', name: 'Yearly', amountCents: 15000, interval: 'year' });
    expect(s.run({ type: 'ChangePlan', data: { ...actor(at(3)), plan: yearly } })).toMatchObject([
      { type: 'SubscriptionPlanChangeScheduled', data: { planId: 'plan_2', fromPeriodIndex: 1 } },
    ]);
    const [next] = s.run(billDue(new Date('2026-02-28T10:00:00.000Z')));
    expect(next).toMatchObject({
      data: {
        periodIndex: 1,
        planId: 'plan_2',
        amountCents: 15000,
        periodEnd: '2027-02-28T10:00:00.000Z',
      },
    });
    const [after] = s.run(billDue(new Date('2027-02-28T10:00:00.000Z')));
    expect(after).toMatchObject({
      data: { periodIndex: 2, periodEnd: '2028-02-28T10:00:00.000Z' },
    });
  });
});

describe('collection by a saved card', () => {
  const cardOutcome = (attempt: number, paid: boolean, now: Date): SubscriptionCommand => ({
    type: 'RecordCollectionOutcome',
    data: {
      collectionId: collectionPaymentId(invoiceIdOf(subscriptionId, 0), attempt),
      outcome: paid ? { paid: true } : { paid: false, reason: 'declined' },
      settings: defaultBillingSettings,
      now,
    },
  });
  const byCard = () => {
    const s = scenario();
    s.run(create({ collectionMethod: 'card', paymentMethodId: 'pm_1' }));
    return s;
  };

  it('records the card and charges each attempt under a payment id derived from invoice and attempt', () => {
    const s = byCard();
    expect(s.history[0]).toMatchObject({
      type: 'SubscriptionCreated',
      data: { collectionMethod: 'card', paymentMethodId: 'pm_1' },
    });
    const paymentId = collectionPaymentId(invoiceIdOf(subscriptionId, 0), 1);
    expect(paymentId).toMatch(/^pay_[0-9a-f-]{36}$/);
    expect(s.run(billDue(t0))[1]).toEqual({
      type: 'InvoiceCollectionAttempted',
      data: {
        subscriptionId,
        companyId,
        invoiceId: invoiceIdOf(subscriptionId, 0),
        attempt: 1,
        etransferId: '',
        paymentId,
        amountCents: 1500,
        attemptedAt: t0.toISOString(),
      },
    });
    // An e-transfer id of the same attempt is not this invoice's collection.
    expect(s.run(outcome(0, 1, true, at(0.1)))).toEqual([]);
    expect(s.run(cardOutcome(1, true, at(0.1)))).toMatchObject([
      { type: 'InvoicePaid', data: { paymentId, etransferId: '', amountCents: 1500 } },
    ]);
    expect(s.run(cardOutcome(1, true, at(0.2)))).toEqual([]);
    expect(s.state).toMatchObject({ status: 'active', invoices: [{ status: 'paid', paymentId }] });
  });

  it('a declined card follows the retry schedule (1, 3, 5 days, past_due), then unpaid', () => {
    const s = byCard();
    s.run(billDue(t0));
    const nextAttempts: (string | null)[] = [];
    for (const [attempt, day] of [
      [1, 0],
      [2, 1],
      [3, 3],
      [4, 5],
    ] as const) {
      if (attempt > 1) {
        expect(s.run(billDue(at(day)))).toMatchObject([
          { type: 'InvoiceCollectionAttempted', data: { attempt } },
        ]);
      }
      const [failed] = s.run(cardOutcome(attempt, false, at(day)));
      if (failed?.type !== 'InvoicePaymentFailed') throw new Error(`attempt ${attempt} not failed`);
      expect(failed.data.attempt).toBe(attempt);
      nextAttempts.push(failed.data.nextAttemptAt);
      if (attempt < 4) expect(s.state.status).toBe('past_due');
    }
    expect(nextAttempts).toEqual([
      at(1).toISOString(),
      at(3).toISOString(),
      at(5).toISOString(),
      null,
    ]);
    expect(s.state.status).toBe('unpaid');
    // An older attempt's late decline changes nothing.
    expect(s.run(cardOutcome(2, false, at(6)))).toEqual([]);
  });
});

describe('the next invoice', () => {
  const next = '2026-12-28T02:07:00.000Z';
  const later = '2027-01-28T02:07:00.000Z';
  it('is the next billing time while billing runs', () => {
    for (const status of ['trialing', 'active', 'past_due'] as const) {
      expect(nextInvoiceAt({ status, nextBillAt: next, cancelAt: null })).toBe(next);
      expect(nextInvoiceAt({ status, nextBillAt: next, cancelAt: later })).toBe(next);
    }
  });
  it('is none when the subscription ends with its period first, or billing has stopped', () => {
    expect(nextInvoiceAt({ status: 'active', nextBillAt: next, cancelAt: next })).toBeNull();
    for (const status of ['paused', 'unpaid', 'cancelled'] as const)
      expect(nextInvoiceAt({ status, nextBillAt: next, cancelAt: null })).toBeNull();
  });
});
