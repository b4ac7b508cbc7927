import type { IntegrationEnvelope } from '@issuer/events';
import { describe, expect, it } from 'vitest';
import { RecordingConsumer } from './consumer';

/** No broker: the test hands the consumer each record as the broker's stream would. */
function recordingWithoutBroker() {
  const recording = new RecordingConsumer();
  let offset = 0n;
  const deliver = (eventId: string) =>
    recording.receive({
      topic: 'topic',
      partition: 0,
      offset: offset++,
      key: 'stream',
      value: JSON.stringify(envelope(eventId)),
      headers: new Map(),
    });
  return { recording, deliver };
}

function envelope(eventId: string): IntegrationEnvelope {
  return {
    eventId,
    type: 'PaymentTerminalRenamed',
    schemaVersion: 1,
    companyId: 'company-1',
    streamId: 'stream',
    streamRevision: '0',
    position: '0',
    occurredAt: '2026-01-01T00:00:00.000Z',
    recordedAt: '2026-01-01T00:00:00.000Z',
    correlationId: 'c',
    causationId: null,
    data: {},
  };
}

describe('RecordingConsumer', () => {
  // The cluster check waits for every event of a fault run this way. It used to rebuild the set of
  // received ids for every expected id on every record: reading 10,000 records then took longer
  // than its minute, and the check reported events missing that were on the broker.
  it('waits for 40,000 event ids at constant work per record', async () => {
    const { recording, deliver } = recordingWithoutBroker();
    const ids = Array.from({ length: 40_000 }, (_, index) => `event-${index}`);
    const started = performance.now();
    const waiting = recording.waitForEventIds(ids, 20_000);
    for (const id of ids) {
      deliver(id);
      if (id.endsWith('7')) deliver(id); // a resend: counted once
    }
    expect(await waiting).toEqual([]);
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(recording.distinctEventIds().size).toBe(ids.length);
    expect(recording.records).toHaveLength(ids.length + ids.length / 10);
  });

  it('answers with the ids still missing when the time is up', async () => {
    const { recording, deliver } = recordingWithoutBroker();
    deliver('a');
    const waiting = recording.waitForEventIds(['a', 'b', 'c'], 50);
    deliver('c');
    expect(await waiting).toEqual(['b']);
    expect(await recording.waitForEventIds(['a', 'c'], 50)).toEqual([]);
  });
});
