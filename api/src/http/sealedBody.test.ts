import { describe, expect, it } from 'vitest';
import { openBody, sealBody } from './sealedBody';

const secret = new TextEncoder().encode('sealing-test-secret-0123456789-abcdef');
const body = Buffer.from('{"access_token":"eyJhbGciOi.secret.token"}');

describe('a sealed response body', () => {
  it('opens with the same secret to the exact bytes, and does not show them', () => {
    const sealed = sealBody(secret, body);
    expect(sealed.includes(Buffer.from('access_token'))).toBe(false);
    expect(openBody(secret, sealed)).toEqual(body);
  });

  it('does not open under another secret, altered, or truncated', () => {
    const sealed = sealBody(secret, body);
    expect(openBody(new TextEncoder().encode('another-secret-0123456789-abcdefgh'), sealed)).toBe(
      undefined,
    );
    const altered = Buffer.from(sealed);
    altered[altered.length - 1] = (altered.at(-1) ?? 0) ^ 1;
    expect(openBody(secret, altered)).toBeUndefined();
    expect(openBody(secret, sealed.subarray(0, 20))).toBeUndefined();
  });
});
