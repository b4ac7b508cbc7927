import CancelOutlined from '@mui/icons-material/CancelOutlined';
import CheckCircle from '@mui/icons-material/CheckCircle';
import ErrorOutline from '@mui/icons-material/ErrorOutlineOutlined';
import HourglassEmpty from '@mui/icons-material/HourglassEmpty';
import { Alert, Box, CircularProgress, Stack, Typography } from '@mui/material';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useEffect, useState } from 'react';
import { useLocaleState, useRefresh, useTranslate } from 'react-admin';
import { DotJoined } from '../layout/DotJoined';
import { CancelPaymentButton } from './CancelPaymentButton';
import { Money } from './Money';
import { fetchPayment, type Payment } from './paymentApi';
import { usePaymentDescription } from './paymentDescription';
import { SimulateCardButton } from './SimulateCardButton';
import { refreshBalance } from './settle';
import { cardLine } from './statuses';

export const paymentQueryKey = (id: string) => ['payments', 'getOne', id, 'progress'];

/**
 * A payment from the moment it is requested: "Waiting for card on <terminal>" with Simulate card
 * and Cancel while pending (polled every second), then the outcome. When it completes, the lists
 * and the sidebar balance reload.
 */
export function PaymentProgress({
  initial,
  terminalName,
}: {
  initial: Payment;
  terminalName: string | null;
}) {
  const translate = useTranslate();
  const describe = usePaymentDescription();
  const [locale] = useLocaleState();
  const refresh = useRefresh();
  const queryClient = useQueryClient();
  const key = paymentQueryKey(initial.id);
  const [presented, setPresented] = useState(false);
  const { data: payment = initial, error } = useQuery({
    queryKey: key,
    queryFn: () => fetchPayment(initial.id),
    initialData: initial,
    refetchInterval: (query) => (query.state.data?.status === 'pending' ? 1000 : false),
  });
  const completed = payment.status !== 'pending';
  const description = describe(payment);
  useEffect(() => {
    if (!completed) return;
    refreshBalance();
    refresh();
  }, [completed, refresh]);

  const terminal =
    payment.terminalName ?? terminalName ?? translate('app.payments.unknown_terminal');
  return (
    <Stack spacing={2} sx={{ alignItems: 'center', textAlign: 'center', py: 2 }} aria-live="polite">
      <Typography variant="h4" component="p" sx={{ fontWeight: 600 }}>
        <Money cents={payment.amountCents} />
      </Typography>
      {(payment.customerName || description) && (
        <Typography color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
          <DotJoined parts={[payment.customerName, description]} />
        </Typography>
      )}
      {completed ? (
        <Outcome payment={payment} />
      ) : (
        <>
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5 }}>
            <CircularProgress size={24} aria-label={translate('ra.page.loading')} />
            <Typography variant="h6" component="p" data-testid="payment-waiting">
              {presented
                ? translate('app.payments.card_presented')
                : translate('app.payments.waiting', { terminal })}
            </Typography>
          </Box>
          <Typography variant="body2" color="text.secondary">
            {translate('app.payments.waiting_hint', {
              time: new Date(payment.expiresAt).toLocaleTimeString(locale, { timeStyle: 'short' }),
            })}
          </Typography>
          <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap', justifyContent: 'center' }}>
            <SimulateCardButton
              terminalId={payment.terminalId}
              paymentId={payment.id}
              onPresented={() => {
                setPresented(true);
                void queryClient.invalidateQueries({ queryKey: key });
              }}
            />
            <CancelPaymentButton
              payment={payment}
              onCancelled={(cancelled) => queryClient.setQueryData(key, cancelled)}
            />
          </Stack>
        </>
      )}
      {error && <Alert severity="error">{(error as Error).message}</Alert>}
    </Stack>
  );
}

function Outcome({ payment }: { payment: Payment }) {
  const translate = useTranslate();
  const card = cardLine(payment);
  const line = (icon: ReactNode, text: string, color: string) => (
    <Box
      sx={{ display: 'flex', alignItems: 'center', gap: 1, color }}
      role="status"
      data-testid="payment-outcome"
    >
      {icon}
      <Typography variant="h6" component="p" sx={{ color: 'inherit' }}>
        {text}
      </Typography>
    </Box>
  );
  switch (payment.status) {
    case 'captured':
    case 'partially_refunded':
    case 'refunded':
      return (
        <>
          {line(<CheckCircle />, translate('app.payments.result.approved'), 'success.main')}
          {card && <Typography color="text.secondary">{card}</Typography>}
        </>
      );
    case 'declined': {
      const reason = translate(`app.payments.decline.${payment.declineReason ?? 'card_declined'}`);
      return (
        <>
          {line(
            <ErrorOutline />,
            translate('app.payments.result.declined', { reason }),
            'error.main',
          )}
          {card && <Typography color="text.secondary">{card}</Typography>}
        </>
      );
    }
    case 'cancelled':
      return line(<CancelOutlined />, translate('app.payments.result.cancelled'), 'text.secondary');
    case 'expired':
      return line(<HourglassEmpty />, translate('app.payments.result.expired'), 'text.secondary');
    case 'pending':
      return null;
  }
}
