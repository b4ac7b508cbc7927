/** Seconds since the epoch at which the token expires; undefined when it cannot be read. */
export function tokenExpiry(token: string): number | undefined {
  const payload = token.split('.')[1];
  if (!payload) return undefined;
  try {
    const json = atob(payload.replace(/-/g, '+').replace(/_/g, '/'));
    const { exp } = JSON.parse(json) as { exp?: unknown };
    return typeof exp === 'number' ? exp : undefined;
  } catch {
    return undefined;
  }
}

/** An unreadable token counts as expired: it could never be accepted. */
export function isExpired(token: string, now = Date.now()): boolean {
  const expiry = tokenExpiry(token);
  return expiry === undefined || expiry * 1000 <= now;
}
