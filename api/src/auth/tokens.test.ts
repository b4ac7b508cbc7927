import { decodeJwt, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorOf } from '../http/testing/responses';
import {
  type AccountsHarness,
  registered,
  type SessionAnswer,
  startAccountsHarness,
  testTokenConfig,
} from './testing/accountsHarness';

let h: AccountsHarness;
let owner: Awaited<ReturnType<typeof registered>>;
beforeAll(async () => {
  h = await startAccountsHarness();
  owner = await registered(h);
});
afterAll(() => h.close());

const base64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** The owner's real claims, re-signed (or not) by an attacker. */
function forged(changes: Record<string, unknown> = {}) {
  return { ...decodeJwt(owner.access_token), ...changes };
}

async function signed(
  claims: Record<string, unknown>,
  { secret = testTokenConfig.tokenSecret, alg = 'HS256' } = {},
) {
  return new SignJWT(claims).setProtectedHeader({ alg }).sign(secret);
}

async function expectRefused(token: string, message = 'Invalid access_token') {
  const res = await h.call('GET', '/api/auth/access-token', { token });
  expect(res.status).toBe(401);
  expect((await errorOf(res)).message).toBe(message);
}

describe('an access token', () => {
  it('carries iss, aud, sub, tid, roles, iat, exp and jti, signed with HS256', () => {
    const header = JSON.parse(
      Buffer.from(owner.access_token.split('.')[0] ?? '', 'base64url').toString(),
    );
    expect(header).toEqual({ alg: 'HS256', typ: 'JWT' });
    const claims = decodeJwt(owner.access_token);
    expect(claims).toMatchObject({
      iss: testTokenConfig.tokenIssuer,
      aud: testTokenConfig.tokenAudience,
      sub: owner.user.uid,
      tid: expect.any(String),
      roles: ['admin'],
      jti: expect.any(String),
    });
    expect((claims.exp ?? 0) - (claims.iat ?? 0)).toBe(testTokenConfig.tokenLifetimeSeconds);
  });

  it('re-signed by the genuine key is accepted (the forgeries below differ by one thing)', async () => {
    const res = await h.call('GET', '/api/auth/access-token', { token: await signed(forged()) });
    expect(res.status).toBe(200);
  });

  it('with alg "none" is refused', async () => {
    const unsigned = `${base64url({ alg: 'none', typ: 'JWT' })}.${base64url(forged())}.`;
    await expectRefused(unsigned);
  });

  it('signed with another key is refused', async () => {
    await expectRefused(
      await signed(forged(), {
        secret: new TextEncoder().encode('another-secret-another-secret-42'),
      }),
    );
  });

  it('signed with the right key but another algorithm is refused', async () => {
    await expectRefused(await signed(forged(), { alg: 'HS512' }));
  });

  it('for another audience is refused', async () => {
    await expectRefused(await signed(forged({ aud: 'some-other-api' })));
  });

  it('from another issuer is refused', async () => {
    await expectRefused(await signed(forged({ iss: 'evil-issuer' })));
  });

  it('whose payload was edited to another company is refused', async () => {
    const [header, , signature] = owner.access_token.split('.');
    await expectRefused(`${header}.${base64url(forged({ tid: 'another-company' }))}.${signature}`);
  });

  it('without a Bearer header is refused', async () => {
    const res = await h.call('GET', '/api/profile/about');
    expect(res.status).toBe(401);
    expect((await errorOf(res)).message).toBe('Invalid access_token');
  });

  it('past its expiry is refused with "access_token expired"', async () => {
    const session = await registered(h);
    h.advanceClock((testTokenConfig.tokenLifetimeSeconds + 1) * 1000);
    await expectRefused(session.access_token, 'access_token expired');
  });

  it('already verified (and remembered) is refused once it expires, from its exact second', async () => {
    const session = await registered(h);
    const used = await h.call('GET', '/api/auth/access-token', { token: session.access_token });
    expect(used.status).toBe(200);
    h.advanceClock(testTokenConfig.tokenLifetimeSeconds * 1000 - 1000);
    const lastSecond = await h.call('GET', '/api/auth/access-token', {
      token: session.access_token,
    });
    expect(lastSecond.status).toBe(200);
    h.advanceClock(1000);
    await expectRefused(session.access_token, 'access_token expired');
  });

  it("signed out is refused at once, while the same user's other tokens still work", async () => {
    const session = await registered(h);
    const login = await h.call('POST', '/api/auth', {
      body: { email: session.form.email, password: session.form.password },
    });
    const second = ((await login.json()) as SessionAnswer).access_token;
    expect((await h.call('POST', '/api/auth/logout', { token: session.access_token })).status).toBe(
      204,
    );
    await expectRefused(session.access_token);
    expect((await h.call('GET', '/api/profile/about', { token: second })).status).toBe(200);
  });

  it('issued before a password change is refused; the token the change returns works', async () => {
    const session = await registered(h);
    const wrongCurrent = await h.call('POST', '/api/auth/password', {
      token: session.access_token,
      body: { currentPassword: 'not-my-password', newPassword: 'glacier-Otter-77' },
    });
    expect(wrongCurrent.status).toBe(400);
    expect((await errorOf(wrongCurrent)).currentPassword).toBe(
      'The current password is not correct',
    );

    const change = await h.call('POST', '/api/auth/password', {
      token: session.access_token,
      body: { currentPassword: session.form.password, newPassword: 'glacier-Otter-77' },
    });
    expect(change.status).toBe(200);
    const fresh = ((await change.json()) as SessionAnswer).access_token;
    await expectRefused(session.access_token);
    expect((await h.call('GET', '/api/profile/about', { token: fresh })).status).toBe(200);

    const oldPassword = await h.call('POST', '/api/auth', {
      body: { email: session.form.email, password: session.form.password },
    });
    expect(oldPassword.status).toBe(401);
    const newPassword = await h.call('POST', '/api/auth', {
      body: { email: session.form.email, password: 'glacier-Otter-77' },
    });
    expect(newPassword.status).toBe(200);
  });
});

describe('while the read models lag', () => {
  let lagging: AccountsHarness;
  let session: Awaited<ReturnType<typeof registered>>;
  beforeAll(async () => {
    lagging = await startAccountsHarness({ readYourWritesTimeoutMs: 100 });
    session = await registered(lagging);
    await lagging.stopProjectors();
  });
  afterAll(() => lagging.close());

  it('a signed-out token is refused at once all the same', async () => {
    const logout = await lagging.call('POST', '/api/auth/logout', { token: session.access_token });
    expect(logout.status).toBe(204);
    const res = await lagging.call('GET', '/api/profile/about', { token: session.access_token });
    expect(res.status).toBe(401);
  });

  it('a password change cuts older tokens off at once all the same', async () => {
    const login = await lagging.call('POST', '/api/auth', {
      body: { email: session.form.email, password: session.form.password },
    });
    const token = ((await login.json()) as SessionAnswer).access_token;
    const change = await lagging.call('POST', '/api/auth/password', {
      token,
      body: { currentPassword: session.form.password, newPassword: 'glacier-Otter-77' },
    });
    expect(change.status).toBe(200);
    expect(change.headers.get('X-Read-Models')).toBe('catching-up');
    const res = await lagging.call('GET', '/api/profile/about', { token });
    expect(res.status).toBe(401);
  });
});
