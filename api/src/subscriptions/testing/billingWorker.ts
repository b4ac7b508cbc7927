import { PostgresEventStore } from '@issuer/eventstore';
import pg from 'pg';
import pino from 'pino';
import { createBillingScheduler } from '../billingScheduler';

/**
 * A billing scheduler in a process of its own, for the exactly-once tests: one pass at the
 * clock BILLING_NOW against DATABASE_URL, printing what it did; with BILLING_KILL_AFTER=n it
 * SIGKILLs itself after acting on n subscriptions (mid-run, other appends in flight).
 */
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
const store = new PostgresEventStore(pool);
const now = new Date(process.env.BILLING_NOW ?? '');
const killAfter = Number(process.env.BILLING_KILL_AFTER ?? Number.POSITIVE_INFINITY);
let acted = 0;
const scheduler = createBillingScheduler(
  { store, pool, logger: pino({ level: 'silent' }), clock: () => now },
  {
    concurrency: 4,
    afterEach: () => {
      acted += 1;
      if (acted >= killAfter) process.kill(process.pid, 'SIGKILL');
    },
  },
);
const result = await scheduler.runOnce();
console.log(JSON.stringify(result));
// Exit at once: what the pass appended is committed; nothing else is in flight.
process.exit(0);
