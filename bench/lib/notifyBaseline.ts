import pg from 'pg';
import { type LatencySummary, summarize } from './stats';

/**
 * The fastest "another connection sees my commit" on this database: one connection LISTENs, the
 * other commits a NOTIFY, timed to the notification's arrival. Sequential, `samples` times.
 */
export async function notifyRoundTrip(url: string, samples: number): Promise<LatencySummary> {
  const listener = new pg.Client({ connectionString: url });
  const sender = new pg.Client({ connectionString: url });
  await Promise.all([listener.connect(), sender.connect()]);
  try {
    await listener.query('LISTEN bench_lag');
    const latencies: number[] = [];
    for (let i = 0; i < samples; i += 1) {
      const arrived = new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('NOTIFY not received in 5 s')), 5_000);
        listener.once('notification', () => {
          clearTimeout(timer);
          resolve();
        });
      });
      const started = process.hrtime.bigint();
      await sender.query(`NOTIFY bench_lag, '${i}'`);
      await arrived;
      latencies.push(Number(process.hrtime.bigint() - started) / 1e6);
    }
    return summarize(latencies);
  } finally {
    await Promise.all([listener.end(), sender.end()]);
  }
}
