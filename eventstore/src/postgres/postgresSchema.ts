import type pg from 'pg';

/**
 * Schema of the PostgreSQL event store. Migrations are numbered and applied once each, in order,
 * under an advisory lock so that two processes starting at once do not race on the DDL.
 *
 * Global order: an event's `position` is `(xid of its transaction << 20) + ordinal`, so positions
 * follow transaction ids rather than the order in which rows were inserted. Readers only read
 * below the visibility horizon, see `VISIBLE_HORIZON`.
 */

/** Bits of `position` that number the events of one transaction (up to 2^20 per transaction). */
export const ORDINAL_BITS = 20;
export const MAX_EVENTS_PER_TRANSACTION = 2 ** ORDINAL_BITS;

/**
 * Smallest position a reader must not read yet: a scalar subquery, so it is computed once per
 * statement and with that statement's snapshot, the one the read itself uses.
 *
 * Every transaction that can still commit is in that snapshot as running (its xip list) or has an
 * xid >= the snapshot's xmax, and it can only write positions >= its xid << 20. Reading strictly
 * below the smallest such xid therefore never returns an event before one that could still appear
 * with a smaller position: a reader never skips an event. A running transaction that the server's
 * activity list positively shows in another database cannot write to this es_events, so it does
 * not hold the horizon back (the plain snapshot xmin did: one long write anywhere on the server
 * delayed every reader here). An xid not found there (ended meanwhile, prepared, or hidden) still
 * holds it back; so does a long write transaction in this database.
 */
export const VISIBLE_HORIZON = `(SELECT coalesce(
    (SELECT min(running) FROM pg_snapshot_xip(snapshot) running
      WHERE running::text::bigint % 4294967296 NOT IN (
        SELECT other.backend_xid::text::bigint FROM pg_stat_get_activity(NULL) other
         WHERE other.backend_xid IS NOT NULL
           AND other.datid <> (SELECT oid FROM pg_database WHERE datname = current_database()))),
    pg_snapshot_xmax(snapshot))::text::bigint << ${ORDINAL_BITS}
  FROM pg_current_snapshot() snapshot)`;

/** SQLSTATE raised by `es_append` when the expected revision does not hold; DETAIL = actual revision (-1: no stream). */
export const WRONG_EXPECTED_REVISION_SQLSTATE = 'ES409';
/**
 * SQLSTATE raised when the appending transaction's xid is older than the stream's last append
 * (possible only for a transaction that wrote before calling es_append); retry in a new one.
 */
export const RETRY_IN_NEW_TRANSACTION_SQLSTATE = '40001';
export const EVENT_ID_CONSTRAINT = 'es_events_event_id_key';

/** Encoding of ExpectedRevision for `es_append` (the numbers EventStoreDB uses). */
export const EXPECTED_NO_STREAM = -1n;
export const EXPECTED_ANY = -2n;
export const EXPECTED_STREAM_EXISTS = -4n;

/** Advisory-lock class of the per-stream append locks (the two-key space, apart from one-key locks). */
const STREAM_LOCK_CLASS = 0x4553; // "ES"

// data and metadata are json, not jsonb: stored as written and sent back without conversion,
// which made reading all events about twice as fast on the server; nothing queries inside them.
const createTables = `
CREATE TABLE es_events (
  position bigint PRIMARY KEY,
  transaction_id xid8 NOT NULL DEFAULT pg_current_xact_id(),
  stream_id text NOT NULL,
  revision bigint NOT NULL,
  event_id uuid NOT NULL,
  type text NOT NULL,
  data json NOT NULL,
  metadata json NOT NULL,
  recorded_at timestamptz NOT NULL,
  CONSTRAINT ${EVENT_ID_CONSTRAINT} UNIQUE (event_id),
  CONSTRAINT es_events_stream_revision_key UNIQUE (stream_id, revision)
);
`;

/**
 * One round trip per append. Appends to one stream queue on a transaction-scoped advisory lock
 * on the stream's name; the stream's revision is its last event's. No stream row is written:
 * locking and updating one cost a second heap write per append and most of the distance to a
 * plain INSERT in the benchmark (see the commit that introduced this).
 *
 * Expected-revision and idempotency rules follow EventStoreDB's IndexWriter.CheckCommit:
 * - exact revision or no_stream (-1) below the current revision: the batch is a repeat when its ids
 *   are exactly the events stored right after the expected revision; otherwise the revision is wrong;
 * - any / stream_exists on an existing stream: all ids stored in this stream is a repeat, none is
 *   a normal append, some is an error (EventStoreDB's CorruptedIdempotency, reported as a wrong
 *   expected revision);
 * - a repeat writes nothing and returns the stored revision and position of the batch's last event.
 *
 * The text is assembled from the parts below so that migration 2 can change one of them while
 * migration 1 stays exactly as released.
 */
