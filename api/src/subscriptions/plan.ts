import {
  conflict,
  invalid,
  notFound,
  type PaymentCurrency,
  type PlanEvent,
  type PlanInterval,
  planIntervals,
} from '@issuer/events';
import { maxPlanIntervalCount } from '@issuer/events/rules';
import { checkAmount } from '../payments/businessLogic';

export const maxPlanNameLength = 100;
export const maxTrialDays = 730;

export interface PlanTermsInput {
  name: string;
  amountCents: number;
  interval: PlanInterval;
  intervalCount: number;
  trialDays: number;
}

export interface PlanDetails extends PlanTermsInput {
  status: 'active' | 'archived';
  planId: string;
  companyId: string;
  currency: PaymentCurrency;
  createdAt: string;
  archivedAt: string | null;
}
export type Plan = { status: 'none' } | PlanDetails;

export const isPlan = (state: Plan): state is PlanDetails => state.status !== 'none';

export function evolvePlan(state: Plan, event: PlanEvent): Plan {
  switch (event.type) {
    case 'PlanCreated':
      return {
        ...terms(event.data),
        status: 'active',
        createdAt: event.data.createdAt,
        archivedAt: null,
      };
    case 'PlanUpdated':
      return isPlan(state) ? { ...state, ...terms(event.data) } : state;
    case 'PlanArchived':
      return isPlan(state)
        ? { ...state, status: 'archived', archivedAt: event.data.archivedAt }
        : state;
  }
}

function terms(data: PlanTermsInput & { planId: string; companyId: string; currency: 'CAD' }) {
  const { planId, companyId, name, amountCents, currency, interval, intervalCount, trialDays } =
    data;
  return { planId, companyId, name, amountCents, currency, interval, intervalCount, trialDays };
}

export type PlanCommand =
  | {
      type: 'CreatePlan';
      data: PlanTermsInput & { planId: string; companyId: string; actorId: string; now: Date };
    }
  | {
      type: 'UpdatePlan';
      data: PlanTermsInput & { companyId: string; actorId: string; now: Date };
    }
  | { type: 'ArchivePlan'; data: { companyId: string; actorId: string; now: Date } };

export function checkPlanTerms(input: PlanTermsInput): PlanTermsInput {
  const name = input.name.trim();
  if (!name) throw invalid('A plan needs a name', { name: 'Name is required' });
  if (name.length > maxPlanNameLength) {
    const text = `Max character length is ${maxPlanNameLength}`;
    throw invalid(text, { name: text });
  }
  checkAmount(input.amountCents);
  if (!planIntervals.includes(input.interval)) {
    const text = `Must be one of ${planIntervals.join(', ')}`;
    throw invalid(text, { interval: text });
  }
  const max = maxPlanIntervalCount[input.interval];
  if (
    !Number.isInteger(input.intervalCount) ||
    input.intervalCount < 1 ||
    input.intervalCount > max
  ) {
    const text = `Must be a whole number from 1 to ${max} for ${input.interval}s`;
    throw invalid(text, { intervalCount: text });
  }
  if (!Number.isInteger(input.trialDays) || input.trialDays < 0 || input.trialDays > maxTrialDays) {
    const text = `Must be a whole number of days from 0 to ${maxTrialDays}`;
    throw invalid(text, { trialDays: text });
  }
  return { ...input, name };
}

export function decidePlan(command: PlanCommand, state: Plan): PlanEvent[] {
  if (command.type === 'CreatePlan') {
    if (state.status !== 'none') throw conflict('This plan already exists');
    const { planId, companyId, actorId, now } = command.data;
    const checked = checkPlanTerms(command.data);
    return [
      {
        type: 'PlanCreated',
        data: {
          planId,
          companyId,
          ...checkedTerms(checked),
          createdBy: actorId,
          createdAt: now.toISOString(),
        },
      },
    ];
  }
  if (!isPlan(state) || state.companyId !== command.data.companyId) throw notFound('Plan');
  if (command.type === 'ArchivePlan') {
    if (state.status === 'archived') return [];
    return [
      {
        type: 'PlanArchived',
        data: {
          planId: state.planId,
          companyId: state.companyId,
          archivedBy: command.data.actorId,
          archivedAt: command.data.now.toISOString(),
        },
      },
    ];
  }
  if (state.status === 'archived') throw conflict('An archived plan cannot be changed');
  const checked = checkedTerms(checkPlanTerms(command.data));
  const unchanged = (Object.keys(checked) as (keyof typeof checked)[]).every(
    (key) => checked[key] === state[key],
  );
  if (unchanged) return [];
  return [
    {
      type: 'PlanUpdated',
      data: {
        planId: state.planId,
        companyId: state.companyId,
        ...checked,
        updatedBy: command.data.actorId,
        updatedAt: command.data.now.toISOString(),
      },
    },
  ];
}

function checkedTerms(input: PlanTermsInput) {
  return {
    name: input.name,
    amountCents: input.amountCents,
    currency: 'CAD' as const,
    interval: input.interval,
    intervalCount: input.intervalCount,
    trialDays: input.trialDays,
  };
}

export const planDecider = {
  initialState: (): Plan => ({ status: 'none' }),
  evolve: evolvePlan,
  decide: decidePlan,
};
