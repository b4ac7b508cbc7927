import { randomUUID } from 'node:crypto';
import { type PaymentEvent, streamCategories, streamName } from '@issuer/events';
import { expect } from 'vitest';
import type { Company, CustomersHarness } from '../../customers/testing/customersHarness';
import { jsonOf } from '../../http/testing/responses';

export interface PaymentPlan {
  amountCents: number;
  terminalId?: string;
  customerId?: string | null;
  description?: string | null;
  /** Default: captured. */
  outcome?: 'captured' | 'declined' | 'cancelled' | 'pending';
  capturedAt?: string;
  /** Confirmed by the processor unless `pending`. */
  refunds?: { amountCents: number; reason?: string; refundedAt?: string; pending?: boolean }[];
}

export interface PaidPayment {
  paymentId: string;
  refundIds: string[];
  /** Position of the last event appended. */
  position: bigint;
}

/**
 * Appends a payment's whole life to its stream, as the write side would: the event store is the
 * interface between the write side and these read models.
 */
export async function appendPayment(
  h: CustomersHarness,
  company: Company,
  plan: PaymentPlan,
): Promise<PaidPayment> {
  const paymentId = `pay_${randomUUID()}`;
  const ids = { paymentId, companyId: company.companyId };
  const at = plan.capturedAt ?? '2026-01-10T10:00:31.000Z';
  const events: PaymentEvent[] = [
    {
      type: 'PaymentRequested',
      data: {
        ...ids,
        terminalId: plan.terminalId ?? 'terminal-unknown',
        amountCents: plan.amountCents,
        currency: 'CAD',
        customerId: plan.customerId ?? null,
        description: plan.description ?? null,
        requestedBy: company.userId,
        requestedAt: at,
        expiresAt: at,
      },
    },
  ];
  const outcome = plan.outcome ?? 'captured';
  if (outcome === 'captured') {
    events.push(
      {
        type: 'PaymentAuthorized',
        data: {
          ...ids,
          gatewayEventId: randomUUID(),
          amountCents: plan.amountCents,
          cardBrand: 'visa',
          cardLast4: '4242',
          authorizedAt: at,
        },
      },
      {
        type: 'PaymentCaptured',
        data: {
          ...ids,
          gatewayEventId: randomUUID(),
          amountCents: plan.amountCents,
          currency: 'CAD',
          capturedAt: at,
        },
      },
    );
  } else if (outcome === 'declined') {
    events.push({
      type: 'PaymentDeclined',
      data: { ...ids, gatewayEventId: randomUUID(), reason: 'card_declined', declinedAt: at },
    });
  } else if (outcome === 'cancelled') {
    events.push({
      type: 'PaymentCancelled',
      data: { ...ids, cancelledBy: company.userId, cancelledAt: at },
    });
  }
  const refundIds: string[] = [];
  for (const refund of plan.refunds ?? []) {
    const refundId = `re_${randomUUID()}`;
    refundIds.push(refundId);
    events.push({
      type: 'PaymentRefunded',
      data: {
        ...ids,
        refundId,
        amountCents: refund.amountCents,
        currency: 'CAD',
        reason: refund.reason ?? 'requested_by_customer',
        refundedBy: company.userId,
        refundedAt: refund.refundedAt ?? at,
      },
    });
    if (!refund.pending) {
      events.push({
        type: 'PaymentRefundConfirmed',
        data: { ...ids, refundId, confirmedAt: refund.refundedAt ?? at },
      });
    }
  }
  const { position } = await h.store.appendToStream(
    streamName(streamCategories.payment, paymentId),
    events.map((event) => ({
      id: randomUUID(),
      ...event,
      metadata: {
        companyId: company.companyId,
        userId: company.userId,
        correlationId: randomUUID(),
        causationId: null,
        occurredAt: at,
        schemaVersion: 1,
      },
    })),
    { expectedRevision: 'no_stream' },
  );
  expect(await h.deps.readModels.waitFor(position, 5_000)).toBe(true);
  return { paymentId, refundIds, position };
}

/** Registers a payment terminal on the company (its admin's token); answers its id. */
export async function registerTerminal(
  h: CustomersHarness,
  company: Company,
  name: string,
): Promise<string> {
  const res = await h.call('POST', '/api/terminals', {
    token: company.token,
    body: { name, deviceId: `dev-${randomUUID().slice(0, 8)}` },
  });
  expect(res.status).toBe(201);
  return (await jsonOf<{ id: string }>(res)).id;
}

/** `?sort=…&range=…&filter=…` with each JSON-encoded, as react-admin sends them. */
export function listParams(params: { filter?: object; sort?: unknown[]; range?: number[] }) {
  const parts = Object.entries(params)
    .filter(([, value]) => value !== undefined)
    .map(([key, value]) => `${key}=${encodeURIComponent(JSON.stringify(value))}`);
  return parts.length ? `?${parts.join('&')}` : '';
}
