import { randomUUID } from 'node:crypto';
import type { NewEvent } from '@issuer/events';

/** An event of the test projection's type, or of another type it must not see. */
export function counted(data: Record<string, unknown> = {}, type = 'Counted'): NewEvent {
  return {
    id: randomUUID(),
    type,
    data,
    metadata: {
      companyId: 'company-1',
      userId: null,
      correlationId: randomUUID(),
      causationId: null,
      occurredAt: '2026-01-01T00:00:00.000Z',
      schemaVersion: 1,
    },
  };
}

export const ignored = (): NewEvent => counted({}, 'Ignored');
