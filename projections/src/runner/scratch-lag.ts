import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PostgresEventStore } from '@issuer/eventstore';
import { startEmbeddedPostgres } from '@issuer/eventstore/embedded';
import pg from 'pg';
import { pino } from 'pino';
import { migrateProjections, ProjectorRunner, rebuildProjections } from './index';
import { counted } from './testing/events';
import { streamCountsProjection } from './testing/streamCounts';

const dataDir = await mkdtemp(join(tmpdir(), 'lag-'));
const server = await startEmbeddedPostgres({
  dataDir,
  port: 45000 + Math.floor(Math.random() * 1000),
  persistent: false,
});
const admin = new pg.Client({ connectionString: server.url });
await admin.connect();
await admin.query('CREATE DATABASE lag');
await admin.end();
const url = server.url.replace(/\/postgres$/, '/lag');
const storePool = new pg.Pool({ connectionString: url, max: 20 });
const pool = new pg.Pool({ connectionString: url, max: 10 });
const store = new PostgresEventStore(storePool);
await store.migrate();
const projections = [
  streamCountsProjection({ name: 'a' }),
  {
    ...streamCountsProjection({ name: 'b' }),
    tables: [],
    migrate: async () => {},
    handles: ['Nothing'],
  },
];
await migrateProjections(pool, projections);
const runner = new ProjectorRunner({
  store,
  pool,
  projections,
  logger: pino({ level: 'warn' }),
  notifyCheckpoints: process.env.NOTIFY === '1',
}).start();

function pct(values: number[], p: number) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]?.toFixed(2);
}
async function writer(id: number, until: number, lat: number[]) {
  let n = 0;
  while (performance.now() < until) {
    const r = await store.appendToStream(`W-${id}-${n++ % 10}`, [counted()], {
      expectedRevision: 'any',
    });
    const t0 = performance.now();
    const ok = await runner.readModelWaiter.waitFor(r.position, 2000);
    if (!ok) console.log('timeout');
    lat.push(performance.now() - t0);
  }
}
for (const concurrency of process.env.SKIPLAG ? [] : [1, 16, 50]) {
  const lat: number[] = [];
  const until = performance.now() + 5000;
  await Promise.all(Array.from({ length: concurrency }, (_, i) => writer(i, until, lat)));
  console.log(
    `concurrency ${concurrency}: ${lat.length} cmds, ${(lat.length / 5).toFixed(0)}/s, p50 ${pct(lat, 50)} ms p99 ${pct(lat, 99)} ms max ${pct(lat, 100)}`,
  );
}
await runner.stop();

const total = Number(process.env.EVENTS ?? 200_000);
const head = (await store.headPosition()) ?? 0n;
let appended = 0;
const t0 = performance.now();
await Promise.all(
  Array.from({ length: 4 }, async (_, w) => {
    for (let i = w; i * 1000 < total; i += 4) {
      await store.appendToStream(
        `R-${i % 5000}`,
        Array.from({ length: 1000 }, () => counted()),
        { expectedRevision: 'any' },
      );
      appended += 1000;
    }
  }),
);
console.log(
  `appended ${appended} in ${((performance.now() - t0) / 1000).toFixed(1)} s (head before ${head})`,
);
const result = await rebuildProjections({
  store,
  pool,
  projections,
  logger: pino({ level: process.env.LEVEL ?? 'warn' }),
});
console.log('rebuild', result);
console.log(
  (
    await pool.query(
      'select pid, state, backend_xid, backend_xmin, left(query, 80) q, xact_start from pg_stat_activity where backend_xid is not null or backend_xmin is not null',
    )
  ).rows,
);
console.log((await pool.query('select count(*) from es_events')).rows, await store.headPosition());
await store.close();
await pool.end();
await storePool.end();
await server.stop();
