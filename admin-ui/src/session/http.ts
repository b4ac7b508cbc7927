import { fetchUtils, HttpError } from 'react-admin';
import { translateNow } from '../i18n/i18nProvider';
import { readStored, storageKeys } from './storage';

/** The API's one error shape (`api/src/http/errors.ts`). */
export interface ApiErrorBody {
  error: { code: string; message: string; fields?: Record<string, string> };
}

export const apiUrl = '/api';

function isApiErrorBody(body: unknown): body is ApiErrorBody {
  const error = (body as ApiErrorBody | undefined)?.error;
  return typeof error?.message === 'string';
}

/** The per-field messages of a failed call, e.g. `{ email: 'The email is already in use' }`. */
export function fieldErrors(error: unknown): Record<string, string> {
  if (!(error instanceof HttpError) || !isApiErrorBody(error.body)) return {};
  return error.body.error.fields ?? {};
}

/** The API's error code of a failed call (`company_suspended`), if it answered one. */
export function errorCode(error: unknown): string | undefined {
  if (!(error instanceof HttpError) || !isApiErrorBody(error.body)) return undefined;
  return error.body.error.code;
}

/**
 * `fetchJson` with the stored token as Bearer and the API's error message as the error's
 * message (react-admin shows it in a toast), the whole body kept for field errors.
 */
export async function httpClient(url: string, options: fetchUtils.Options = {}) {
  const headers = new Headers(options.headers ?? { Accept: 'application/json' });
  const token = readStored(storageKeys.token);
  if (token && !headers.has('Authorization')) headers.set('Authorization', `Bearer ${token}`);
  try {
    return await fetchUtils.fetchJson(url, { ...options, headers });
  } catch (error) {
    if (error instanceof HttpError && isApiErrorBody(error.body)) {
      // Loaded when a call first fails: the words for errors stay out of the first screen's JS.
      const { localizeServerMessage } = await import('./serverMessages');
      const localized = (fields: Record<string, string> | undefined) =>
        fields &&
        Object.fromEntries(
          Object.entries(fields).map(([field, message]) => [field, localizeServerMessage(message)]),
        );
      throw new HttpError(localizeServerMessage(error.body.error.message), error.status, {
        error: { ...error.body.error, fields: localized(error.body.error.fields) },
      });
    }
    if (isUnreachable(error)) throw new HttpError(translateNow('app.errors.unreachable'), 0);
    throw error;
  }
}

/**
 * No answer from the portal: the network failed (fetch's TypeError), or a proxy in front of it
 * answered for it (502, 503, 504 without the API's error body). The browser's own words
 * ("Failed to fetch") and the proxy's ("Bad Gateway") would reach the reader untranslated.
 */
function isUnreachable(error: unknown): boolean {
  if (error instanceof TypeError) return true;
  return error instanceof HttpError && [502, 503, 504].includes(error.status);
}

/** A JSON call to `/api/<path>`; answers the parsed body. */
export async function callApi<T>(
  path: string,
  { method = 'GET', body, token }: { method?: string; body?: unknown; token?: string } = {},
): Promise<T> {
  const headers = new Headers({ Accept: 'application/json' });
  if (token) headers.set('Authorization', `Bearer ${token}`);
  const { json } = await httpClient(`${apiUrl}${path}`, {
    method,
    headers,
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return json as T;
}
