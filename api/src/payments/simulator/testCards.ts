import { type DeclineReason, invalid } from '@issuer/events';

export type CardOutcome =
  | {
      approved: true;
      brand: string;
      last4: string;
      refundFailure: string | null;
      /** A saved copy of this card is declined off-session with this reason (Stripe's 0341). */
      offSessionDeclines: DeclineReason | null;
    }
  | { approved: false; reason: DeclineReason; brand: string; last4: string };

/** Presented when the request names no card: Stripe's default Visa test card. */
export const defaultTestCard = '4242424242424242';

/**
 * Stripe's test cards: the number decides the outcome. `refundFails`: the charge succeeds, and
 * every refund of it is refused with that reason (Stripe's 4000 0000 0000 5126).
 * `offSessionDeclines`: the terminal payment succeeds and the card can be saved, but charging the
 * saved card later is declined (Stripe's 4000 0000 0000 0341).
 */
export const testCards: Readonly<
  Record<
    string,
    {
      brand: string;
      declines?: DeclineReason;
      refundFails?: string;
      offSessionDeclines?: DeclineReason;
    }
  >
> = {
  '4242424242424242': { brand: 'visa' },
  '5555555555554444': { brand: 'mastercard' },
  '4000000000000002': { brand: 'visa', declines: 'card_declined' },
  '4000000000009995': { brand: 'visa', declines: 'insufficient_funds' },
  '4000000000000069': { brand: 'visa', declines: 'expired_card' },
  '4000000000000127': { brand: 'visa', declines: 'incorrect_cvc' },
  '4000000000000119': { brand: 'visa', declines: 'processing_error' },
  '4000000000005126': { brand: 'visa', refundFails: 'expired_or_canceled_card' },
  // Saving it succeeds; every later off-session charge of the saved card is declined.
  '4000000000000341': { brand: 'visa', offSessionDeclines: 'card_declined' },
};

/** What the simulated processor answers for a card; any other number is a 400 naming `card`. */
export function outcomeOfCard(card: string = defaultTestCard): CardOutcome {
  const number = card.replace(/[\s-]/g, '');
  const known = testCards[number];
  if (!known) {
    throw invalid('The simulator accepts only its test cards', {
      card: `Use a test card: ${Object.keys(testCards).join(', ')}`,
    });
  }
  const last4 = number.slice(-4);
  return known.declines
    ? { approved: false, reason: known.declines, brand: known.brand, last4 }
    : {
        approved: true,
        brand: known.brand,
        last4,
        refundFailure: known.refundFails ?? null,
        offSessionDeclines: known.offSessionDeclines ?? null,
      };
}
