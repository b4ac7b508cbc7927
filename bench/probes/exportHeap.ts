// `node --expose-gc --import tsx bench/probes/exportHeap.ts <database url> <company id>`: runs the
// export's own pipeline (the read model's cursor and the CSV stream the route answers with) for
// every customer of the company, and prints the JavaScript heap still in use after a full
// garbage collection every 10,000 rows and at the last, as JSON. Flat numbers mean no row is
// held once written.
import { streamCustomers } from '@issuer/projections';
import pg from 'pg';
import { csvStream } from '../../api/src/customers/csvExport';

const [url, companyId] = process.argv.slice(2);
const collect = globalThis.gc;
if (!url || !companyId || !collect) {
  throw new Error(
    'usage: node --expose-gc --import tsx bench/probes/exportHeap.ts <url> <company>',
  );
}
const heapInUse = () => {
  collect();
  return process.memoryUsage().heapUsed;
};

const pool = new pg.Pool({ connectionString: url, max: 2 });
const before = heapInUse();
const samples: { rows: number; heapMb: number }[] = [];
let rows = 0;
async function* sampled(batches: AsyncGenerator<import('@issuer/projections').CustomerRow[]>) {
  for await (const batch of batches) {
    const passed = Math.floor((rows + batch.length) / 10_000) > Math.floor(rows / 10_000);
    rows += batch.length;
    if (passed) samples.push({ rows, heapMb: (heapInUse() - before) / 2 ** 20 });
    yield batch;
  }
}
const reader = csvStream(
  sampled(streamCustomers(pool, { companyId, sort: { field: 'name', order: 'ASC' }, filter: {} })),
).getReader();
let bytes = 0;
for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
  bytes += chunk.value.byteLength;
}
// The last row too, so a company of fewer than 10,000 customers still gives a figure.
if (samples.at(-1)?.rows !== rows) samples.push({ rows, heapMb: (heapInUse() - before) / 2 ** 20 });
await pool.end();
console.log(JSON.stringify({ rows, bytes, samples }));
