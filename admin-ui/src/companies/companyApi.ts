import type { CompanyHistoryEntry } from '../../../api/src/operator/companyHistory';
import type { CompanyRecord } from '../dataAccess/dataProvider';
import { callApi } from '../session/http';

export type { CompanyHistoryEntry };

const companyPath = (id: string) => `/operator/companies/${encodeURIComponent(id)}`;

/** The operator's decisions that take a reason (kept in the company's history). */
export type ReasonedDecision = 'suspend' | 'reinstate' | 'revoke-verification';

export const decideOnCompany = (id: string, decision: ReasonedDecision, reason: string) =>
  callApi<CompanyRecord>(`${companyPath(id)}/${decision}`, { method: 'POST', body: { reason } });

export const fetchCompanyHistory = (id: string) =>
  callApi<{ id: string; entries: CompanyHistoryEntry[] }>(`${companyPath(id)}/history`);
