import type { EventPart, RecordedEvent } from '@issuer/events';
import type { PoolClient } from 'pg';

/**
 * A read model: its tables and how a batch of events changes them. The runner calls `apply` with
 * the events it handles, in global order, inside the transaction that also stores the
 * checkpoint. Write set-based (one statement per batch, not per event) and idempotent by
 * position: rows keep the position of the last event applied to them and ignore older ones, so a
 * replay changes nothing.
 */
export interface Projection {
  /** Stable name, used for the checkpoint row. */
  name: string;
  /** Event types this read model reads; the runner passes only these. */
  handles: readonly string[];
  /**
   * Parts of each event `apply` uses besides its type, data and position; a rebuild reads and
   * decodes only these (touching another then throws). Omitted: every part.
   */
  reads?: readonly EventPart[];
  /** Tables this read model owns; rebuild truncates them, the rebuild test compares them. */
  tables: readonly string[];
  /** Creates the tables if missing (idempotent DDL). */
  migrate(client: PoolClient): Promise<void>;
  apply(events: readonly RecordedEvent[], client: PoolClient): Promise<void>;
}
