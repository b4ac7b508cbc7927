import type { PaymentEvent } from '@issuer/events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectionDatabase, recorded } from '../testing';
import { getAvailableBalance, getAvailableBalanceAsOf, ledgerConsistency } from './ledger';
import { moneyProjection } from './moneyProjection';
import { paymentEvents } from './testing';

let db: Awaited<ReturnType<typeof projectionDatabase>>;
beforeAll(async () => {
  db = await projectionDatabase([moneyProjection]);
});
afterAll(() => db.pool.end());

/** A small seeded generator (mulberry32), so a failure names the seed that reproduces it. */
function random(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { next, int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)) };
}

interface Movement {
  at: number;
  cents: number;
}

/** Random payments and what they should move: captures (+), refunds (−), at random times. */
function scenario(seed: number, companyId: string) {
  const r = random(seed);
  const events: PaymentEvent[] = [];
  const movements: Movement[] = [];
  const base = Date.parse('2026-01-01T00:00:00Z');
  const iso = (at: number) => new Date(at).toISOString();
  const count = r.int(5, 40);
  for (let i = 0; i < count; i += 1) {
    const p = paymentEvents(companyId, `${companyId}-p${i}`);
    const amount = r.int(1, 99_999_999);
    events.push(p.requested({ amountCents: amount }), p.sent());
    const roll = r.next();
    if (roll < 0.15) events.push(p.declined());
    else if (roll < 0.25) events.push(p.cancelled());
    else if (roll < 0.3) events.push(p.expired());
    else if (roll < 0.35)
      continue; // still pending
    else {
      // Times jump around: some captures are reported after later ones (backdated lines).
      const capturedAt = base + r.int(0, 30 * 86_400) * 1000;
      events.push(p.authorized(amount), p.captured(amount, iso(capturedAt)));
      movements.push({ at: capturedAt, cents: amount });
      let left = amount;
      for (let k = 0; k < r.int(0, 3) && left > 0; k += 1) {
        const refund = r.next() < 0.3 ? left : r.int(1, left);
        const refundedAt = capturedAt + r.int(1, 10 * 86_400) * 1000;
        events.push(p.refunded(`${companyId}-p${i}-r${k}`, refund, iso(refundedAt)));
        movements.push({ at: refundedAt, cents: -refund });
        left -= refund;
      }
    }
  }
  return { events, movements, r };
}

async function snapshot(): Promise<Record<string, string[]>> {
  const tables: Record<string, string[]> = {};
  for (const table of moneyProjection.tables) {
    const { rows } = await db.pool.query<{ row: string }>(
      `SELECT to_jsonb(t)::text AS row FROM ${table} t ORDER BY 1`,
    );
    tables[table] = rows.map((row) => row.row);
  }
  return tables;
}

describe('the ledger over random payments, refunds, cancels and declines', () => {
  it.each([1, 2, 3, 4, 5, 6, 7, 8])(
    'seed %i: balances in any batching, on replay and on rebuild; balance and as-of equal the movements',
    async (seed) => {
      const companyId = `co-seed-${seed}`;
      const { events, movements, r } = scenario(seed, companyId);
      const stored = recorded(events, BigInt(seed) * 1_000_000n);
      await db.pool.query(`TRUNCATE ${moneyProjection.tables.join(', ')}`);
      for (let start = 0; start < stored.length; ) {
        const size = r.int(1, 25);
        await db.apply(moneyProjection, stored.slice(start, start + size));
        start += size;
      }
      await db.apply(moneyProjection, stored); // a replay changes nothing
      const expected = movements.reduce((sum, m) => sum + BigInt(m.cents), 0n);
      const check = await ledgerConsistency(db.pool, companyId);
      expect(check.balanced, `seed ${seed}`).toBe(true);
      expect(check.availableCents).toBe(expected);
      expect(check.capturedCents - check.refundedCents).toBe(expected);
      expect(await getAvailableBalance(db.pool, companyId)).toBe(expected);
      // A rebuild (every table emptied, all events in one batch) ends with the very same rows.
      const incremental = await snapshot();
      await db.pool.query(`TRUNCATE ${moneyProjection.tables.join(', ')}`);
      await db.apply(moneyProjection, stored);
      expect(await snapshot()).toEqual(incremental);
      for (const probe of movements.slice(0, 10)) {
        const asOf = movements
          .filter((m) => m.at <= probe.at)
          .reduce((sum, m) => sum + BigInt(m.cents), 0n);
        expect(await getAvailableBalanceAsOf(db.pool, companyId, new Date(probe.at))).toBe(asOf);
      }
    },
  );
});
