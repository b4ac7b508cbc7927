import type { Pool } from 'pg';
import { applyDdlOnce } from '../../http';

/**
 * The simulator's own state, as a processor keeps it on its side: one row per payment id (the
 * idempotency key of sendPayment, so a second send finds the first), refunds by refund id, and an
 * outbox of signed webhooks retried until the API answers 2xx. `seq` orders rows created in the
 * same instant (tests freeze the clock).
 */
const ddl = `
CREATE TABLE IF NOT EXISTS terminal_simulator_payments (
  payment_id text PRIMARY KEY,
  gateway_payment_id text NOT NULL UNIQUE,
  company_id text NOT NULL,
  terminal_id text NOT NULL,
  amount_cents bigint NOT NULL,
  currency text NOT NULL,
  expires_at timestamptz NOT NULL,
  status text NOT NULL,
  decline_reason text,
  card_brand text,
  card_last4 text,
  created_at timestamptz NOT NULL,
  decided_at timestamptz,
  seq bigserial
);
-- The reason every refund of this payment is refused (a test card's rule); null: refunds succeed.
ALTER TABLE terminal_simulator_payments ADD COLUMN IF NOT EXISTS refund_failure text;
CREATE INDEX IF NOT EXISTS terminal_simulator_payments_waiting_idx
  ON terminal_simulator_payments (company_id, terminal_id, created_at, seq)
  WHERE status = 'waiting';
CREATE TABLE IF NOT EXISTS terminal_simulator_refunds (
  refund_id text PRIMARY KEY,
  payment_id text NOT NULL REFERENCES terminal_simulator_payments (payment_id),
  amount_cents bigint NOT NULL,
  currency text NOT NULL,
  created_at timestamptz NOT NULL
);
CREATE TABLE IF NOT EXISTS terminal_simulator_webhooks (
  id bigserial PRIMARY KEY,
  event_id text NOT NULL,
  payment_id text NOT NULL,
  body text NOT NULL,
  attempts integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  delivered_at timestamptz,
  last_error text
);
CREATE INDEX IF NOT EXISTS terminal_simulator_webhooks_due_idx
  ON terminal_simulator_webhooks (next_attempt_at, id) WHERE delivered_at IS NULL;
`;

export function migrateTerminalSimulator(pool: Pool): Promise<void> {
  return applyDdlOnce(pool, 'issuer-portal:migrate-terminal-simulator', ddl);
}
