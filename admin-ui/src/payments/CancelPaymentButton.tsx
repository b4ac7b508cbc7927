import Close from '@mui/icons-material/Close';
import { Button } from '@mui/material';
import { useState } from 'react';
import { Confirm, useLocaleState, useNotify, useRefresh, useTranslate } from 'react-admin';
import { isolatedCents } from './money';
import { cancelPayment, type Payment } from './paymentApi';

/** Cancels a pending payment after a confirmation; a payment that completed meanwhile says so (409). */
export function CancelPaymentButton({
  payment,
  size = 'medium',
  onCancelled,
}: {
  payment: Pick<Payment, 'id' | 'amountCents'>;
  size?: 'small' | 'medium';
  onCancelled?: (cancelled: Payment) => void;
}) {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const notify = useNotify();
  const refresh = useRefresh();
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const cancel = async () => {
    setConfirming(false);
    setBusy(true);
    try {
      const cancelled = await cancelPayment(payment.id);
      notify('app.payments.cancelled_notice', { type: 'info' });
      onCancelled?.(cancelled);
    } catch (error) {
      notify((error as Error).message, { type: 'error' });
    } finally {
      setBusy(false);
      refresh();
    }
  };
  return (
    <>
      <Button
        size={size}
        color="error"
        startIcon={<Close />}
        disabled={busy}
        onClick={(event) => {
          event.stopPropagation();
          setConfirming(true);
        }}
      >
        {translate('app.payments.cancel_payment')}
      </Button>
      <Confirm
        isOpen={confirming}
        title="app.payments.cancel_payment"
        content="app.payments.cancel_confirm"
        translateOptions={{ amount: isolatedCents(payment.amountCents, locale) }}
        confirm="app.payments.cancel_payment"
        cancel="app.payments.keep"
        onConfirm={() => void cancel()}
        onClose={() => setConfirming(false)}
      />
    </>
  );
}
