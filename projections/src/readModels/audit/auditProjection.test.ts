import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectionDatabase, recorded } from '../testing';
import { usersProjection } from '../users/usersProjection';
import { auditProjection } from './auditProjection';
import { listAuditJson } from './queries';

let db: Awaited<ReturnType<typeof projectionDatabase>>;
beforeAll(async () => {
  db = await projectionDatabase([usersProjection, auditProjection]);
});
afterAll(() => db.pool.end());

const event = (type: string, companyId: string, data: Record<string, unknown> = {}) => ({
  type,
  companyId,
  data,
});
const tables = async () =>
  (
    await db.pool.query(
      'SELECT (SELECT json_agg(e ORDER BY position) FROM audit_events e)::text AS events, (SELECT json_agg(c ORDER BY company_id, dimension, value) FROM audit_counts c)::text AS counts',
    )
  ).rows[0];
const list = (companyId: string, filter = {}) =>
  listAuditJson(db.pool, { companyId, order: 'ASC', range: { start: 0, end: 99 }, filter });

describe('audit projection', () => {
  it('keeps every event of each company, without secrets, and a replay changes nothing', async () => {
    const batch = recorded([
      event('UserRegistered', 'co-1', {
        userId: 'u-1',
        passwordHash: 'x$secret',
        roles: ['admin'],
      }),
      event('CustomerAdded', 'co-1', { customerId: 'k-1' }),
      event('CompanySuspended', 'co-2', { companyId: 'co-2', reason: 'fraud' }),
      event('CustomerAdded', 'co-1', { customerId: 'k-2' }),
    ]);
    await db.apply(auditProjection, batch.slice(0, 2));
    await db.apply(auditProjection, batch.slice(2));
    const before = await tables();
    await db.apply(auditProjection, batch);
    expect(await tables()).toEqual(before);
    const mine = await list('co-1');
    expect(mine.total).toBe(3);
    expect(mine.json).not.toContain('secret');
    const theirs = JSON.parse((await list('co-2')).json) as { reason: string }[];
    expect(theirs).toMatchObject([{ reason: 'fraud' }]);
  });

  it('counts a filter over a date range exactly, across batches', async () => {
    const days = ['2026-03-01', '2026-03-02', '2026-03-03', '2026-03-04'];
    let position = 100n;
    for (const day of days) {
      const batch = recorded(
        [
          event('CustomerAdded', 'co-3', { customerId: `k-${day}` }),
          event('CustomerUpdated', 'co-3', { customerId: `k-${day}` }),
        ],
        position,
      ).map((one) => ({ ...one, recordedAt: new Date(`${day}T12:00:00Z`) }));
      position += 2n;
      await db.apply(auditProjection, batch);
    }
    const between = {
      from: new Date('2026-03-02T00:00:00Z'),
      to: new Date('2026-03-04T00:00:00Z'),
    };
    expect((await list('co-3', between)).total).toBe(4);
    expect((await list('co-3', { ...between, eventType: ['CustomerAdded'] })).total).toBe(2);
    expect((await list('co-3', { eventType: ['CustomerUpdated'] })).total).toBe(4);
    expect((await list('co-3', { from: new Date('2026-03-04T00:00:00Z') })).total).toBe(2);
    expect((await list('co-3', { to: new Date('2026-03-01T00:00:00Z') })).total).toBe(0);
  });
});
