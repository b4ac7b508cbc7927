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
    const userEvents = await h.store.readStream(`User-${user.uid}`);
    expect(userEvents.map((event) => event.type)).toEqual(['UserRegistered']);
    const [saved] = await h.store.readStream(`UserSettings-${user.uid}`);
    expect(saved?.type).toBe('UserSettingsUpdated');
    expect(saved?.metadata.companyId).toBe(userEvents[0]?.metadata.companyId);

    const logout = await h.call('POST', '/api/auth/logout', { token });
    expect(logout.status).toBe(204);
    const after = await h.call('GET', '/api/auth/access-token', { token });
    expect(after.status).toBe(401);
    expect((await errorOf(after)).message).toBe('Invalid access_token');
    expect((await h.call('GET', '/api/profile/about', { token })).status).toBe(401);

    // The reload's token belongs to the same sign-in; the registration's is another one.
    const reloaded = await h.call('GET', '/api/profile/about', { token: refreshed.access_token });
    expect(reloaded.status).toBe(401);
    const other = await h.call('GET', '/api/profile/about', {
      token: registeredAnswer.access_token,
    });
    expect(other.status).toBe(200);
  });
});

describe('registration', () => {
  const cases: [string, Record<string, unknown>, Record<string, string>][] = [
    [
      'a missing company name',
      { companyName: undefined },
      { companyName: 'Company name is required' },
    ],
    ['a short company name', { companyName: 'Acm' }, { companyName: 'Min character length is 4' }],
    ['a blank company name', { companyName: '   ' }, { companyName: 'Company name is required' }],
    ['a missing email', { email: undefined }, { email: 'Email is required' }],
    ['an invalid email', { email: 'not-an-email' }, { email: 'Please enter a valid email' }],
    [
      'a missing symbol',
      { companySymbol: undefined },
      { companySymbol: 'Company symbol is required' },
    ],
    [
      'a one-letter symbol',
      { companySymbol: 'A' },
      { companySymbol: 'Use 2 to 10 letters A–Z or digits 0–9' },
    ],
    [
      'an eleven-letter symbol',
      { companySymbol: 'ABCDEFGHIJK' },
      { companySymbol: 'Use 2 to 10 letters A–Z or digits 0–9' },
    ],
    [
      'a symbol with a dash',
      { companySymbol: 'AB-C' },
      { companySymbol: 'Use 2 to 10 letters A–Z or digits 0–9' },
    ],
    ['a missing password', { password: undefined }, { password: 'Password is required' }],
    ['a short password', { password: 'tundra7' }, { password: 'Min character length is 8' }],
    ['a long password', { password: 'x'.repeat(129) }, { password: 'Max character length is 128' }],
    [
      'a common password',
      { password: 'Baseball' },
      { password: 'This password is one of the 1,000 most common passwords: choose another' },
    ],
    ['a wrong confirmation', { confirm: 'something-else' }, { confirm: 'Passwords do not match' }],
    [
      'a wrong passwordConfirm',
      { passwordConfirm: 'nope-nope' },
      { passwordConfirm: 'Passwords do not match' },
    ],
    ['an unknown field', { role: 'operator' }, { role: 'Unknown field' }],
    [
      'a lone UTF-16 surrogate in the company name',
      { companyName: 'Acme \ud83d Mining' },
      { companyName: 'Holds a broken character (a lone UTF-16 surrogate)' },
    ],
  ];

  it.each(cases)('refuses %s with its message under the field', async (_, change, fields) => {
    const res = await h.call('POST', '/api/auth/register', {
      body: registrationForm(change),
    });
    expect(res.status).toBe(400);
    const error = await errorOf(res);
    expect(error.fields).toEqual(fields);
    expect(error).toMatchObject(fields);
  });

  it('reports every broken rule at once', async () => {
    const res = await h.call('POST', '/api/auth/register', {
      body: { companyName: 'Ab', companySymbol: '', email: 'x', password: '123', confirm: '321' },
    });
    expect((await errorOf(res)).fields).toEqual({
      companyName: 'Min character length is 4',
      companySymbol: 'Company symbol is required',
      email: 'Please enter a valid email',
      password: 'Min character length is 8',
      confirm: 'Passwords do not match',
    });
  });

  it('stores the symbol upper-case and refuses it again in any case', async () => {
    const first = await registered(h, { companySymbol: 'maple' });
    const operatorView = await h.pool.query('SELECT symbol FROM companies WHERE company_id = $1', [
      (await h.pool.query('SELECT company_id FROM users WHERE user_id = $1', [first.user.uid]))
        .rows[0].company_id,
    ]);
    expect(operatorView.rows[0].symbol).toBe('MAPLE');

    const again = await h.call('POST', '/api/auth/register', {
      body: registrationForm({ companySymbol: 'Maple' }),
    });
    expect(again.status).toBe(409);
    expect((await errorOf(again)).companySymbol).toBe('The company symbol is already in use');
  });

  it('refuses an email already in use, whatever its case', async () => {
    await registered(h, { email: 'dup@acme.test' });
    const again = await h.call('POST', '/api/auth/register', {
      body: registrationForm({ email: ' DUP@Acme.test ' }),
    });
    expect(again.status).toBe(409);
    const error = await errorOf(again);
    expect(error.email).toBe('The email is already in use');
  });

  it('releases the email when the symbol is taken, so a retry with another symbol succeeds', async () => {
    await registered(h, { companySymbol: 'TAKEN' });
    const refused = await h.call('POST', '/api/auth/register', {
      body: registrationForm({ email: 'retry@acme.test', companySymbol: 'TAKEN' }),
    });
    expect(refused.status).toBe(409);
    const retried = await h.call('POST', '/api/auth/register', {
      body: registrationForm({ email: 'retry@acme.test', companySymbol: 'RETRY' }),
    });
    expect(retried.status).toBe(200);
  });

  it('lets exactly one of two simultaneous registrations of one email through', async () => {
    const [a, b] = await Promise.all([
      h.call('POST', '/api/auth/register', { body: registrationForm({ email: 'race@acme.test' }) }),
      h.call('POST', '/api/auth/register', { body: registrationForm({ email: 'race@acme.test' }) }),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
  });

  it('answers a repeated Idempotency-Key with the first answer and creates one company', async () => {
    const form = registrationForm();
    const headers = { 'Idempotency-Key': crypto.randomUUID() };
    const first = await h.call('POST', '/api/auth/register', { body: form, headers });
    const second = await h.call('POST', '/api/auth/register', { body: form, headers });
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    expect(second.headers.get('Idempotent-Replayed')).toBe('true');
    const { rows } = await h.pool.query('SELECT count(*)::int AS n FROM users WHERE email = $1', [
      form.email,
    ]);
    expect(rows[0].n).toBe(1);
  });
});

describe('login', () => {
  it('answers an unknown email and a wrong password with the same 401', async () => {
    const { form } = await registered(h);
    const unknown = await h.call('POST', '/api/auth', {
      body: { email: 'nobody@acme.test', password: form.password },
    });
    const wrong = await h.call('POST', '/api/auth', {
      body: { email: form.email, password: 'wrong-password-1' },
    });
    expect(unknown.status).toBe(401);
    expect(wrong.status).toBe(401);
    const [a, b] = [await unknown.json(), await wrong.json()];
    expect(a).toEqual(b);
    expect(a).toEqual({
      error: {
        code: 'invalid_credentials',
        message: 'Email or password is incorrect',
        email: 'Check your username/email',
        password: 'Check your password',
        fields: { email: 'Check your username/email', password: 'Check your password' },
      },
    });
  });

  it('throttles unknown emails the same way, so the lock does not reveal accounts', async () => {
    for (let attempt = 1; attempt <= 5; attempt++) {
      await h.call('POST', '/api/auth', {
        body: { email: 'ghost@acme.test', password: 'whatever-it-is' },
      });
    }
    const res = await h.call('POST', '/api/auth', {
      body: { email: 'ghost@acme.test', password: 'whatever-it-is' },
    });
    expect(res.status).toBe(429);
  });

  it('refuses a missing password with a field message', async () => {
    const res = await h.call('POST', '/api/auth', { body: { email: 'a@b.test' } });
    expect(res.status).toBe(400);
    expect((await errorOf(res)).password).toBe('Password is required');
  });
});
