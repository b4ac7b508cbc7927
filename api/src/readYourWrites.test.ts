import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type AccountsHarness,
  registered,
  type SessionAnswer,
  startAccountsHarness,
} from './auth/testing/accountsHarness';
import { jsonOf } from './http/testing/responses';
import { createOperator } from './operator/operator';

interface Profile {
  companyName: string;
  verified: number;
  isIssuer: boolean;
  terminalDeviceId: string;
  terminalDeviceId2: string;
}
interface Terminal {
  id: string;
  name: string;
}
interface CompanyRecord {
  id: string;
  name: string;
  verified: boolean;
  isIssuer: boolean;
}

/**
 * Every command's answer means its effect is already in the read models: each read below comes
 * straight after the command, with no wait or retry, and must show it. Both ways the API can
 * learn that projectors caught up are covered.
 */
describe.each(['in-process', 'external'] as const)('with projectors %s', (projectors) => {
  let h: AccountsHarness;
  let operatorToken: string;
  beforeAll(async () => {
    h = await startAccountsHarness({ projectors, readYourWritesTimeoutMs: 10_000 });
    await createOperator(h.deps, {
      email: `ops-${projectors}@platform.test`,
      password: 'aurora-Lynx-2025',
    });
    const login = await h.call('POST', '/api/auth', {
      body: { email: `ops-${projectors}@platform.test`, password: 'aurora-Lynx-2025' },
    });
    operatorToken = (await jsonOf<SessionAnswer>(login)).access_token;
  });
  afterAll(() => h.close());

  const jsonOfOk = async <T>(res: Response): Promise<T> => {
    if (res.status !== 200) throw new Error(`${res.status} ${await res.text()}`);
    return jsonOf<T>(res);
  };
  const profileOf = async (token: string) =>
    jsonOf<Profile>(await h.call('GET', '/api/profile/about', { token }));
  const companiesNamed = async (name: string) =>
    jsonOfOk<CompanyRecord[]>(
      await h.call(
        'GET',
        `/api/operator/companies?filter=${encodeURIComponent(JSON.stringify({ q: name }))}`,
        {
          token: operatorToken,
        },
      ),
    );

  it('shows each command in the very next list or detail call', async () => {
    const name = `Ryw ${projectors} Holdings`;
    const { access_token: token } = await registered(h, { companyName: name });
    expect((await profileOf(token)).companyName).toBe(name);
    const [company] = await companiesNamed(name);
    expect(company?.name).toBe(name);
    const companyId = company?.id ?? '';

    const added = await h.call('POST', '/api/terminals', {
      token,
      body: { name: 'Front desk', deviceId: 'TRM-001' },
    });
    expect(added.status).toBe(201);
    const [terminal] = await jsonOf<Terminal[]>(await h.call('GET', '/api/terminals', { token }));
    expect(terminal?.name).toBe('Front desk');
    expect((await profileOf(token)).terminalDeviceId).toBe('TRM-001');

    await h.call('PATCH', `/api/terminals/${terminal?.id}`, {
      token,
      body: { name: 'Back office' },
    });
    const renamed = await jsonOf<Terminal[]>(await h.call('GET', '/api/terminals', { token }));
    expect(renamed.map((t) => t.name)).toEqual(['Back office']);

    await h.call('DELETE', `/api/terminals/${terminal?.id}`, { token });
    expect(await jsonOf<Terminal[]>(await h.call('GET', '/api/terminals', { token }))).toEqual([]);

    await h.call('POST', `/api/operator/companies/${companyId}/verify`, { token: operatorToken });
    expect((await profileOf(token)).verified).toBe(1);
    expect((await companiesNamed(name))[0]?.verified).toBe(true);

    await h.call('POST', `/api/operator/companies/${companyId}/issuer`, {
      token: operatorToken,
      body: { isIssuer: true },
    });
    expect((await profileOf(token)).isIssuer).toBe(true);

    const settings = { theme: { main: 'deepOcean' }, layout: { style: 'layout1' } };
    const session = await jsonOf<SessionAnswer>(
      await h.call('GET', '/api/auth/access-token', { token }),
    );
    await h.call('POST', '/api/auth/user/update', {
      token,
      body: { user: { ...session.user, data: { ...session.user.data, settings } } },
    });
    const after = await jsonOf<SessionAnswer>(
      await h.call('GET', '/api/auth/access-token', { token }),
    );
    expect(after.user.data.settings).toEqual(settings);
  });
});
