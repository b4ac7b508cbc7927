import { addColumnIfMissing } from '@issuer/projections';
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
${addColumnIfMissing('terminal_simulator_payments', 'refund_failure', 'text')}
-- The customer agreed to have the card saved (the capture hands back a reusable token).
${addColumnIfMissing('terminal_simulator_payments', 'save_card', 'boolean NOT NULL DEFAULT false')}
-- Saved cards on the processor's side: the number stays here, the portal only sees the token.
CREATE TABLE IF NOT EXISTS terminal_simulator_cards (
  card_token text PRIMARY KEY,
  company_id text NOT NULL,
  card_number text NOT NULL,
  brand text NOT NULL,
  last4 text NOT NULL,
  exp_month int NOT NULL,
  exp_year int NOT NULL,
  payment_id text NOT NULL UNIQUE,
  created_at timestamptz NOT NULL
);
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
