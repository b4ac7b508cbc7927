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

export function cardLine(
  translate: (key: string, options?: Record<string, unknown>) => string,
  record: { cardBrand: string | null; cardLast4: string | null },
): string {
  if (!record.cardLast4) return '';
  const brand = record.cardBrand
    ? record.cardBrand.charAt(0).toUpperCase() + record.cardBrand.slice(1)
    : '';
  return translate('app.payments.card_line', { brand, last4: record.cardLast4 }).trim();
}
