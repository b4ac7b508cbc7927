import { z } from 'zod';
import type { RecordedEvent } from '../eventStore';
import { integrationMapping } from './publicEvents';
import { topicOfStream } from './topics';

/**
 * What a consumer receives as a record's value (JSON). Revisions and positions are decimal
 * strings: they are 64-bit and JSON numbers are not. `eventId` is the same on every delivery of
 * one event (a republish or a resend after a crash), so consumers deduplicate by it.
 */
export const integrationEnvelope = z.object({
  eventId: z.string(),
  type: z.string(),
  /** Version of `data`'s shape for this type (the public payload's, not the internal one's). */
  schemaVersion: z.number().int(),
  companyId: z.string(),
  streamId: z.string(),
  streamRevision: z.string(),
  position: z.string(),
  occurredAt: z.string(),
  recordedAt: z.string(),
  correlationId: z.string(),
  causationId: z.string().nullable(),
  data: z.record(z.string(), z.unknown()),
});

export type IntegrationEnvelope = z.infer<typeof integrationEnvelope>;

/** Header names: the same facts as the envelope, for consumers that route without parsing. */
export const integrationHeaders = {
  eventId: 'event-id',
  type: 'event-type',
  schemaVersion: 'schema-version',
  companyId: 'company-id',
  streamId: 'stream-id',
  streamRevision: 'stream-revision',
  position: 'position',
  occurredAt: 'occurred-at',
  recordedAt: 'recorded-at',
  correlationId: 'correlation-id',
  causationId: 'causation-id',
} as const satisfies Record<Exclude<keyof IntegrationEnvelope, 'data'>, string>;

export interface IntegrationMessage {
  topic: string;
  /** The stream id: one stream's events share a partition and stay in order. */
  key: string;
  value: string;
  headers: Record<string, string>;
}

/**
 * The Kafka record for a stored event, or undefined when its type or category is internal only.
 * Throws for an event type without a mapping: publishing it unmapped could leak a secret.
 */
export function toIntegrationMessage(
  event: RecordedEvent,
  topicPrefix: string,
): IntegrationMessage | undefined {
  const mapping = integrationMapping(event.type);
  if (mapping === undefined) {
    throw new Error(`Event type ${event.type} has no integration mapping (events/src/integration)`);
  }
  if (!mapping.published) return undefined;
  const topic = topicOfStream(topicPrefix, event.streamId);
  if (topic === undefined) return undefined;
  const envelope: IntegrationEnvelope = {
    eventId: event.id,
    type: event.type,
    schemaVersion: mapping.schemaVersion,
    companyId: event.metadata.companyId,
    streamId: event.streamId,
    streamRevision: event.revision.toString(),
    position: event.position.toString(),
    occurredAt: event.metadata.occurredAt,
    recordedAt: event.recordedAt.toISOString(),
    correlationId: event.metadata.correlationId,
    causationId: event.metadata.causationId,
    data: mapping.toPublic(event.data as never),
  };
  return {
    topic,
    key: event.streamId,
    value: JSON.stringify(envelope),
    headers: headersOf(envelope),
  };
}

function headersOf(envelope: IntegrationEnvelope): Record<string, string> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  for (const [field, header] of Object.entries(integrationHeaders)) {
    const value = envelope[field as keyof typeof integrationHeaders];
    if (value !== null) headers[header] = String(value);
  }
  return headers;
}
