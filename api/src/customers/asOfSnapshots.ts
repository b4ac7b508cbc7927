import type { Pool } from 'pg';
import { applyDdlOnce } from '../http/migrate';
import type { Customer } from './customer';

/**
 * Checkpoints of the as-of replay. A customer's stream only grows, so the state folded from its
 * first N events never changes: the replay keeps it every `snapshotEvery` events, and a later
 * replay starts from the newest checkpoint its moment allows instead of from the first event.
 * Deleting the table loses nothing but speed.
 */
export const snapshotEvery = 100;

/** Bump when evolveCustomer changes how it folds: older checkpoints are then ignored. */
export const snapshotSchema = 1;

export const customerSnapshotsDdl = `
CREATE TABLE IF NOT EXISTS customer_snapshots (
  customer_id text NOT NULL,
  schema integer NOT NULL,
  revision bigint NOT NULL,
  -- The latest decision time among the folded events: the checkpoint serves any moment at or
  -- after it, as the replay stops at the first event decided after the moment.
  reached_at timestamptz NOT NULL,
  state jsonb NOT NULL,
  stamp jsonb NOT NULL,
  PRIMARY KEY (customer_id, schema, revision)
);`;

export function migrateCustomers(pool: Pool): Promise<void> {
  return applyDdlOnce(pool, 'issuer-portal:migrate-customers', customerSnapshotsDdl);
}

export interface Snapshot {
  revision: number;
  reachedAt: number;
  state: Customer;
  stamp: { version: number; updatedAt: string };
}

/** The newest checkpoint usable for `asOf`, if any. */
export async function latestSnapshot(
  pool: Pool,
  customerId: string,
  asOf: Date,
): Promise<Snapshot | undefined> {
  const { rows } = await pool.query<{
    revision: string;
    reached_at: Date;
    state: Customer;
    stamp: Snapshot['stamp'];
  }>(
    `SELECT revision, reached_at, state, stamp FROM customer_snapshots
      WHERE customer_id = $1 AND schema = $2 AND reached_at <= $3
      ORDER BY revision DESC LIMIT 1`,
    [customerId, snapshotSchema, asOf],
  );
  const row = rows[0];
  return (
    row && {
      revision: Number(row.revision),
      reachedAt: row.reached_at.getTime(),
      state: row.state,
      stamp: row.stamp,
    }
  );
}

export async function saveSnapshots(
  pool: Pool,
  customerId: string,
  snapshots: readonly Snapshot[],
): Promise<void> {
  if (snapshots.length === 0) return;
  await pool.query(
    `INSERT INTO customer_snapshots (customer_id, schema, revision, reached_at, state, stamp)
     SELECT $1, $2, s.revision, s.reached_at, s.state, s.stamp
       FROM unnest($3::bigint[], $4::timestamptz[], $5::jsonb[], $6::jsonb[])
         AS s(revision, reached_at, state, stamp)
     ON CONFLICT DO NOTHING`,
    [
      customerId,
      snapshotSchema,
      snapshots.map((snapshot) => snapshot.revision),
      snapshots.map((snapshot) => new Date(snapshot.reachedAt)),
      snapshots.map((snapshot) => JSON.stringify(snapshot.state)),
      snapshots.map((snapshot) => JSON.stringify(snapshot.stamp)),
    ],
  );
}
