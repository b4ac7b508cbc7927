import { refreshProfile } from '../session/refreshProfile';
import { fetchPayment, type Payment } from './paymentApi';

/** The sidebar balance comes from the profile: reloaded after money moved. */
export function refreshBalance(): void {
  void refreshProfile().catch(() => undefined);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Polls a payment until it leaves `pending` (the card's outcome arrives by webhook a moment after
 * the card is presented); null if it is still pending after `timeoutMs`.
 */
export async function settledPayment(id: string, timeoutMs = 30_000): Promise<Payment | null> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const payment = await fetchPayment(id);
    if (payment.status !== 'pending') return payment;
    await sleep(1000);
  }
  return null;
}
