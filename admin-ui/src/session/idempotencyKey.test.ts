import { HttpError } from 'react-admin';
import { describe, expect, it } from 'vitest';
import { answerKept } from './idempotencyKey';

const refusal = (status: number, code = 'validation_failed') =>
  new HttpError('refused', status, { error: { code, message: 'refused' } });

describe('whether a failed change needs a new Idempotency-Key', () => {
  it('does after a refusal the API keeps under the key', () => {
    for (const status of [400, 403, 404, 409, 422]) expect(answerKept(refusal(status))).toBe(true);
  });
  it('does not when the change may still have run or was not answered for good', () => {
    expect(answerKept(new TypeError('Failed to fetch'))).toBe(false);
    for (const status of [408, 429, 500, 503]) expect(answerKept(refusal(status))).toBe(false);
    expect(answerKept(refusal(409, 'idempotency_key_in_progress'))).toBe(false);
  });
});
