import { DomainError } from '@issuer/events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { roundDecider } from '../fundingRounds/businessLogic';
import { roundStream } from '../fundingRounds/roundCommands';
import { runOnStream } from '../http/streamCommands';
import { placeOrder } from './orderCommands';
import { type OrdersHarness, startOrdersHarness } from './testing/ordersHarness';

let h: OrdersHarness;

beforeAll(async () => {
  h = await startOrdersHarness();
});
afterAll(async () => {
  await h?.close();
});

const soldOut = (error: unknown) =>
  error instanceof DomainError &&
  error.status === 409 &&
  /sold out|tokens are left/.test(error.message);

describe('a round that can fill 500 tokens', () => {
  it('takes exactly 500 of 1,000 concurrent one-token orders, and refuses the rest with 409', async () => {
    const issuer = await h.issuerWithRound({ tokenPriceCents: 100, raiseAmountCents: 50_000 });
    const customers = await Promise.all(Array.from({ length: 5 }, () => h.investor(issuer)));
    const started = performance.now();
    const results = await Promise.allSettled(
      Array.from({ length: 1000 }, (_, i) =>
        placeOrder(h.deps, {
          companyId: issuer.companyId,
          actorId: issuer.userId,
          roundId: issuer.roundId,
          customerId: customers[i % customers.length] ?? '',
          tokens: 1,
          payment: { method: 'terminal', terminalId: issuer.terminalId },
        }),
      ),
    );
    const seconds = (performance.now() - started) / 1000;
    const placed = results.filter((r) => r.status === 'fulfilled');
    const refused = results.filter((r) => r.status === 'rejected');
    expect(placed).toHaveLength(500);
    expect(refused.every((r) => soldOut(r.reason))).toBe(true);
    const events = await h.store.readStream(roundStream(issuer.roundId));
    const reserved = events.filter((event) => event.type === 'RoundTokensReserved');
    expect(reserved).toHaveLength(500);
    console.info(`1,000 concurrent orders: ${(1000 / seconds).toFixed(0)} orders/s, 500 placed`);
  }, 120_000);

  it('holds by the stream revision alone, without the in-process queue (two processes racing)', async () => {
    const issuer = await h.issuerWithRound({ tokenPriceCents: 100, raiseAmountCents: 2_000 });
    const results = await Promise.allSettled(
      Array.from({ length: 60 }, (_, i) =>
        // runOnStream directly: each "process" reads, decides and appends with its revision.
        runOnStream(
          h.deps,
          roundStream(issuer.roundId),
          roundDecider,
          {
            type: 'ReserveTokens',
            data: {
              companyId: issuer.companyId,
              roundId: issuer.roundId,
              actorId: 'system',
              orderId: `ord_race_${i}`,
              customerId: `cu_${i}`,
              tokens: 1,
              now: h.deps.clock(),
            },
          },
          (state) => (state.status === 'none' ? undefined : state.companyId),
        ),
      ),
    );
    const events = await h.store.readStream(roundStream(issuer.roundId));
    const reserved = events.filter((event) => event.type === 'RoundTokensReserved');
    // Some lose every retry to the race (an error, nothing appended); none goes past 20.
    expect(reserved.length).toBeLessThanOrEqual(20);
    expect(results.filter((r) => r.status === 'fulfilled').length).toBe(reserved.length);
    expect(reserved.length).toBeGreaterThan(0);
  }, 60_000);
});
