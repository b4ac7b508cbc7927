import { randomUUID } from 'node:crypto';
import { conflict, type PayoutFailureReason } from '@issuer/events';
import { inTransaction } from '@issuer/projections';
import type { Pool, PoolClient } from 'pg';
import { applyDdlOnce } from '../../http';
import {
  type OutboxChannel,
  type SimulatorWebhookOptions,
  simulatorOutbox,
} from '../../payments/simulator/webhookOutbox';
import { etransferSignatureHeader } from '../../payments/webhooks/webhookSignature';
import type { EtransferProvider, MoneyRequest, MoneyTransfer, ProviderEvent } from '../provider';

export const etransferSimulatorName = 'simulator';

/**
 * The simulator's own state, as a provider keeps it: one row per e-transfer id (the idempotency
 * key of requestMoney and sendMoney), the autodeposits it received, and an outbox of signed
 * webhooks (the terminal simulator's outbox, on its own table).
 */
const ddl = `
CREATE TABLE IF NOT EXISTS etransfer_simulator_transfers (
  etransfer_id text PRIMARY KEY,
  provider_transfer_id text NOT NULL UNIQUE,
  company_id text NOT NULL,
  kind text NOT NULL,
  email text NOT NULL,
  amount_cents bigint NOT NULL,
  currency text NOT NULL,
  status text NOT NULL,
  failure_reason text,
  expires_at timestamptz,
  created_at timestamptz NOT NULL,
  decided_at timestamptz
);
CREATE TABLE IF NOT EXISTS etransfer_simulator_incoming (
  provider_transfer_id text PRIMARY KEY,
  company_id text NOT NULL,
  from_email text NOT NULL,
  amount_cents bigint NOT NULL,
  reference text,
  created_at timestamptz NOT NULL
);
CREATE TABLE IF NOT EXISTS etransfer_simulator_webhooks (
  id bigserial PRIMARY KEY,
  event_id text NOT NULL,
  subject_id text NOT NULL,
  body text NOT NULL,
  attempts integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  delivered_at timestamptz,
  last_error text
);
CREATE INDEX IF NOT EXISTS etransfer_simulator_webhooks_due_idx
  ON etransfer_simulator_webhooks (next_attempt_at, id) WHERE delivered_at IS NULL;
`;

export function migrateEtransferSimulator(pool: Pool): Promise<void> {
  return applyDdlOnce(pool, 'issuer-portal:migrate-etransfer-simulator', ddl);
}

const outboxChannel: OutboxChannel<ProviderEvent> = {
  table: 'etransfer_simulator_webhooks',
  keyColumn: 'subject_id',
  keyOf: (event) => ('etransferId' in event ? event.etransferId : event.providerTransferId),
  header: etransferSignatureHeader,
  label: 'e-transfer simulator',
};

/**
 * Test recipients, as a provider's sandbox has them: a payout to an address whose local part ends
 * in one of these fails with that reason; any other address receives the money.
 */
export const payoutTestEmails: Record<string, PayoutFailureReason> = {
  '+unregistered': 'recipient_not_registered',
  '+limit': 'recipient_limit_exceeded',
  '+error': 'provider_error',
};

export function payoutOutcomeOf(email: string): PayoutFailureReason | undefined {
  const local = email.split('@')[0] ?? '';
  const suffix = Object.keys(payoutTestEmails).find((ending) => local.endsWith(ending));
  return suffix === undefined ? undefined : payoutTestEmails[suffix];
}

/** The sandbox controls a real provider does not have: the customer's side of the transfer. */
export interface EtransferSimulatorControls {
  /** The customer pays the request; false when it is not waiting (paid, declined, gone). */
  deposit(companyId: string, etransferId: string): Promise<boolean>;
  decline(companyId: string, etransferId: string): Promise<boolean>;
  /** Someone sends the company money nobody requested (an autodeposit). */
  incoming(request: {
    companyId: string;
    fromEmail: string;
    amountCents: number;
    reference: string | null;
  }): Promise<{ providerTransferId: string }>;
}

export type EtransferSimulatorProvider = EtransferProvider & EtransferSimulatorControls;

export interface EtransferSimulator extends EtransferSimulatorProvider {
  start(): void;
  deliverDue(): Promise<number>;
  stop(): Promise<void>;
}

export function isEtransferSimulator(
  provider: EtransferProvider | undefined,
): provider is EtransferSimulatorProvider {
  return (
    provider?.name === etransferSimulatorName &&
    typeof (provider as Partial<EtransferSimulatorControls>).deposit === 'function'
  );
}

export type EtransferSimulatorOptions = SimulatorWebhookOptions;

const newId = (prefix: string) => `${prefix}_${randomUUID().replaceAll('-', '')}`;

/**
 * An Interac provider in a box, behind the same port a real one would be: requests wait for the
 * customer (the sandbox routes act as the customer), payouts are decided at once by the test
 * recipient, and every outcome is reported through signed webhooks written in the deciding
 * transaction and delivered at least once (duplicates on demand).
 */
