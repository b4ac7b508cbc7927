import { useCallback } from 'react';
import { useLocale, useTranslate } from 'react-admin';
import { formatNumber } from '../layout/formatNumber';

/** What the portal asked a payment for (the API's `purpose`); null on payments a person took. */
export type PaymentPurpose =
  | { kind: 'token_order'; orderId: string; roundName: string; tokens: number }
  | { kind: 'invoice'; invoiceId?: string; invoiceNumber: string; planName: string };

interface Described {
  description: string | null;
  /** Absent from answers of a server older than the field. */
  purpose?: PaymentPurpose | null;
}

/**
 * A payment's description in the reader's language: for a token order's or an invoice's payment,
 * what it pays; otherwise the description as the person who took it wrote it.
 */
export function usePaymentDescription(): (record: Described) => string | null {
  const translate = useTranslate();
  const locale = useLocale();
  return useCallback(
    ({ description, purpose }: Described) => {
      if (!purpose) return description;
      if (purpose.kind === 'invoice') {
        return translate('app.payments.purpose.invoice', {
          number: purpose.invoiceNumber,
          plan: purpose.planName,
        });
      }
      return translate('app.payments.purpose.token_order', {
        smart_count: purpose.tokens,
        tokens: formatNumber(purpose.tokens, locale),
        round: purpose.roundName,
      });
    },
    [translate, locale],
  );
}
