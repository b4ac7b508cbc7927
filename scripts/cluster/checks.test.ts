import { describe, expect, it } from 'vitest';
import { allowedStatuses, orderProblems, serverErrors } from './checks';
import type { FaultLog } from './faultRun';
import type { LoadClient, Operation } from './load';

const op = (overrides: Partial<Operation>): Operation => ({
  kind: 'investorStatus',
  outcome: 'ok',
  status: 200,
  answeredBy: 'api',
  startedAt: 1_000,
  endedAt: 1_100,
  ...overrides,
});

describe("the fault run's verdicts", () => {
  it('expects the last acknowledged status, or any sent after it whose answer is unknown', () => {
    const allowed = allowedStatuses([
      op({ id: 'a', value: 'Registered with the product' }),
      op({ id: 'a', value: 'KYC Complete', outcome: 'unknown', status: 503 }),
      op({ id: 'a', kind: 'forbiddenStatus', value: 'Complete', outcome: 'failed', status: 409 }),
      op({ id: 'b', value: 'Registered with the product', outcome: 'failed', status: 409 }),
    ]);
    expect(allowed.get('a')).toEqual(new Set(['Registered with the product', 'KYC Complete']));
    expect(allowed.get('b')).toEqual(new Set(['Not Registered']));
  });

  it('accepts repeats of an event id, and refuses a stream out of order or a revision under two ids', () => {
    const record = (streamId: string, revision: number, eventId: string) => ({
      streamId,
      streamRevision: String(revision),
      eventId,
    });
    expect(
      orderProblems([
        record('S', 0, 'e0'),
        record('S', 1, 'e1'),
        record('S', 0, 'e0'),
        record('S', 1, 'e1'),
      ]),
    ).toEqual([]);
    expect(orderProblems([record('S', 1, 'e1'), record('S', 0, 'e0')])).toEqual([
      'S#0 after revision 1',
    ]);
    expect(orderProblems([record('S', 0, 'e0'), record('S', 0, 'x0')])).toContain(
      'S#0 under two event ids',
    );
  });

  it("allows the API's 503 only while PostgreSQL is down, and nginx's 502 only while an API is killed", () => {
    const faults: FaultLog = {
      postgresDown: [{ from: 10_000, to: 13_000 }],
      apiKilled: [{ at: 50_000, back: 52_000 }],
      takeoverMs: 500,
      throughput: undefined,
    };
    const verdict = (history: Operation[]) =>
      serverErrors({ client: { history } as unknown as LoadClient, faults }).passed;
    const unavailable = {
      status: 503,
      errorCode: 'service_unavailable',
      outcome: 'unknown',
    } as const;
    expect(verdict([op({ ...unavailable, startedAt: 11_000, endedAt: 11_500 })])).toBe(true);
    expect(verdict([op({ ...unavailable, startedAt: 90_000, endedAt: 90_100 })])).toBe(false);
    expect(verdict([op({ status: 500, errorCode: 'internal_error', startedAt: 11_000 })])).toBe(
      false,
    );
    const badGateway = { status: 502, answeredBy: 'nginx', outcome: 'unknown' } as const;
    expect(verdict([op({ ...badGateway, startedAt: 50_500, endedAt: 50_600 })])).toBe(true);
    expect(verdict([op({ ...badGateway, startedAt: 90_000, endedAt: 90_100 })])).toBe(false);
  });
});
