import {
  type CustomerEvent,
  type CustomerProfile,
  conflict,
  customerProfileFields,
  type InvestorStatus,
  invalid,
  type LeadStatus,
  notFound,
} from '@issuer/events';
import { type Customer, type CustomerDetails, evolveCustomer, initialCustomer } from './customer';
import { checkInvestorTransition } from './investorWorkflow';

/** Every command names the caller's company: another company's customer is "not found". */
type Scoped<Type extends string, Data> = { type: Type; data: Data & { companyId: string } };

export type AddCustomer = Scoped<
  'AddCustomer',
  {
    customerId: string;
    profile: CustomerProfile;
    leadStatus: LeadStatus;
    investorStatus: InvestorStatus;
    starred: boolean;
    now: Date;
  }
>;
/** The fields sent replace the stored ones; fields left out stay as they are. */
export type UpdateCustomer = Scoped<
  'UpdateCustomer',
  {
    changes: Partial<CustomerProfile>;
    leadStatus?: LeadStatus;
    starred?: boolean;
    investorStatus?: InvestorStatus;
  }
>;
export type RemoveCustomer = Scoped<'RemoveCustomer', { reason: string | null }>;
export type StarCustomer = Scoped<'StarCustomer', object>;
export type UnstarCustomer = Scoped<'UnstarCustomer', object>;
export type ToggleCustomerStar = Scoped<'ToggleCustomerStar', object>;
export type ChangeInvestorStatus = Scoped<
  'ChangeInvestorStatus',
  {
    to: InvestorStatus;
    reason: string | null;
    evidence: string | null;
    actorId: string;
    now: Date;
  }
>;
export type ChangeLeadStatus = Scoped<'ChangeLeadStatus', { to: LeadStatus }>;
export type SendPushNotification = Scoped<
  'SendPushNotification',
  { notificationId: string; title: string; message: string }
>;

export type CustomerCommand =
  | AddCustomer
  | UpdateCustomer
  | RemoveCustomer
  | StarCustomer
  | UnstarCustomer
  | ToggleCustomerStar
  | ChangeInvestorStatus
  | ChangeLeadStatus
  | SendPushNotification;

type Active = Extract<Customer, { status: 'active' }>;

export const investorStatusHasItsOwnCommand =
  'Change the investor status with its own command (some changes need a reason)';

export function decideCustomer(command: CustomerCommand, state: Customer): CustomerEvent[] {
  if (command.type === 'AddCustomer') return addCustomer(command, state);
  if (state.status !== 'active' || state.companyId !== command.data.companyId) {
    throw notFound('Customer');
  }
  switch (command.type) {
    case 'UpdateCustomer':
      return updateCustomer(command, state);
    case 'RemoveCustomer':
      return [
        {
          type: 'CustomerRemoved',
          data: { ...ids(state), email: state.profile.email, reason: command.data.reason },
        },
      ];
    case 'StarCustomer':
      return setStar(state, true);
    case 'UnstarCustomer':
      return setStar(state, false);
    case 'ToggleCustomerStar':
      return setStar(state, !state.starred);
    case 'ChangeInvestorStatus':
      return changeInvestorStatus(command, state);
    case 'ChangeLeadStatus':
      return changeLeadStatus(state, command.data.to);
    case 'SendPushNotification':
      return [
        { type: 'PushNotificationSent', data: { ...ids(state), ...withoutCompany(command) } },
      ];
    default: {
      const _exhaustive: never = command;
      return [];
    }
  }
}

const ids = (state: CustomerDetails) => ({
  customerId: state.customerId,
  companyId: state.companyId,
});

function withoutCompany({ data }: SendPushNotification) {
  const { notificationId, title, message } = data;
  return { notificationId, title, message };
}

function addCustomer({ data }: AddCustomer, state: Customer): CustomerEvent[] {
  if (state.status !== 'none') throw conflict('This customer already exists');
  const { customerId, companyId, profile, leadStatus, investorStatus, starred, now } = data;
  return [
    {
      type: 'CustomerAdded',
      data: {
        customerId,
        companyId,
        profile,
        leadStatus,
        investorStatus,
        starred,
        addedAt: now.toISOString(),
      },
    },
  ];
}

function updateCustomer({ data }: UpdateCustomer, state: Active): CustomerEvent[] {
  if (data.investorStatus !== undefined && data.investorStatus !== state.investorStatus) {
    throw invalid(investorStatusHasItsOwnCommand, {
      investorStatus: investorStatusHasItsOwnCommand,
    });
  }
  const changes = changedFields(state.profile, data.changes);
  const events: CustomerEvent[] = [];
  if (Object.keys(changes).length > 0) {
    events.push({ type: 'CustomerUpdated', data: { ...ids(state), changes } });
  }
  if (data.leadStatus !== undefined) events.push(...changeLeadStatus(state, data.leadStatus));
  if (data.starred !== undefined) events.push(...setStar(state, data.starred));
  return events;
}

function changedFields(
  current: CustomerProfile,
  wanted: Partial<CustomerProfile>,
): Partial<CustomerProfile> {
  const changes: Record<string, unknown> = {};
  for (const field of customerProfileFields) {
    const value = wanted[field];
    if (value === undefined) continue;
    if (JSON.stringify(value) !== JSON.stringify(current[field])) changes[field] = value;
  }
  return changes as Partial<CustomerProfile>;
}

function setStar(state: Active, starred: boolean): CustomerEvent[] {
  if (state.starred === starred) return [];
  return [{ type: starred ? 'CustomerStarred' : 'CustomerUnstarred', data: ids(state) }];
}

function changeInvestorStatus({ data }: ChangeInvestorStatus, state: Active): CustomerEvent[] {
  const from = state.investorStatus;
  if (from === data.to) return [];
  const reason = data.reason?.trim() || null;
  const kind = checkInvestorTransition(from, data.to, reason);
  return [
    {
      type: 'InvestorStatusChanged',
      data: {
        ...ids(state),
        from,
        to: data.to,
        kind,
        reason,
        evidence: data.evidence?.trim() || null,
        changedBy: data.actorId,
        changedAt: data.now.toISOString(),
      },
    },
  ];
}

function changeLeadStatus(state: Active, to: LeadStatus): CustomerEvent[] {
  if (state.leadStatus === to) return [];
  return [{ type: 'LeadStatusChanged', data: { ...ids(state), from: state.leadStatus, to } }];
}

export const customerDecider = {
  initialState: initialCustomer,
  evolve: evolveCustomer,
  decide: decideCustomer,
};
