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

const rename = (token: string, body: unknown) => h.call('PATCH', '/api/profile', { token, body });

describe('a company renaming itself from the profile page', () => {
  it('gets the new name back and sees it on the profile and the session user', async () => {
    const { access_token: token } = await registered(h);
    const res = await rename(token, { companyName: '  Maple Robotics North ' });
    expect(res.status).toBe(200);
    expect(await jsonOf(res)).toMatchObject({ companyName: 'Maple Robotics North', verified: 0 });
    expect(await jsonOf(await h.call('GET', '/api/profile/about', { token }))).toMatchObject({
      companyName: 'Maple Robotics North',
    });
    const session = await jsonOf<{ user: { data: { companyName: string } } }>(
      await h.call('GET', '/api/auth/access-token', { token }),
    );
    expect(session.user.data.companyName).toBe('Maple Robotics North');
  });

  it('is refused a name under 4 characters, with the message under the field, nothing changed', async () => {
    const { access_token: token, form } = await registered(h);
    const res = await rename(token, { companyName: 'Abc' });
    expect(res.status).toBe(400);
    expect((await errorOf(res)).fields).toEqual({ companyName: 'Min character length is 4' });
    expect(await jsonOf(await h.call('GET', '/api/profile/about', { token }))).toMatchObject({
      companyName: form.companyName,
    });
  });

  it('cannot rename another company: the company comes from the token only', async () => {
    const first = await registered(h);
    const second = await registered(h);
    const res = await rename(first.access_token, {
      companyName: 'Hijacked Inc',
      companyId: second.user.uid,
    });
    expect(res.status).toBe(400);
    expect(
      await jsonOf(await h.call('GET', '/api/profile/about', { token: second.access_token })),
    ).toMatchObject({ companyName: second.form.companyName });
  });

  it('needs a signed-in user', async () => {
    expect((await rename('', { companyName: 'Nobody Ltd' })).status).toBe(401);
  });
});
