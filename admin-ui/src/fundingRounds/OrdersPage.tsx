import { Box, CircularProgress, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { Title, useTranslate } from 'react-admin';
import { LoadFailed } from '../layout/LoadFailed';
import { callApi } from '../session/http';
import { OrdersTable } from './OrdersTable';
import type { TokenOrder } from './types';

/** `/nftorders/:view`: every token order of the company, newest first. */
export default function OrdersPage() {
  const translate = useTranslate();
  const t = (key: string) => translate(`app.funding.${key}`);
  const orders = useQuery({
    queryKey: ['token-orders', 'all'],
    queryFn: () => callApi<TokenOrder[]>('/token-orders?range=[0,99]&sort=["placedAt","DESC"]'),
    refetchInterval: 5000,
  });
  return (
    <Box component="section" aria-labelledby="orders-title" sx={{ py: 2, minWidth: 0 }}>
      <Title title={translate('app.nav.nftorders')} />
      <Typography id="orders-title" variant="h5" component="h1" sx={{ mb: 2 }}>
        {t('orders.title')}
      </Typography>
      {orders.isPending && (
        <Box sx={{ py: 6, textAlign: 'center' }}>
          <CircularProgress aria-label={t('loading')} />
        </Box>
      )}
      {orders.isError && (
        <LoadFailed title={t('error')} error={orders.error} onRetry={orders.refetch} />
      )}
      {orders.data && (
        <OrdersTable
          orders={orders.data}
          showRound
          labelledBy="orders-title"
          onChanged={() => void orders.refetch()}
        />
      )}
    </Box>
  );
}
