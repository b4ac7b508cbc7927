import {
  conflict,
  type InvestorStatus,
  invalid,
  investorStatuses,
  type TransitionKind,
} from '@issuer/events';

/**
 * The investor-status workflow, the one place its rules live: from each status, the statuses it
 * may move to and how (`forward` along the happy path, `failure` into a failure branch,
 * `reversal` when a reviewer returns the investor to an earlier status). Anything not listed is
 * refused. Failures and reversals need a reason.
 */
export const investorTransitions: Record<
  InvestorStatus,
  Partial<Record<InvestorStatus, TransitionKind>>
> = {
  'Not Registered': {
    'Registered with the product': 'forward',
    Cancelled: 'failure',
  },
  'Registered with the product': {
    'KYC Under Review': 'forward',
    'KYC Complete': 'forward',
    'KYC Failed': 'failure',
    Cancelled: 'failure',
    'Not Registered': 'reversal',
  },
  'KYC Under Review': {
    'KYC Complete': 'forward',
    'KYC Failed': 'failure',
    Cancelled: 'failure',
    'Registered with the product': 'reversal',
  },
  'KYC Failed': {
    'KYC Under Review': 'forward',
    Cancelled: 'failure',
    'Registered with the product': 'reversal',
  },
  'KYC Complete': {
    'Documents Signed': 'forward',
    Cancelled: 'failure',
    'KYC Under Review': 'reversal',
    'Registered with the product': 'reversal',
  },
  'Documents Signed': {
    'Funds Received': 'forward',
    Cancelled: 'failure',
    'KYC Complete': 'reversal',
  },
  'Funds Received': {
    'Distribute Tokens': 'forward',
    Refunded: 'failure',
    'Documents Signed': 'reversal',
  },
  'Distribute Tokens': {
    Complete: 'forward',
    Refunded: 'failure',
    'Funds Received': 'reversal',
  },
  Complete: {
    'Distribute Tokens': 'reversal',
  },
  Cancelled: {
    'Not Registered': 'reversal',
    'Registered with the product': 'reversal',
  },
  Refunded: {
    'Funds Received': 'reversal',
  },
};

export const initialInvestorStatus: InvestorStatus = investorStatuses[0];

export const reasonRequired = (kind: TransitionKind) => kind !== 'forward';

/** The statuses an investor may move to next, with how, for the UI's buttons. */
export function nextInvestorStatuses(from: InvestorStatus) {
  return Object.entries(investorTransitions[from]).map(([to, kind]) => ({
    status: to as InvestorStatus,
    kind: kind as TransitionKind,
    reasonRequired: reasonRequired(kind as TransitionKind),
  }));
}

/** The kind of the move, or a DomainError: 409 naming both statuses, 400 for a missing reason. */
export function checkInvestorTransition(
  from: InvestorStatus,
  to: InvestorStatus,
  reason: string | null,
): TransitionKind {
  const kind = investorTransitions[from][to];
  if (!kind) {
    throw conflict(`The investor status cannot change from '${from}' to '${to}'`, {
      investorStatus: `Not allowed from '${from}'`,
    });
  }
  if (reasonRequired(kind) && !reason?.trim()) {
    const message = `A reason is required to change the investor status from '${from}' to '${to}'`;
    throw invalid(message, { reason: message });
  }
  return kind;
}
