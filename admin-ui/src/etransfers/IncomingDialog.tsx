import { emailPattern } from '@issuer/events/rules';
import { Button, DialogContent, Typography } from '@mui/material';
import { Form, TextInput, useNotify, useTranslate } from 'react-admin';
import { balanceMoved, currentBalanceCents } from './balance';
import { simulateIncoming } from './etransferApi';
import {
  Actions,
  AmountInput,
  asTyped,
  atMost,
  FormDialog,
  field,
  formErrors,
  trimmed,
  useAmountRules,
} from './formParts';

/**
 * The sandbox's autodeposit: someone sends the company money nobody requested. `onArrived` runs
 * once the money shows in the balance (it comes back by the provider's webhook).
 */
export function IncomingDialog({
  onClose,
  onDone,
  onArrived,
}: {
  onClose: () => void;
  onDone: () => void;
  onArrived: () => void;
}) {
  const translate = useTranslate();
  const notify = useNotify();
  const { cents } = useAmountRules();
  const validEmail = (value: string) =>
    emailPattern.test(trimmed(value)) ? undefined : 'app.etransfers.email_invalid';
  const submit = async (values: Record<string, unknown>) => {
    const amountCents = cents(values.amount);
    if (amountCents === null) return { amount: 'app.etransfers.amount_invalid' };
    try {
      const reference = trimmed(values.reference);
      const before = await currentBalanceCents();
      await simulateIncoming({
        fromEmail: trimmed(values.fromEmail),
        amountCents,
        ...(reference ? { reference } : {}),
      });
      notify('app.etransfers.simulate.sent', { type: 'info' });
      onDone();
      void balanceMoved(before).then(onArrived);
      return undefined;
    } catch (error) {
      return formErrors(error, notify);
    }
  };
  return (
    <FormDialog
      id="incoming-title"
      title={translate('app.etransfers.simulate.incoming_title')}
      onClose={onClose}
    >
      <Form record={{ fromEmail: '', amount: '', reference: '' }} onSubmit={submit} noValidate>
        <DialogContent sx={{ display: 'flex', flexDirection: 'column', gap: 0.5 }}>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
            {translate('app.etransfers.simulate.incoming_help')}
          </Typography>
          <TextInput
            source="fromEmail"
            type="email"
            label={field('from_email')}
            parse={asTyped}
            validate={validEmail}
            helperText={false}
            autoFocus
            slotProps={{ htmlInput: { dir: 'ltr' } }}
          />
          <AmountInput />
          <TextInput
            source="reference"
            label={field('reference')}
            parse={asTyped}
            validate={atMost(100)}
            helperText={false}
            slotProps={{ htmlInput: { dir: 'ltr', autoComplete: 'off' } }}
          />
        </DialogContent>
        <Actions onClose={onClose}>
          <Button type="submit" variant="contained">
            {translate('app.etransfers.simulate.send')}
          </Button>
        </Actions>
      </Form>
    </FormDialog>
  );
}
