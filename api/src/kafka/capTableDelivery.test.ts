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

describe.skipIf(brokers === undefined)('the cap table through the API, on Kafka', () => {
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

  it('publishes share classes, issuances and transfers on issuer.funding.v1, in order, keyed by the company', async () => {
    const company = await h.verifiedCompany();
    const post = async (path: string, body: object) => {
      const res = await h.call('POST', path, { token: company.token, body });
      expect(res.status).toBe(201);
      return jsonOf<{ id: string }>(res);
    };
    const alice = await h.addCustomer(company.token, { name: 'Alice', email: 'alice@kafka.test' });
    const bob = await h.addCustomer(company.token, { name: 'Bob', email: 'bob@kafka.test' });
    const common = await post('/api/share-classes', {
      name: 'Common',
      kind: 'common',
      votesPerShare: 1,
      authorized: 1000,
    });
    const issuance = await post('/api/issuances', {
      shareClassId: common.id,
      customerId: alice.id,
      shares: 600,
      reason: 'Founder grant',
    });
    const transfer = await post('/api/transfers', {
      shareClassId: common.id,
      fromCustomerId: alice.id,
      toCustomerId: bob.id,
      shares: 100,
      reason: 'Secondary sale',
    });

    const stream = `CapTable-${company.companyId}`;
    const ofCapTable = () => consumer.records.filter((record) => record.key === stream);
    await consumer.waitUntil(() => ofCapTable().length >= 3);
    const records = ofCapTable();
    expect(records.map((record) => record.topic)).toEqual(
      Array(3).fill(`${settings.topicPrefix}.funding.v1`),
    );
    expect(records.map((record) => [record.envelope.type, record.envelope.streamRevision])).toEqual(
      [
        ['ShareClassCreated', '0'],
        ['SharesIssued', '1'],
        ['SharesTransferred', '2'],
      ],
    );
    expect(new Set(records.map((record) => record.partition)).size).toBe(1);
    const at = h.deps.clock().toISOString();
    expect(records.map((record) => record.envelope.data)).toEqual([
      {
        companyId: company.companyId,
        shareClassId: common.id,
        name: 'Common',
        kind: 'common',
        votesPerShare: 1,
        parValue: '0',
        liquidationPreferenceMultiple: 1,
        seniority: 0,
        authorized: 1000,
        createdBy: company.userId,
        createdAt: at,
      },
      {
        companyId: company.companyId,
        shareClassId: common.id,
        issuanceId: issuance.id,
        customerId: alice.id,
        shares: 600,
        issuedAt: at,
        reason: 'Founder grant',
        issuedBy: company.userId,
      },
      {
        companyId: company.companyId,
        shareClassId: common.id,
        transferId: transfer.id,
        fromCustomerId: alice.id,
        toCustomerId: bob.id,
        shares: 100,
        transferredAt: at,
        reason: 'Secondary sale',
        transferredBy: company.userId,
      },
    ]);
  });
});
