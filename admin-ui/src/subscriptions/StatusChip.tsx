import { Chip } from '@mui/material';
import { useTranslate } from 'react-admin';
import { type InvoiceStatus, type SubscriptionStatus, statusColors } from './subscriptionApi';

/** A subscription's status as a small coloured label, as Stripe Billing shows it. */
export function SubscriptionStatusChip({ status }: { status: SubscriptionStatus }) {
  const translate = useTranslate();
  return (
    <Chip
      size="small"
      color={statusColors[status] ?? 'default'}
      label={translate(`app.subscriptions.status.${status}`, { _: status })}
      data-testid="subscription-status"
    />
  );
}

export function InvoiceStatusChip({ status }: { status: InvoiceStatus }) {
  const translate = useTranslate();
  return (
    <Chip
      size="small"
      variant="outlined"
      color={statusColors[status] ?? 'default'}
      // The border carries the colour; the text keeps the body's contrast (WCAG AA).
      sx={{ color: 'text.primary' }}
      label={translate(`app.subscriptions.invoice_status.${status}`, { _: status })}
      data-testid="invoice-status"
    />
  );
}

/** "Every month", "Every 3 weeks". */
export function Interval({ interval, count }: { interval: string; count: number }) {
  const translate = useTranslate();
  return <>{translate(`app.subscriptions.interval.${interval}`, { smart_count: count })}</>;
}
