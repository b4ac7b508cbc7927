import { QueryClient } from '@tanstack/react-query';

const attempts = 3;

/**
 * A refusal is final: retrying a 4xx, or the auth provider's "you are a guest" (a `redirectTo`
 * and no status), only delays what the user sees. React Query's default retries every failed
 * query three times with back-off (1 + 2 + 4 s) before a page can show the error.
 */
export function isFinal(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  if ('redirectTo' in error) return true;
  const status = (error as { status?: unknown }).status;
  return typeof status === 'number' && status >= 400 && status < 500;
}

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: { retry: (failures, error) => failures < attempts && !isFinal(error) },
  },
});
