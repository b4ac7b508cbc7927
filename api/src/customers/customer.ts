import type { CustomerEvent, CustomerProfile, InvestorStatus, LeadStatus } from '@issuer/events';

export interface CustomerDetails {
  customerId: string;
  companyId: string;
  profile: CustomerProfile;
  leadStatus: LeadStatus;
  investorStatus: InvestorStatus;
  starred: boolean;
  createdAt: string;
}

/** A removed customer keeps its last details, for the history and as-of answers. */
export type Customer =
  | { status: 'none' }
  | ({ status: 'active' } & CustomerDetails)
  | ({ status: 'removed' } & CustomerDetails);

export const initialCustomer = (): Customer => ({ status: 'none' });

export function evolveCustomer(state: Customer, event: CustomerEvent): Customer {
  if (event.type === 'CustomerAdded') {
    const { customerId, companyId, profile, leadStatus, investorStatus, starred, addedAt } =
      event.data;
    return {
      status: 'active',
      customerId,
      companyId,
      profile,
      leadStatus,
      investorStatus,
      starred,
      createdAt: addedAt,
    };
  }
  if (state.status === 'none') return state;
  switch (event.type) {
    case 'CustomerUpdated':
      return { ...state, profile: { ...state.profile, ...event.data.changes } };
    case 'CustomerRemoved':
      return { ...state, status: 'removed' };
    case 'CustomerStarred':
      return { ...state, starred: true };
    case 'CustomerUnstarred':
      return { ...state, starred: false };
    case 'InvestorStatusChanged':
      return { ...state, investorStatus: event.data.to };
    case 'LeadStatusChanged':
      return { ...state, leadStatus: event.data.to };
    case 'PushNotificationSent':
      return state;
    default: {
      const _exhaustive: never = event;
      return state;
    }
  }
}
