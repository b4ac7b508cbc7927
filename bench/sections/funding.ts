import { randomBytes, randomUUID } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import { PostgresEventStore } from '@issuer/eventstore';
import { registerUsers, startApp } from '../lib/appProcess';
import type { BenchOptions } from '../lib/options';
import { benchPostgres, withPool } from '../lib/postgres';
import { type Figure, figure } from '../lib/report';
import { companiesOf, registerTerminals, verifyCompanies } from '../lib/seedCompanies';

const SECTION = 'funding';
const ORDERS = 1_000;
const OFFERED = 500;

/**
 * The oversell bench on the real app (api/src/main.ts in its own process): one issuer with a
 * terminal, an open round offering 500 tokens, then 1,000 one-token orders posted at once over
 * HTTP (`POST /api/token-orders`, each reserving on the round's stream and putting a payment on
 * the terminal). Figures: orders answered per second, and how many were placed (the target is
 * exactly 500, the rest 409).
 */
export async function benchFunding(_options: BenchOptions): Promise<Figure[]> {
  const postgres = await benchPostgres();
  const url = await postgres.createDatabase('bench_funding');
  const app = await startApp(url, {
    TOKEN_SECRET: randomBytes(48).toString('base64url'),
    LOG_LEVEL: 'warn',
  });
  try {
    const users = await registerUsers(app.url, 1);
    const [company] = await withPool(url, 2, (pool) => companiesOf(pool, users));
    if (!company) throw new Error('no company registered');
    await withPool(url, 2, async (pool) => {
      await verifyCompanies(pool, [company]);
      const at = new Date().toISOString();
      await new PostgresEventStore(pool).appendToStream(
        `Company-${company.companyId}`,
        [
          {
            id: randomUUID(),
            type: 'IssuerStatusGranted',
            data: { companyId: company.companyId, grantedBy: 'bench', grantedAt: at },
            metadata: {
              companyId: company.companyId,
              userId: null,
              correlationId: randomUUID(),
              causationId: null,
              occurredAt: at,
              schemaVersion: 1,
            },
          },
        ],
        { expectedRevision: 'stream_exists' },
      );
    });
    const call = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(`${app.url}/api${path}`, {
        method,
        headers: {
          authorization: `Bearer ${company.token}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return {
        status: res.status,
        body: (await res.json().catch(() => ({}))) as Record<string, unknown>,
      };
    };
    // The issuer guard reads the companies read model: wait until it shows the grant.
    for (let i = 0; (await call('GET', '/funding-rounds')).status !== 200; i++) {
      if (i > 200) throw new Error('the company never became an issuer');
      await delay(50);
    }
    const [terminalId] = await registerTerminals(app.url, company.token, 1);
    const shareClass = await call('POST', '/share-classes', {
      name: 'Common',
      kind: 'common',
      votesPerShare: 1,
      authorized: 1_000_000,
    });
    const customers: string[] = [];
    for (let i = 0; i < 5; i++) {
      const made = await call('POST', '/customers', {
        name: `Investor ${i}`,
        email: `investor${i}@bench.test`,
        walletAddress: '0x52908400098527886E0F7030069857D2E4169EE7',
        investorStatus: 'Documents Signed',
      });
      customers.push(String(made.body.id));
    }
    const now = Date.now();
    const round = await call('POST', '/funding-rounds', {
      name: 'Bench round',
      handle: 'bench',
      shareClassId: shareClass.body.id,
      tokenPriceCents: 100,
      raiseAmountCents: OFFERED * 100,
      opensAt: new Date(now - 60_000).toISOString(),
      closesAt: new Date(now + 86_400_000).toISOString(),
    });
    const roundId = String(round.body.id);
    await call('POST', `/funding-rounds/${roundId}/open`);

    const started = process.hrtime.bigint();
    const answers = await Promise.all(
      Array.from({ length: ORDERS }, (_, i) =>
        call('POST', '/token-orders', {
          roundId,
          customerId: customers[i % customers.length],
          tokens: 1,
          payment: { method: 'terminal', terminalId },
        }),
      ),
    );
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const placed = answers.filter((a) => a.status === 201).length;
    const refused = answers.filter((a) => a.status === 409).length;
    const other = ORDERS - placed - refused;
    const after = await call('GET', `/funding-rounds/${roundId}`);
    const reserved = Number(after.body.tokensReserved ?? -1);
    const note = `${placed} placed, ${refused} refused (409), ${other} other; round shows ${reserved} reserved of ${OFFERED}`;
    console.error(`  ${note} in ${seconds.toFixed(1)} s`);
    return [
      figure(
        SECTION,
        `${ORDERS.toLocaleString('en-US')} concurrent orders, round of ${OFFERED}`,
        ORDERS / seconds,
        '/s',
        {
          note,
          target: {
            text: `exactly ${OFFERED} placed`,
            met: placed === OFFERED && reserved === OFFERED,
          },
          detail: { placed, refused, other, seconds },
        },
      ),
    ];
  } finally {
    await app.stop();
  }
}
