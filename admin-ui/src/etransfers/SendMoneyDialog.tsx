import { Alert, DialogContent, Typography } from '@mui/material';
import { useState } from 'react';
import { Form, HttpError, TextInput, useLocaleState, useNotify, useTranslate } from 'react-admin';
import { isolatedCents } from '../payments/money';
import { refreshBalance } from '../payments/settle';
import { useIdempotencyKey } from '../session/idempotencyKey';
import { currentBalanceCents } from './balance';
import { type Etransfer, sendPayout } from './etransferApi';
import {
  Actions,
  AmountInput,
  asTyped,
  atMost,
  CustomerInput,
  FormDialog,
  field,
  formErrors,
  SubmitButton,
  trimmed,
  useAmountRules,
} from './formParts';

/**
 * Send money: a payout to the customer's email. The balance must cover it; when it does not, the
 * API's 409 is shown above the form and under the amount.
 */
export function SendMoneyDialog({
  customerId,
  onClose,
  onDone,
}: {
  customerId?: string;
  onClose: () => void;
  onDone: (etransfer: Etransfer) => void;
}) {
  const translate = useTranslate();
  const notify = useNotify();
  const [locale] = useLocaleState();
  const { cents } = useAmountRules();
  const { idempotencyKey, renewAfter } = useIdempotencyKey();
  const [refused, setRefused] = useState<string | null>(null);
  const submit = async (values: Record<string, unknown>) => {
    const amountCents = cents(values.amount);
    if (amountCents === null) return { amount: 'app.etransfers.amount_invalid' };
    setRefused(null);
    try {
      const message = trimmed(values.message);
      const payout = await sendPayout(
        { customerId: String(values.customerId), amountCents, ...(message ? { message } : {}) },
        idempotencyKey,
      );
      notify('app.etransfers.payout.done', {
        type: 'success',
        messageArgs: { email: payout.email },
      });
      refreshBalance();
      onDone(payout);
      return undefined;
    } catch (error) {
      renewAfter(error);
      if (error instanceof HttpError && error.status === 409) {
        const balance = await currentBalanceCents();
        const amount = isolatedCents(amountCents, locale);
        setRefused(
          balance === null
            ? translate('app.etransfers.payout.insufficient_unknown', { amount })
            : translate('app.etransfers.payout.insufficient', {
                amount,
                balance: isolatedCents(balance, locale),
              }),
        );
        return undefined;
      }
      return formErrors(error, notify);
    }
  };
  return (
    <FormDialog
      id="send-money-title"
      title={translate('app.etransfers.payout.title')}
      onClose={onClose}
    >
      <Form
        record={{ customerId: customerId ?? null, amount: '', message: '' }}
        onSubmit={submit}
        noValidate
      >
        <DialogContent sx={{ display: 'flex', flexDirection: 'column', gap: 0.5 }}>
          {refused && (
            <Alert severity="error" data-testid="payout-refused">
              {refused}
            </Alert>
          )}
          <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
            {translate('app.etransfers.payout.help')}
          </Typography>
          <CustomerInput autoFocus={!customerId} />
          <AmountInput />
          <TextInput
            source="message"
            label={field('message')}
            parse={asTyped}
            multiline
            validate={atMost(400)}
            helperText={false}
          />
        </DialogContent>
        <Actions onClose={onClose}>
          <SubmitButton label="app.etransfers.payout.submit" plain="app.etransfers.payout.action" />
        </Actions>
      </Form>
    </FormDialog>
  );
}
