import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { runningPostmaster } from '@issuer/eventstore/embedded';
import { ledgerConsistency } from '@issuer/projections';
import { freePort } from '@issuer/test-support';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import type { PaymentFailpoint } from './scheduler/failpoints';

/**
 * "Never charge twice", with real processes: `npm start` (api/src/main.ts) on the embedded
 * default with the in-process terminal simulator, killed with SIGKILL by its own failpoint in the
 * middle of taking a payment, then started again.
 */
const repoRoot = resolve(import.meta.dirname, '../../..');
const operator = { email: 'ops@payments.test', password: 'aurora-Lynx-2025' };
const children: ChildProcess[] = [];
const dataDirs: string[] = [];

afterAll(async () => {
  for (const child of children) child.kill('SIGKILL');
  for (const dataDir of dataDirs) {
    const cluster = join(dataDir, 'postgres');
    const postmaster = await runningPostmaster(cluster);
    if (postmaster) process.kill(postmaster.pid, 'SIGINT');
    while (postmaster && (await runningPostmaster(cluster))) await delay(50);
    await rm(dataDir, { recursive: true, force: true });
  }
});

/** A data folder and ports of its own: what `npm start` needs, with an operator. */
async function newSite() {
  const dataDir = await mkdtemp(join(tmpdir(), 'issuer-payments-'));
  dataDirs.push(dataDir);
  await chmod(dataDir, 0o755);
  const [port, postgresPort] = [await freePort(), await freePort()];
  const env = {
    PORT: String(port),
    EMBEDDED_POSTGRES_PORT: String(postgresPort),
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    OPERATOR_EMAIL: operator.email,
    OPERATOR_PASSWORD: operator.password,
  };
  const base = `http://127.0.0.1:${port}/api`;
  const call = async (method: string, path: string, token?: string, body?: unknown) => {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: {
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        ...(token ? { Authorization: `Bearer ${token}` } : {}),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: res.status, body: (await res.json()) as Answer };
  };
  const databaseUrl = `postgres://postgres:postgres@127.0.0.1:${postgresPort}/postgres`;
  const database = () => new pg.Client({ connectionString: databaseUrl });
  /** The company's ledger balances and equals what was captured (after every money test). */
  const expectLedger = async (companyId: string, capturedCents: bigint) => {
    const pool = new pg.Pool({ connectionString: databaseUrl, max: 1 });
    try {
      expect(await ledgerConsistency(pool, companyId), `ledger of ${companyId}`).toEqual({
        balanced: true,
        availableCents: capturedCents,
        capturedCents,
        refundedCents: 0n,
        depositedCents: 0n,
        paidOutCents: 0n,
      });
    } finally {
      await pool.end();
    }
  };
  return { env, port, call, database, expectLedger };
}

/** A verified company with one terminal, through the API as a user and the operator would. */
async function companyWithTerminal(
  site: Awaited<ReturnType<typeof newSite>>,
  db: pg.Client,
  symbol: string,
) {
  const { call } = site;
  const form = {
    companyName: `${symbol} Coffee`,
    companySymbol: symbol,
    email: `owner@${symbol.toLowerCase()}.test`,
    password: 'tundra-Falcon-42',
  };
  const registered = await call('POST', '/auth/register', undefined, form);
  expect(registered.status).toBe(200);
  const token = registered.body.access_token as string;
  const { rows } = await db.query<{ company_id: string }>(
    'SELECT company_id FROM users WHERE user_id = $1',
    [registered.body.user.uid],
  );
  const operatorToken = (await call('POST', '/auth', undefined, operator)).body.access_token;
  const verified = await call(
    'POST',
    `/operator/companies/${rows[0]?.company_id}/verify`,
    operatorToken,
  );
  expect(verified.status).toBe(200);
  const terminal = await call('POST', '/terminals', token, {
    name: 'Till',
    deviceId: `${symbol}-1`,
  });
  expect(terminal.status).toBe(201);
  return { token, terminalId: terminal.body.id as string, companyId: rows[0]?.company_id ?? '' };
}

/** Loosely typed answers: the API's own tests pin their shapes. */
// biome-ignore lint/suspicious/noExplicitAny: see above
type Answer = Record<string, any>;

