import { DomainError, forbidden } from '@issuer/events';
import { getTokenStanding } from '@issuer/projections';
import type { Context, MiddlewareHandler } from 'hono';
import type { AppEnv } from '../http';
import { bearerAuthDescription, withRouteDescription } from '../http/openapiSpec';
import { type AccessToken, invalidToken, verifyAccessToken } from './tokens';

/** Every user of a company the platform operator suspended, at sign-in and on every call. */
export const companySuspended = () =>
  new DomainError(
    403,
    'company_suspended',
    'Your company is suspended by the platform operator: contact support',
  );

export function bearerToken(header: string | undefined): string {
  const match = header?.match(/^Bearer\s+([\w-]+\.[\w-]+\.[\w-]*)\s*$/i);
  if (!match?.[1]) throw invalidToken();
  return match[1];
}

/**
 * Verifies the Bearer token, then asks whether it was signed out or predates a password change
 * (both written synchronously by their commands, so no lag): the standing cache answers from
 * memory until PostgreSQL notifies a change, else the read-model database.
 */
export async function authenticatedToken(c: Context<AppEnv>): Promise<AccessToken> {
  const { config, clock, pool, tokenStanding } = c.var.deps;
  const token = await verifyAccessToken(
    config,
    bearerToken(c.req.header('Authorization')),
    clock(),
  );
  const standing = await (tokenStanding?.standing(token) ?? getTokenStanding(pool, token));
  if (standing.revoked || token.passwordVersion < standing.passwordVersion) throw invalidToken();
  if (standing.companySuspended) throw companySuspended();
  return token;
}

/** Sets `c.var.caller` from the verified token only; the company id never comes from the body. */
export const authenticate: MiddlewareHandler<AppEnv> = withRouteDescription(async (c, next) => {
  const { userId, companyId, roles, tokenId, sessionId } = await authenticatedToken(c);
  c.set('caller', { userId, companyId, roles, tokenId, sessionId });
  await next();
}, bearerAuthDescription);

/** After `authenticate`: the caller needs at least one of the roles. */
export function requireRole(...roles: readonly string[]): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (!c.var.caller.roles.some((role) => roles.includes(role))) throw forbidden();
    await next();
  };
}
