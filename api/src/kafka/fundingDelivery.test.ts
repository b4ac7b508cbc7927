import {
  kafkaBrokersForTests,
  type RecordingConsumer,
  testKafkaSettings,
} from '@issuer/kafka/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonOf } from '../http/testing/responses';
import type { OrderResource } from '../tokenOrders/queries';
import { type OrdersHarness, startOrdersHarness } from '../tokenOrders/testing/ordersHarness';
import { publishedToConsumer } from './testing/publishedToConsumer';

const brokers = kafkaBrokersForTests();

describe.skipIf(brokers === undefined)('funding rounds and token orders, on Kafka', () => {
  const settings = testKafkaSettings(brokers ?? []);
  let h: OrdersHarness;
  let published: Awaited<ReturnType<typeof publishedToConsumer>>;
  let consumer: RecordingConsumer;

  beforeAll(async () => {
    h = await startOrdersHarness();
    published = await publishedToConsumer(h, settings);
    consumer = published.consumer;
  });
  afterAll(async () => {
    await published?.stop();
    await h?.close();
  });

  it('publishes the round on issuer.funding.v1 and the order on issuer.orders.v1, in order, keyed by their streams', async () => {
    const issuer = await h.issuerWithRound();
    const customerId = await h.investor(issuer);
    const res = await h.order(issuer, { customerId, tokens: 3 });
    expect(res.status).toBe(201);
    const order = await jsonOf<OrderResource>(res);
    await h.capture(order.paymentId ?? '');
    await h.settle(issuer, order.id, 'complete');

    const of = (key: string) => () => consumer.records.filter((record) => record.key === key);
    const round = of(`FundingRound-${issuer.roundId}`);
    const placed = of(`TokenOrder-${order.id}`);
    await consumer.waitUntil(() => round().length >= 4 && placed().length >= 6);
    expect(round().map((r) => [r.topic, r.envelope.type, r.envelope.streamRevision])).toEqual([
      [`${settings.topicPrefix}.funding.v1`, 'FundingRoundCreated', '0'],
      [`${settings.topicPrefix}.funding.v1`, 'FundingRoundOpened', '1'],
      [`${settings.topicPrefix}.funding.v1`, 'RoundTokensReserved', '2'],
      [`${settings.topicPrefix}.funding.v1`, 'RoundTokensSold', '3'],
    ]);
    expect(placed().map((r) => [r.topic, r.envelope.type])).toEqual(
      [
        'TokenOrderPlaced',
        'TokenOrderPaymentRequested',
        'TokenOrderFundsReceived',
        'TokenOrderDistributionStarted',
        'TokenOrderTokensDistributed',
        'TokenOrderCompleted',
      ].map((type) => [`${settings.topicPrefix}.orders.v1`, type]),
    );
    expect(placed()[0]?.envelope.data).toMatchObject({
      orderId: order.id,
      roundId: issuer.roundId,
      customerId,
      tokens: 3,
      amountCents: 300,
      paymentId: order.paymentId,
    });
  });
});
