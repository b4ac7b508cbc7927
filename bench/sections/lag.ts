import pg from 'pg';
import { registerUsers, startApp, userUpdateBody } from '../lib/appProcess';
import { notifyRoundTrip } from '../lib/notifyBaseline';
import type { BenchOptions } from '../lib/options';
import { benchPostgres } from '../lib/postgres';
import { type Figure, figure } from '../lib/report';
import { type LatencySummary, summarize } from '../lib/stats';

const SECTION = 'lag';
const TARGET_P99_MS = 50;
/** A sample that has not shown up by then counts as this long (and is reported). */
const GIVE_UP_MS = 5_000;

/**
 * Time from a command's answer to its effect in a read model. The app runs as `npm start` wires
 * it (api/src/main.ts, projectors in the same process) with READ_YOUR_WRITES_TIMEOUT_MS=0, so it
 * answers as soon as the event is appended instead of waiting for the projectors; this process
 * then polls the `users` read model row until it shows the saved settings. Commands go one at a
 * time, so each sample is one event's trip through the runner. The baseline is the fastest
 * "another connection sees my commit" on the same server: a LISTEN/NOTIFY round trip.
 */
export async function benchLag(options: BenchOptions): Promise<Figure[]> {
  const postgres = await benchPostgres();
  const baseline = await notifyRoundTrip(
    await postgres.createDatabase('bench_lag_notify'),
    options.lagSamples,
  );
  console.error(
    `  NOTIFY round trip: p50 ${baseline.p50.toFixed(2)} ms, p99 ${baseline.p99.toFixed(2)} ms`,
  );
  const url = await postgres.createDatabase('bench_lag');
  const app = await startApp(url, { READ_YOUR_WRITES_TIMEOUT_MS: '0' });
  const observer = new pg.Client({ connectionString: url });
  await observer.connect();
  try {
    const [user] = await registerUsers(app.url, 1);
    if (!user) throw new Error('registration returned no user');
    const lag = await measure(app.url, user, observer, options.lagSamples);
    console.error(
      `  answer → users row: p50 ${lag.summary.p50.toFixed(2)} ms, p99 ${lag.summary.p99.toFixed(2)} ms, ${lag.alreadyVisible} of ${lag.summary.count} visible at the answer`,
    );
    return [
      figure(SECTION, 'answer → read model p50', lag.summary.p50, 'ms', {
        baseline: { name: 'NOTIFY round trip p50', value: baseline.p50 },
      }),
      figure(SECTION, 'answer → read model p99', lag.summary.p99, 'ms', {
        baseline: { name: 'NOTIFY round trip p99', value: baseline.p99 },
        target: {
          text: `≤ ${TARGET_P99_MS} ms`,
          met: lag.summary.p99 <= TARGET_P99_MS && lag.gaveUp === 0,
        },
        note: `${lag.summary.count} commands one at a time; max ${lag.summary.max.toFixed(1)} ms; ${lag.alreadyVisible} already visible at the answer; ${lag.gaveUp} not visible within ${GIVE_UP_MS} ms; poll every ~0.3 ms adds up to one query's time`,
      }),
    ];
  } finally {
    await observer.end();
    await app.stop();
  }
}

async function measure(
  url: string,
  user: { userId: string; token: string },
  observer: pg.Client,
  samples: number,
): Promise<{ summary: LatencySummary; alreadyVisible: number; gaveUp: number }> {
  const latencies: number[] = [];
  let alreadyVisible = 0;
  let gaveUp = 0;
  const counterQuery = {
    name: 'bench_lag_counter',
    text: "SELECT (settings->>'counter')::int AS counter FROM users WHERE user_id = $1",
    values: [user.userId],
  };
  for (let counter = 1; counter <= samples; counter += 1) {
    const response = await fetch(`${url}/api/auth/user/update`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${user.token}` },
      body: userUpdateBody(counter),
      signal: AbortSignal.timeout(10_000),
    });
    await response.arrayBuffer();
    const answered = performance.now();
    if (response.status !== 200) throw new Error(`user/update answered ${response.status}`);
    let polls = 0;
    for (;;) {
      const { rows } = await observer.query<{ counter: number | null }>(counterQuery);
      polls += 1;
      if ((rows[0]?.counter ?? 0) >= counter) break;
      if (performance.now() - answered > GIVE_UP_MS) {
        gaveUp += 1;
        break;
      }
    }
    if (polls === 1) alreadyVisible += 1;
    latencies.push(performance.now() - answered);
  }
  return { summary: summarize(latencies), alreadyVisible, gaveUp };
}
