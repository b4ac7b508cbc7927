import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AccountsHarness, startAccountsHarness } from '../auth/testing/accountsHarness';
import { toNewEvents } from '../http';
import { paymentStream } from '../payments/paymentCommands';
import { loadWallet } from './walletCommands';
import { createWalletRecorder, migrateWalletRecorder } from './walletRecorder';

let h: AccountsHarness;

beforeAll(async () => {
  h = await startAccountsHarness();
  await migrateWalletRecorder(h.pool);
});
afterAll(() => h?.close());

/** Appends money events of one payment as the payment commands would, straight to the store. */
async function paymentEvents(companyId: string, events: { type: string; data: object }[]) {
  const paymentId = `pay_${randomUUID()}`;
  const at = h.deps.clock().toISOString();
  await h.store.appendToStream(
    paymentStream(paymentId),
    toNewEvents(
      events.map(({ type, data }) => ({ type, data: { paymentId, companyId, ...data } })),
      {
        companyId,
        userId: null,
        correlationId: randomUUID(),
        causationId: null,
        occurredAt: at,
        schemaVersion: 1,
      },
    ),
    { expectedRevision: 'any' },
  );
}

/**
 * Passes until the recorder's checkpoint reaches the store's head: a pass finds the checkpoint row
 * locked (and skips) while another recorder on this database is in the middle of one.
 */
async function recordAll(recorder: ReturnType<typeof createWalletRecorder>) {
  for (let attempt = 0; attempt < 200; attempt++) {
    await recorder.runOnce();
    const { rows } = await h.pool.query<{ position: string }>(
      `SELECT position::text FROM process_checkpoints WHERE name = 'walletRecorder'`,
    );
    const head = await h.settledHead();
    if (head !== undefined && BigInt(rows[0]?.position ?? '-1') >= head) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('the wallet recorder did not reach the head of the store');
}

describe('the wallet recorder', () => {
  it('credits back a refund the processor refused, once, even on a replay', async () => {
    const companyId = `c-${randomUUID()}`;
    const at = h.deps.clock().toISOString();
    const money = { currency: 'CAD' };
    await paymentEvents(companyId, [
      {
        type: 'PaymentCaptured',
        data: { ...money, gatewayEventId: 'ev-1', amountCents: 2500, capturedAt: at },
      },
      {
        type: 'PaymentRefunded',
        data: {
          ...money,
          refundId: 'rf-1',
          amountCents: 1000,
          reason: 'Damaged',
          refundedBy: 'u-1',
          refundedAt: at,
        },
      },
    ]);
    const recorder = createWalletRecorder(h.deps);
    await recordAll(recorder);
    expect((await loadWallet(h.deps, companyId)).balanceCents).toBe(1500);

    await paymentEvents(companyId, [
      {
        type: 'PaymentRefundFailed',
        data: {
          ...money,
          refundId: 'rf-1',
          amountCents: 1000,
          reason: 'expired_or_canceled_card',
          failedAt: at,
        },
      },
    ]);
    await recordAll(recorder);
    expect((await loadWallet(h.deps, companyId)).balanceCents).toBe(2500);

    await h.pool.query(
      `UPDATE process_checkpoints SET position = -1 WHERE name = 'walletRecorder'`,
    );
    await recordAll(recorder);
    expect((await loadWallet(h.deps, companyId)).balanceCents).toBe(2500);
  });
});