const appendHead = `
CREATE OR REPLACE FUNCTION es_append(
  p_stream_id text,
  p_expected bigint,
  p_events json,
  OUT next_revision bigint,
  OUT end_position bigint,
  OUT written boolean
) LANGUAGE plpgsql AS $fn$
DECLARE
  v_count bigint := json_array_length(p_events);
  -- No xid yet means this is the transaction's first write: its positions start at xid << 20.
  v_first_write boolean := pg_current_xact_id_if_assigned() IS NULL;
  v_current bigint;
  v_last_position bigint;
  v_stored bigint;
  v_xid_base bigint;
  v_base bigint;
BEGIN
  IF v_count = 0 OR v_count > ${MAX_EVENTS_PER_TRANSACTION} THEN
    RAISE EXCEPTION 'an append takes 1 to % events, got %', ${MAX_EVENTS_PER_TRANSACTION}, v_count
      USING ERRCODE = 'invalid_parameter_value';
  END IF;

  PERFORM pg_advisory_xact_lock(${STREAM_LOCK_CLASS}, hashtext(p_stream_id));
  SELECT e.revision, e.position INTO v_current, v_last_position
    FROM es_events e WHERE e.stream_id = p_stream_id ORDER BY e.revision DESC LIMIT 1;
  IF NOT FOUND THEN
    v_current := -1;
    v_last_position := -1;
  END IF;

  IF p_expected = -4 AND v_current = -1 THEN
    RAISE EXCEPTION 'wrong expected revision for stream %', p_stream_id
      USING ERRCODE = '${WRONG_EXPECTED_REVISION_SQLSTATE}', DETAIL = '-1';
  END IF;

  IF p_expected >= -1 AND p_expected <> v_current THEN
    IF p_expected < v_current THEN
      SELECT e.revision, e.position INTO next_revision, end_position
        FROM es_events e
       WHERE e.stream_id = p_stream_id AND e.revision = p_expected + v_count
         AND ARRAY(SELECT (x->>'id')::uuid FROM json_array_elements(p_events) x)
           = ARRAY(SELECT s.event_id FROM es_events s
                    WHERE s.stream_id = p_stream_id
                      AND s.revision BETWEEN p_expected + 1 AND p_expected + v_count
                    ORDER BY s.revision);
      IF FOUND THEN
        written := false;
        RETURN;
      END IF;
    END IF;
    RAISE EXCEPTION 'wrong expected revision for stream %', p_stream_id
      USING ERRCODE = '${WRONG_EXPECTED_REVISION_SQLSTATE}', DETAIL = v_current::text;
  END IF;

`;

/** Migration 1: a blind append looked up every id of the batch in the stream before writing. */
const repeatCheckBeforeInsert = `  IF p_expected IN (-2, -4) AND v_current >= 0 THEN
    SELECT count(*), (array_agg(e.revision ORDER BY x.ord DESC))[1], (array_agg(e.position ORDER BY x.ord DESC))[1]
      INTO v_stored, next_revision, end_position
      FROM json_array_elements(p_events) WITH ORDINALITY AS x(event, ord)
      JOIN es_events e ON e.event_id = (x.event->>'id')::uuid AND e.stream_id = p_stream_id;
    IF v_stored = v_count THEN
      written := false;
      RETURN;
    ELSIF v_stored > 0 THEN
      RAISE EXCEPTION 'part of the batch is already stored in stream %', p_stream_id
        USING ERRCODE = '${WRONG_EXPECTED_REVISION_SQLSTATE}', DETAIL = v_current::text;
    END IF;
  END IF;

`;

const positionsOfBatch = `  v_xid_base := pg_current_xact_id()::text::bigint << ${ORDINAL_BITS};
  v_base := v_xid_base;
  IF NOT v_first_write THEN
    -- An earlier append in this transaction: continue after the positions it used.
    SELECT coalesce(max(e.position) + 1, v_xid_base) INTO v_base
      FROM es_events e
     WHERE e.position >= v_xid_base AND e.position < v_xid_base + ${MAX_EVENTS_PER_TRANSACTION};
  END IF;
  -- A transaction that got its xid before taking the stream lock (it wrote something earlier)
  -- can be older than the stream's last append; its events would then sort before that one's in
  -- the global order. Refuse; the caller retries in a new transaction, which gets a newer xid.
  IF v_base <= v_last_position THEN
    RAISE EXCEPTION 'transaction is older than the last append to stream %', p_stream_id
      USING ERRCODE = '${RETRY_IN_NEW_TRANSACTION_SQLSTATE}';
  END IF;
  IF v_base + v_count > v_xid_base + ${MAX_EVENTS_PER_TRANSACTION} THEN
    RAISE EXCEPTION 'a transaction takes at most % events', ${MAX_EVENTS_PER_TRANSACTION}
      USING ERRCODE = 'invalid_parameter_value';
  END IF;

`;

