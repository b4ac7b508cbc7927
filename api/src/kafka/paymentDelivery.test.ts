import {
  kafkaBrokersForTests,
  type RecordingConsumer,
  testKafkaSettings,
} from '@issuer/kafka/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonOf } from '../http/testing/responses';
import { recordGatewayEvent } from '../payments/paymentCommands';
import type { PaymentResource } from '../payments/paymentView';
import { type PaymentsHarness, startPaymentsHarness } from '../payments/testing/paymentsHarness';
import { publishedToConsumer } from './testing/publishedToConsumer';

const brokers = kafkaBrokersForTests();

describe.skipIf(brokers === undefined)('payments through the API, on Kafka', () => {
  const settings = testKafkaSettings(brokers ?? []);
  let h: PaymentsHarness;
  let published: Awaited<ReturnType<typeof publishedToConsumer>>;
  let consumer: RecordingConsumer;

  beforeAll(async () => {
    h = await startPaymentsHarness();
    published = await publishedToConsumer(h, settings);
    consumer = published.consumer;
  });
  afterAll(async () => {
    await published?.stop();
    await h?.close();
  });

  it('publishes a payment’s life on issuer.payments.v1, in order, keyed by the payment, without the processor’s ids', async () => {
    const company = await h.companyWithTerminal();
    const payment = await h.pay(company.token, {
      terminalId: company.terminalId,
      amountCents: 12_345,
      currency: 'CAD',
      description: 'Gold coin',
    });
    // The processor's own ids, recognisable wherever they might leak.
    const gatewayPaymentId = `gw_${payment.id}`;
    const card = { amountCents: 12_345, cardBrand: 'visa', cardLast4: '4242' };
    const report = (type: 'payment.authorized' | 'payment.captured', id: string) =>
      recordGatewayEvent(h.deps, {
        ...card,
        id,
        type,
        paymentId: payment.id,
        gatewayPaymentId,
        occurredAt: h.deps.clock().toISOString(),
      });
    await report('payment.authorized', 'gwevt_secret_authorized');
    const { position } = await report('payment.captured', 'gwevt_secret_captured');
    expect(await h.deps.readModels.waitFor(position ?? 0n, 10_000)).toBe(true);
    const refund = await h.call('POST', `/api/payments/${payment.id}/refunds`, {
      token: company.token,
      body: { amountCents: 2_345, reason: 'Scratched' },
    });
    expect(refund.status).toBe(201);
    const refunded = await jsonOf<PaymentResource>(refund);

    const stream = `Payment-${payment.id}`;
    const ofPayment = () => consumer.records.filter((record) => record.key === stream);
    await consumer.waitUntil(() => ofPayment().length >= 6);
    const records = ofPayment();
    expect(records.map((record) => record.topic)).toEqual(
      Array(6).fill(`${settings.topicPrefix}.payments.v1`),
    );
    expect(records.map((record) => record.envelope.type)).toEqual([
      'PaymentRequested',
      'PaymentSentToTerminal',
      'PaymentAuthorized',
      'PaymentCaptured',
      'PaymentRefunded',
      'PaymentRefundConfirmed',
    ]);
    expect(records.map((record) => record.envelope.streamRevision)).toEqual([
      '0',
      '1',
      '2',
      '3',
      '4',
      '5',
    ]);
    // One partition per key, so a consumer sees the payment's events in order.
    expect(new Set(records.map((record) => record.partition)).size).toBe(1);
    const ids = { paymentId: payment.id, companyId: company.companyId };
    expect(records.map((record) => record.envelope.data)).toEqual([
      {
        ...ids,
        terminalId: company.terminalId,
        amountCents: 12_345,
        currency: 'CAD',
        customerId: null,
        description: 'Gold coin',
        requestedBy: company.userId,
        requestedAt: payment.requestedAt,
        expiresAt: payment.expiresAt,
      },
      { ...ids, terminalId: company.terminalId, sentAt: payment.requestedAt },
      { ...ids, ...card, authorizedAt: h.deps.clock().toISOString() },
      { ...ids, amountCents: 12_345, currency: 'CAD', capturedAt: h.deps.clock().toISOString() },
      {
        ...ids,
        refundId: refunded.refunds[0]?.id,
        amountCents: 2_345,
        currency: 'CAD',
        reason: 'Scratched',
        refundedBy: company.userId,
        refundedAt: h.deps.clock().toISOString(),
      },
      { ...ids, refundId: refunded.refunds[0]?.id, confirmedAt: h.deps.clock().toISOString() },
    ]);
    // Nowhere in the payload, the other envelope fields or the headers. The causation id is left
    // out on purpose: a webhook-recorded event names the processor's event id as its cause today
    // (paymentCommands.recordGatewayEvent), reported to the lead as an open question.
    for (const record of records) {
      expect(record.envelope.companyId).toBe(company.companyId);
      const { causationId: _cause, ...envelope } = record.envelope;
      const { 'causation-id': _header, ...headers } = record.headers;
      const published = JSON.stringify({ key: record.key, headers, envelope });
      expect(published).not.toMatch(/gatewayPaymentId|gatewayEventId|gwevt_secret|gw_pay_/);
    }
  });
});
