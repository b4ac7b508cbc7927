import { addColumnIfMissing } from '../../runner/schema';
import { isoText } from '../isoText';
import { etransferMigration } from './etransferRows';

/** A transaction as the API shows it (the contract's Transaction resource), over the row's columns. */
const transactionResource = `transaction_id AS id, kind, status, amount_cents AS "amountCents",
  net_cents AS "netCents", currency, payment_id AS "paymentId", refund_reason AS "refundReason",
  customer_id AS "customerId", customer_name AS "customerName", terminal_id AS "terminalId",
  terminal_name AS "terminalName", description, purpose, card_brand AS "cardBrand",
  card_last4 AS "cardLast4", ${isoText('created_at')} AS "createdAt"`;

/**
 * `api_json`: the row as the API answers it, kept by a trigger on every insert and update (a
 * rename, a failed refund), so a page is read, not built: building 25 rows' JSON per request
 * cost PostgreSQL more than the rest of the page. Created once (a trigger created on every start
 * would lock the table), then filled for the rows already there.
 */
const transactionJsonMigration = `
${addColumnIfMissing('money_transactions', 'api_json', 'text')}
${addColumnIfMissing('payments', 'purpose', 'jsonb')}
CREATE OR REPLACE FUNCTION money_transactions_api_json() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  NEW.api_json := (SELECT row_to_json(r)::text FROM (
    SELECT ${transactionResource} FROM (SELECT NEW.*) AS row__) r);
  RETURN NEW;
END $fn$;
DO $purpose$ BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_attribute WHERE attrelid = 'money_transactions'::regclass
                    AND attname = 'purpose' AND NOT attisdropped) THEN
    ALTER TABLE money_transactions ADD COLUMN purpose jsonb;
    -- The rows already there answer the new field too (null): the trigger rewrites them once
    -- (or, before the trigger exists, the block below fills them).
    UPDATE money_transactions SET api_json = NULL;
  END IF;
END $purpose$;
DO $trigger$ BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_trigger WHERE tgname = 'money_transactions_api_json'
                    AND tgrelid = 'money_transactions'::regclass) THEN
    CREATE TRIGGER money_transactions_api_json BEFORE INSERT OR UPDATE ON money_transactions
      FOR EACH ROW EXECUTE FUNCTION money_transactions_api_json();
    UPDATE money_transactions SET api_json = NULL WHERE api_json IS NULL;
  END IF;
END $trigger$;
`;

/**
 * The money read model's tables, all kept by one projection so a payment, its transactions, its
 * ledger lines and the names they show commit together.
 *
 * - `payments`: one row per payment (the Payment resource), refunds as a jsonb array.
 * - `money_transactions`: one row per money movement (a capture, a refund), never changed but for
 *   the names shown.
 * - A search (`q`) matches the customer's name in the small names table (then rows by customer
 *   id), the description by a trigram index, or a payment id by its prefix: three narrow index
 *   lookups, where one trigram index over everything would read every row's common trigrams.
 * - `money_counts`: exact totals (rows and net cents) per company and dimension, so a list
 *   without a search answers its total from one row.
 * - `ledger_lines`: double entry, integer cents; `balance_after_cents` is the account's running
 *   balance (credits − debits) in (posted_at, position) order, so a balance as of a time is one
 *   index lookup. `ledger_balances`: an account's totals, so the current balance is one row.
 * - `etransfers`: one row per e-transfer (request, incoming autodeposit, payout); its money
 *   movements are transactions and ledger lines like a payment's.
 * - `money_customer_names`, `money_terminal_names`: the names rows show, fed by the customer and
 *   company events, so a rename reaches every row of that customer or terminal.
 */
