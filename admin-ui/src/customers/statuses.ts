/**
 * The investor and lead statuses as the API names them (the server's lists live in
 * `events/src/customers/events.ts`; `statuses.test.ts` keeps these equal to them). Kept here as
 * plain data so the UI bundle does not pull in the server's schemas.
 */
export const investorStatuses = [
  'Not Registered',
  'Registered with the product',
  'KYC Under Review',
  'KYC Failed',
  'KYC Complete',
  'Documents Signed',
  'Funds Received',
  'Distribute Tokens',
  'Complete',
  'Cancelled',
  'Refunded',
] as const;
export type InvestorStatus = (typeof investorStatuses)[number];

export const leadStatuses = ['Cold', 'Warm', 'Hot'] as const;
export type LeadStatus = (typeof leadStatuses)[number];

/** `KYC Complete` → `kyc_complete`: its translation key and, with dashes, its list view. */
export const statusKey = (status: string) => status.toLowerCase().replace(/[^a-z0-9]+/g, '_');
export const statusView = (status: string) => statusKey(status).replaceAll('_', '-');

export const investorStatusLabel = (status: string) =>
  `app.customers.investor_status.${statusKey(status)}`;
export const leadStatusLabel = (status: string) => `app.customers.lead_status.${statusKey(status)}`;

/** The list views under `/customers/:view` and the filter each one fixes. */
export function viewFilter(view: string | undefined): Record<string, unknown> | undefined {
  if (view === 'all') return {};
  if (view === 'starred') return { starred: true };
  const investor = investorStatuses.find((status) => statusView(status) === view);
  if (investor) return { investorStatus: investor };
  const lead = leadStatuses.find((status) => statusView(status) === view);
  if (lead) return { leadStatus: lead };
  return undefined;
}
