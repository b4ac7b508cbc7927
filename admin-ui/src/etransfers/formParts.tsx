/** The pieces every e-transfer form shares: its dialog, inputs, rules, submit button and errors. */

import { Button, Dialog, DialogActions, DialogTitle, useMediaQuery } from '@mui/material';
import type { Theme } from '@mui/material/styles';
import type { ReactNode } from 'react';
import { TextInput, useLocaleState, type useNotify, useTranslate } from 'react-admin';
import { useFormState, useWatch } from 'react-hook-form';
import { formErrorsOrToast } from '../auth/submitErrors';
import { CustomerPicker } from '../lists/customerFilter';
import { isolatedCents, maxAmountCents, minAmountCents, parseCents } from '../payments/money';
import { onFormInputs } from './etransferLogic';

export const field = (name: string) => `app.etransfers.fields.${name}`;

/** Text as typed: react-admin would turn a cleared input into null. */
export const asTyped = (value: string) => value ?? '';
export const trimmed = (value: unknown) => String(value ?? '').trim();
export const required = (value: string) => (trimmed(value) ? undefined : 'app.etransfers.required');
/** Whether a number input holds a whole number from min to max. */
export const isWholeIn = (value: unknown, min: number, max: number) =>
  Number.isInteger(value) && (value as number) >= min && (value as number) <= max;
export const atMost = (max: number) => (value: string) =>
  trimmed(value).length > max ? { message: 'app.etransfers.too_long', args: { max } } : undefined;

/** The dialog every e-transfer form sits in: full screen on a phone. */
export function FormDialog({
  id,
  title,
  onClose,
  children,
}: {
  id: string;
  title: string;
  onClose: () => void;
  children: ReactNode;
}) {
  const small = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'), { noSsr: true });
  return (
    <Dialog open onClose={onClose} fullWidth fullScreen={small} maxWidth="sm" aria-labelledby={id}>
      <DialogTitle id={id} sx={{ overflowWrap: 'anywhere' }}>
        {title}
      </DialogTitle>
      {children}
    </Dialog>
  );
}

export function useAmountRules() {
  const [locale] = useLocaleState();
  const cents = (typed: unknown) => parseCents(String(typed ?? ''), locale);
  const valid = (value: string) => {
    const amount = cents(value);
    return amount !== null && amount >= minAmountCents && amount <= maxAmountCents
      ? undefined
      : 'app.etransfers.amount_invalid';
  };
  return { cents, valid };
}

export function AmountInput() {
  const { valid } = useAmountRules();
  return (
    <TextInput
      source="amount"
      label={field('amount')}
      parse={asTyped}
      validate={valid}
      helperText={false}
      slotProps={{ htmlInput: { inputMode: 'decimal', dir: 'ltr', autoComplete: 'off' } }}
    />
  );
}

export function CustomerInput({ autoFocus = false }: { autoFocus?: boolean }) {
  return <CustomerPicker label={field('customer')} validate={required} autoFocus={autoFocus} />;
}

/** "Request $12.50 CAD" once the amount reads as one, as Stripe's buttons say. */
export function SubmitButton({ label, plain }: { label: string; plain: string }) {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const typed = useWatch({ name: 'amount' }) as string | undefined;
  const { isSubmitting } = useFormState();
  const cents = typed === undefined ? null : parseCents(typed, locale);
  const text =
    cents !== null && cents >= minAmountCents && cents <= maxAmountCents
      ? translate(label, { amount: isolatedCents(cents, locale) })
      : translate(plain);
  return (
    <Button type="submit" variant="contained" disabled={isSubmitting}>
      <bdi>{text}</bdi>
    </Button>
  );
}

export function Actions({ onClose, children }: { onClose: () => void; children: ReactNode }) {
  const translate = useTranslate();
  return (
    <DialogActions>
      <Button onClick={onClose}>{translate('app.etransfers.cancel_dialog')}</Button>
      {children}
    </DialogActions>
  );
}

/** The API's field messages under the form's inputs: the amount is typed in dollars. */
export function formErrors(error: unknown, notify: ReturnType<typeof useNotify>) {
  const fields = formErrorsOrToast(error, (message) => notify(message, { type: 'error' }));
  return fields && onFormInputs(fields);
}
