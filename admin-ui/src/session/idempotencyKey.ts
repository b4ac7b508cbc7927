import { useCallback, useState } from 'react';
import { HttpError } from 'react-admin';
import { errorCode } from './http';

/**
 * Whether the API has kept its answer under the key (`api/src/http/idempotency.ts`): then the
 * same key would only replay that answer, or refuse a corrected form as another request.
 */
export function answerKept(error: unknown): boolean {
  if (!(error instanceof HttpError)) return false; // no answer: the request may have run
  if (error.status >= 500 || error.status === 408 || error.status === 429) return false;
  return errorCode(error) !== 'idempotency_key_in_progress';
}

/**
 * The Idempotency-Key of a form's change. A resend after a lost answer keeps it, so the change
 * happens once; after a refusal (the form's input was wrong) the corrected form gets a new one.
 */
export function useIdempotencyKey() {
  const [idempotencyKey, setKey] = useState(() => crypto.randomUUID());
  const renew = useCallback(() => setKey(crypto.randomUUID()), []);
  const renewAfter = useCallback(
    (error: unknown) => {
      if (answerKept(error)) renew();
    },
    [renew],
  );
  return { idempotencyKey, renew, renewAfter };
}
