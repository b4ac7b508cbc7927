import type { CustomerRow } from '@issuer/projections';
import type { CustomerDetails } from './customer';
import { nextInvestorStatuses } from './investorWorkflow';

/**
 * A customer as every route answers it (react-admin's record: `id` plus the fields; `version` is
 * the stream revision to send back as `If-Match: "<version>"`): the read model's row without what
 * stays inside.
 */
export type CustomerRecord = Omit<CustomerRow, 'companyId' | 'removed' | 'position'>;

export function recordOfRow(row: CustomerRow): CustomerRecord {
  const { companyId: _company, removed: _removed, position: _position, ...record } = row;
  return record;
}

export function recordOfState(
  state: CustomerDetails,
  stamp: { version: number; updatedAt: string },
): CustomerRecord {
  const { customerId, companyId: _company, profile, createdAt, ...statuses } = state;
  return { id: customerId, ...profile, ...statuses, createdAt, ...stamp };
}

/** The single-customer answer also lists the workflow's next steps, for the UI's buttons. */
export function detailedRecord(record: CustomerRecord) {
  return { ...record, nextInvestorStatuses: nextInvestorStatuses(record.investorStatus) };
}
