import ArrowBack from '@mui/icons-material/ArrowBack';
import SearchOff from '@mui/icons-material/SearchOff';
import SwapHoriz from '@mui/icons-material/SwapHoriz';
import { Box, Button, Chip, CircularProgress, Paper, Stack, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useState } from 'react';
import { HttpError, Title, useLocale, useTranslate } from 'react-admin';
import { Link } from 'react-router-dom';
import { EtransferStatusChip } from '../etransfers/EtransferStatusChip';
import { fetchEtransfer } from '../etransfers/etransferApi';
import { isolatedCents } from '../payments/money';
import { callApi } from '../session/http';
import { OrderActions } from './OrdersTable';
import { orderColor, type TokenOrder } from './types';

function Line({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', py: 0.5 }}>
      <Typography color="text.secondary" sx={{ minWidth: 140 }}>
        {label}
      </Typography>
      <Box sx={{ minWidth: 0, overflowWrap: 'anywhere' }}>{children}</Box>
    </Box>
  );
}

const EtransferDrawer = lazy(() =>
  import('../etransfers/EtransferDrawer').then((module) => ({ default: module.EtransferDrawer })),
);

/** An e-transfer order's money request: its status, opening its detail in a drawer. */
function EtransferLink({ etransferId }: { etransferId: string }) {
  const translate = useTranslate();
  const [open, setOpen] = useState(false);
  const etransfer = useQuery({
    queryKey: ['etransfers', 'getOne', etransferId, 'detail'],
    queryFn: () => fetchEtransfer(etransferId),
    retry: false,
    refetchInterval: 3000,
  });
  return (
    <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap' }}>
      <Button
        variant="outlined"
        size="small"
        startIcon={<SwapHoriz />}
        onClick={() => setOpen(true)}
        data-testid="order-etransfer-link"
      >
        {translate('app.funding.orders.open_etransfer')}
      </Button>
      {etransfer.data && <EtransferStatusChip status={etransfer.data.status} />}
      {open && etransfer.data && (
        <Suspense fallback={null}>
          <EtransferDrawer etransfer={etransfer.data} onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </Box>
  );
}

/** `/nftorders/<order id>`: one token order, its chain transaction and its status history. */
export default function OrderPage({ orderId }: { orderId: string }) {
  const translate = useTranslate();
  const locale = useLocale();
  const t = (key: string, options?: object) => translate(`app.funding.${key}`, options);
  const order = useQuery({
    queryKey: ['token-orders', orderId],
    queryFn: () => callApi<TokenOrder>(`/token-orders/${encodeURIComponent(orderId)}`),
    retry: false,
    refetchInterval: 3000,
  });
  const back = (
    <Button component={Link} to="/nftorders/all" startIcon={<ArrowBack />}>
      {t('orders.title')}
    </Button>
  );
  if (order.isPending) {
    return (
      <Box sx={{ py: 6, textAlign: 'center' }}>
        <CircularProgress aria-label={t('loading')} />
      </Box>
    );
  }
  if (order.isError) {
    const missing = order.error instanceof HttpError && order.error.status === 404;
    return (
      <Box component="section" aria-labelledby="order-missing" sx={{ py: 8, textAlign: 'center' }}>
        <SearchOff sx={{ fontSize: 72, color: 'text.disabled' }} />
        <Typography id="order-missing" variant="h5" component="h1" gutterBottom>
          {missing ? t('orders.not_found') : t('error')}
        </Typography>
        {back}
      </Box>
    );
  }
  const data = order.data;
  const when = (iso: string) => new Date(iso).toLocaleString(locale);
  return (
    <Box component="section" aria-labelledby="order-title" sx={{ py: 2, minWidth: 0 }}>
      <Title title={t('orders.one', { tokens: data.tokens.toLocaleString(locale) })} />
      {back}
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', my: 1, flexWrap: 'wrap' }}>
        <Typography id="order-title" variant="h5" component="h1">
          {t('orders.one', { tokens: data.tokens.toLocaleString(locale) })}
        </Typography>
        <Chip
          size="small"
          color={orderColor(data.status)}
          label={t(`orders.status_names.${data.status}`)}
        />
      </Stack>
      <Paper sx={{ p: 2, mb: 2 }}>
        <Line label={t('orders.investor')}>
          <Link to={`/customers/all/${data.customerId}`}>
            {data.customerName ?? data.customerId}
          </Link>
        </Line>
        <Line label={t('orders.round')}>
          <Link to={`/fundingrounds/round/${data.roundId}`}>{data.roundName ?? data.roundId}</Link>
        </Line>
        <Line label={t('orders.amount')}>
          <bdi>{isolatedCents(data.amountCents, locale)}</bdi>
        </Line>
        <Line label={t('orders.payment')}>
          <Stack spacing={1}>
            <Typography>{t(`orders.method_names.${data.paymentMethod ?? 'terminal'}`)}</Typography>
            {data.etransferId && <EtransferLink etransferId={data.etransferId} />}
          </Stack>
        </Line>
        <Line label={t('orders.wallet')}>
          <bdi>{data.walletAddress}</bdi>
        </Line>
        {data.transactionHash && (
          <Line label={t('orders.transaction')}>
            <bdi>{`${data.transactionHash} (#${data.blockNumber})`}</bdi>
          </Line>
        )}
        {(data.failureReason || data.lastError) && (
          <Line label={t('orders.reason')}>
            {/* A code the server gives (declined, expired…) in the reader's words; else as said. */}
            {data.failureReason
              ? t(`orders.reasons.${data.failureReason}`, { _: data.failureReason })
              : data.lastError}
          </Line>
        )}
        <OrderActions order={data} onChanged={() => void order.refetch()} />
      </Paper>
      <Typography id="order-history" variant="h6" component="h2">
        {t('orders.history')}
      </Typography>
      <Box component="ol" aria-labelledby="order-history" sx={{ pl: 3 }}>
        {data.history.map((step) => (
          <li key={`${step.status}-${step.at}`}>
            <Typography>
              {`${t(`orders.status_names.${step.status}`)} · ${when(step.at)}`}
            </Typography>
          </li>
        ))}
      </Box>
    </Box>
  );
}
