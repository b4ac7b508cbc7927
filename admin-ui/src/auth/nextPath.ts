/** The page a guest asked for before react-admin sent them to /login (kept in the location state). */
export function nextPath(state: unknown): string | undefined {
  const { nextPathname, nextSearch } = (state ?? {}) as {
    nextPathname?: unknown;
    nextSearch?: unknown;
  };
  if (typeof nextPathname !== 'string' || nextPathname === '/login') return undefined;
  return `${nextPathname}${typeof nextSearch === 'string' ? nextSearch : ''}`;
}
