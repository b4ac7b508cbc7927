import { expect } from 'vitest';
import {
  type AccountsHarness,
  registered,
  type SessionAnswer,
  startAccountsHarness,
} from '../../auth/testing/accountsHarness';
import { jsonOf } from '../../http/testing/responses';
import { createOperator } from '../../operator/operator';
import type { CustomerRecord } from '../customerView';

export interface CustomersHarness extends AccountsHarness {
  /** A newly registered company, verified by the operator: its admin's token and ids. */
  verifiedCompany(): Promise<Company>;
  /** A verified company the operator also granted issuer status (funding rounds). */
  issuerCompany(): Promise<Company>;
  /** A registered company the operator has not verified yet. */
  unverifiedCompany(): Promise<Company>;
  /** A compliance user of the company of `adminToken`, signed in. */
  complianceToken(adminToken: string): Promise<string>;
  addCustomer(token: string, body: Record<string, unknown>): Promise<CustomerRecord>;
}

export interface Company {
  token: string;
  companyId: string;
  userId: string;
  email: string;
}

const operator = { email: 'ops@customers.test', password: 'aurora-Lynx-2025' };
let emailCounter = 0;

/** The real app on a fresh database with every read model, an operator to verify companies. */
export async function startCustomersHarness(
  options?: Parameters<typeof startAccountsHarness>[0],
): Promise<CustomersHarness> {
  const h = await startAccountsHarness(options);
  const { position } = await createOperator(h.deps, operator);
  // As npm start does: the operator signs in only once the users read model has them.
  if (!(await h.deps.readModels.waitFor(position, 30_000))) {
    throw new Error('the read models never caught up with the operator');
  }
  const login = await h.call('POST', '/api/auth', { body: operator });
  if (login.status !== 200)
    throw new Error(`operator sign-in: ${login.status} ${await login.text()}`);
  const operatorToken = (await jsonOf<SessionAnswer>(login)).access_token;

  async function unverifiedCompany(): Promise<Company> {
    const session = await registered(h);
    const { rows } = await h.pool.query<{ company_id: string }>(
      'SELECT company_id FROM users WHERE user_id = $1',
      [session.user.uid],
    );
    const companyId = rows[0]?.company_id ?? '';
    return {
      token: session.access_token,
      companyId,
      userId: session.user.uid,
      email: session.form.email,
    };
  }

  async function verifiedCompany(): Promise<Company> {
    const company = await unverifiedCompany();
    const verify = await h.call('POST', `/api/operator/companies/${company.companyId}/verify`, {
      token: operatorToken,
    });
    expect(verify.status).toBe(200);
    return company;
  }

  return {
    ...h,
    unverifiedCompany,
    verifiedCompany,
    async issuerCompany() {
      const company = await verifiedCompany();
      const grant = await h.call('POST', `/api/operator/companies/${company.companyId}/issuer`, {
        token: operatorToken,
        body: { isIssuer: true },
      });
      expect(grant.status).toBe(200);
      // The issuer guard reads the companies read model.
      for (let i = 0; i < 100; i++) {
        const { rows } = await h.pool.query<{ is_issuer: boolean }>(
          'SELECT is_issuer FROM companies WHERE company_id = $1',
          [company.companyId],
        );
        if (rows[0]?.is_issuer) break;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      return company;
    },
    async complianceToken(adminToken) {
      emailCounter += 1;
      const credentials = {
        email: `reviewer-${Date.now().toString(36)}-${emailCounter}@audit.test`,
        password: 'glacier-Otter-77',
      };
      const created = await h.call('POST', '/api/company/users', {
        token: adminToken,
        body: { ...credentials, role: 'compliance' },
      });
      expect(created.status).toBe(201);
      const signedIn = await h.call('POST', '/api/auth', { body: credentials });
      return (await jsonOf<SessionAnswer>(signedIn)).access_token;
    },
    async addCustomer(token, body) {
      const res = await h.call('POST', '/api/customers', { token, body });
      if (res.status !== 201) throw new Error(`add: ${res.status} ${await res.text()}`);
      return jsonOf<CustomerRecord>(res);
    },
  };
}
