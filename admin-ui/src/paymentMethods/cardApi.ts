import { cardLine } from '../payments/statuses';
import { callApi } from '../session/http';

/** A customer's saved card as the API shows it: never the number, never the processor's token. */
export interface SavedCard {
  id: string;
  customerId: string;
  cardBrand: string;
  cardLast4: string;
  expMonth: number;
  expYear: number;
  paymentId: string;
  status: 'saved' | 'removed';
  savedAt: string;
  removedAt: string | null;
}

/** The terminal id of an off-session charge of a saved card: no terminal took it. */
export const offSessionTerminalId = 'off_session';

export const customerCardsKey = (customerId: string) => ['customerCards', customerId] as const;

export const fetchCustomerCards = (customerId: string) =>
  callApi<SavedCard[]>(`/customers/${encodeURIComponent(customerId)}/cards`);

export const removeCard = (id: string) =>
  callApi<SavedCard>(`/payment-methods/${encodeURIComponent(id)}`, { method: 'DELETE' });

/** "Visa •••• 4242 · 12/29": brand, last digits, expiry. */
export function cardLabel(card: SavedCard): string {
  const expiry = `${String(card.expMonth).padStart(2, '0')}/${String(card.expYear).slice(-2)}`;
  return `${cardLine(card)} · ${expiry}`;
}
