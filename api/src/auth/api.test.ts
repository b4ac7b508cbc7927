import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorOf, jsonOf } from '../http/testing/responses';
import {
  type AccountsHarness,
  registered,
  registrationForm,
  type SessionAnswer,
  startAccountsHarness,
} from './testing/accountsHarness';

let h: AccountsHarness;
beforeAll(async () => {
  h = await startAccountsHarness();
});
afterAll(() => h.close());

describe('a company owner', () => {
  it('registers, logs in, re-logs in, reads the profile, saves settings, logs out and is refused after', async () => {
    const form = registrationForm({ companySymbol: 'jrny1', email: 'Owner@Journey.test' });
    const registration = await h.call('POST', '/api/auth/register', {
      body: { ...form, confirm: form.password },
    });
    expect(registration.status).toBe(200);
    const registeredAnswer = await jsonOf<SessionAnswer>(registration);
    expect(registeredAnswer.user).toEqual({
      role: ['admin'],
      uid: expect.any(String),
      from: 'jwt',
      data: {
        companyName: 'Acme Mining',
        fiatBalanceCad: 0,
        email: 'owner@journey.test',
        photoURL: '',
        displayName: 'Acme Mining',
        terminalDeviceId: '',
        terminalDeviceId2: '',
        terminalDeviceId3: '',
        providers: [],
        verified: 0,
        settings: {},
        shortcuts: ['calendar', 'mail', 'contacts', 'todo'],
      },
      isIssuer: false,
      activeTerminalId: '',
    });

    const login = await h.call('POST', '/api/auth', {
      body: { email: 'OWNER@journey.test', password: form.password },
    });
    expect(login.status).toBe(200);
    const { access_token: token, user } = await jsonOf<SessionAnswer>(login);
    expect(user.uid).toBe(registeredAnswer.user.uid);

    const relogin = await h.call('GET', '/api/auth/access-token', { token });
    expect(relogin.status).toBe(200);
    const refreshed = await jsonOf<SessionAnswer>(relogin);
    expect(refreshed.access_token).not.toBe(token);
    expect(refreshed.user.uid).toBe(user.uid);

    const profile = await h.call('GET', '/api/profile/about', { token });
    expect(profile.status).toBe(200);
    expect(await profile.json()).toEqual({
      avatar: '',
      companyName: 'Acme Mining',
      fiatBalanceCad: 0,
      email: 'owner@journey.test',
      terminalDeviceId: '',
      terminalDeviceId2: '',
      terminalDeviceId3: '',
      providers: [],
      verified: 0,
      isIssuer: false,
    });

    const settings = { layout: { style: 'layout2' }, theme: { main: 'greeny' } };
    const update = await h.call('POST', '/api/auth/user/update', {
      token,
      body: { user: { ...user, data: { ...user.data, settings, shortcuts: ['mail', 'todo'] } } },
    });
    expect(update.status).toBe(200);
    const afterUpdate = await jsonOf<SessionAnswer>(
      await h.call('GET', '/api/auth/access-token', { token }),
    );
    expect(afterUpdate.user.data.settings).toEqual(settings);
    expect(afterUpdate.user.data.shortcuts).toEqual(['mail', 'todo']);

    const logout = await h.call('POST', '/api/auth/logout', { token });
    expect(logout.status).toBe(204);
    const after = await h.call('GET', '/api/auth/access-token', { token });
    expect(after.status).toBe(401);
    expect((await errorOf(after)).message).toBe('Invalid access_token');
    expect((await h.call('GET', '/api/profile/about', { token })).status).toBe(401);

    const other = await h.call('GET', '/api/profile/about', { token: refreshed.access_token });
    expect(other.status).toBe(200);
  });
});
