import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  deriveWebhookSecret,
  parseSignatureHeader,
  signWebhook,
  verifyWebhook,
  webhookSecretOf,
} from './webhookSignature';

const secret = new TextEncoder().encode('whsec-test-0123456789-abcdefghijklmnop');
const otherSecret = new TextEncoder().encode('whsec-other-0123456789-abcdefghijklmno');
const body = '{"id":"evt_1","type":"payment.captured","paymentId":"pay_1"}';
const now = new Date('2026-03-01T12:00:00.000Z');
const seconds = (n: number) => new Date(now.getTime() + n * 1000);

describe('webhook signature', () => {
  it('given a body signed now with the secret, then it verifies', () => {
    const header = signWebhook(secret, body, now);
    expect(header).toMatch(/^t=1772366400,v1=[0-9a-f]{64}$/);
    expect(verifyWebhook(secret, header, body, now)).toEqual({ valid: true });
  });

  it('signs HMAC-SHA256 of "<t>.<body>" in hex, as a receiver following the scheme computes it', () => {
    const expected = createHmac('sha256', secret).update(`1772366400.${body}`).digest('hex');
    expect(signWebhook(secret, body, now)).toBe(`t=1772366400,v1=${expected}`);
  });

  it('given one changed character in the body, then it is a mismatch', () => {
    const header = signWebhook(secret, body, now);
    const tampered = body.replace('pay_1', 'pay_2');
    expect(verifyWebhook(secret, header, tampered, now)).toEqual({
      valid: false,
      reason: 'mismatch',
    });
  });

  it('given a body signed with another secret, then it is a mismatch', () => {
    const header = signWebhook(otherSecret, body, now);
    expect(verifyWebhook(secret, header, body, now).valid).toBe(false);
  });

  it('given a changed timestamp with the old signature, then it is a mismatch', () => {
    const header = signWebhook(secret, body, now).replace('t=1772366400', 't=1772366401');
    expect(verifyWebhook(secret, header, body, now)).toEqual({
      valid: false,
      reason: 'mismatch',
    });
  });

  it('accepts up to 5 minutes of skew either way and refuses beyond (a replay or a wrong clock)', () => {
    const header = signWebhook(secret, body, now);
    expect(verifyWebhook(secret, header, body, seconds(300)).valid).toBe(true);
    expect(verifyWebhook(secret, header, body, seconds(-300)).valid).toBe(true);
    expect(verifyWebhook(secret, header, body, seconds(301))).toEqual({
      valid: false,
      reason: 'outside_tolerance',
    });
    expect(verifyWebhook(secret, header, body, seconds(-301))).toEqual({
      valid: false,
      reason: 'outside_tolerance',
    });
  });

  it('given several v1 signatures (a secret being rotated), then one matching is enough', () => {
    const [t, mine] = signWebhook(secret, body, now).split(',');
    const theirs = signWebhook(otherSecret, body, now).split(',')[1];
    expect(verifyWebhook(secret, `${t},${theirs},${mine}`, body, now).valid).toBe(true);
    expect(verifyWebhook(secret, `${t},${theirs}`, body, now).valid).toBe(false);
  });

  it.each([
    ['missing', undefined],
    ['empty', ''],
    ['no timestamp', `v1=${'a'.repeat(64)}`],
    ['no signature', 't=1772366400'],
    ['a timestamp that is not a number', `t=soon,v1=${'a'.repeat(64)}`],
    ['two timestamps', `t=1,t=1772366400,v1=${'a'.repeat(64)}`],
    ['a short signature', 't=1772366400,v1=abc'],
    ['a signature that is not hex', `t=1772366400,v1=${'z'.repeat(64)}`],
    ['garbage', 'Bearer xyz'],
  ])('given a %s header, then it is malformed', (_, header) => {
    expect(verifyWebhook(secret, header, body, now)).toEqual({
      valid: false,
      reason: 'malformed',
    });
  });

  it('ignores schemes it does not know (v0) beside a v1', () => {
    const header = signWebhook(secret, body, now);
    expect(verifyWebhook(secret, `${header},v0=deadbeef`, body, now).valid).toBe(true);
    expect(parseSignatureHeader('t=5,v0=ab')).toBeUndefined();
  });
});

describe('webhook secret', () => {
  const tokenSecret = new TextEncoder().encode('token-secret-0123456789-abcdefghijklmn');

  it('without its own secret, derives a stable 32-byte key that is not the token secret', () => {
    const derived = webhookSecretOf({ tokenSecret });
    expect(derived).toHaveLength(32);
    expect(Buffer.from(derived).equals(Buffer.from(deriveWebhookSecret(tokenSecret)))).toBe(true);
    expect(Buffer.from(derived).equals(Buffer.from(tokenSecret.slice(0, 32)))).toBe(false);
    const other = deriveWebhookSecret(new TextEncoder().encode('another-token-secret-0123456789'));
    expect(Buffer.from(derived).equals(Buffer.from(other))).toBe(false);
  });

  it('with TERMINAL_WEBHOOK_SECRET configured, uses it as it is', () => {
    expect(webhookSecretOf({ tokenSecret, terminalWebhookSecret: secret })).toBe(secret);
  });
});
