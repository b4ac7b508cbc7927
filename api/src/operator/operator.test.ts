import { DomainError } from '@issuer/events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AccountsHarness, startAccountsHarness } from '../auth/testing/accountsHarness';
import { parseOperatorArgs } from './cliArgs';
import {
  createOperator,
  defaultOperatorEmail,
  ensureFirstOperator,
  ensureOperatorFromEnv,
} from './operator';

let h: AccountsHarness;
beforeAll(async () => {
  h = await startAccountsHarness();
});
afterAll(() => h.close());

const login = (email: string, password: string) =>
  h.call('POST', '/api/auth', { body: { email, password } });

describe('operator bootstrap', () => {
  it('on a first start creates one operator with a generated password, and never a second', async () => {
    const first = await ensureFirstOperator(h.deps);
    expect(first?.email).toBe(defaultOperatorEmail);
    expect(first?.password.length).toBeGreaterThanOrEqual(20);
    expect((await login(defaultOperatorEmail, first?.password ?? '')).status).toBe(200);
    expect(await ensureFirstOperator(h.deps)).toBeUndefined();
  });

  it('creates the operator from OPERATOR_EMAIL once, then finds it', async () => {
    const credentials = { email: 'Env.Ops@Platform.test', password: 'borealis-Heron-9' };
    expect(await ensureOperatorFromEnv(h.deps, credentials)).toBe('created');
    expect(await ensureOperatorFromEnv(h.deps, credentials)).toBe('exists');
    expect(await ensureOperatorFromEnv(h.deps, undefined)).toBe('not-configured');
    expect((await login('env.ops@platform.test', credentials.password)).status).toBe(200);
  });

  it('refuses an OPERATOR_EMAIL that belongs to a company user', async () => {
    const form = {
      companyName: 'Owned Co',
      companySymbol: 'OWNED',
      email: 'taken@owned.test',
      password: 'meadow-Swift-31',
    };
    expect((await h.call('POST', '/api/auth/register', { body: form })).status).toBe(200);
    await expect(
      ensureOperatorFromEnv(h.deps, { email: form.email, password: 'meadow-Swift-32' }),
    ).rejects.toThrow('OPERATOR_EMAIL belongs to a company user');
  });

  it('applies the registration rules to an operator created from the command line', async () => {
    const error = await createOperator(h.deps, { email: 'bad', password: 'password' }).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).fields).toEqual({
      email: 'Please enter a valid email',
      password: 'This password is one of the 1,000 most common passwords: choose another',
    });
  });
});

describe('the operator command line', () => {
  it('reads create --email --password', () => {
    expect(parseOperatorArgs(['create', '--email', 'a@b.test', '--password', 'pw'])).toEqual({
      command: 'create',
      email: 'a@b.test',
      password: 'pw',
    });
  });

  it('explains what is missing or unknown', () => {
    expect(parseOperatorArgs([])).toEqual({ error: 'Unknown command: (none)' });
    expect(parseOperatorArgs(['create', '--email', 'a@b.test'])).toEqual({
      error: 'Missing --password',
    });
    expect(parseOperatorArgs(['create', '--mail', 'x'])).toHaveProperty('error');
  });
});
