import { webcrypto } from 'node:crypto';
import { DomainError } from '@issuer/events';
import { errors, jwtVerify, SignJWT } from 'jose';
import { z } from 'zod';
import type { ApiConfig } from '../http';

/** One algorithm, pinned on both sides: a token that names any other (or `none`) is refused. */
const algorithm = 'HS256';

export interface TokenSubject {
  userId: string;
  companyId: string;
  roles: readonly string[];
  /** Tokens carry the password version they were issued under; a change cuts older ones off. */
  passwordVersion: number;
  /**
   * One sign-in: every token re-issued from it (a reload's `GET /auth/access-token`, a password
   * change) carries the id of the sign-in's first, so a logout can end all of them at once.
   */
  sessionId: string;
}

export interface AccessToken extends TokenSubject {
  tokenId: string;
  issuedAt: Date;
  expiresAt: Date;
}

type TokenConfig = Pick<
  ApiConfig,
  'tokenSecret' | 'tokenIssuer' | 'tokenAudience' | 'tokenLifetimeSeconds'
>;

/**
 * The HMAC key is imported into WebCrypto once per secret: jose would otherwise import the raw
 * bytes again on every sign and verify, a measurable share of each request's CPU.
 */
const importedKeys = new WeakMap<Uint8Array, Promise<webcrypto.CryptoKey>>();
function hmacKey(secret: Uint8Array): Promise<webcrypto.CryptoKey> {
  let key = importedKeys.get(secret);
  if (!key) {
    key = webcrypto.subtle.importKey('raw', secret, { name: 'HMAC', hash: 'SHA-256' }, false, [
      'sign',
      'verify',
    ]);
    importedKeys.set(secret, key);
  }
  return key;
}

export const invalidTokenMessage = 'Invalid access_token';
export const expiredTokenMessage = 'access_token expired';

export const invalidToken = () => new DomainError(401, 'invalid_token', invalidTokenMessage);
const expiredToken = () => new DomainError(401, 'token_expired', expiredTokenMessage);

/** `tokenId` and `now` come from the caller: ids and the clock stay injectable. */
export async function signAccessToken(
  config: TokenConfig,
  subject: TokenSubject,
  { tokenId, now }: { tokenId: string; now: Date },
): Promise<{ token: string; claims: AccessToken }> {
  const issuedAtSeconds = Math.floor(now.getTime() / 1000);
  const expiresAtSeconds = issuedAtSeconds + config.tokenLifetimeSeconds;
  const token = await new SignJWT({
    tid: subject.companyId,
    roles: [...subject.roles],
    pwv: subject.passwordVersion,
    sid: subject.sessionId,
  })
    .setProtectedHeader({ alg: algorithm, typ: 'JWT' })
    .setIssuer(config.tokenIssuer)
    .setAudience(config.tokenAudience)
    .setSubject(subject.userId)
    .setJti(tokenId)
    .setIssuedAt(issuedAtSeconds)
    .setExpirationTime(expiresAtSeconds)
    .sign(await hmacKey(config.tokenSecret));
  return {
    token,
    claims: {
      ...subject,
      tokenId,
      issuedAt: new Date(issuedAtSeconds * 1000),
      expiresAt: new Date(expiresAtSeconds * 1000),
    },
  };
}

const claimsSchema = z.object({
  sub: z.string().min(1),
  tid: z.string().min(1),
  jti: z.string().min(1),
  roles: z.array(z.string()),
  pwv: z.number().int().min(0),
  /** Absent from tokens signed before sessions had ids: such a token is a session of its own. */
  sid: z.string().min(1).optional(),
  iat: z.number(),
  exp: z.number(),
});

/**
 * Signature, algorithm, issuer, audience and expiry; revocation and the password version need
 * the database and are checked by the middleware. Throws a 401 DomainError with the seed's
 * messages: 'access_token expired' or 'Invalid access_token'.
 */
export async function verifyAccessToken(
  config: TokenConfig,
  token: string,
  now: Date,
): Promise<AccessToken> {
  const cache = verifiedCache(config);
  const cached = cache.get(token);
  if (cached) {
    // Signature, algorithm, issuer and audience never change for one token string; time does.
    if (cached.expiresAt.getTime() <= now.getTime() - (now.getTime() % 1000)) {
      cache.delete(token);
      throw expiredToken();
    }
    return { ...cached, roles: [...cached.roles] };
  }
  let payload: unknown;
  try {
    ({ payload } = await jwtVerify(token, await hmacKey(config.tokenSecret), {
      algorithms: [algorithm],
      issuer: config.tokenIssuer,
      audience: config.tokenAudience,
      currentDate: now,
      requiredClaims: ['sub', 'jti', 'iat', 'exp'],
    }));
  } catch (error) {
    if (error instanceof errors.JWTExpired) throw expiredToken();
    throw invalidToken();
  }
  const claims = claimsSchema.safeParse(payload);
  if (!claims.success) throw invalidToken();
  const { sub, tid, jti, roles, pwv, sid, iat, exp } = claims.data;
  const verified: AccessToken = {
    userId: sub,
    companyId: tid,
    roles,
    passwordVersion: pwv,
    sessionId: sid ?? jti,
    tokenId: jti,
    issuedAt: new Date(iat * 1000),
    expiresAt: new Date(exp * 1000),
  };
  // Our tokens carry no `nbf`; one that does is checked by jose every time.
  if (typeof payload === 'object' && payload !== null && !('nbf' in payload)) {
    remember(cache, token, verified);
  }
  return { ...verified, roles: [...roles] };
}

/**
 * Tokens whose signature and claims jose already checked, per secret, issuer and audience: a
 * client sends the same token on every request, and the WebCrypto verify and JOSE parsing were
 * a large share of a command's CPU. Only expiry depends on the clock and is checked on every hit
 * (as jose does: expired once `exp <= now` in whole seconds); revocation and the password
 * version are never cached (the middleware asks the database on every request).
 */
const maxVerifiedTokens = 10_000;
const verifiedCaches = new WeakMap<Uint8Array, Map<string, Map<string, AccessToken>>>();

function verifiedCache(config: TokenConfig): Map<string, AccessToken> {
  let byClaims = verifiedCaches.get(config.tokenSecret);
  if (!byClaims) {
    byClaims = new Map();
    verifiedCaches.set(config.tokenSecret, byClaims);
  }
  const scope = `${config.tokenIssuer}\n${config.tokenAudience}`;
  let cache = byClaims.get(scope);
  if (!cache) {
    cache = new Map();
    byClaims.set(scope, cache);
  }
  return cache;
}

/** Bounded: the oldest entry goes first (a Map iterates in insertion order). */
function remember(cache: Map<string, AccessToken>, token: string, verified: AccessToken): void {
  if (cache.size >= maxVerifiedTokens) {
    const oldest = cache.keys().next();
    if (!oldest.done) cache.delete(oldest.value);
  }
  cache.set(token, Object.freeze({ ...verified, roles: Object.freeze([...verified.roles]) }));
}
