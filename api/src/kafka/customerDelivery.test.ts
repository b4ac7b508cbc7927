import {
  kafkaBrokersForTests,
  type RecordingConsumer,
  testKafkaSettings,
} from '@issuer/kafka/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type CustomersHarness,
  startCustomersHarness,
} from '../customers/testing/customersHarness';
import { jsonOf } from '../http/testing/responses';
import { publishedToConsumer } from './testing/publishedToConsumer';

const brokers = kafkaBrokersForTests();

describe.skipIf(brokers === undefined)('customer commands through the API, on Kafka', () => {
  const settings = testKafkaSettings(brokers ?? []);
  let h: CustomersHarness;
  let published: Awaited<ReturnType<typeof publishedToConsumer>>;
  let consumer: RecordingConsumer;

  beforeAll(async () => {
    h = await startCustomersHarness();
    published = await publishedToConsumer(h, settings);
    consumer = published.consumer;
  });
  afterAll(async () => {
    await published?.stop();
    await h?.close();
  });

  it('publishes a customer’s life on issuer.customers.v1, in order, keyed by the customer, without the email reservation', async () => {
    const company = await h.verifiedCompany();
    const customer = await h.addCustomer(company.token, {
      name: 'Ada',
      email: 'ada@kafka.test',
      notes: 'met at the fair',
    });
    const path = `/api/customers/${customer.id}`;
    // One after the other: each is a new revision of the customer's stream, in this order.
    const commands = [
      { path: `${path}/star`, body: undefined },
      { path: `${path}/investor-status`, body: { status: 'Registered with the product' } },
      {
        path: `${path}/investor-status`,
        body: { status: 'Cancelled', reason: 'Changed their mind', evidence: 'email-2207' },
      },
    ];
    for (const command of commands) {
      const res = await h.call('POST', command.path, { token: company.token, body: command.body });
      expect(res.status).toBe(200);
    }

    const stream = `Customer-${customer.id}`;
    const ofCustomer = () => consumer.records.filter((record) => record.key === stream);
    await consumer.waitUntil(() => ofCustomer().length >= 4);
    const records = ofCustomer();
    expect(records.map((record) => record.topic)).toEqual(
      Array(4).fill(`${settings.topicPrefix}.customers.v1`),
    );
    expect(records.map((record) => record.envelope.type)).toEqual([
      'CustomerAdded',
      'CustomerStarred',
      'InvestorStatusChanged',
      'InvestorStatusChanged',
    ]);
    expect(records.map((record) => record.envelope.streamRevision)).toEqual(['0', '1', '2', '3']);
    expect(records[3]?.envelope).toMatchObject({
      companyId: company.companyId,
      data: {
        customerId: customer.id,
        from: 'Registered with the product',
        to: 'Cancelled',
        reason: 'Changed their mind',
        evidence: 'email-2207',
        changedBy: company.userId,
      },
    });
    const stored = await jsonOf<{ email: string }>(
      await h.call('GET', path, { token: company.token }),
    );
    expect(stored.email).toBe('ada@kafka.test');
    expect(consumer.records.some((record) => record.key.startsWith('CustomerEmail-'))).toBe(false);
  });
});
