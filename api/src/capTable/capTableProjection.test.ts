import { randomUUID } from 'node:crypto';
import type { CapTableEvent, RecordedEvent } from '@issuer/events';
import { createCapTableProjection, customersProjection } from '@issuer/projections';
import { createDatabase } from '@issuer/test-support';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seededRandom, seedFromEnv } from '../payments/testing/seededRandom';
import { capTableAsOf } from './capTableQueries';

/**
 * given(events).then(the cap table as of every moment): a random history of issuances and
 * transfers, applied in random batches with a checkpoint every 7 movements, answers exactly what
 * folding the events up to each moment answers, for every page, in both orders.
 */
const projection = createCapTableProjection({ checkpointEvery: 7 });
let pool: pg.Pool;

beforeAll(async () => {
  pool = new pg.Pool({ connectionString: await createDatabase(), max: 4 });
  const client = await pool.connect();
  try {
    await customersProjection.migrate(client);
    await projection.migrate(client);
  } finally {
    client.release();
  }
});
afterAll(() => pool?.end());

const companyId = 'c-prop';
const classes = ['shc_a', 'shc_b'];
const holders = ['cu-1', 'cu-2', 'cu-3', 'cu-4', 'cu-5', 'cu-6'];
const t0 = Date.parse('2025-01-01T00:00:00Z');
const hour = 3_600_000;

function history(random: () => number, count: number) {
  const events: CapTableEvent[] = classes.map((shareClassId, i) => ({
    type: 'ShareClassCreated',
    data: {
      companyId,
      shareClassId,
      name: `Class ${i}`,
      kind: 'common',
      votesPerShare: 1,
      parValue: '0',
      liquidationPreferenceMultiple: 1,
      seniority: i,
      authorized: 1_000_000,
      createdBy: 'u-1',
      createdAt: new Date(t0 - hour).toISOString(),
    },
  }));
  const held = new Map<string, number>();
  let at = t0;
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)] as T;
  for (let i = 0; i < count; i++) {
    at += Math.floor(random() * 3) * hour; // several movements share a moment now and then
    const shareClassId = pick(classes);
    const from = pick(holders);
    const owned = held.get(`${from}|${shareClassId}`) ?? 0;
    if (owned > 0 && random() < 0.5) {
      const to = pick(holders.filter((h) => h !== from));
      const shares = 1 + Math.floor(random() * owned);
      held.set(`${from}|${shareClassId}`, owned - shares);
      held.set(`${to}|${shareClassId}`, (held.get(`${to}|${shareClassId}`) ?? 0) + shares);
      events.push({
        type: 'SharesTransferred',
        data: {
          companyId,
          shareClassId,
          transferId: `trf_${i}`,
          fromCustomerId: from,
          toCustomerId: to,
          shares,
          transferredAt: new Date(at).toISOString(),
          reason: 'Sale',
          transferredBy: 'u-1',
        },
      });
    } else {
      const shares = 1 + Math.floor(random() * 50);
      held.set(`${from}|${shareClassId}`, owned + shares);
      events.push({
        type: 'SharesIssued',
        data: {
          companyId,
          shareClassId,
          issuanceId: `iss_${i}`,
          customerId: from,
          shares,
          issuedAt: new Date(at).toISOString(),
          reason: 'Grant',
          issuedBy: 'u-1',
        },
      });
    }
  }
  return events;
}

function stored(events: CapTableEvent[]): RecordedEvent[] {
  return events.map((event, index) => ({
    id: randomUUID(),
    type: event.type,
    data: event.data,
    metadata: {
      companyId,
      userId: 'u-1',
      correlationId: 'c',
      causationId: null,
      occurredAt: new Date(t0 - hour).toISOString(),
      schemaVersion: 1,
    },
    streamId: `CapTable-${companyId}`,
    revision: BigInt(index),
    position: BigInt(index + 1),
    recordedAt: new Date(t0),
  }));
}

