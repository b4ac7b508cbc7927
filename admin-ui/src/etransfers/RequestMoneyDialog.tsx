import { DialogContent } from '@mui/material';
import { useState } from 'react';
import { Form, TextInput, useNotify, useTranslate } from 'react-admin';
import { DateInput } from '../dates/DateInput';
import { useIdempotencyKey } from '../session/idempotencyKey';
import { type Etransfer, requestMoney } from './etransferApi';
import { dayAfter, defaultExpiryDays, expiryInstant } from './etransferLogic';
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
 * Interac's Request money (as Zum Rails and VoPay offer it): the customer, the amount in CAD, a
 * message, the company's reference, and the day it expires (30 days ahead by default).
 */
export function RequestMoneyDialog({
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
  const { cents } = useAmountRules();
  const { idempotencyKey, renewAfter } = useIdempotencyKey();
  const [now] = useState(() => new Date());
  const validExpiry = (value: string) =>
    expiryInstant(trimmed(value), new Date())
      ? undefined
      : 'app.etransfers.request.expires_invalid';
  const submit = async (values: Record<string, unknown>) => {
    const amountCents = cents(values.amount);
    const expiresAt = expiryInstant(trimmed(values.expiresOn), new Date());
    if (amountCents === null) return { amount: 'app.etransfers.amount_invalid' };
    if (!expiresAt) return { expiresOn: 'app.etransfers.request.expires_invalid' };
    try {
      const message = trimmed(values.message);
      const reference = trimmed(values.reference);
      const request = await requestMoney(
        {
          customerId: String(values.customerId),
          amountCents,
          expiresAt,
          ...(message ? { message } : {}),
          ...(reference ? { reference } : {}),
        },
        idempotencyKey,
      );
      notify('app.etransfers.request.done', {
        type: 'success',
        messageArgs: { email: request.email },
      });
      onDone(request);
      return undefined;
    } catch (error) {
      renewAfter(error);
      return formErrors(error, notify);
    }
  };
  return (
    <FormDialog
      id="request-money-title"
      title={translate('app.etransfers.request.title')}
      onClose={onClose}
    >
      <Form
        record={{
          customerId: customerId ?? null,
          amount: '',
          message: '',
          reference: '',
          expiresOn: dayAfter(now, defaultExpiryDays),
        }}
        onSubmit={submit}
        noValidate
      >
        <DialogContent sx={{ display: 'flex', flexDirection: 'column', gap: 0.5 }}>
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
          <TextInput
            source="reference"
            label={field('reference')}
            parse={asTyped}
            validate={atMost(100)}
            helperText={false}
            slotProps={{ htmlInput: { dir: 'ltr', autoComplete: 'off' } }}
          />
          <DateInput
            source="expiresOn"
            label={field('expires')}
            parse={asTyped}
            validate={validExpiry}
            helperText="app.etransfers.request.expires_help"
          />
        </DialogContent>
        <Actions onClose={onClose}>
          <SubmitButton
            label="app.etransfers.request.submit"
            plain="app.etransfers.request.action"
          />
        </Actions>
      </Form>
    </FormDialog>
  );
}
