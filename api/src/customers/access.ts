import { DomainError, forbidden } from '@issuer/events';
import { getCompanyProfile } from '@issuer/projections';
import type { MiddlewareHandler } from 'hono';
import { every } from 'hono/combine';
import { authenticate } from '../auth/authenticate';
import type { AppEnv } from '../http';
import { bearerAuthDescription, withRouteDescription } from '../http/openapiSpec';

export const awaitingVerificationMessage = 'Your company is awaiting verification';

/** Roles that read customers; `compliance` reads (lists, histories, as-of) and changes nothing. */
export const customerReaders = ['admin', 'staff', 'user', 'compliance'] as const;
export const customerWriters = ['admin', 'staff', 'user'] as const;

/**
 * Verification is never withdrawn, so a company seen verified once is remembered for the life of
 * the process: the list, the hottest route, skips the lookup.
 */
const verifiedCompanies = new Set<string>();

const requireVerifiedCompany: MiddlewareHandler<AppEnv> = async (c, next) => {
  const { companyId } = c.var.caller;
  if (!verifiedCompanies.has(companyId)) {
    const company = await getCompanyProfile(c.var.deps.pool, companyId);
    if (!company?.verified) {
      throw new DomainError(403, 'company_not_verified', awaitingVerificationMessage);
    }
    verifiedCompanies.add(companyId);
  }
  await next();
};

/** Every change needs a writer role; reads need a reader role. */
const requireCustomerRole: MiddlewareHandler<AppEnv> = async (c, next) => {
  const roles =
    c.req.method === 'GET' || c.req.method === 'HEAD' ? customerReaders : customerWriters;
  if (!c.var.caller.roles.some((role) => (roles as readonly string[]).includes(role))) {
    throw forbidden();
  }
  await next();
};

/** Put on every customer path: who, of a verified company, with the role the method needs. */
export const customerAccess: MiddlewareHandler<AppEnv>[] = [
  authenticate,
  requireVerifiedCompany,
  requireCustomerRole,
];

/** `customerAccess` as one middleware, described in the OpenAPI document as the bearer token. */
export const customerAccessGuard = (): MiddlewareHandler<AppEnv> =>
  withRouteDescription(every(...customerAccess), bearerAuthDescription);
