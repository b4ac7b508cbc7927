import { refreshProfile } from '../session/refreshProfile';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The balance the sidebar shows, reloaded into the session; null if it could not be read. */
export async function currentBalanceCents(): Promise<number | null> {
  try {
    const profile = await refreshProfile();
    return Math.round(profile.fiatBalanceCad * 100);
  } catch {
    return null;
  }
}

/**
 * Reloads the sidebar's balance until it differs from `beforeCents` (money that arrives by the
 * provider's webhook lands a moment later); whether it changed within `timeoutMs`.
 */
export async function balanceMoved(beforeCents: number | null, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    await sleep(1000);
    const now = await currentBalanceCents();
    if (now !== null && now !== beforeCents) return true;
  }
  return false;
}
