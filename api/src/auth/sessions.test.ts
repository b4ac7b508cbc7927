import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonOf } from '../http/testing/responses';
import {
  type AccountsHarness,
  registered,
  type SessionAnswer,
  startAccountsHarness,
} from './testing/accountsHarness';

let h: AccountsHarness;
beforeAll(async () => {
  h = await startAccountsHarness();
});
afterAll(() => h.close());

async function signIn(form: { email: string; password: string }): Promise<string> {
  const res = await h.call('POST', '/api/auth', {
    body: { email: form.email, password: form.password },
  });
  expect(res.status).toBe(200);
  return (await jsonOf<SessionAnswer>(res)).access_token;
}

/** What a reload of the admin UI does: a fresh token for the stored one. */
async function reload(token: string): Promise<string> {
  const res = await h.call('GET', '/api/auth/access-token', { token });
  expect(res.status).toBe(200);
  return (await jsonOf<SessionAnswer>(res)).access_token;
}

const profileStatus = async (token: string) =>
  (await h.call('GET', '/api/profile/about', { token })).status;
const reloadStatus = async (token: string) =>
  (await h.call('GET', '/api/auth/access-token', { token })).status;

describe('a sign-in refreshed by reloads', () => {
  it('ends as a whole on logout with its newest token: every earlier token is refused', async () => {
    const { form } = await registered(h);
    const signedIn = await signIn(form);
    const firstReload = await reload(signedIn);
    const secondReload = await reload(firstReload);
    const elsewhere = await signIn(form);

    h.advanceClock(1_000);
    expect((await h.call('POST', '/api/auth/logout', { token: secondReload })).status).toBe(204);

    for (const token of [signedIn, firstReload, secondReload]) {
      expect(await profileStatus(token)).toBe(401);
      expect(await reloadStatus(token)).toBe(401);
    }
    // Another sign-in of the same user (another browser) is another session.
    expect(await profileStatus(elsewhere)).toBe(200);
  });

  it('ends as a whole on logout with an earlier token too', async () => {
    const { form } = await registered(h);
    const signedIn = await signIn(form);
    const reloaded = await reload(signedIn);
    expect((await h.call('POST', '/api/auth/logout', { token: signedIn })).status).toBe(204);
    expect(await profileStatus(reloaded)).toBe(401);
  });

  it('ends the session the registration opened', async () => {
    const registration = await registered(h);
    const reloaded = await reload(registration.access_token);
    expect((await h.call('POST', '/api/auth/logout', { token: reloaded })).status).toBe(204);
    expect(await profileStatus(registration.access_token)).toBe(401);
  });

  it('ends with a password change, which keeps only the token it answers', async () => {
    const { form } = await registered(h);
    const signedIn = await signIn(form);
    const reloaded = await reload(signedIn);
    const changed = await h.call('POST', '/api/auth/password', {
      token: reloaded,
      body: { currentPassword: form.password, newPassword: 'granite-Heron-93' },
    });
    expect(changed.status).toBe(200);
    const { access_token: kept } = await jsonOf<SessionAnswer>(changed);
    for (const token of [signedIn, reloaded]) expect(await profileStatus(token)).toBe(401);
    expect(await profileStatus(kept)).toBe(200);
    expect((await h.call('POST', '/api/auth/logout', { token: kept })).status).toBe(204);
    expect(await profileStatus(kept)).toBe(401);
  });
});