interface Api {
  child: ChildProcess;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  output(): string;
}

function startApi(env: Record<string, string>, script = 'api/src/main.ts'): Api {
  const inherited = { ...process.env };
  for (const name of ['DATABASE_URL', 'EVENTSTORE_URL', 'KAFKA_BROKERS', 'PROJECTORS']) {
    delete inherited[name];
  }
  const child = spawn(process.execPath, ['--import', 'tsx', script], {
    cwd: repoRoot,
    env: { ...inherited, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let output = '';
  child.stdout?.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    output += chunk;
  });
  const exited = once(child, 'exit').then(([code, signal]) => ({ code, signal }));
  return { child, exited, output: () => output };
}

async function listening(api: Api, port: number): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (api.child.exitCode !== null || api.child.signalCode !== null) {
      throw new Error(`exited early:\n${api.output()}`);
    }
    const accepted = await new Promise<boolean>((done) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        done(true);
      });
      socket.once('error', () => done(false));
    });
    if (accepted) return;
    await delay(50);
  }
  throw new Error(`never listened:\n${api.output()}`);
}

async function eventually<T>(what: string, probe: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`never happened: ${what}`);
    await delay(200);
  }
}

describe('a payment when the API process dies while taking it', { timeout: 300_000 }, () => {
  it('SIGKILL after PaymentRequested (gateway never called) and after the gateway call (send not recorded): after a restart each payment is sent, waits once, and is captured once', async () => {
    const site = await newSite();
    const { env, port, call } = site;
    const withFailpoint = (failpoint: PaymentFailpoint) =>
      startApi({ ...env, PAYMENTS_TEST_FAILPOINT: failpoint });

    // First life: a verified company with a terminal, and a payment that kills the process.
    let api = withFailpoint('after-request-before-send');
    await listening(api, port);
    const db = site.database();
    await db.connect();
    // The embedded PostgreSQL stops with the API at the end: its goodbye is expected.
    db.on('error', () => {});
    try {
      const { token, terminalId, companyId } = await companyWithTerminal(site, db, 'CRASH');
      const payment = { terminalId, amountCents: 1234, currency: 'CAD' };

      await expect(call('POST', '/payments', token, payment)).rejects.toThrow();
      expect(await api.exited).toEqual({ code: null, signal: 'SIGKILL' });

      // Second life: the next payment dies after the gateway took it, before that was recorded.
      api = withFailpoint('after-send-before-record');
      await listening(api, port);
      await expect(
        call('POST', '/payments', token, { ...payment, amountCents: 4321 }),
      ).rejects.toThrow();
      expect(await api.exited).toEqual({ code: null, signal: 'SIGKILL' });

      const streams = async () =>
        (
          await db.query<{ stream_id: string; types: string[] }>(
            `SELECT stream_id, array_agg(type ORDER BY revision) AS types FROM es_events
              WHERE stream_id LIKE 'Payment-%' GROUP BY stream_id ORDER BY min(position)`,
          )
        ).rows;
      const before = await streams();
      expect(before.map((stream) => stream.types)).toEqual([
        ['PaymentRequested'],
        ['PaymentRequested'],
      ]);
      const [first, second] = before.map((stream) => stream.stream_id.slice('Payment-'.length));
      const simulatorRows = async () =>
        (
          await db.query<{ payment_id: string; status: string }>(
            'SELECT payment_id, status FROM terminal_simulator_payments ORDER BY seq',
          )
        ).rows;
      // The first never reached the gateway; the second did (no resumer runs in a crash-test life).
      expect(await simulatorRows()).toEqual([{ payment_id: second, status: 'waiting' }]);

      // Third life, no failpoint: the resumer sends both; the gateway keeps one row each. Every
      // webhook now comes twice, the capture before the authorization.
      api = startApi({
        ...env,
        TERMINAL_SIMULATOR_DUPLICATE_RATE: '1',
        TERMINAL_SIMULATOR_REORDER_RATE: '1',
      });
      await listening(api, port);
      await eventually('both payments sent to the terminal', async () => {
        const types = (await streams()).map((stream) => stream.types);
        return types.every((list) => list.includes('PaymentSentToTerminal')) ? true : undefined;
      });
      const waiting = await call('GET', `/terminals/${terminalId}/simulator`, token);
      expect(waiting.body.waiting.map((w: { paymentId: string }) => w.paymentId).sort()).toEqual(
        [first, second].sort(),
      );
      for (const _ of [first, second]) {
        expect(
          (await call('POST', `/terminals/${terminalId}/simulator/present-card`, token, {})).status,
        ).toBe(202);
      }
      expect(
        (await call('POST', `/terminals/${terminalId}/simulator/present-card`, token, {})).status,
      ).toBe(409);
      for (const id of [first, second]) {
        await eventually(`${id} captured`, async () => {
          const { body } = await call('GET', `/payments/${id}`, token);
          return body.status === 'captured' ? true : undefined;
        });
      }

      expect((await simulatorRows()).map((row) => row.status)).toEqual(['captured', 'captured']);
      // Two payments, two reports each, each sent twice: all answered 2xx.
      await eventually('every webhook delivered', async () => {
        const { rows } = await db.query<{ delivered: number }>(
          'SELECT count(*)::int AS delivered FROM terminal_simulator_webhooks WHERE delivered_at IS NOT NULL',
        );
        return rows[0]?.delivered === 8 ? true : undefined;
      });
      for (const stream of await streams()) {
        const count = (type: string) => stream.types.filter((t) => t === type).length;
        expect([count('PaymentSentToTerminal'), count('PaymentCaptured')]).toEqual([1, 1]);
      }
      const balance = await call('GET', '/balance', token);
      expect(balance.body).toMatchObject({ currency: 'CAD', availableCents: 1234 + 4321 });
      await site.expectLedger(companyId, 5555n);

      api.child.kill('SIGTERM');
      expect(await api.exited).toEqual({ code: 0, signal: null });
    } finally {
      await db.end();
    }
  });
});

