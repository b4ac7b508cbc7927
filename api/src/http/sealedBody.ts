import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';

/**
 * Stored responses of idempotent requests can hold secrets (registration answers carry an
 * access token), so they are sealed at rest with AES-256-GCM under a key derived from the token
 * secret: a copy of the table alone reveals nothing. Layout: 12-byte IV, 16-byte tag, ciphertext.
 */
const ivBytes = 12;
const tagBytes = 16;

function sealingKey(secret: Uint8Array): Buffer {
  return createHmac('sha256', secret).update('issuer-portal:idempotency-response').digest();
}

export function sealBody(secret: Uint8Array, body: Buffer): Buffer {
  const iv = randomBytes(ivBytes);
  const cipher = createCipheriv('aes-256-gcm', sealingKey(secret), iv);
  const sealed = Buffer.concat([cipher.update(body), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), sealed]);
}

/** Undefined when the body was sealed under another secret or altered. */
export function openBody(secret: Uint8Array, stored: Buffer): Buffer | undefined {
  if (stored.length < ivBytes + tagBytes) return undefined;
  try {
    const decipher = createDecipheriv(
      'aes-256-gcm',
      sealingKey(secret),
      stored.subarray(0, ivBytes),
    );
    decipher.setAuthTag(stored.subarray(ivBytes, ivBytes + tagBytes));
    return Buffer.concat([decipher.update(stored.subarray(ivBytes + tagBytes)), decipher.final()]);
  } catch {
    return undefined;
  }
}
