/** `GET /api/dashboard` as the UI reads it (the server's `dashboardSchema`). */
export interface Dashboard {
  asOf: string;
  currency: 'CAD';
  investorStatuses: { status: string; count: number }[];
  customers: number;
  balance: { availableCents: number };
  pendingPayments: { count: number; amountCents: number };
  monthlyRecurringRevenue: { amountCents: number; subscriptions: number };
  capTable: {
    holders: number;
    issued: number;
    authorized: number;
    shareClasses: {
      id: string;
      name: string;
      kind: string;
      authorized: number;
      issued: number;
      percentOfIssued: number;
    }[];
    topHolders: {
      customerId: string;
      name: string | null;
      email: string | null;
      shares: number;
      percentOwned: number;
    }[];
  };
  recentActivity:
    | {
        id: string;
        at: string;
        actorId: string;
        actorName: string | null;
        actorIsOperator: boolean;
        eventType: string;
        resource: string;
        recordId: string;
        reason: string | null;
        /** The amount the event names, in CAD cents; null when it names none. */
        amountCents: number | null;
      }[]
    | null;
  fundingProgress: { available: boolean; series: { at: string; raisedCents: number }[] };
}

/** The query key live updates refresh on every change (see live/liveResources.ts). */
export const dashboardQueryKey = 'dashboard';

/** The seed's chart ranges (TW, LW, 2W): this week, last week, the last 14 days. */
export const fundingRanges = ['tw', 'lw', '2w'] as const;
export type FundingRange = (typeof fundingRanges)[number];

const day = 86_400_000;

/** [from, to) of a range, weeks starting on Monday (UTC), as the seed's charts count them. */
export function rangeBounds(range: FundingRange, now: Date): { from: number; to: number } {
  const midnight = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const monday = midnight - ((now.getUTCDay() + 6) % 7) * day;
  if (range === 'tw') return { from: monday, to: monday + 7 * day };
  if (range === 'lw') return { from: monday - 7 * day, to: monday };
  return { from: midnight - 13 * day, to: midnight + day };
}

/** The y-axis ticks of the funding chart: every 20,000 CAD up to the largest value. */
export const fundingTickStep = 20_000;
export function fundingTicks(largest: number): number[] {
  const top = Math.max(fundingTickStep, Math.ceil(largest / fundingTickStep) * fundingTickStep);
  return Array.from({ length: top / fundingTickStep + 1 }, (_, i) => i * fundingTickStep);
}
