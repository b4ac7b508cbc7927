/** The UI's resources (react-admin query keys start with them) each changed API record affects. */
const affected: Record<string, readonly string[]> = {
  customers: ['customers'],
  payments: ['payments', 'transactions', 'pendingpayments'],
  etransfers: ['etransfers', 'transactions'],
  subscriptions: ['subscriptions'],
  plans: ['plans', 'subscriptions'],
  company: ['companies'],
};

/** Changes that move the sidebar's balance or the company profile (read into the session). */
const profileResources = new Set(['payments', 'etransfers', 'wallet', 'company']);

/** Every change may move a dashboard figure (counts, money, holders, the activity list). */
const everyChange = ['dashboard'];

export function resourcesToRefresh(resource: string): readonly string[] {
  return [...(affected[resource] ?? [resource]), ...everyChange];
}

export function refreshesProfile(resource: string): boolean {
  return profileResources.has(resource);
}
