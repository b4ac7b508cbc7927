import type { Pool } from 'pg';

/** How many days the funding series covers: enough for this week, last week and the last two. */
export const fundingSeriesDays = 14;

const dayMs = 86_400_000;

export interface FundingProgress {
  available: boolean;
  series: { at: string; raisedCents: number }[];
}

/**
 * Money raised by the company's rounds over time, read from the token orders read model: an
 * order adds its amount on the day its money arrived (`funds_received` in its history) and takes
 * it back on the day it was refunded, as the round's `amountRaisedCents` counts it. One point per
 * UTC day of the last `fundingSeriesDays`, at the day's midnight, with the total raised by the
 * end of that day (by now for today). No round: not available, no points.
 */
export async function fundingProgress(
  pool: Pool,
  companyId: string,
  now: Date,
): Promise<FundingProgress> {
  const [rounds, days] = await Promise.all([
    pool.query('SELECT 1 FROM funding_rounds WHERE company_id = $1 LIMIT 1', [companyId]),
    pool.query<{ day: string; cents: string }>(
      `SELECT to_char(((step->>'at')::timestamptz AT TIME ZONE 'UTC')::date, 'YYYY-MM-DD') AS day,
              sum(CASE step->>'status' WHEN 'refunded' THEN -o.amount_cents
                                       ELSE o.amount_cents END)::text AS cents
         FROM token_orders o, jsonb_array_elements(o.state->'history') AS step
        WHERE o.company_id = $1 AND step->>'status' IN ('funds_received', 'refunded')
        GROUP BY 1`,
      [companyId],
    ),
  ]);
  if (rounds.rowCount === 0) return { available: false, series: [] };
  const midnight = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const series = Array.from({ length: fundingSeriesDays }, (_, i) => {
    const at = new Date(midnight - (fundingSeriesDays - 1 - i) * dayMs).toISOString();
    const day = at.slice(0, 10);
    const last = i === fundingSeriesDays - 1;
    const raisedCents = days.rows
      .filter((row) => last || row.day <= day)
      .reduce((sum, row) => sum + Number(row.cents), 0);
    return { at, raisedCents };
  });
  return { available: true, series };
}
