import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type AccountsHarness,
  registered,
  startAccountsHarness,
} from '../auth/testing/accountsHarness';
import { errorOf, jsonOf } from '../http/testing/responses';

let h: AccountsHarness;
beforeAll(async () => {
  h = await startAccountsHarness();
});
afterAll(() => h.close());

interface Terminal {
  id: string;
  name: string;
  deviceId: string;
  slot: number;
}

const addTerminal = (token: string, name: string, deviceId: string) =>
  h.call('POST', '/api/terminals', { token, body: { name, deviceId } });

async function profile(token: string) {
  return jsonOf(await h.call('GET', '/api/profile/about', { token }));
}

describe('a company without terminals', () => {
  it('registers three that fill terminalDeviceId, …2 and …3 in order, and refuses a fourth', async () => {
    const { access_token: token } = await registered(h);
    for (const n of [1, 2, 3]) {
      const res = await addTerminal(token, `Till ${n}`, `DEV-${n}`);
      expect(res.status).toBe(201);
      expect(await res.json()).toMatchObject({ name: `Till ${n}`, deviceId: `DEV-${n}`, slot: n });
    }
    expect(await profile(token)).toMatchObject({
      terminalDeviceId: 'DEV-1',
      terminalDeviceId2: 'DEV-2',
      terminalDeviceId3: 'DEV-3',
    });

    const fourth = await addTerminal(token, 'Till 4', 'DEV-4');
    expect(fourth.status).toBe(409);
    expect((await errorOf(fourth)).message).toBe(
      'A company can have at most 3 payment terminals: remove one before adding another',
    );

    const list = await h.call('GET', '/api/terminals', { token });
    expect(list.headers.get('Content-Range')).toBe('terminals 0-2/3');
    expect((await jsonOf<Terminal[]>(list)).map((t) => t.deviceId)).toEqual([
      'DEV-1',
      'DEV-2',
      'DEV-3',
    ]);
  });

  it('renames one and removes one; the remaining ones move up a slot', async () => {
    const { access_token: token } = await registered(h);
    const created: Terminal[] = [];
    for (const n of [1, 2, 3]) {
      created.push(await jsonOf<Terminal>(await addTerminal(token, `Till ${n}`, `D${n}`)));
    }
    const [first, second] = created;
    const renamed = await h.call('PATCH', `/api/terminals/${second?.id}`, {
      token,
      body: { name: 'Front desk' },
    });
    expect(renamed.status).toBe(200);
    expect(await renamed.json()).toMatchObject({ name: 'Front desk', deviceId: 'D2', slot: 2 });

    const removed = await h.call('DELETE', `/api/terminals/${first?.id}`, { token });
    expect(removed.status).toBe(200);
    expect(await profile(token)).toMatchObject({
      terminalDeviceId: 'D2',
      terminalDeviceId2: 'D3',
      terminalDeviceId3: '',
    });
    const list = await jsonOf<Terminal[]>(await h.call('GET', '/api/terminals', { token }));
    expect(list.map(({ name, slot }) => [name, slot])).toEqual([
      ['Front desk', 1],
      ['Till 3', 2],
    ]);
    expect((await addTerminal(token, 'Till 4', 'D4')).status).toBe(201);
  });

  it('refuses a terminal without a name or with a device id already registered', async () => {
    const { access_token: token } = await registered(h);
    const nameless = await h.call('POST', '/api/terminals', { token, body: { deviceId: 'X1' } });
    expect(nameless.status).toBe(400);
    expect((await errorOf(nameless)).name).toBe('Name is required');
    await addTerminal(token, 'One', 'SAME');
    const twice = await addTerminal(token, 'Two', 'SAME');
    expect(twice.status).toBe(409);
    expect((await errorOf(twice)).deviceId).toBe(
      'This device is already registered as a payment terminal',
    );
  });

  it('answers 404 for a terminal it does not have', async () => {
    const { access_token: token } = await registered(h);
    const res = await h.call('PATCH', `/api/terminals/${crypto.randomUUID()}`, {
      token,
      body: { name: 'x' },
    });
    expect(res.status).toBe(404);
  });
});

describe('two companies', () => {
  it("never see or change each other's data", async () => {
    const a = await registered(h, { companyName: 'Alpha Metals' });
    const b = await registered(h, { companyName: 'Beta Energy' });
    const terminal = await jsonOf<Terminal>(await addTerminal(a.access_token, 'A till', 'A-1'));

    expect(await profile(b.access_token)).toMatchObject({
      companyName: 'Beta Energy',
      email: b.form.email,
      terminalDeviceId: '',
    });
    expect(await jsonOf(await h.call('GET', '/api/terminals', { token: b.access_token }))).toEqual(
      [],
    );
    const rename = await h.call('PATCH', `/api/terminals/${terminal.id}`, {
      token: b.access_token,
      body: { name: 'Hijacked' },
    });
    expect(rename.status).toBe(404);
    const remove = await h.call('DELETE', `/api/terminals/${terminal.id}`, {
      token: b.access_token,
    });
    expect(remove.status).toBe(404);
    expect(await profile(a.access_token)).toMatchObject({
      companyName: 'Alpha Metals',
      terminalDeviceId: 'A-1',
    });
    const relogin = await jsonOf<{ user: { data: { companyName: string } } }>(
      await h.call('GET', '/api/auth/access-token', { token: b.access_token }),
    );
    expect(relogin.user.data.companyName).toBe('Beta Energy');
  });
});
