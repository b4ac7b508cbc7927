import type { UserEvent } from '@issuer/events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { companiesProjection } from '../companies/companiesProjection';
import { projectionDatabase, recorded } from '../testing';
import { anyUserWithRole, getUserWithCompany } from './queries';
import { raisePasswordVersion, usersProjection } from './usersProjection';

let db: Awaited<ReturnType<typeof projectionDatabase>>;
beforeAll(async () => {
  db = await projectionDatabase([companiesProjection, usersProjection]);
});
afterAll(() => db.pool.end());

const registered: UserEvent = {
  type: 'UserRegistered',
  data: {
    userId: 'u-1',
    companyId: 'c-1',
    email: 'ada@acme.test',
    displayName: 'ada',
    passwordHash: 'secret-hash',
    roles: ['admin'],
    registeredAt: '2025-03-01T10:00:00.000Z',
  },
};

describe('users read model', () => {
  it('given a registration and settings, then the row has them and no password hash', async () => {
    await db.apply(
      companiesProjection,
      recorded([
        {
          type: 'CompanyRegistered',
          data: {
            companyId: 'c-1',
            name: 'Acme Mining',
            symbol: 'ACME',
            registeredBy: 'u-1',
            registeredAt: '2025-03-01T10:00:00.000Z',
          },
        },
      ]),
    );
    await db.apply(
      usersProjection,
      recorded(
        [
          registered,
          {
            type: 'UserSettingsUpdated',
            data: {
              userId: 'u-1',
              settings: { layout: { style: 'layout2' } },
              shortcuts: ['mail'],
            },
          },
        ] satisfies UserEvent[],
        2n,
      ),
    );
    const found = await getUserWithCompany(db.pool, { userId: 'u-1', companyId: 'c-1' });
    expect(found?.user).toMatchObject({
      email: 'ada@acme.test',
      roles: ['admin'],
      settings: { layout: { style: 'layout2' } },
      shortcuts: ['mail'],
      passwordVersion: 0,
      position: 3n,
    });
    expect(found?.company?.name).toBe('Acme Mining');
    const { rows } = await db.pool.query('SELECT * FROM users');
    expect(JSON.stringify(rows)).not.toContain('secret-hash');
  });

  it('never answers for a user of another company', async () => {
    expect(await getUserWithCompany(db.pool, { userId: 'u-1', companyId: 'c-2' })).toBeUndefined();
  });

  it('given a password change written synchronously first, then the event changes nothing more', async () => {
    await raisePasswordVersion(db.pool, 'u-1', 1);
    const changed: UserEvent = {
      type: 'UserPasswordChanged',
      data: { userId: 'u-1', passwordHash: 'h2', passwordVersion: 1, changedAt: 'x' },
    };
    await db.apply(usersProjection, recorded([changed], 4n));
    await db.apply(usersProjection, recorded([changed], 4n));
    const found = await getUserWithCompany(db.pool, { userId: 'u-1', companyId: 'c-1' });
    expect(found?.user).toMatchObject({ passwordVersion: 1, position: 4n });
  });

  it('finds users by role', async () => {
    expect(await anyUserWithRole(db.pool, 'admin')).toBe(true);
    expect(await anyUserWithRole(db.pool, 'operator')).toBe(false);
  });
});
