import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';

/**
 * The signing link's token: the request id and an HMAC of it under a key derived from the token
 * secret. Unguessable without the secret, and the server can show the link again at any time, so
 * no event or table holds it. Expiry is the request's own (`expiresAt` on its stream).
 */
export function signingKey(tokenSecret: Uint8Array): Uint8Array {
  return new Uint8Array(hkdfSync('sha256', tokenSecret, 'issuer-portal', 'signing-links', 32));
}

const mac = (key: Uint8Array, requestId: string) =>
  createHmac('sha256', key).update(requestId).digest('base64url');

export function signingToken(key: Uint8Array, requestId: string): string {
  return `${requestId}.${mac(key, requestId)}`;
}

/** The request id the token names, when its MAC is right; undefined otherwise. */
export function requestIdOfToken(key: Uint8Array, token: string): string | undefined {
  const dot = token.lastIndexOf('.');
  if (dot <= 0 || token.length > 200) return undefined;
  const requestId = token.slice(0, dot);
  const given = Buffer.from(token.slice(dot + 1));
  const expected = Buffer.from(mac(key, requestId));
  return given.length === expected.length && timingSafeEqual(given, expected)
    ? requestId
    : undefined;
}

export const signingPath = (key: Uint8Array, requestId: string) =>
  `/sign/${signingToken(key, requestId)}`;
