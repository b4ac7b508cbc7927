import {
  Alert,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  useMediaQuery,
} from '@mui/material';
import type { Theme } from '@mui/material/styles';
import { useState } from 'react';
import {
  Form,
  HttpError,
  maxLength,
  TextInput,
  useLocaleState,
  useNotify,
  useTranslate,
} from 'react-admin';
import { useFormState } from 'react-hook-form';
import { centsToTyped, isolatedCents, parseCents } from '../payments/money';
import { type Payment, refundPayment } from '../payments/paymentApi';
import { fieldErrors } from '../session/http';
import { useIdempotencyKey } from '../session/idempotencyKey';

const asTyped = (value: string) => value ?? '';

/**
 * Stripe's refund dialog: the amount (what remains refundable by default; less makes a partial
 * refund) and a reason. The API's refusal (more than remains, a payment not captured) is shown here.
 */
export function RefundDialog({
  payment,
  onClose,
  onRefunded,
  onRefused,
}: {
  payment: Payment;
  onClose: () => void;
  onRefunded: (payment: Payment) => void;
  /** The API refused (another refund came first, say): what is shown may be out of date. */
  onRefused: () => void;
}) {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const notify = useNotify();
  const small = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'), { noSsr: true });
  const [problem, setProblem] = useState<string | null>(null);
  const { idempotencyKey, renewAfter } = useIdempotencyKey();
  // Fixed at opening: a reload of the payment (after a refusal) must not reset what was typed.
  const [record] = useState(() => ({ amount: centsToTyped(payment.refundableCents), reason: '' }));
  const remaining = isolatedCents(payment.refundableCents, locale);
  const validAmount = (value: string) => {
    const cents = parseCents(value ?? '', locale);
    if (cents === null || cents < 1) return 'app.payments.amount_invalid';
    if (cents > payment.refundableCents)
      return { message: 'app.payments.refund.too_much', args: { amount: remaining } };
    return undefined;
  };
  const validReason = (value: string) =>
    (value ?? '').trim() === '' ? 'app.payments.refund.reason_required' : undefined;
  const submit = async (values: Record<string, unknown>) => {
    const amountCents = parseCents(String(values.amount ?? ''), locale);
    if (amountCents === null) return { amount: 'app.payments.amount_invalid' };
    setProblem(null);
    try {
      const refunded = await refundPayment(
        payment.id,
        { amountCents, reason: String(values.reason ?? '').trim() },
        idempotencyKey,
      );
      notify('app.payments.refund.done', {
        type: 'success',
        messageArgs: { amount: isolatedCents(amountCents, locale) },
      });
      onRefunded(refunded);
      return undefined;
    } catch (error) {
      renewAfter(error);
      if (error instanceof HttpError && error.status === 409) onRefused();
      const fields = fieldErrors(error);
      if (fields.amountCents) return { amount: fields.amountCents };
      if (fields.reason) return { reason: fields.reason };
      setProblem((error as Error).message);
      return undefined;
    }
  };
  return (
    <Dialog
      open
      onClose={onClose}
      fullWidth
      fullScreen={small}
      maxWidth="xs"
      aria-labelledby="refund-title"
    >
      <DialogTitle id="refund-title">
        <bdi>
          {translate('app.payments.refund.title', {
            amount: isolatedCents(payment.amountCents, locale),
          })}
        </bdi>
      </DialogTitle>
      <Form record={record} onSubmit={submit} noValidate>
        <DialogContent sx={{ display: 'flex', flexDirection: 'column', gap: 0.5 }}>
          {problem && (
            <Alert severity="error" role="alert" sx={{ mb: 1 }}>
              {problem}
            </Alert>
          )}
          <TextInput
            source="amount"
            label="app.payments.refund.amount"
            parse={asTyped}
            validate={validAmount}
            helperText={translate('app.payments.refund.amount_help', { amount: remaining })}
            slotProps={{ htmlInput: { inputMode: 'decimal', dir: 'ltr', autoComplete: 'off' } }}
          />
          <TextInput
            source="reason"
            label="app.payments.refund.reason"
            parse={asTyped}
            multiline
            validate={[validReason, maxLength(500, 'app.payments.refund.reason_too_long')]}
            helperText={false}
          />
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>{translate('app.payments.cancel')}</Button>
          <SubmitRefund />
        </DialogActions>
      </Form>
    </Dialog>
  );
}

function SubmitRefund() {
  const translate = useTranslate();
  const { isSubmitting } = useFormState();
  return (
    <Button type="submit" variant="contained" color="warning" disabled={isSubmitting}>
      {translate('app.payments.refund.submit')}
    </Button>
  );
}
