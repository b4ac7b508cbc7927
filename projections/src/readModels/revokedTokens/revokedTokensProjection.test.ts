import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { companiesProjection } from '../companies/companiesProjection';
import { projectionDatabase, recorded } from '../testing';
import { usersProjection } from '../users/usersProjection';
import {
  getTokenStanding,
  recordRevokedTokens,
  revokedTokensProjection,
} from './revokedTokensProjection';

let db: Awaited<ReturnType<typeof projectionDatabase>>;
beforeAll(async () => {
  db = await projectionDatabase([companiesProjection, usersProjection, revokedTokensProjection]);
});
afterAll(() => db.pool.end());

const signedOut = (tokenId: string) => ({
  type: 'UserSignedOut',
  data: { userId: 'u-1', tokenId, expiresAt: '2025-03-02T10:00:00.000Z' },
});

describe('revoked tokens read model', () => {
  it('given a sign-out, then that token is revoked and others are not', async () => {
    await db.apply(revokedTokensProjection, recorded([signedOut('jti-1')]));
    expect(await getTokenStanding(db.pool, { userId: 'u-1', tokenId: 'jti-1' })).toEqual({
      revoked: true,
      passwordVersion: 0,
      companySuspended: false,
    });
    expect(await getTokenStanding(db.pool, { userId: 'u-1', tokenId: 'jti-2' })).toMatchObject({
      revoked: false,
    });
  });

  it('given a sign-out of a session, then every token of that session is revoked, and no other', async () => {
    await db.apply(
      revokedTokensProjection,
      recorded([
        {
          type: 'UserSignedOut',
          data: {
            userId: 'u-1',
            tokenId: 'jti-newest',
            sessionId: 'sid-1',
            expiresAt: '2025-03-02T10:00:00.000Z',
          },
        },
      ]),
    );
    const standing = (tokenId: string, sessionId: string) =>
      getTokenStanding(db.pool, { userId: 'u-1', tokenId, sessionId });
    expect(await standing('jti-earlier', 'sid-1')).toMatchObject({ revoked: true });
    expect(await standing('jti-newest', 'sid-1')).toMatchObject({ revoked: true });
    expect(await standing('jti-other', 'sid-2')).toMatchObject({ revoked: false });
  });

  it('given the synchronous write first and the event after, then one row with the company id', async () => {
    await recordRevokedTokens(db.pool, [
      {
        tokenId: 'jti-3',
        userId: 'u-1',
        companyId: 'c-1',
        expiresAt: '2025-03-02T10:00:00.000Z',
        position: 5n,
      },
    ]);
    await db.apply(revokedTokensProjection, recorded([signedOut('jti-3')], 5n));
    const { rows } = await db.pool.query(
      "SELECT company_id, position FROM revoked_tokens WHERE token_id = 'jti-3'",
    );
    expect(rows).toEqual([{ company_id: 'c-1', position: '5' }]);
  });
});