async function apply(events: readonly RecordedEvent[]) {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await projection.apply(events, client);
    await client.query('COMMIT');
  } finally {
    client.release();
  }
}

/** The cap table folded naively from the events dated at or before `asOf`. */
function folded(events: CapTableEvent[], asOf: number) {
  const byClass = new Map<string, number>();
  for (const event of events) {
    if (event.type === 'SharesIssued' && Date.parse(event.data.issuedAt) <= asOf) {
      const key = `${event.data.customerId}|${event.data.shareClassId}`;
      byClass.set(key, (byClass.get(key) ?? 0) + event.data.shares);
    }
    if (event.type === 'SharesTransferred' && Date.parse(event.data.transferredAt) <= asOf) {
      const from = `${event.data.fromCustomerId}|${event.data.shareClassId}`;
      const to = `${event.data.toCustomerId}|${event.data.shareClassId}`;
      byClass.set(from, (byClass.get(from) ?? 0) - event.data.shares);
      byClass.set(to, (byClass.get(to) ?? 0) + event.data.shares);
    }
  }
  const totals = new Map<string, number>();
  for (const [key, shares] of byClass) {
    const holder = key.split('|')[0] as string;
    totals.set(holder, (totals.get(holder) ?? 0) + shares);
  }
  return {
    totals: [...totals].filter(([, shares]) => shares > 0),
    byClass: [...byClass].filter(([, shares]) => shares > 0),
  };
}

describe('the cap table read model', () => {
  it('answers every moment as the folded events do, from any checkpoint, after a replay too', async () => {
    const rng = seededRandom(seedFromEnv('CAP_TABLE_SEED'));
    const random = () => rng.next();
    const events = history(random, 120);
    const records = stored(events);
    for (let start = 0; start < records.length; ) {
      const size = 1 + Math.floor(random() * 15);
      await apply(records.slice(start, start + size));
      start += size;
    }
    await apply(records.slice(0, 60)); // a replay changes nothing
    const { rows } = await pool.query('SELECT count(*)::int AS n FROM cap_table_checkpoints');
    expect(rows[0].n).toBeGreaterThan(5);
    const dates = events.map((event) =>
      event.type === 'SharesIssued'
        ? Date.parse(event.data.issuedAt)
        : event.type === 'SharesTransferred'
          ? Date.parse(event.data.transferredAt)
          : t0,
    );
    const last = Math.max(...dates);
    for (let at = t0 - hour; at <= last + 2 * hour; at += hour) {
      const expected = folded(events, at);
      const sorted = [...expected.totals].sort((x, y) => y[1] - x[1] || (x[0] < y[0] ? -1 : 1));
      for (const [offset, limit] of [
        [0, 100],
        [1, 2],
        [3, 2],
      ] as const) {
        const table = await capTableAsOf(pool, {
          companyId,
          asOf: new Date(at),
          offset,
          limit,
          order: 'DESC',
        });
        expect(table.totals.holders, `seed ${rng.seed} at ${new Date(at).toISOString()}`).toBe(
          sorted.length,
        );
        expect(
          table.holders.map((h) => [h.customerId, h.shares]),
          `${new Date(at).toISOString()} ${offset}`,
        ).toEqual(sorted.slice(offset, offset + limit));
        if (offset === 0) {
          const perClass = table.holders.flatMap((h) =>
            h.byClass.map((c) => [`${h.customerId}|${c.shareClassId}`, c.shares]),
          );
          expect(new Map(perClass as [string, number][])).toEqual(new Map(expected.byClass));
        }
      }
      const ascending = await capTableAsOf(pool, {
        companyId,
        asOf: new Date(at),
        offset: 0,
        limit: 3,
        order: 'ASC',
      });
      const up = [...expected.totals].sort((x, y) => x[1] - y[1] || (x[0] < y[0] ? -1 : 1));
      expect(ascending.holders.map((h) => [h.customerId, h.shares])).toEqual(up.slice(0, 3));
    }
  });
});
