import {
  investorStatuses as serverInvestorStatuses,
  leadStatuses as serverLeadStatuses,
} from '@issuer/events';
import { describe, expect, it } from 'vitest';
import { investorStatuses, leadStatuses, statusView, viewFilter } from './statuses';

describe('the customer statuses of the UI', () => {
  it('are the server’s, in the same order', () => {
    expect(investorStatuses).toEqual(serverInvestorStatuses);
    expect(leadStatuses).toEqual(serverLeadStatuses);
  });

  it('name one list view each, which filters on that status', () => {
    expect(viewFilter('all')).toEqual({});
    expect(viewFilter('starred')).toEqual({ starred: true });
    expect(statusView('Registered with the product')).toBe('registered-with-the-product');
    for (const status of investorStatuses) {
      expect(viewFilter(statusView(status))).toEqual({ investorStatus: status });
    }
    for (const status of leadStatuses) {
      expect(viewFilter(statusView(status))).toEqual({ leadStatus: status });
    }
    expect(viewFilter('nonsense')).toBeUndefined();
  });
});
