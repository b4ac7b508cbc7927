/**
 * The company audit log: one row per event of the company, in global order. Each row carries,
 * per filter dimension (all, actor, type, record), its running number within that dimension
 * (`n_*`, 1-based): the exact count of a filter over a date range is then the difference of two
 * numbers found by index lookups, however many events there are. `at` never goes back within a
 * company (see the projection), so a date maps to a position by one lookup too.
 */
export const auditMigration = `
CREATE TABLE IF NOT EXISTS audit_events (
  company_id text NOT NULL,
  position bigint NOT NULL,
  event_id text NOT NULL,
  event_type text NOT NULL,
  stream_id text NOT NULL,
  resource text NOT NULL,
  record_id text NOT NULL,
  actor_id text NOT NULL,
  at timestamptz NOT NULL,
  occurred_at timestamptz NOT NULL,
  reason text,
  details jsonb NOT NULL,
  n_all bigint NOT NULL,
  n_actor bigint NOT NULL,
  n_type bigint NOT NULL,
  n_record bigint NOT NULL,
  PRIMARY KEY (company_id, position)
);
CREATE INDEX IF NOT EXISTS audit_events_at_idx ON audit_events (company_id, at, position);
CREATE INDEX IF NOT EXISTS audit_events_actor_idx
  ON audit_events (company_id, actor_id, position) INCLUDE (n_actor);
CREATE INDEX IF NOT EXISTS audit_events_type_idx
  ON audit_events (company_id, event_type, position) INCLUDE (n_type);
CREATE INDEX IF NOT EXISTS audit_events_record_idx
  ON audit_events (company_id, resource, record_id, position) INCLUDE (n_record);
CREATE TABLE IF NOT EXISTS audit_counts (
  company_id text NOT NULL,
  dimension text NOT NULL,
  value text NOT NULL,
  total bigint NOT NULL,
  last_at timestamptz NOT NULL,
  last_position bigint NOT NULL,
  PRIMARY KEY (company_id, dimension, value)
);
`;

export const auditTables = ['audit_events', 'audit_counts'] as const;

/** Channel of the audit log's new rows; the payload maps each company to its last new position. */
export const AUDIT_CHANGES_CHANNEL = 'audit_changes';

/**
 * One NOTIFY per batch the projector inserts (a statement trigger over the inserted rows), sent
 * at its commit: whichever process projects, every API process hears of each company's changes.
 * A payload too large for NOTIFY becomes '' (every company: look).
 */
export const auditChangesTrigger = `
CREATE OR REPLACE FUNCTION audit_changes_notify() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE payload text;
BEGIN
  SELECT coalesce(json_object_agg(company_id, last)::text, '{}') INTO payload
    FROM (SELECT company_id, max(position)::text AS last FROM added GROUP BY company_id) companies;
  IF length(payload) > 7000 THEN payload := ''; END IF;
  PERFORM pg_notify('${AUDIT_CHANGES_CHANNEL}', payload);
  RETURN NULL;
END $$;
CREATE OR REPLACE TRIGGER audit_events_changed AFTER INSERT ON audit_events
  REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION audit_changes_notify();
`;
