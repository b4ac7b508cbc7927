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
import { formOf, pdfBytes } from '../documents/testing/files';
import { jsonOf } from '../http/testing/responses';
import { publishedToConsumer } from './testing/publishedToConsumer';

const brokers = kafkaBrokersForTests();

describe.skipIf(brokers === undefined)('documents and signatures through the API, on Kafka', () => {
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

  it('publishes the document and its signature on issuer.documents.v1, without where the signer was', async () => {
    const company = await h.verifiedCompany();
    const customer = await h.addCustomer(company.token, { name: 'Ada', email: 'ada@sign.test' });
    const uploaded = await h.app.request(
      '/api/documents',
      {
        method: 'POST',
        body: formOf({ bytes: pdfBytes('kafka'), name: 'terms.pdf' }),
        headers: { Authorization: `Bearer ${company.token}` },
      },
      { incoming: { socket: { remoteAddress: '127.0.0.1' } } },
    );
    expect(uploaded.status).toBe(201);
    const document = await jsonOf<{ id: string; sha256: string }>(uploaded);
    const requested = await h.call('POST', '/api/signature-requests', {
      token: company.token,
      body: { customerId: customer.id, documentIds: [document.id] },
    });
    const request = await jsonOf<{ id: string; signingPath: string }>(requested);
    const signed = await h.app.request(
      `${request.signingPath}/sign`,
      {
        method: 'POST',
        body: new URLSearchParams({ signerName: 'Ada', consent: 'on' }),
        headers: {
          'Content-Type': 'application/x-www-form-urlencoded',
          'User-Agent': 'PrivateBrowser/7',
        },
      },
      { incoming: { socket: { remoteAddress: '203.0.113.9' } } },
    );
    expect(signed.status).toBe(303);

    const topic = `${settings.topicPrefix}.documents.v1`;
    const keys = [`Document-${document.id}`, `SignatureRequest-${request.id}`];
    const ours = () => consumer.records.filter((record) => keys.includes(record.key));
    await consumer.waitUntil(() => ours().length >= 3);
    // Kafka orders records per key (partition), not across keys: compare each stream's own order.
    const ofKey = (key: string | undefined) =>
      ours()
        .filter((record) => record.key === key)
        .map((record) => [record.topic, record.envelope.type]);
    expect(ofKey(keys[0])).toEqual([[topic, 'DocumentUploaded']]);
    expect(ofKey(keys[1])).toEqual([
      [topic, 'SignatureRequested'],
      [topic, 'SignatureRequestSigned'],
    ]);
    const signing = ours().find((record) => record.envelope.type === 'SignatureRequestSigned');
    expect(signing?.envelope.data).toMatchObject({
      requestId: request.id,
      signerName: 'Ada',
      consent: true,
      documents: [{ documentId: document.id, sha256: document.sha256 }],
    });
    const everything = JSON.stringify(ours());
    expect(everything).not.toContain('203.0.113.9');
    expect(everything).not.toContain('PrivateBrowser');
  });
});
