import { HttpError } from 'react-admin';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { type ApiOverHttp, startApiOverHttp } from '../testing/apiOverHttp';
import { authProvider, register, resumeSession } from './authProvider';
import { deliverNoticesTo, type Notice } from './notices';
import { endSession, sessionUser } from './sessionStore';
import { readStored, storageKeys, writeStored } from './storage';

let api: ApiOverHttp;
const notices: Notice[] = [];
beforeAll(async () => {
  api = await startApiOverHttp();
  deliverNoticesTo((notice) => notices.push(notice));
});
afterAll(() => api.close());
beforeEach(() => {
  endSession();
  notices.length = 0;
  vi.useRealTimers();
});

const token = () => readStored(storageKeys.token);

/** What a page reload does: the memory of the page is gone, local storage stays. */
function reloadPage() {
  const stored = token();
  endSession();
  if (stored) writeStored(storageKeys.token, stored);
}

describe('signing in', () => {
  it('keeps the token under jwt_access_token and knows the company', async () => {
    const company = await api.newCompany();
    await authProvider.login({ email: company.email, password: company.password });
    expect(token()).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(sessionUser()?.data.companyName).toBe(company.companyName);
    expect(sessionUser()?.data.verified).toBe(0);
    expect(await authProvider.getPermissions?.({})).toEqual(['admin']);
    expect((await authProvider.getIdentity?.({}))?.fullName).toBe(company.companyName);
  });

  it('refuses a wrong password with the messages for the fields, storing nothing', async () => {
    const company = await api.newCompany();
    const failure = await authProvider
      .login({ email: company.email, password: 'not-the-password' })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(HttpError);
    expect((failure as HttpError).status).toBe(401);
    expect((failure as HttpError).body.error.fields).toEqual({
      email: 'Check your username/email',
      password: 'Check your password',
    });
    expect(token()).toBeNull();
    expect(sessionUser()).toBeNull();
  });
});

describe('registering', () => {
  it('signs the new company in', async () => {
    const user = await register({
      companyName: 'Northwind Mining',
      companySymbol: 'NWM',
      email: `owner-${Date.now()}@northwind.test`,
      password: 'tundra-Falcon-42',
    });
    expect(user.data.companyName).toBe('Northwind Mining');
    expect(token()).not.toBeNull();
  });

  it('answers the server’s message under the email field for a taken email', async () => {
    const company = await api.newCompany();
    const failure = await register({ ...company, companySymbol: 'TAKEN1' }).catch(
      (error: unknown) => error,
    );
    expect((failure as HttpError).status).toBe(409);
    expect((failure as HttpError).body.error.fields.email).toEqual(expect.any(String));
    expect(token()).toBeNull();
  });
});

describe('a page opened with a stored token', () => {
  it('signs in through GET /api/auth/access-token quietly: only a real sign-in says so', async () => {
    const company = await api.newCompany();
    await authProvider.login({ email: company.email, password: company.password });
    expect(notices).toContainEqual({ message: 'app.session.logged_in', type: 'success' });
    const first = token();
    reloadPage();
    notices.length = 0;
    await authProvider.checkAuth({});
    expect(sessionUser()?.data.email).toBe(company.email);
    expect(token()).not.toBe(first);
    expect(notices).not.toContainEqual({ message: 'app.session.logged_in', type: 'success' });
  });

  it('logs out an expired token with "access_token expired", without calling the API', async () => {
    const company = await api.newCompany();
    await authProvider.login({ email: company.email, password: company.password });
    reloadPage();
    vi.useFakeTimers({ now: Date.now() + 13 * 3600_000, toFake: ['Date'] });
    await expect(authProvider.checkAuth({})).rejects.toMatchObject({
      message: 'app.session.expired',
    });
    expect(token()).toBeNull();
  });

  it('ends a session the server no longer accepts, with "Invalid access_token"', async () => {
    const company = await api.newCompany();
    await authProvider.login({ email: company.email, password: company.password });
    const revoked = token() ?? '';
    await api.harness.call('POST', '/api/auth/logout', { token: revoked });
    reloadPage();
    expect(await resumeSession()).toBeNull();
    expect(notices).toContainEqual({ message: 'app.session.invalid_token', type: 'error' });
    expect(token()).toBeNull();
  });

  it('is a guest without any token', async () => {
    await expect(authProvider.checkAuth({})).rejects.toMatchObject({ redirectTo: '/login' });
  });
});

describe('errors from the API', () => {
  it('log out on a 401 and clear the session', async () => {
    const company = await api.newCompany();
    await authProvider.login({ email: company.email, password: company.password });
    await expect(authProvider.checkError({ status: 401 })).rejects.toMatchObject({
      redirectTo: '/login',
    });
    expect(notices).toContainEqual({ message: 'app.session.invalid_token', type: 'error' });
    expect(token()).toBeNull();
    expect(sessionUser()).toBeNull();
  });

  it('keep the session on a 403 (a refusal, not a bad token)', async () => {
    const company = await api.newCompany();
    await authProvider.login({ email: company.email, password: company.password });
    await expect(authProvider.checkError({ status: 403 })).resolves.toBeUndefined();
    expect(token()).not.toBeNull();
  });
});

describe('logging out', () => {
  it('revokes the token on the server and forgets the terminal and settings', async () => {
    const company = await api.newCompany();
    await authProvider.login({ email: company.email, password: company.password });
    const used = token() ?? '';
    writeStored(storageKeys.activeTerminal, 'POS-1');
    writeStored(storageKeys.settings, '{"theme":{"main":"slate"}}');
    await authProvider.logout({});
    expect(token()).toBeNull();
    expect(readStored(storageKeys.activeTerminal)).toBeNull();
    expect(readStored(storageKeys.settings)).toBeNull();
    const reuse = await api.harness.call('GET', '/api/auth/access-token', { token: used });
    expect(reuse.status).toBe(401);
  });
});

describe('who may open what', () => {
  it('gives the Companies screen to the operator only', async () => {
    const company = await api.newCompany();
    await authProvider.login({ email: company.email, password: company.password });
    expect(await authProvider.canAccess?.({ resource: 'companies', action: 'list' })).toBe(false);
    const operator = await api.newOperator();
    await authProvider.login(operator);
    expect(await authProvider.canAccess?.({ resource: 'companies', action: 'list' })).toBe(true);
  });
});
