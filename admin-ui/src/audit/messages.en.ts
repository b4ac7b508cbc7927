import { eventNamesEnglish, resourceNamesEnglish } from './eventNames.en';
/** The audit log's texts in English (`app.audit`). */
export const auditEnglish = {
  title: 'Audit log',
  totals: 'Events: %{count}',
  empty: 'No events yet',
  no_match: 'No events match these filters',
  load_failed: 'The audit log could not be loaded: %{message}',
  export: 'Export CSV',
  export_failed: 'The export failed: try again',
  system: 'System',
  operator: 'Platform operator',
  system_reasons: {
    tokenOrder: 'Token order %{id}',
    signatureRequest: 'Signature request %{id}',
  },
  fields: {
    at: 'When',
    actor: 'Who',
    actor_id: 'User id',
    event_type: 'Event',
    resource: 'Record type',
    record_id: 'Record id',
    amount: 'Amount',
    record: 'Record',
    reason: 'Reason',
    from: 'From',
    to: 'Until',
    event_id: 'Event id',
    details: 'Details',
  },
  events: eventNamesEnglish,
  resources: resourceNamesEnglish,
};