describe('npm run terminal-simulator beside the API (TERMINAL_GATEWAY_URL)', {
  timeout: 300_000,
}, () => {
  it('the payment goes to the simulator process, the card is presented through the API, the signed webhook comes back: captured', async () => {
    const site = await newSite();
    const simulatorPort = await freePort();
    const env = {
      ...site.env,
      TERMINAL_GATEWAY_URL: `http://127.0.0.1:${simulatorPort}`,
      TERMINAL_SIMULATOR_PORT: String(simulatorPort),
    };
    const api = startApi(env);
    await listening(api, site.port);
    const simulator = startApi(env, 'api/src/payments/simulator/simulatorMain.ts');
    await listening(simulator, simulatorPort);
    const db = site.database();
    await db.connect();
    db.on('error', () => {});
    try {
      const { token, terminalId, companyId } = await companyWithTerminal(site, db, 'APART');
      const { call } = site;
      const payment = await call('POST', '/payments', token, {
        terminalId,
        amountCents: 2750,
        currency: 'CAD',
      });
      expect(payment.status).toBe(201);
      const waiting = await call('GET', `/terminals/${terminalId}/simulator`, token);
      expect(waiting.body.waiting).toMatchObject([
        { paymentId: payment.body.id, amountCents: 2750 },
      ]);
      const presented = await call(
        'POST',
        `/terminals/${terminalId}/simulator/present-card`,
        token,
        {
          card: '5555555555554444',
        },
      );
      expect(presented).toEqual({ status: 202, body: { paymentId: payment.body.id } });
      const captured = await eventually('the capture', async () => {
        const { body } = await call('GET', `/payments/${payment.body.id}`, token);
        return body.status === 'captured' ? body : undefined;
      });
      expect(captured).toMatchObject({ cardBrand: 'mastercard', cardLast4: '4444' });
      const declinedTry = await call(
        'POST',
        `/terminals/${terminalId}/simulator/present-card`,
        token,
        {},
      );
      expect(declinedTry.status).toBe(409);
      await site.expectLedger(companyId, 2750n);

      simulator.child.kill('SIGTERM');
      expect(await simulator.exited).toEqual({ code: 0, signal: null });
      api.child.kill('SIGTERM');
      expect(await api.exited).toEqual({ code: 0, signal: null });
    } finally {
      await db.end();
    }
  });
});
