import { auditEventTypes } from '@issuer/projections';
import { describe, expect, it } from 'vitest';
import { auditedEventTypes } from './auditedEvents';

describe("the audit log's event filter", () => {
  it('offers exactly the events the log records: none it would refuse, none missing', () => {
    expect([...auditedEventTypes].sort()).toEqual([...auditEventTypes].sort());
  });
});
