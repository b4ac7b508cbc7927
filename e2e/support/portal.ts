import { randomBytes, randomUUID } from 'node:crypto';
import { decodeJwt, SignJWT } from 'jose';
import { startApp } from '../../bench/lib/appProcess';

/** Shown on the login page for a forgotten password. */
export const supportEmail = 'help-desk@issuer.test';

/** The platform operator every portal creates at start. */
export const operatorAccount = { email: 'operator@platform.test', password: 'aurora-Lynx-2025' };

export interface Company {
  companyName: string;
  companySymbol: string;
  email: string;
  password: string;
  companyId: string;
  token: string;
}

export interface Portal {
  /** http://127.0.0.1:<port>: the built UI at `/`, the API under `/api`. */
  url: string;
  /** JSON call to the API; throws on a status outside 2xx. */
  api<T = unknown>(
    method: string,
    path: string,
    options?: { token?: string; body?: unknown },
  ): Promise<T>;
  /** A new company registered through the API, as unverified as every new one. */
  registerCompany(
    overrides?: Partial<Pick<Company, 'companyName' | 'email' | 'password'>>,
  ): Promise<Company>;
  /** What the platform operator does in the operator API. */
  verify(company: Company): Promise<void>;
  makeIssuer(company: Company): Promise<void>;
  /** A token for the user that the server signed with its real secret but that expired a minute ago. */
  expiredTokenFor(company: Company): Promise<string>;
  stop(): Promise<void>;
}

/** An empty database the portal may keep for itself; dropped when the portal stops. */
export interface OwnDatabase {
  url: string;
  drop(): Promise<void>;
}

/**
 * The real server as `npm start` runs it (api/src/main.ts in its own process, projectors in it,
 * serving the built admin UI), on an empty database, on a free port, with a platform operator
 * created from OPERATOR_EMAIL / OPERATOR_PASSWORD. The browser suite and `npm run bench -- ui`
 * both use it.
 */
export async function startPortal(database: OwnDatabase): Promise<Portal> {
  const tokenSecret = randomBytes(48).toString('base64url');
  const app = await startApp(database.url, {
    TOKEN_SECRET: tokenSecret,
    OPERATOR_EMAIL: operatorAccount.email,
    OPERATOR_PASSWORD: operatorAccount.password,
    SUPPORT_EMAIL: supportEmail,
    LOG_LEVEL: 'warn',
  });

  const api: Portal['api'] = async (method, path, { token, body } = {}) => {
    const response = await fetch(`${app.url}/api${path}`, {
      method,
      headers: {
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${text}`);
    return (text ? JSON.parse(text) : undefined) as never;
  };
  let operatorToken: string | undefined;
  const asOperator = async () => {
    operatorToken ??= (
      await api<{ access_token: string }>('POST', '/auth', { body: operatorAccount })
    ).access_token;
    return operatorToken;
  };

  return {
    url: app.url,
    api,
    async registerCompany(overrides = {}) {
      const suffix = randomUUID().replaceAll('-', '').slice(0, 6).toUpperCase();
      const form = {
        companyName: `Maple Robotics ${suffix}`,
        companySymbol: `M${suffix}`,
        email: `cfo-${suffix.toLowerCase()}@maple.test`,
        password: 'long-and-unusual-pass',
        ...overrides,
      };
      const { access_token: token } = await api<{ access_token: string }>(
        'POST',
        '/auth/register',
        { body: form },
      );
      // The company id is the token's tenant claim, as the server reads it.
      return { ...form, token, companyId: String(decodeJwt(token).tid) };
    },
    async verify(company) {
      await api('POST', `/operator/companies/${company.companyId}/verify`, {
        token: await asOperator(),
      });
    },
    async makeIssuer(company) {
      await api('POST', `/operator/companies/${company.companyId}/issuer`, {
        token: await asOperator(),
        body: { isIssuer: true },
      });
    },
    async expiredTokenFor(company) {
      const { iat: _iat, exp: _exp, ...claims } = decodeJwt(company.token);
      const now = Math.floor(Date.now() / 1000);
      return new SignJWT(claims)
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setIssuedAt(now - 3600)
        .setExpirationTime(now - 60)
        .sign(new TextEncoder().encode(tokenSecret));
    },
    async stop() {
      await app.stop();
      await database.drop();
    },
  };
}
