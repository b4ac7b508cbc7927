import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EventStore } from '@issuer/events';
import { PostgresEventStore } from '@issuer/eventstore';
import { startEmbeddedPostgres } from '@issuer/eventstore/embedded';
import pg from 'pg';
import { pino } from 'pino';
import { migrateProjections, ProjectorRunner } from './index';
import { counted } from './testing/events';
import { streamCountsProjection } from './testing/streamCounts';

const dataDir = await mkdtemp(join(tmpdir(), 'lag-'));
const server = await startEmbeddedPostgres({
  dataDir,
  port: 45000 + Math.floor(Math.random() * 1000),
  persistent: false,
});
const storePool = new pg.Pool({ connectionString: server.url, max: 20 });
storePool.on('error', () => {});
const pool = new pg.Pool({ connectionString: server.url, max: 10 });
pool.on('error', () => {});
const real = new PostgresEventStore(storePool);
await real.migrate();
let t0 = 0;
const marks: Record<string, number[]> = {};
const mark = (k: string) => (marks[k] ??= []).push(performance.now() - t0);
const store: EventStore = {
  appendToStream: (...a) => real.appendToStream(...a),
  readStream: (...a) => real.readStream(...a),
  readAll: async (o) => {
    mark('readStart');
    const r = await real.readAll(o);
    mark(r.length ? 'readGot' : 'readEmpty');
    return r;
  },
  subscribeToAll: (o) => real.subscribeToAll(o),
  headPosition: () => real.headPosition(),
  close: () => real.close(),
};
const base = streamCountsProjection({ name: 'a' });
const projection = {
  ...base,
  apply: async (e: Parameters<typeof base.apply>[0], c: Parameters<typeof base.apply>[1]) => {
    mark('applyStart');
    await base.apply(e, c);
    mark('applyEnd');
  },
};
await migrateProjections(pool, [projection]);
const runner = new ProjectorRunner({
  store,
  pool,
  projections: [projection],
  logger: pino({ level: 'warn' }),
  notifyCheckpoints: false,
  subscribeToNewEvents: process.env.SUB === '1',
}).start();
await new Promise((r) => setTimeout(r, 500));
const lat: number[] = [];
for (let i = 0; i < 300; i++) {
  const r = await real.appendToStream(`S-${i % 10}`, [counted()], { expectedRevision: 'any' });
  t0 = performance.now();
  await runner.readModelWaiter.waitFor(r.position, 2000);
  lat.push(performance.now() - t0);
  await new Promise((res) => setTimeout(res, 2));
}
const p = (v: number[], q: number) =>
  [...v].sort((a, b) => a - b)[Math.floor(q * (v.length - 1))]?.toFixed(2);
console.log('total p50', p(lat, 0.5), 'p99', p(lat, 0.99));
for (const [k, v] of Object.entries(marks))
  console.log(k, v.length, 'p50', p(v, 0.5), 'p99', p(v, 0.99));
await runner.stop();
await real.close();
await pool.end();
await storePool.end();
await server.stop();
