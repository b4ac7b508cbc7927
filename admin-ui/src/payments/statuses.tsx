import { Chip, type ChipProps } from '@mui/material';
import { useTranslate } from 'react-admin';
import type { PaymentStatus } from './paymentApi';

const paymentColors: Record<PaymentStatus, ChipProps['color']> = {
  pending: 'info',
  captured: 'success',
  partially_refunded: 'warning',
  refunded: 'default',
  declined: 'error',
  cancelled: 'default',
  expired: 'default',
};

/** A payment's status as Stripe's dashboard shows it: a small coloured label. */
export function PaymentStatusChip({ status }: { status: PaymentStatus }) {
  const translate = useTranslate();
  return (
    <Chip
      size="small"
      color={paymentColors[status] ?? 'default'}
      label={translate(`app.payments.status.${status}`, { _: status })}
      data-testid="payment-status"
    />
  );
}

/** A transaction's kind, whose key may be one added later (e-transfers, payouts). */
export function kindLabel(kind: string): string {
  return `app.transactions.kind.${kind}`;
}

export function transactionStatusLabel(status: string): string {
  return `app.transactions.status.${status}`;
}

/**
 * "Visa •••• 4242", as the card reads on the terminal's simulator and on a saved card: short
 * enough for a table cell in every language (Arabic's "ending in" wrapped it onto three lines).
 */
export function cardLine(record: { cardBrand: string | null; cardLast4: string | null }): string {
  if (!record.cardLast4) return '';
  return `${cardBrandName(record.cardBrand)} •••• ${record.cardLast4}`.trim();
}

/** "visa" as "Visa"; nothing for no brand. */
export const cardBrandName = (brand: string | null) =>
  brand ? brand.charAt(0).toUpperCase() + brand.slice(1) : '';
