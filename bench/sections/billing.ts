import { randomUUID } from 'node:crypto';
import type { EventStore } from '@issuer/events';
import { PostgresEventStore } from '@issuer/eventstore';
import { migrateProjections, ProjectorRunner } from '@issuer/projections';
import type pg from 'pg';
import pino from 'pino';
import {
  createEtransferSimulator,
  migrateEtransferSimulator,
} from '../../api/src/etransfers/simulator/etransferSimulator';
import { allProjections } from '../../api/src/infrastructure';
import { recordingGateway } from '../../api/src/payments/testing/recordingGateway';
import {
  createBillingCollector,
  migrateBillingCollector,
} from '../../api/src/subscriptions/billingCollector';
import { createBillingScheduler } from '../../api/src/subscriptions/billingScheduler';
import { createPlan, subscribe } from '../../api/src/subscriptions/subscriptionCommands';
import { migrateWalletRecorder } from '../../api/src/wallet/walletRecorder';
import type { BenchOptions } from '../lib/options';
import { benchPostgres, withPool } from '../lib/postgres';
import { type Figure, figure } from '../lib/report';

const SECTION = 'billing';
const CUSTOMERS = 1_000;
const SEED_CONCURRENCY = 16;

/**
 * `--subscriptions` (default 100,000) monthly subscriptions of one company, all due at the same
 * moment, on a fresh database with every read model kept by the real projector runner. Timed:
 * the billing scheduler invoicing all of them (the due-dates table read, one BillDue per
 * subscription), then the collection process manager requesting each invoice's e-transfer and
 * handing it to the e-transfer simulator, then the read models catching up. Checked in the event
 * store: exactly one InvoiceIssued per subscription and period, and one request per invoice.
 */
export async function benchBilling(options: BenchOptions): Promise<Figure[]> {
  const count = options.subscriptions;
  const postgres = await benchPostgres();
  const url = await postgres.createDatabase('bench_billing');
  return withPool(url, 40, async (pool) => {
    const store = new PostgresEventStore(pool);
    await store.migrate();
    await migrateProjections(pool, allProjections);
    await migrateEtransferSimulator(pool);
    await migrateWalletRecorder(pool);
    await migrateBillingCollector(pool);
    const logger = pino({ level: 'warn' });
    const now = new Date('2026-01-01T00:00:00.000Z');
    const clock = () => now;
    const runner = new ProjectorRunner({
      store,
      pool,
      projections: allProjections,
      logger,
      idlePollMs: 50,
    }).start();
    try {
      const companyId = `bench-${randomUUID()}`;
      const customers = await seedCustomers(store, companyId, now);
      const deps = { store, clock, pool };
      const actor = { companyId, actorId: 'bench' };
      const { planId } = await createPlan(deps, {
        ...actor,
        name: 'Monthly',
        amountCents: 1900,
        interval: 'month',
        intervalCount: 1,
        trialDays: 0,
      });
      let seeded = 0;
      const seedStarted = Date.now();
      await parallel(count, SEED_CONCURRENCY, async (i) => {
        await subscribe(deps, {
          ...actor,
          customerId: customers[i % customers.length] ?? '',
          planId,
          collectionMethod: 'etransfer',
          startAt: null,
        });
        seeded += 1;
        if (seeded % 10_000 === 0) console.error(`  ${seeded} subscriptions`);
      });
      console.error(
        `  seeded ${count} subscriptions in ${((Date.now() - seedStarted) / 1000).toFixed(0)} s`,
      );
      await caughtUp(pool);

      const scheduler = createBillingScheduler(
        { store, pool, clock, logger },
        { concurrency: 16, batchSize: 5_000 },
      );
      const invoiceStarted = Date.now();
      const billed = await scheduler.runOnce();
      const invoiceMs = Date.now() - invoiceStarted;
      console.error(`  invoiced ${billed.invoices} in ${(invoiceMs / 1000).toFixed(1)} s`);

      const simulator = createEtransferSimulator({
        pool,
        clock,
        secret: new Uint8Array(32),
        deliver: async () => 200,
        logger,
      });
      const paymentGateway = recordingGateway();
      const collector = createBillingCollector(
        // Collected by e-transfer only: the card gateway is never asked here.
        { store, pool, clock, logger, etransferProvider: simulator, config: {}, paymentGateway },
        { batchSize: 2_000, concurrency: 16 },
      );
      const collectStarted = Date.now();
      await collector.runOnce();
      const collectMs = Date.now() - collectStarted;
      console.error(`  collected in ${(collectMs / 1000).toFixed(1)} s`);
      const readStarted = Date.now();
      await caughtUp(pool);
      const readMs = Date.now() - readStarted;
      const check = await exactlyOnce(pool);
      console.error(`  check: ${JSON.stringify(check)}`);
      const once =
        check.invoices === count &&
        check.duplicates === 0 &&
        check.requested === count &&
        check.sent === count;
      const total = invoiceMs + collectMs + readMs;
      const note = `${count} subscriptions due at once; invoices ${check.invoices}, duplicated periods ${check.duplicates}, e-transfers requested ${check.requested} and sent ${check.sent}`;
      return [
        figure(SECTION, 'invoice every due subscription (scheduler)', invoiceMs, 'ms', { note }),
        figure(SECTION, 'invoices issued per second', (billed.invoices / invoiceMs) * 1000, '/s'),
        figure(SECTION, 'request and send every invoice e-transfer (collector)', collectMs, 'ms'),
        figure(SECTION, 'read models caught up after collection', readMs, 'ms'),
        figure(SECTION, 'invoice and collect all, end to end', total, 'ms', {
          target: { text: 'exactly one invoice per subscription period', met: once },
        }),
      ];
    } finally {
      await runner.stop();
    }
  });
}

