import { integrationMapping, type RecordedEvent } from '@issuer/events';
import { defaultPublisherName } from '@issuer/kafka';
import {
  kafkaBrokersForTests,
  type RecordingConsumer,
  testKafkaSettings,
} from '@issuer/kafka/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type AccountsHarness,
  registered,
  startAccountsHarness,
} from '../auth/testing/accountsHarness';
import { publishedToConsumer } from './testing/publishedToConsumer';

const brokers = kafkaBrokersForTests();

describe.skipIf(brokers === undefined)('events appended through the API, on Kafka', () => {
  const settings = testKafkaSettings(brokers ?? []);
  let h: AccountsHarness;
  let published: Awaited<ReturnType<typeof publishedToConsumer>>;
  let consumer: RecordingConsumer;

  beforeAll(async () => {
    h = await startAccountsHarness();
    published = await publishedToConsumer(h, settings);
    consumer = published.consumer;
  });
  afterAll(async () => {
    await published?.stop();
    await h?.close();
  });

  it('delivers each published event once, on its topic, keyed by stream, with headers and the public payload, in stream order', async () => {
    const sessions = await Promise.all([registered(h), registered(h)]);
    for (const { access_token: token } of sessions) {
      const terminal = await h.call('POST', '/api/terminals', {
        token,
        body: { name: 'Front desk', deviceId: `dev-${token.slice(-8)}` },
      });
      expect(terminal.status).toBe(201);
      const { id } = (await terminal.json()) as { id: string };
      for (const name of ['Back desk', 'Side desk']) {
        const renamed = await h.call('PATCH', `/api/terminals/${id}`, { token, body: { name } });
        expect(renamed.status).toBe(200);
      }
      const saved = await h.call('POST', '/api/auth/user/update', {
        token,
        body: { user: { data: { settings: { theme: 'dark' }, shortcuts: ['mail'] } } },
      });
      expect(saved.status).toBe(200);
    }
    const [first] = sessions;
    const changed = await h.call('POST', '/api/auth/password', {
      token: first?.access_token,
      body: { currentPassword: first?.form.password, newPassword: 'glacier-Orbit-77-new' },
    });
    expect(changed.status).toBe(200);

    await h.settledHead();
    const stored = await h.store.readAll({ maxCount: 10_000 });
    const published = stored.filter((event) => integrationMapping(event.type)?.published);
    expect(new Set(published.map((event) => event.type))).toEqual(
      new Set([
        'CompanyRegistered',
        'UserRegistered',
        'PaymentTerminalRegistered',
        'PaymentTerminalRenamed',
        'UserSettingsUpdated',
        'UserPasswordChanged',
      ]),
    );
    await consumer.waitUntil((records) => records.length >= published.length);
    await new Promise((resolve) => setTimeout(resolve, 500)); // room for a duplicate to show up
    expect(consumer.records).toHaveLength(published.length);

    for (const event of published) {
      const received = consumer.records.filter((record) => record.envelope.eventId === event.id);
      expect(received, event.type).toHaveLength(1);
      const [record] = received;
      expect(record?.topic).toBe(expectedTopic(settings.topicPrefix, event));
      expect(record?.key).toBe(event.streamId);
      expect(record?.envelope).toEqual(expectedEnvelope(event));
      expect(record?.headers).toEqual({
        'content-type': 'application/json',
        'event-id': event.id,
        'event-type': event.type,
        'schema-version': '1',
        'company-id': event.metadata.companyId,
        'stream-id': event.streamId,
        'stream-revision': event.revision.toString(),
        position: event.position.toString(),
        'occurred-at': event.metadata.occurredAt,
        'recorded-at': event.recordedAt.toISOString(),
        'correlation-id': event.metadata.correlationId,
        ...(event.metadata.causationId ? { 'causation-id': event.metadata.causationId } : {}),
      });
    }
    for (const streamId of new Set(published.map((event) => event.streamId))) {
      const revisions = consumer.records
        .filter((record) => record.key === streamId)
        .map((record) => BigInt(record.envelope.streamRevision));
      expect(revisions).toEqual(
        published.filter((e) => e.streamId === streamId).map((e) => e.revision),
      );
    }
    const everything = JSON.stringify(consumer.records);
    for (const secret of ['passwordHash', 'argon2', 'tokenId', 'passwordVersion']) {
      expect(everything).not.toContain(secret);
    }
  });

  it('reports the publisher position and lag on GET /api/health', async () => {
    const head = await h.settledHead();
    let publisher: Record<string, unknown> | undefined;
    for (let attempt = 0; attempt < 50; attempt++) {
      const health = (await (await h.call('GET', '/api/health')).json()) as {
        projections: Record<string, unknown>[];
      };
      publisher = health.projections.find((p) => p.name === defaultPublisherName);
      if (publisher?.position === head?.toString()) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(publisher).toMatchObject({
      position: head?.toString(),
      lagEvents: 0,
      state: 'publishing',
      lastError: null,
    });
  });
});

function expectedTopic(prefix: string, event: RecordedEvent): string {
  return `${prefix}.${event.streamId.startsWith('Company-') ? 'companies' : 'users'}.v1`;
}

/** Built from the stored event field by field, secrets dropped, not through the mapping under test. */
function expectedEnvelope(event: RecordedEvent) {
  const { passwordHash, passwordVersion, tokenId, expiresAt, ...data } = event.data as Record<
    string,
    unknown
  >;
  return {
    eventId: event.id,
    type: event.type,
    schemaVersion: 1,
    companyId: event.metadata.companyId,
    streamId: event.streamId,
    streamRevision: event.revision.toString(),
    position: event.position.toString(),
    occurredAt: event.metadata.occurredAt,
    recordedAt: event.recordedAt.toISOString(),
    correlationId: event.metadata.correlationId,
    causationId: event.metadata.causationId,
    data,
  };
}
