import { randomUUID } from 'node:crypto';
import type { NewEvent } from '@issuer/events';

/** A user-settings-sized event (about 300 bytes of JSON), the same for the store and baselines. */
export function settingsEvent(companyId: string, userId: string, counter: number): NewEvent {
  return {
    id: randomUUID(),
    type: 'BenchSettingsUpdated',
    data: {
      userId,
      settings: { layout: { navbar: 'fixed', footer: 'static' }, theme: 'dark', counter },
      shortcuts: ['calendar', 'mail', 'contacts', 'tasks'],
    },
    metadata: {
      companyId,
      userId,
      correlationId: randomUUID(),
      causationId: null,
      occurredAt: new Date().toISOString(),
      schemaVersion: 1,
    },
  };
}
