import { DomainError } from '@issuer/events';
import { getCompanyProfile } from '@issuer/projections';
import type { MiddlewareHandler } from 'hono';
import { every } from 'hono/combine';
import { customerAccess } from '../customers/access';
import type { AppEnv } from '../http';
import { bearerAuthDescription, withRouteDescription } from '../http/openapiSpec';

export const notIssuerMessage = 'Funding rounds are for issuers: your company has no issuer status';

/**
 * Issuer status can be revoked, so unlike verification it is read on every request (one indexed
 * row of the companies read model).
 */
const requireIssuer: MiddlewareHandler<AppEnv> = async (c, next) => {
  const company = await getCompanyProfile(c.var.deps.pool, c.var.caller.companyId);
  if (!company?.isIssuer) throw new DomainError(403, 'not_issuer', notIssuerMessage);
  await next();
};

/** Funding rounds and token orders: the customer roles, of a verified company with issuer status. */
export const issuerAccessGuard = (): MiddlewareHandler<AppEnv> =>
  withRouteDescription(every(...customerAccess, requireIssuer), bearerAuthDescription);
