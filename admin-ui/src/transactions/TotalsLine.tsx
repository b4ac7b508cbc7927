import { Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import { Money } from '../payments/Money';

/**
 * The exact count and net of every matching transaction (not just the page shown). The net is
 * placed after the sentence, kept left to right inside Arabic.
 */
export function TotalsLine({ total, netCents }: { total: number; netCents?: number | null }) {
  const translate = useTranslate();
  const text = translate('app.transactions.totals', { count: total.toLocaleString(), net: '' });
  return (
    <Typography variant="body2" color="text.secondary" data-testid="transactions-totals">
      {text.trim()} {typeof netCents === 'number' && <Money cents={netCents} />}
    </Typography>
  );
}
