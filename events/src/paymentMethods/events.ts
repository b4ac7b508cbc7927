import { z } from 'zod';

/**
 * Events of a saved card (`PaymentMethod-<paymentMethodId>`, one per card a customer agreed to
 * have charged later, as Stripe's `setup_future_usage`). The portal never sees a card number:
 * only the processor's opaque reusable token, the brand, the last 4 digits and the expiry.
 * The id derives from the terminal payment that saved it, so a redelivered capture saves it once.
 * Names and fields are stable forever: add optional fields, never rename.
 */

const ids = { paymentMethodId: z.string(), companyId: z.string(), customerId: z.string() };

export const cardSavedData = z.object({
  ...ids,
  /** The processor's reusable token: charged off-session, never shown, never published. */
  cardToken: z.string(),
  cardBrand: z.string(),
  cardLast4: z.string(),
  expMonth: z.number().int(),
  expYear: z.number().int(),
  /** The terminal payment where the customer agreed. */
  paymentId: z.string(),
  savedBy: z.string(),
  savedAt: z.string(),
});
export const cardRemovedData = z.object({
  ...ids,
  removedBy: z.string(),
  removedAt: z.string(),
});

type Event<Type extends string, Schema extends z.ZodType> = { type: Type; data: z.infer<Schema> };

export type CardSaved = Event<'CardSaved', typeof cardSavedData>;
export type CardRemoved = Event<'CardRemoved', typeof cardRemovedData>;
export type PaymentMethodEvent = CardSaved | CardRemoved;

export const paymentMethodEventSchemas = {
  CardSaved: cardSavedData,
  CardRemoved: cardRemovedData,
} as const satisfies Record<PaymentMethodEvent['type'], z.ZodType>;

export const paymentMethodEventTypes = Object.keys(
  paymentMethodEventSchemas,
) as PaymentMethodEvent['type'][];

export function asPaymentMethodEvent(event: {
  type: string;
  data: unknown;
}): PaymentMethodEvent | undefined {
  return Object.hasOwn(paymentMethodEventSchemas, event.type)
    ? (event as PaymentMethodEvent)
    : undefined;
}
