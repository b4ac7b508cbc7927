import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../http/testing/harness';
import { openApiChecker } from '../http/testing/openApiCheck';
import { jsonOf } from '../http/testing/responses';
import { healthRoutes } from './health';

let h: Harness;

beforeAll(async () => {
  h = await startHarness([healthRoutes]);
});
afterAll(() => h.close());

const caughtUp = {
  name: 'companies',
  position: 41n,
  lagEvents: 0,
  lagSeconds: 0,
  failedEvents: 0,
};

describe('GET /api/health', () => {
  it('is ok, without a token, when the database answers and projections are caught up', async () => {
    h.deps.projectionStatus = async () => ({ projections: [caughtUp], recentFailures: [] });
    const res = await h.app.request('/api/health');
    expect(res.status).toBe(200);
    await (await openApiChecker()).check('GET', '/api/health', res);
    expect(await jsonOf(res)).toEqual({
      status: 'ok',
      database: { ok: true, latencyMs: expect.any(Number) },
      projections: [{ ...caughtUp, position: '41' }],
      failedEvents: [],
    });
  });

  it('is degraded and lists the failed events when a projector gave up on one', async () => {
    const failure = {
      projection: 'companies',
      position: 7n,
      eventId: 'e-7',
      eventType: 'CompanyRegistered',
      error: 'TypeError: boom',
      attempts: 3,
      failedAt: new Date('2025-01-15T09:00:00Z'),
    };
    h.deps.projectionStatus = async () => ({
      projections: [{ ...caughtUp, failedEvents: 1 }],
      recentFailures: [failure],
    });
    const res = await h.app.request('/api/health');
    expect(res.status).toBe(200);
    await (await openApiChecker()).check('GET', '/api/health', res);
    const body = await jsonOf(res);
    expect(body.status).toBe('degraded');
    expect(body.failedEvents).toEqual([
      { ...failure, position: '7', failedAt: '2025-01-15T09:00:00.000Z' },
    ]);
  });

  it('is degraded when a projector lags far behind', async () => {
    h.deps.projectionStatus = async () => ({
      projections: [{ ...caughtUp, lagEvents: 5000, lagSeconds: 300 }],
      recentFailures: [],
    });
    expect((await jsonOf(await h.app.request('/api/health'))).status).toBe('degraded');
  });

  it('is degraded when the projectors cannot report', async () => {
    h.deps.projectionStatus = async () => {
      throw new Error('checkpoint table missing');
    };
    const res = await h.app.request('/api/health');
    expect(res.status).toBe(200);
    expect(await jsonOf(res)).toMatchObject({ status: 'degraded', projections: [] });
  });
});

describe('GET /api/health with the database down', () => {
  it('answers 503', async () => {
    const deadPool = new pg.Pool({
      connectionString: 'postgres://nobody@127.0.0.1:1/none',
      connectionTimeoutMillis: 500,
    });
    const down = await startHarness([healthRoutes], { pool: deadPool });
    try {
      const res = await down.app.request('/api/health');
      expect(res.status).toBe(503);
      await (await openApiChecker()).check('GET', '/api/health', res);
      expect(await jsonOf(res)).toMatchObject({
        status: 'degraded',
        database: { ok: false, latencyMs: expect.any(Number) },
      });
    } finally {
      await down.close();
    }
  });
});