async function seedCustomers(store: EventStore, companyId: string, now: Date) {
  const ids: string[] = [];
  await parallel(CUSTOMERS, SEED_CONCURRENCY, async (i) => {
    const customerId = randomUUID();
    ids.push(customerId);
    await store.appendToStream(
      `Customer-${customerId}`,
      [
        {
          id: randomUUID(),
          type: 'CustomerAdded',
          data: {
            customerId,
            companyId,
            profile: {
              ...blankProfile,
              name: 'Bench',
              lastName: `Customer ${i}`,
              email: `c${i}@bench.test`,
            },
            leadStatus: 'Warm',
            investorStatus: 'Not Registered',
            starred: false,
            addedAt: now.toISOString(),
          },
          metadata: {
            companyId,
            userId: 'bench',
            correlationId: randomUUID(),
            causationId: null,
            occurredAt: now.toISOString(),
            schemaVersion: 1,
          },
        },
      ],
      { expectedRevision: 'no_stream' },
    );
  });
  return ids;
}

const blankProfile = {
  name: '',
  lastName: '',
  nickname: '',
  avatar: '',
  company: '',
  jobTitle: '',
  email: '',
  phone: '',
  address: '',
  birthday: '',
  notes: '',
  tags: [],
  roundId: '',
  tokenPrice: null,
  tokenBalance: null,
  percentageOwned: null,
  walletAddress: '',
};

async function parallel(count: number, concurrency: number, work: (i: number) => Promise<void>) {
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < count; i = next++) await work(i);
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
}

/** Waits until every projection's checkpoint has passed the last event stored. */
async function caughtUp(pool: pg.Pool) {
  const { rows } = await pool.query<{ head: string | null }>(
    'SELECT max(position)::text AS head FROM es_events',
  );
  const head = BigInt(rows[0]?.head ?? '0');
  for (;;) {
    const { rows: checkpoints } = await pool.query<{ low: string | null }>(
      'SELECT min(position)::text AS low FROM projection_checkpoints',
    );
    if (BigInt(checkpoints[0]?.low ?? '-1') >= head) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function exactlyOnce(pool: pg.Pool) {
  const { rows } = await pool.query<{
    invoices: number;
    duplicates: number;
    requested: number;
    sent: number;
  }>(
    `SELECT
       (SELECT count(*)::int FROM es_events WHERE type = 'InvoiceIssued') AS invoices,
       (SELECT count(*)::int FROM (SELECT 1 FROM es_events WHERE type = 'InvoiceIssued'
          GROUP BY stream_id, data->>'periodIndex' HAVING count(*) > 1) d) AS duplicates,
       (SELECT count(*)::int FROM es_events WHERE type = 'EtransferRequested') AS requested,
       (SELECT count(*)::int FROM es_events WHERE type = 'EtransferSent') AS sent`,
  );
  return rows[0] ?? { invoices: 0, duplicates: 0, requested: 0, sent: 0 };
}
