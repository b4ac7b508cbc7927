import { randomUUID } from 'node:crypto';
import type { NewEvent } from '@issuer/events';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Projection } from '../projection';
import { rebuildProjections, snapshotTables } from '../runner/rebuild';
import { postgresServers, useServer } from '../runner/testing/database';
import { visible } from '../runner/testing/eventually';
import { fixturePerTest } from '../runner/testing/fixture';
import { accountProjections } from '.';

const freshFixture = fixturePerTest();

describe.each(await postgresServers())('on the $name PostgreSQL', (server) => {
  beforeAll(() => useServer(server));

  it('given interleaved account histories, then the rebuilt read models equal the incremental ones', async () => {
    const f = await freshFixture(accountProjections);
    const runner = f.startRunner({ batchSize: 7 });
    const companies = Array.from({ length: 4 }, (_, index) => accountHistory(index));
    let head = 0n;
    for (const company of companies) head = await f.append(company.companyStream, company.company);
    for (let round = 0; round < 12; round += 1)
      for (const company of companies)
        head = await f.append(company.userStream, company.user.slice(round * 2, round * 2 + 2));
    expect(await runner.readModelWaiter.waitFor(head, 10_000)).toBe(true);
    await runner.stop();
    const tables = accountProjections.flatMap((projection) => projection.tables);
    const incremental = await snapshotTables(f.pool, tables);

    const result = await rebuildProjections({
      store: f.store,
      pool: f.pool,
      projections: accountProjections,
      batchSize: 5,
    });

    expect(result.failedEvents).toBe(0);
    expect(await snapshotTables(f.pool, tables)).toEqual(incremental);
    expect(incremental.revoked_tokens).toHaveLength(4 * 7);
    expect(incremental.users?.[0]?.password_version).toBe(1);
  });

  it('given a projection that touches a part it did not declare, then the rebuild records its events as failed', async () => {
    const careless: Projection = {
      name: 'careless',
      handles: ['UserSignedOut'],
      reads: [],
      tables: [],
      async migrate() {},
      async apply(events) {
        for (const event of events) if (!event.metadata.companyId) throw new Error('no company');
      },
    };
    const current = await freshFixture([careless]);
    const company = accountHistory(0);
    await visible(
      current.store,
      await current.append(company.userStream, company.user.slice(0, 4)),
    );

    const result = await rebuildProjections({
      store: current.store,
      pool: current.pool,
      projections: [careless],
      retryDelaysMs: [],
    });

    expect(result.failedEvents).toBe(1);
    const { rows } = await current.pool.query<{ error: string }>(
      'SELECT error FROM projection_failures',
    );
    expect(rows[0]?.error).toMatch(/metadata was not read/);
  });
});

/** A company (registration, terminals, verification) and its user's settings, sign-outs and password change. */
function accountHistory(index: number) {
  const companyId = randomUUID();
  const userId = randomUUID();
  const at = '2025-06-01T09:00:00.000Z';
  const event = (type: string, data: unknown): NewEvent => ({
    id: randomUUID(),
    type,
    data,
    metadata: {
      companyId,
      userId,
      correlationId: randomUUID(),
      causationId: null,
      occurredAt: at,
      schemaVersion: 1,
    },
  });
  const terminalId = randomUUID();
  const company = [
    event('CompanyRegistered', {
      companyId,
      name: `Company ${index}`,
      symbol: `C${index}`,
      registeredBy: userId,
      registeredAt: at,
    }),
    event('PaymentTerminalRegistered', { companyId, terminalId, name: 'Till', deviceId: 'D-1' }),
    event('PaymentTerminalRenamed', { companyId, terminalId, name: 'Front till' }),
    event('CompanyVerified', { companyId, verifiedBy: 'operator', verifiedAt: at }),
  ];
  const user = [
    event('UserRegistered', {
      userId,
      companyId,
      email: `user${index}@example.com`,
      displayName: `User ${index}`,
      passwordHash: 'hash',
      roles: ['admin'],
      registeredAt: at,
    }),
  ];
  for (let n = 1; n < 24; n += 1) {
    if (n === 11)
      user.push(
        event('UserPasswordChanged', {
          userId,
          passwordHash: 'hash2',
          passwordVersion: 1,
          changedAt: at,
        }),
      );
    else if (n % 3 === 0)
      user.push(event('UserSignedOut', { userId, tokenId: randomUUID(), expiresAt: at }));
    else
      user.push(
        event('UserSettingsUpdated', {
          userId,
          settings: { theme: n % 2 ? 'dark' : 'light', n },
          shortcuts: ['mail'],
        }),
      );
  }
  return {
    companyStream: `Company-${companyId}`,
    company,
    userStream: `User-${userId}`,
    user,
  };
}
