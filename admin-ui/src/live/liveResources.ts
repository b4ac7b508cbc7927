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

/**
 * Query options for a picker's choices (a ReferenceInput's `queryOptions`, or its `meta` in a
 * `useGetList` of choices): live changes do not refetch them. A
 * refetch while the list is open redraws it under the pointer, and an option being clicked can
 * vanish; the choices are fetched afresh as the person types or opens the picker again.
 * react-admin hands `meta` to the data provider (ours ignores it) and keeps it in the query key.
 */
export const pickerQueryOptions = { meta: { liveRefetch: false } } as const;

/** Whether a live change should refetch this query (not a picker's choices). */
export function refetchedLive(query: { queryKey: readonly unknown[] }): boolean {
  const params = query.queryKey[2] as { meta?: { liveRefetch?: boolean } } | undefined;
  return params?.meta?.liveRefetch !== false;
}
