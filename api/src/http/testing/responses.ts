import type { ErrorBody } from '../errors';

/** The `error` object of a response in the one error shape (fails the test if it is not). */
export async function errorOf(res: Response): Promise<ErrorBody['error']> {
  const body = (await res.json()) as Partial<ErrorBody>;
  if (typeof body.error?.code !== 'string' || typeof body.error.message !== 'string') {
    throw new Error(`Not the error shape: ${JSON.stringify(body)}`);
  }
  return body.error;
}

export async function jsonOf<T = Record<string, unknown>>(res: Response): Promise<T> {
  return (await res.json()) as T;
}
