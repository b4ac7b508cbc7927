import { describe, expect, it } from 'vitest';
import { isCommonPassword } from './commonPasswords';
import { hashPassword, verifyAgainstDummyHash, verifyPassword } from './passwords';

describe('password hashing', () => {
  it('uses argon2id with at least 19 MiB and 2 passes', async () => {
    const hash = await hashPassword('tundra-Falcon-42');
    expect(hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(await verifyPassword(hash, 'tundra-Falcon-42')).toBe(true);
    expect(await verifyPassword(hash, 'tundra-falcon-42')).toBe(false);
  });

  it('treats a malformed stored hash as a mismatch, and the dummy check as always false', async () => {
    expect(await verifyPassword('not-a-hash', 'x')).toBe(false);
    expect(await verifyAgainstDummyHash('anything')).toBe(false);
  });
});

describe('the common password list', () => {
  it('holds the most common passwords, whatever their case, and not a random phrase', () => {
    expect(isCommonPassword('password')).toBe(true);
    expect(isCommonPassword('Baseball')).toBe(true);
    expect(isCommonPassword('12345678')).toBe(true);
    expect(isCommonPassword('tundra-Falcon-42')).toBe(false);
  });
});