const plainInsert = `  INSERT INTO es_events (position, stream_id, revision, event_id, type, data, metadata, recorded_at)
  SELECT v_base + x.ord - 1, p_stream_id, v_current + x.ord, x.id, x.type,
         coalesce(x.data, 'null'), coalesce(x.metadata, 'null'), date_trunc('milliseconds', now())
    FROM ROWS FROM (json_to_recordset(p_events) AS (id uuid, type text, data json, metadata json))
         WITH ORDINALITY AS x(id, type, data, metadata, ord);

`;

const appendFinish = `  next_revision := v_current + v_count;
  end_position := v_base + v_count - 1;
  written := true;
END
$fn$;
`;

/**
 * Migration 2: a blind append to an existing stream inserts first and looks at the batch's ids
 * only when one of them is stored already (the unique key conflicts). Nearly every blind append
 * is new, and the look-up before each one cost about a third of the function's time. A repeat
 * inserts nothing; a partial repeat or an id of another stream raises, undoing the insert.
 */
const insertCheckingRepeatsOnConflict = `  IF p_expected IN (-2, -4) AND v_current >= 0 THEN
${plainInsert.replace(/;\n\n$/, '\n  ON CONFLICT (event_id) DO NOTHING;\n')}
    GET DIAGNOSTICS v_stored = ROW_COUNT;
    IF v_stored < v_count THEN
      SELECT count(*), (array_agg(e.revision ORDER BY x.ord DESC))[1], (array_agg(e.position ORDER BY x.ord DESC))[1]
        INTO v_stored, next_revision, end_position
        FROM json_array_elements(p_events) WITH ORDINALITY AS x(event, ord)
        JOIN es_events e ON e.event_id = (x.event->>'id')::uuid AND e.stream_id = p_stream_id
                        AND e.revision <= v_current;
      IF v_stored = v_count THEN
        written := false;
        RETURN;
      ELSIF v_stored > 0 THEN
        RAISE EXCEPTION 'part of the batch is already stored in stream %', p_stream_id
          USING ERRCODE = '${WRONG_EXPECTED_REVISION_SQLSTATE}', DETAIL = v_current::text;
      END IF;
      RAISE EXCEPTION 'duplicate key value violates unique constraint "${EVENT_ID_CONSTRAINT}"'
        USING ERRCODE = 'unique_violation', CONSTRAINT = '${EVENT_ID_CONSTRAINT}',
              DETAIL = 'An event id of the batch is stored in another stream, or twice in the batch.';
    END IF;
  ELSE
${plainInsert}  END IF;

`;

const createAppendFunction =
  appendHead + repeatCheckBeforeInsert + positionsOfBatch + plainInsert + appendFinish;

/** Applied in order; an entry never changes once released, later changes get a new entry. */
export const MIGRATIONS: readonly string[] = [
  createTables + createAppendFunction,
  appendHead + positionsOfBatch + insertCheckingRepeatsOnConflict + appendFinish,
];

/** Arbitrary constant naming this store's migration lock among the database's advisory locks. */
const MIGRATION_LOCK_KEY = 7_264_001_418;

/** Creates or upgrades the event-store schema; safe to call from several processes at once. */
export async function migrateEventStoreSchema(pool: pg.Pool): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    try {
      await applyPendingMigrations(client);
      await refuseTransactionIdsBehindPositions(client);
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
    }
  } finally {
    client.release();
  }
}

async function applyPendingMigrations(client: pg.PoolClient): Promise<void> {
  await client.query('CREATE TABLE IF NOT EXISTS es_schema_version (version integer NOT NULL)');
  const { rows } = await client.query<{ version: number | null }>(
    'SELECT max(version) AS version FROM es_schema_version',
  );
  const current = rows[0]?.version ?? 0;
  for (const [index, sql] of MIGRATIONS.entries()) {
    if (index + 1 <= current) continue;
    await client.query('BEGIN');
    try {
      await client.query(sql);
      await client.query('INSERT INTO es_schema_version (version) VALUES ($1)', [index + 1]);
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK');
      throw error;
    }
  }
}

/**
 * Positions come from transaction ids, so they only grow while the database stays in its cluster
 * (physical backups and replicas keep the ids). A logical restore (pg_dump into another cluster)
 * can put the ids behind the stored positions: new events would then sort before old ones and
 * readers past them would never see them. Refuse to start rather than lose events.
 */
async function refuseTransactionIdsBehindPositions(client: pg.PoolClient): Promise<void> {
  const { rows } = await client.query<{ last: string | null; next: string }>(
    `SELECT (SELECT max(position) FROM es_events)::text AS last,
            (pg_current_xact_id()::text::bigint << ${ORDINAL_BITS})::text AS next`,
  );
  const [row] = rows;
  if (row?.last != null && BigInt(row.last) >= BigInt(row.next)) {
    throw new Error(
      `es_events holds positions up to ${row.last}, but this server's next transaction would append at ${row.next}: ` +
        'the database was probably restored logically into another cluster. New events would sort ' +
        "before stored ones. Advance the server's transaction ids past the stored positions first.",
    );
  }
}
