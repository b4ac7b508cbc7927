import Token from '@mui/icons-material/Token';
import {
  Box,
  Button,
  Card,
  Chip,
  ListItemButton,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
  useMediaQuery,
} from '@mui/material';
import type { Theme } from '@mui/material/styles';
import { useLocale, useNotify, useTranslate } from 'react-admin';
import { Link } from 'react-router-dom';
import { ConfirmButton } from '../layout/ConfirmButton';
import { EmptyState } from '../layout/EmptyState';
import { isolatedCents } from '../payments/money';
import { callApi } from '../session/http';
import { orderColor, type TokenOrder } from './types';

/** The actions an order allows now: cancel before its money, refund or retry after. */
export function OrderActions({ order, onChanged }: { order: TokenOrder; onChanged: () => void }) {
  const translate = useTranslate();
  const notify = useNotify();
  const act = (action: 'cancel' | 'refund' | 'retry-distribution') => async () => {
    try {
      await callApi(`/token-orders/${order.id}/${action}`, {
        method: 'POST',
        body: action === 'retry-distribution' ? undefined : {},
      });
      onChanged();
    } catch (error) {
      notify(error instanceof Error ? error.message : String(error), { type: 'error' });
    }
  };
  const t = (key: string, options?: object) => translate(`app.funding.orders.${key}`, options);
  const locale = useLocale();
  // Before its money an order can be cancelled, after it refunded: either asks first.
  const undoable: 'cancel' | 'refund' | undefined =
    order.status === 'created' || order.status === 'awaiting_payment'
      ? 'cancel'
      : order.status === 'funds_received' || order.status === 'distribution_failed'
        ? 'refund'
        : undefined;
  return (
    <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap' }}>
      {undoable && (
        <ConfirmButton
          size="small"
          title={translate(`app.funding.confirm.order_${undoable}_title`, {
            tokens: order.tokens.toLocaleString(locale),
            amount: isolatedCents(order.amountCents, locale),
          })}
          content={translate(`app.funding.confirm.order_${undoable}_content`)}
          confirm={t(undoable)}
          onConfirm={act(undoable)}
        >
          {t(undoable)}
        </ConfirmButton>
      )}
      {order.status === 'distribution_failed' && order.held && (
        <Button size="small" onClick={act('retry-distribution')}>
          {t('retry')}
        </Button>
      )}
    </Stack>
  );
}

/**
 * Orders as a table on a wide screen; on a phone as stacked rows (no horizontal scroll), each one
 * link to its order as the app's other phone lists are, with the order's actions below it: a
 * button inside a link is not allowed, and the investor is a link on the order's page.
 */
export function OrdersTable({
  orders,
  showRound,
  labelledBy,
  onChanged,
  emptyHint,
}: {
  orders: TokenOrder[];
  /** What the empty state says instead of how orders come (a round that has ended). */
  emptyHint?: string;
  showRound: boolean;
  labelledBy: string;
  onChanged: () => void;
}) {
  const translate = useTranslate();
  const locale = useLocale();
  const small = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'), { noSsr: true });
  const t = (key: string) => translate(`app.funding.orders.${key}`);
  const status = (order: TokenOrder) => (
    <Chip size="small" color={orderColor(order.status)} label={t(`status_names.${order.status}`)} />
  );
  const who = (order: TokenOrder) => (
    <Link to={`/customers/all/${order.customerId}`}>{order.customerName ?? order.customerId}</Link>
  );
  const when = (order: TokenOrder) => new Date(order.placedAt).toLocaleString(locale);
  if (orders.length === 0) {
    return <EmptyState icon={Token} title={t('empty')} hint={emptyHint ?? t('empty_hint')} />;
  }
  if (small) {
    return (
      <Card component="ul" aria-labelledby={labelledBy} sx={{ listStyle: 'none', p: 0, m: 0 }}>
        {orders.map((order) => (
          <Box component="li" key={order.id} sx={{ borderBottom: 1, borderColor: 'divider' }}>
            <ListItemButton
              component={Link}
              to={`/nftorders/${order.id}`}
              sx={{
                display: 'block',
                py: 1.5,
                px: 1,
                // Beyond the button's faint grey, a ring that shows which row Enter opens.
                '&.Mui-focusVisible': {
                  outline: (theme) => `2px solid ${theme.palette.primary.main}`,
                  outlineOffset: -2,
                },
              }}
            >
              <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mb: 0.5 }}>
                <Box sx={{ flexGrow: 1, minWidth: 0, overflowWrap: 'anywhere' }}>
                  {order.customerName ?? order.customerId}
                </Box>
                {status(order)}
              </Stack>
              <Typography variant="body2">
                {order.tokens.toLocaleString(locale)}
                {' · '}
                <bdi>{isolatedCents(order.amountCents, locale)}</bdi>
                {showRound && order.roundName ? ` · ${order.roundName}` : ''}
              </Typography>
              <Typography variant="body2" color="text.secondary">
                {when(order)}
              </Typography>
            </ListItemButton>
            <Box sx={{ px: 1, '&:has(button)': { pb: 1 } }}>
              <OrderActions order={order} onChanged={onChanged} />
            </Box>
          </Box>
        ))}
      </Card>
    );
  }
  return (
    <Card sx={{ overflowX: 'auto' }}>
      <Table size="small" aria-labelledby={labelledBy}>
        <TableHead>
          <TableRow>
            <TableCell>{t('investor')}</TableCell>
            {showRound && <TableCell>{t('round')}</TableCell>}
            <TableCell align="right">{t('tokens')}</TableCell>
            <TableCell align="right">{t('amount')}</TableCell>
            <TableCell>{t('status')}</TableCell>
            <TableCell>{t('placed')}</TableCell>
            <TableCell />
          </TableRow>
        </TableHead>
        <TableBody>
          {orders.map((order) => (
            <TableRow key={order.id}>
              <TableCell>{who(order)}</TableCell>
              {showRound && <TableCell>{order.roundName}</TableCell>}
              <TableCell align="right">
                <Link to={`/nftorders/${order.id}`}>{order.tokens.toLocaleString(locale)}</Link>
              </TableCell>
              <TableCell align="right">
                <bdi>{isolatedCents(order.amountCents, locale)}</bdi>
              </TableCell>
              <TableCell>{status(order)}</TableCell>
              <TableCell>{when(order)}</TableCell>
              <TableCell>
                <OrderActions order={order} onChanged={onChanged} />
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </Card>
  );
}
