import Add from '@mui/icons-material/Add';
import ArrowBack from '@mui/icons-material/ArrowBack';
import SearchOff from '@mui/icons-material/SearchOff';
import { Box, Button, Chip, CircularProgress, Paper, Stack, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { HttpError, Title, useLocale, useNotify, useTranslate } from 'react-admin';
import { Link, useParams } from 'react-router-dom';
import { useCanChangeCustomers } from '../customers/access';
import { ConfirmButton } from '../layout/ConfirmButton';
import { LoadFailed } from '../layout/LoadFailed';
import { isolatedCents } from '../payments/money';
import { callApi } from '../session/http';
import { OrderDialog } from './OrderDialog';
import { OrdersTable } from './OrdersTable';
import { RoundDialog } from './RoundDialog';
import { RoundProgress } from './RoundsPage';
import { type Round, statusColor, type TokenOrder } from './types';

/** `/fundingrounds/round/:productId/:productHandle?`: one round, its progress, orders and actions. */
export default function RoundPage() {
  const translate = useTranslate();
  const locale = useLocale();
  const notify = useNotify();
  const { productId = '' } = useParams();
  const t = (key: string, options?: object) => translate(`app.funding.${key}`, options);
  const round = useQuery({
    queryKey: ['funding-rounds', productId],
    queryFn: () => callApi<Round>(`/funding-rounds/${encodeURIComponent(productId)}`),
    retry: false,
  });
  const orders = useQuery({
    queryKey: ['token-orders', 'round', productId],
    queryFn: () =>
      callApi<TokenOrder[]>(
        `/token-orders?range=[0,99]&filter=${encodeURIComponent(JSON.stringify({ roundId: productId }))}`,
      ),
    enabled: round.isSuccess,
    refetchInterval: 3000,
  });
  const [editing, setEditing] = useState(false);
  const [ordering, setOrdering] = useState(false);
  const writes = useCanChangeCustomers();
  const refresh = () => {
    void round.refetch();
    void orders.refetch();
  };
  const act = (action: 'open' | 'close' | 'cancel') => async () => {
    try {
      await callApi(`/funding-rounds/${productId}/${action}`, { method: 'POST' });
      refresh();
    } catch (error) {
      notify(error instanceof Error ? error.message : String(error), { type: 'error' });
    }
  };
  /** Opening, closing and cancelling cannot be undone: each asks first, naming the round. */
  const confirmed = (action: 'open' | 'close' | 'cancel', closes = '') => ({
    // Isolated: an English name inside an Arabic sentence keeps its own direction.
    title: t(`confirm.${action}_title`, { name: `\u2068${round.data?.name ?? ''}\u2069` }),
    content: t(`confirm.${action}_content`, { closes }),
    confirm: t(`actions.${action}`),
    onConfirm: act(action),
  });
  const back = (
    <Button
      component={Link}
      to="/fundingrounds"
      startIcon={<ArrowBack sx={{ transform: 'scaleX(var(--flip, 1))' }} />}
    >
      {t('back')}
    </Button>
  );
  if (round.isPending) {
    return (
      <Box sx={{ py: 6, textAlign: 'center' }}>
        <CircularProgress aria-label={t('loading')} />
      </Box>
    );
  }
  if (round.isError) {
    const missing = round.error instanceof HttpError && round.error.status === 404;
    return (
      <Box component="section" aria-labelledby="round-missing" sx={{ py: 8, textAlign: 'center' }}>
        <SearchOff sx={{ fontSize: 72, color: 'text.disabled' }} />
        <Typography id="round-missing" variant="h5" component="h1" gutterBottom>
          {missing ? t('not_found') : t('error')}
        </Typography>
        {back}
      </Box>
    );
  }
  const data = round.data;
  const day = (iso: string) => new Date(iso).toLocaleDateString(locale, { timeZone: 'UTC' });
  return (
    <Box component="section" aria-labelledby="round-title" sx={{ py: 2, minWidth: 0 }}>
      <Title title={data.name} />
      {back}
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', my: 1, flexWrap: 'wrap' }}>
        <Typography id="round-title" variant="h5" component="h1" sx={{ overflowWrap: 'anywhere' }}>
          <bdi>{data.name}</bdi>
        </Typography>
        <Chip size="small" color={statusColor[data.status]} label={t(`status.${data.status}`)} />
      </Stack>
      <Paper sx={{ p: 2, mb: 2 }}>
        <Typography variant="body2" color="text.secondary">
          {t('price', { price: isolatedCents(data.tokenPriceCents, locale) })}
          {data.status !== 'cancelled' && ' · '}
          {data.status === 'closed'
            ? t('window_closed', { opens: day(data.opensAt) })
            : data.status !== 'cancelled' &&
              t('window', { opens: day(data.opensAt), closes: day(data.closesAt) })}
        </Typography>
        <RoundProgress round={data} />
        <Typography variant="body2">{tokenFigures(data, locale, t)}</Typography>
        {data.description && (
          // The issuer's own words: their direction is their first letter's, not the page's.
          <Typography dir="auto" sx={{ mt: 1, whiteSpace: 'pre-line' }}>
            {data.description}
          </Typography>
        )}
        {writes && (
          <Stack direction="row" spacing={1} sx={{ mt: 2, flexWrap: 'wrap', gap: 1 }}>
            {data.status === 'draft' && (
              <>
                <ConfirmButton variant="contained" {...confirmed('open', day(data.closesAt))}>
                  {t('actions.open')}
                </ConfirmButton>
                <Button onClick={() => setEditing(true)}>{t('actions.edit')}</Button>
              </>
            )}
            {data.status === 'open' && (
              <>
                <Button variant="contained" startIcon={<Add />} onClick={() => setOrdering(true)}>
                  {t('actions.order')}
                </Button>
                <ConfirmButton {...confirmed('close')}>{t('actions.close')}</ConfirmButton>
              </>
            )}
            {/* Tokens already paid for cannot be called off: such a round can only be closed. */}
            {(data.status === 'draft' || data.status === 'open') &&
              data.tokensPurchased === 0 &&
              (data.tokensReserved > 0 ? (
                <Button
                  color="warning"
                  onClick={() =>
                    notify(t('confirm.awaiting', { smart_count: awaitingOrders(orders.data) }), {
                      type: 'warning',
                    })
                  }
                >
                  {t('actions.cancel')}
                </Button>
              ) : (
                <ConfirmButton color="warning" confirmColor="warning" {...confirmed('cancel')}>
                  {t('actions.cancel')}
                </ConfirmButton>
              ))}
          </Stack>
        )}
      </Paper>
      {editing && (
        <RoundDialog
          round={data}
          onClose={() => setEditing(false)}
          onDone={() => {
            setEditing(false);
            refresh();
          }}
        />
      )}
      {ordering && (
        <OrderDialog
          round={data}
          onClose={() => setOrdering(false)}
          onDone={() => {
            setOrdering(false);
            refresh();
          }}
        />
      )}
      <Stack direction="row" sx={{ alignItems: 'center', mb: 1, flexWrap: 'wrap' }}>
        <Typography id="round-orders" variant="h6" component="h2" sx={{ flexGrow: 1 }}>
          {t('orders.round_title')}
        </Typography>
        <Button component={Link} to="/captable">
          {t('cap_table')}
        </Button>
      </Stack>
      {orders.isError && (
        <LoadFailed title={t('error')} error={orders.error} onRetry={orders.refetch} />
      )}
      {orders.data && (
        <OrdersTable
          orders={orders.data}
          emptyHint={
            data.status === 'closed' || data.status === 'cancelled'
              ? t('orders.empty_ended')
              : undefined
          }
          showRound={false}
          labelledBy="round-orders"
          onChanged={refresh}
        />
      )}
    </Box>
  );
}

type Translate = (key: string, options?: object) => string;

/** Purchased of offered; what orders awaiting payment hold and what is left, while it sells. */
function tokenFigures(round: Round, locale: string, t: Translate): string {
  const figures = {
    purchased: round.tokensPurchased.toLocaleString(locale),
    offered: round.tokensOffered.toLocaleString(locale),
    reserved: round.tokensReserved.toLocaleString(locale),
    available: round.tokensAvailable.toLocaleString(locale),
  };
  if (round.status === 'closed' || round.status === 'cancelled') return t('tokens_final', figures);
  return t(round.tokensReserved > 0 ? 'tokens_reserved' : 'tokens', figures);
}

const awaitingOrders = (orders: readonly TokenOrder[] = []) =>
  Math.max(
    1,
    orders.filter((order) => order.status === 'created' || order.status === 'awaiting_payment')
      .length,
  );
