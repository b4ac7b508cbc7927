import { HttpError } from 'react-admin';
import { describe, expect, it } from 'vitest';
import { isFinal } from './queryClient';

describe('which failed queries are retried', () => {
  it('never retries a refusal: a 4xx or the auth provider sending a guest to /login', () => {
    expect(isFinal(new HttpError('Unauthorized', 401))).toBe(true);
    expect(isFinal(new HttpError('Not found', 404))).toBe(true);
    expect(isFinal({ redirectTo: '/login', message: false })).toBe(true);
  });

  it('retries what may pass next time: a 5xx, a lost connection', () => {
    expect(isFinal(new HttpError('Catching up', 503))).toBe(false);
    expect(isFinal(new TypeError('Failed to fetch'))).toBe(false);
    expect(isFinal(undefined)).toBe(false);
  });
});
