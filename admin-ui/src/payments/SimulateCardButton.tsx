import CreditCard from '@mui/icons-material/CreditCard';
import { Button, Menu, MenuItem } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useNotify, useRefresh, useTranslate } from 'react-admin';
import { fetchSimulator, presentCard, type TestCard, testCards } from './paymentApi';
import { refreshBalance, settledPayment } from './settle';

/** Whether the terminal's sandbox routes exist, asked once a minute at most per terminal. */
function useSimulatorPresent(terminalId: string): boolean {
  const probe = useQuery({
    queryKey: ['simulator', terminalId],
    queryFn: () => fetchSimulator(terminalId),
    retry: false,
    staleTime: 60_000,
    refetchOnWindowFocus: false,
  });
  return probe.isSuccess;
}

/**
 * Stripe Terminal's "present a test card" for the simulator gateway: a menu of test cards, each
 * forcing one outcome. With `watch`, the outcome is announced and the lists and balance reload.
 */
export function SimulateCardButton({
  terminalId,
  paymentId,
  watch = false,
  size = 'medium',
  onPresented,
}: {
  terminalId: string;
  paymentId: string;
  watch?: boolean;
  size?: 'small' | 'medium';
  onPresented?: () => void;
}) {
  const translate = useTranslate();
  const notify = useNotify();
  const refresh = useRefresh();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [busy, setBusy] = useState(false);
  const simulatorPresent = useSimulatorPresent(terminalId);
  if (!simulatorPresent) return null;

  const announce = async () => {
    const payment = await settledPayment(paymentId);
    if (!payment) return;
    if (payment.status === 'declined') {
      const reason = translate(`app.payments.decline.${payment.declineReason ?? 'card_declined'}`);
      notify('app.payments.result.declined', { type: 'warning', messageArgs: { reason } });
    } else if (payment.status === 'captured') {
      notify('app.payments.result.approved', { type: 'success' });
      refreshBalance();
    }
    refresh();
  };

  const present = async (card: TestCard) => {
    setAnchor(null);
    setBusy(true);
    try {
      await presentCard(terminalId, paymentId, card);
      onPresented?.();
      if (watch) await announce();
    } catch (error) {
      notify((error as Error).message, { type: 'error' });
      refresh();
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <Button
        size={size}
        variant="outlined"
        startIcon={<CreditCard />}
        disabled={busy}
        aria-haspopup="menu"
        onClick={(event) => {
          event.stopPropagation();
          setAnchor(event.currentTarget);
        }}
      >
        {translate('app.payments.simulate')}
      </Button>
      <Menu anchorEl={anchor} open={anchor !== null} onClose={() => setAnchor(null)}>
        {(Object.keys(testCards) as TestCard[]).map((card) => (
          <MenuItem key={card} onClick={() => void present(card)}>
            {translate(`app.payments.cards.${card}`)}
          </MenuItem>
        ))}
      </Menu>
    </>
  );
}