export const moneyMigration = `
CREATE EXTENSION IF NOT EXISTS pg_trgm;
CREATE EXTENSION IF NOT EXISTS btree_gin;
CREATE TABLE IF NOT EXISTS payments (
  payment_id text PRIMARY KEY,
  company_id text NOT NULL,
  terminal_id text NOT NULL,
  terminal_name text,
  amount_cents bigint NOT NULL,
  currency text NOT NULL,
  customer_id text,
  customer_name text,
  description text,
  status text NOT NULL,
  decline_reason text,
  card_brand text,
  card_last4 text,
  refunded_cents bigint NOT NULL,
  refunds jsonb NOT NULL,
  requested_by text NOT NULL,
  requested_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  completed_at timestamptz,
  position bigint NOT NULL
);
CREATE INDEX IF NOT EXISTS payments_requested_idx ON payments (company_id, requested_at, payment_id);
CREATE INDEX IF NOT EXISTS payments_amount_idx ON payments (company_id, amount_cents, payment_id);
CREATE INDEX IF NOT EXISTS payments_status_idx
  ON payments (company_id, status, terminal_id, requested_at);
CREATE INDEX IF NOT EXISTS payments_customer_idx ON payments (customer_id);
CREATE INDEX IF NOT EXISTS payments_terminal_idx ON payments (terminal_id);
CREATE INDEX IF NOT EXISTS payments_id_prefix_idx ON payments (payment_id text_pattern_ops);
CREATE INDEX IF NOT EXISTS payments_description_idx
  ON payments USING gin (lower(description) gin_trgm_ops);

CREATE TABLE IF NOT EXISTS money_transactions (
  transaction_id text PRIMARY KEY,
  company_id text NOT NULL,
  kind text NOT NULL,
  status text NOT NULL,
  amount_cents bigint NOT NULL,
  net_cents bigint NOT NULL,
  currency text NOT NULL,
  payment_id text NOT NULL,
  refund_reason text,
  customer_id text,
  customer_name text,
  terminal_id text,
  terminal_name text,
  description text,
  card_brand text,
  card_last4 text,
  created_at timestamptz NOT NULL,
  position bigint NOT NULL
);
CREATE INDEX IF NOT EXISTS money_transactions_created_idx
  ON money_transactions (company_id, created_at, transaction_id) INCLUDE (net_cents, amount_cents);
CREATE INDEX IF NOT EXISTS money_transactions_amount_idx
  ON money_transactions (company_id, amount_cents, transaction_id) INCLUDE (net_cents);
CREATE INDEX IF NOT EXISTS money_transactions_customer_idx
  ON money_transactions (customer_id, created_at);
CREATE INDEX IF NOT EXISTS money_transactions_terminal_idx
  ON money_transactions (terminal_id, created_at);
CREATE INDEX IF NOT EXISTS money_transactions_payment_idx
  ON money_transactions (payment_id text_pattern_ops);
CREATE INDEX IF NOT EXISTS money_transactions_description_idx
  ON money_transactions USING gin (lower(description) gin_trgm_ops);
${transactionJsonMigration}

CREATE TABLE IF NOT EXISTS money_counts (
  company_id text NOT NULL,
  list text NOT NULL,
  dimension text NOT NULL,
  value text NOT NULL,
  total bigint NOT NULL,
  net_cents bigint NOT NULL,
  PRIMARY KEY (company_id, list, dimension, value)
);

CREATE TABLE IF NOT EXISTS ledger_lines (
  entry_id text NOT NULL,
  line_no smallint NOT NULL,
  company_id text NOT NULL,
  account text NOT NULL,
  debit_cents bigint NOT NULL,
  credit_cents bigint NOT NULL,
  posted_at timestamptz NOT NULL,
  position bigint NOT NULL,
  balance_after_cents bigint NOT NULL,
  payment_id text NOT NULL,
  PRIMARY KEY (entry_id, line_no),
  CHECK (debit_cents >= 0 AND credit_cents >= 0)
);
CREATE INDEX IF NOT EXISTS ledger_lines_account_idx
  ON ledger_lines (company_id, account, posted_at, position, line_no) INCLUDE (balance_after_cents);

CREATE TABLE IF NOT EXISTS ledger_balances (
  company_id text NOT NULL,
  account text NOT NULL,
  debits_cents bigint NOT NULL,
  credits_cents bigint NOT NULL,
  PRIMARY KEY (company_id, account)
);

CREATE TABLE IF NOT EXISTS money_customer_names (
  customer_id text PRIMARY KEY,
  company_id text NOT NULL,
  first_name text NOT NULL,
  last_name text NOT NULL,
  position bigint NOT NULL
);
CREATE INDEX IF NOT EXISTS money_customer_names_search_idx
  ON money_customer_names USING gin (company_id, lower(first_name || ' ' || last_name) gin_trgm_ops);
CREATE TABLE IF NOT EXISTS money_terminal_names (
  terminal_id text PRIMARY KEY,
  company_id text NOT NULL,
  name text,
  position bigint NOT NULL
);
${etransferMigration}`;

export const moneyTables = [
  'payments',
  'money_transactions',
  'money_counts',
  'ledger_lines',
  'ledger_balances',
  'money_customer_names',
  'money_terminal_names',
  'etransfers',
] as const;
