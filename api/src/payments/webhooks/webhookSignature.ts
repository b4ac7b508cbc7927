import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';

/**
 * Stripe's webhook signature scheme, under our own header name:
 * `Terminal-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`. Several `v1`
 * values may be present (a secret being rotated); one matching is enough. The timestamp is signed
 * with the body, so an old delivery cannot be replayed once it leaves the tolerance window.
 */
export const signatureHeader = 'Terminal-Signature';
/** How far the signed time may be from ours, in either direction. */
export const replayToleranceSeconds = 5 * 60;

export type SignatureCheck =
  | { valid: true }
  | { valid: false; reason: 'malformed' | 'mismatch' | 'outside_tolerance' };

export function signWebhook(secret: Uint8Array, rawBody: string, now: Date): string {
  const timestamp = Math.floor(now.getTime() / 1000);
  return `t=${timestamp},v1=${hmac(secret, timestamp, rawBody)}`;
}

export function verifyWebhook(
  secret: Uint8Array,
  header: string | undefined,
  rawBody: string,
  now: Date,
): SignatureCheck {
  const parsed = header === undefined ? undefined : parseSignatureHeader(header);
  if (!parsed) return { valid: false, reason: 'malformed' };
  const expected = Buffer.from(hmac(secret, parsed.timestamp, rawBody), 'hex');
  // Every candidate is compared, so the time taken says nothing about which one was close.
  let matched = false;
  for (const candidate of parsed.signatures) {
    const given = Buffer.from(candidate, 'hex');
    if (given.length === expected.length && timingSafeEqual(given, expected)) matched = true;
  }
  if (!matched) return { valid: false, reason: 'mismatch' };
  const skew = Math.abs(Math.floor(now.getTime() / 1000) - parsed.timestamp);
  if (skew > replayToleranceSeconds) return { valid: false, reason: 'outside_tolerance' };
  return { valid: true };
}

/** `t=…,v1=…[,v1=…]`; unknown schemes (`v0=`) are ignored, as Stripe does. */
export function parseSignatureHeader(
  header: string,
): { timestamp: number; signatures: string[] } | undefined {
  let timestamp: number | undefined;
  const signatures: string[] = [];
  for (const part of header.split(',')) {
    const at = part.indexOf('=');
    if (at < 1) return undefined;
    const key = part.slice(0, at).trim();
    const value = part.slice(at + 1).trim();
    if (key === 't') {
      if (timestamp !== undefined || !/^\d{1,12}$/.test(value)) return undefined;
      timestamp = Number(value);
    } else if (key === 'v1') {
      if (!/^[0-9a-f]{64}$/i.test(value)) return undefined;
      signatures.push(value.toLowerCase());
    }
  }
  if (timestamp === undefined || signatures.length === 0) return undefined;
  return { timestamp, signatures };
}

function hmac(secret: Uint8Array, timestamp: number, rawBody: string): string {
  return createHmac('sha256', secret).update(`${timestamp}.${rawBody}`).digest('hex');
}

/**
 * Without TERMINAL_WEBHOOK_SECRET, the webhook key is derived from the token secret (HKDF), so
 * one secret serves both and a leaked webhook key says nothing about the token key.
 */
export function deriveWebhookSecret(
  tokenSecret: Uint8Array,
  purpose = 'terminal-webhook-signature',
): Uint8Array {
  return new Uint8Array(hkdfSync('sha256', tokenSecret, 'issuer-portal', purpose, 32));
}

/** The e-transfer provider's webhooks: the same scheme under `Etransfer-Signature`, their own key. */
export const etransferSignatureHeader = 'Etransfer-Signature';

export function etransferWebhookSecretOf(config: {
  tokenSecret: Uint8Array;
  etransferWebhookSecret?: Uint8Array;
}): Uint8Array {
  return (
    config.etransferWebhookSecret ??
    deriveWebhookSecret(config.tokenSecret, 'etransfer-webhook-signature')
  );
}

/** The key the API verifies webhooks with (and the in-process simulator signs with). */
export function webhookSecretOf(config: {
  tokenSecret: Uint8Array;
  terminalWebhookSecret?: Uint8Array;
}): Uint8Array {
  return config.terminalWebhookSecret ?? deriveWebhookSecret(config.tokenSecret);
}
