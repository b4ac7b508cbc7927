import type { RecordedEvent } from '@issuer/events';
import type { PoolClient } from 'pg';
import type { Projection } from '../../projection';

export interface StreamCountsOptions {
  name?: string;
  /** Runs inside the transaction before the rows are written (to inject failures). */
  beforeWrite?(events: readonly RecordedEvent[], client: PoolClient): Promise<void>;
  /** Runs inside the transaction after the rows are written. */
  afterWrite?(events: readonly RecordedEvent[], client: PoolClient): Promise<void>;
}

export const STREAM_COUNTS_TABLE = 'test_stream_counts';

/**
 * A small read model in the shape real ones take: events per stream, set-based (one statement per
 * batch) and idempotent by position (a row ignores events at or before its last position).
 */
export function streamCountsProjection(options: StreamCountsOptions = {}): Projection {
  return {
    name: options.name ?? 'stream_counts',
    handles: ['Counted'],
    tables: [STREAM_COUNTS_TABLE],
    async migrate(client) {
      await client.query(`CREATE TABLE IF NOT EXISTS ${STREAM_COUNTS_TABLE} (
        stream_id text PRIMARY KEY, events integer NOT NULL, last_position bigint NOT NULL)`);
    },
    async apply(events, client) {
      await options.beforeWrite?.(events, client);
      await client.query(
        `WITH batch(stream_id, position) AS (SELECT * FROM unnest($1::text[], $2::bigint[])),
         fresh AS (
           SELECT b.stream_id, count(*)::int AS events, max(b.position) AS last_position
           FROM batch b LEFT JOIN ${STREAM_COUNTS_TABLE} c USING (stream_id)
           WHERE c.last_position IS NULL OR b.position > c.last_position
           GROUP BY b.stream_id)
         INSERT INTO ${STREAM_COUNTS_TABLE} (stream_id, events, last_position)
         SELECT stream_id, events, last_position FROM fresh
         ON CONFLICT (stream_id) DO UPDATE
           SET events = ${STREAM_COUNTS_TABLE}.events + EXCLUDED.events,
               last_position = EXCLUDED.last_position`,
        [events.map((event) => event.streamId), events.map((event) => event.position.toString())],
      );
      await options.afterWrite?.(events, client);
    },
  };
}

export const APPLY_TALLY_TABLE = 'test_apply_tally';

/**
 * Deliberately NOT idempotent: counts how often each event was applied, so a test can see a
 * double application that an idempotent read model would hide.
 */
export function applyTallyProjection(): Projection {
  return {
    name: 'apply_tally',
    handles: ['Counted'],
    tables: [APPLY_TALLY_TABLE],
    async migrate(client) {
      await client.query(`CREATE TABLE IF NOT EXISTS ${APPLY_TALLY_TABLE} (
        position bigint PRIMARY KEY, times integer NOT NULL)`);
    },
    async apply(events, client) {
      await client.query(
        `INSERT INTO ${APPLY_TALLY_TABLE} (position, times) SELECT unnest($1::bigint[]), 1
         ON CONFLICT (position) DO UPDATE SET times = ${APPLY_TALLY_TABLE}.times + 1`,
        [events.map((event) => event.position.toString())],
      );
    },
  };
}