export function createEtransferSimulator(options: EtransferSimulatorOptions): EtransferSimulator {
  const { pool, clock } = options;
  const outbox = simulatorOutbox(options, outboxChannel);
  const report = async (decide: (client: PoolClient) => Promise<ProviderEvent[]>) => {
    const events = await inTransaction(pool, async (client) => {
      const decided = await decide(client);
      await outbox.enqueue(client, decided);
      return decided;
    });
    if (events.length > 0) outbox.kick();
    return events;
  };
  const answer = (etransferId: string, status: 'deposited' | 'declined', companyId: string) =>
    report(async (client) => {
      const row = await settle(client, clock(), etransferId, companyId, status);
      if (!row) return [];
      const base = {
        id: newId('eevt'),
        etransferId,
        providerTransferId: row.providerTransferId,
        occurredAt: clock().toISOString(),
      };
      return status === 'deposited'
        ? [{ ...base, type: 'request.deposited', amountCents: row.amountCents }]
        : [{ ...base, type: 'request.declined' }];
    }).then((events) => events.length > 0);

  return {
    name: etransferSimulatorName,
    requestMoney: (request) => store(pool, clock, 'request', request, request.expiresAt),
    async cancelRequest({ etransferId }) {
      await pool.query(
        `UPDATE etransfer_simulator_transfers SET status = 'cancelled', decided_at = $2
          WHERE etransfer_id = $1 AND status = 'waiting'`,
        [etransferId, clock()],
      );
    },
    async sendMoney(request) {
      const stored = await store(pool, clock, 'payout', request, null);
      await report(async (client) => {
        const { rows } = await client.query<{ status: string }>(
          `UPDATE etransfer_simulator_transfers SET status = $2, failure_reason = $3, decided_at = $4
            WHERE etransfer_id = $1 AND status = 'waiting' RETURNING status`,
          [
            request.etransferId,
            payoutOutcomeOf(request.recipientEmail) ? 'failed' : 'sent',
            payoutOutcomeOf(request.recipientEmail) ?? null,
            clock(),
          ],
        );
        if (rows.length === 0) return [];
        const base = {
          id: newId('eevt'),
          etransferId: request.etransferId,
          providerTransferId: stored.providerTransferId,
          occurredAt: clock().toISOString(),
        };
        const reason = payoutOutcomeOf(request.recipientEmail);
        return reason
          ? [{ ...base, type: 'payout.failed', reason }]
          : [{ ...base, type: 'payout.sent' }];
      });
      return stored;
    },
    deposit: (companyId, etransferId) => answer(etransferId, 'deposited', companyId),
    decline: (companyId, etransferId) => answer(etransferId, 'declined', companyId),
    async incoming(request) {
      const providerTransferId = newId('etr');
      await report(async (client) => {
        await client.query(
          `INSERT INTO etransfer_simulator_incoming
             (provider_transfer_id, company_id, from_email, amount_cents, reference, created_at)
           VALUES ($1, $2, $3, $4, $5, $6)`,
          [
            providerTransferId,
            request.companyId,
            request.fromEmail,
            request.amountCents,
            request.reference,
            clock(),
          ],
        );
        return [
          {
            id: newId('eevt'),
            type: 'incoming.received',
            providerTransferId,
            companyId: request.companyId,
            fromEmail: request.fromEmail,
            amountCents: request.amountCents,
            reference: request.reference,
            occurredAt: clock().toISOString(),
          },
        ];
      });
      return { providerTransferId };
    },
    start: () => outbox.start(),
    deliverDue: () => outbox.deliverDue(),
    stop: () => outbox.stop(),
  };
}

/** Idempotent by the e-transfer id; the same id with other details is refused, as Stripe does. */
async function store(
  pool: Pool,
  clock: () => Date,
  kind: 'request' | 'payout',
  request: MoneyRequest | MoneyTransfer,
  expiresAt: string | null,
): Promise<{ providerTransferId: string }> {
  await pool.query(
    `INSERT INTO etransfer_simulator_transfers
       (etransfer_id, provider_transfer_id, company_id, kind, email, amount_cents, currency,
        status, expires_at, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, 'waiting', $8, $9)
     ON CONFLICT (etransfer_id) DO NOTHING`,
    [
      request.etransferId,
      newId('etr'),
      request.companyId,
      kind,
      request.recipientEmail,
      request.amountCents,
      request.currency,
      expiresAt,
      clock(),
    ],
  );
  const { rows } = await pool.query<{
    provider_transfer_id: string;
    company_id: string;
    kind: string;
    amount_cents: string;
  }>(
    `SELECT provider_transfer_id, company_id, kind, amount_cents::text
       FROM etransfer_simulator_transfers WHERE etransfer_id = $1`,
    [request.etransferId],
  );
  const stored = rows[0];
  if (
    !stored ||
    stored.company_id !== request.companyId ||
    stored.kind !== kind ||
    Number(stored.amount_cents) !== request.amountCents
  ) {
    throw conflict(`E-transfer ${request.etransferId} was sent before with other details`);
  }
  return { providerTransferId: stored.provider_transfer_id };
}

/** Locks a waiting, unexpired request of this company and records the customer's answer. */
async function settle(
  client: PoolClient,
  now: Date,
  etransferId: string,
  companyId: string,
  status: 'deposited' | 'declined',
): Promise<{ providerTransferId: string; amountCents: number } | undefined> {
  const { rows } = await client.query<{ provider_transfer_id: string; amount_cents: string }>(
    `UPDATE etransfer_simulator_transfers SET status = $3, decided_at = $4
      WHERE etransfer_id = $1 AND company_id = $2 AND kind = 'request' AND status = 'waiting'
        AND expires_at > $4
      RETURNING provider_transfer_id, amount_cents::text`,
    [etransferId, companyId, status, now],
  );
  const row = rows[0];
  return row
    ? { providerTransferId: row.provider_transfer_id, amountCents: Number(row.amount_cents) }
    : undefined;
}
