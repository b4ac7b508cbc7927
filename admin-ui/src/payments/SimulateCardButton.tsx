import CreditCard from '@mui/icons-material/CreditCard';
import { Button, Menu, MenuItem } from '@mui/material';
import { useState } from 'react';
import { HttpError, useNotify, useRefresh, useTranslate } from 'react-admin';
import { presentCard, type TestCard, testCards } from './paymentApi';
import { refreshBalance, settledPayment } from './settle';

/** Once the API answers 404 (another gateway is in use), the button stays hidden on this page. */
let simulatorMissing = false;

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
  const [missing, setMissing] = useState(simulatorMissing);
  if (missing) return null;

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
      if (error instanceof HttpError && error.status === 404) {
        simulatorMissing = true;
        setMissing(true);
        notify('app.payments.simulator_off', { type: 'info' });
      } else {
        notify((error as Error).message, { type: 'error' });
        refresh();
      }
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
