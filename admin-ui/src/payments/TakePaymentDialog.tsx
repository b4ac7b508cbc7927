import {
  Alert,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  LinearProgress,
  useMediaQuery,
} from '@mui/material';
import type { Theme } from '@mui/material/styles';
import { useState } from 'react';
import {
  Form,
  maxLength,
  SelectInput,
  TextInput,
  useLocaleState,
  useNotify,
  useTranslate,
} from 'react-admin';
import { useFormState, useWatch } from 'react-hook-form';
import { Link } from 'react-router-dom';
import { formErrorsOrToast } from '../auth/submitErrors';
import { CustomerPicker } from '../lists/customerFilter';
import { SaveCardInput } from '../paymentMethods/SaveCardInput';
import { useIdempotencyKey } from '../session/idempotencyKey';
import { isolatedCents, maxAmountCents, minAmountCents, parseCents } from './money';
import { PaymentProgress } from './PaymentProgress';
import { type Payment, requestPayment } from './paymentApi';
import { useTerminals } from './useTerminals';

const field = (name: string) => `app.payments.fields.${name}`;

/** Text as typed: react-admin would turn a cleared input into null. */
const asTyped = (value: string) => value ?? '';

/**
 * Stripe Terminal's flow: the amount (typed in dollars, read to exact cents), an optional
 * customer and description, the terminal (the sidebar's active one first); then the payment
 * waits on that terminal until it completes.
 */
export function TakePaymentDialog({
  open,
  onClose,
  customerId,
}: {
  open: boolean;
  onClose: () => void;
  customerId?: string;
}) {
  const translate = useTranslate();
  const small = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'), { noSsr: true });
  const [payment, setPayment] = useState<Payment | null>(null);
  // One key per payment asked for: a repeated submit answers the same payment.
  const { idempotencyKey, renew, renewAfter } = useIdempotencyKey();
  const terminals = useTerminals();
  const another = () => {
    setPayment(null);
    renew();
  };
  return (
    <Dialog
      open={open}
      onClose={onClose}
      fullWidth
      fullScreen={small}
      maxWidth="sm"
      aria-labelledby="take-payment-title"
    >
      <DialogTitle id="take-payment-title">{translate('app.payments.take_title')}</DialogTitle>
      {payment ? (
        <>
          <DialogContent>
            <PaymentProgress
              initial={payment}
              terminalName={terminals.nameOf(payment.terminalId)}
            />
          </DialogContent>
          <DialogActions>
            {payment && <Button onClick={another}>{translate('app.payments.new_payment')}</Button>}
            <Button variant="contained" onClick={onClose}>
              {translate('app.payments.close')}
            </Button>
          </DialogActions>
        </>
      ) : terminals.isPending ? (
        <DialogContent>
          <LinearProgress />
        </DialogContent>
      ) : terminals.error || terminals.terminals.length === 0 ? (
        <>
          <DialogContent>
            <Alert severity={terminals.error ? 'error' : 'info'}>
              {terminals.error
                ? translate('app.payments.terminals_unavailable', {
                    message: terminals.error.message,
                  })
                : translate('app.payments.no_terminals')}
            </Alert>
          </DialogContent>
          <DialogActions>
            <Button onClick={onClose}>{translate('app.payments.close')}</Button>
            {!terminals.error && (
              <Button variant="contained" component={Link} to="/profile" onClick={onClose}>
                {translate('app.payments.open_profile')}
              </Button>
            )}
          </DialogActions>
        </>
      ) : (
        <PaymentForm
          terminals={terminals.terminals}
          defaults={{ terminalId: terminals.activeId, customerId: customerId ?? null }}
          idempotencyKey={idempotencyKey}
          onRefused={renewAfter}
          onRequested={setPayment}
          onClose={onClose}
        />
      )}
    </Dialog>
  );
}

function PaymentForm({
  terminals,
  defaults,
  idempotencyKey,
  onRefused,
  onRequested,
  onClose,
}: {
  terminals: { id: string; name: string; deviceId: string }[];
  defaults: { terminalId: string; customerId: string | null };
  idempotencyKey: string;
  onRefused: (error: unknown) => void;
  onRequested: (payment: Payment) => void;
  onClose: () => void;
}) {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const notify = useNotify();
  const validAmount = (value: string) => {
    const cents = parseCents(value ?? '', locale);
    return cents !== null && cents >= minAmountCents && cents <= maxAmountCents
      ? undefined
      : 'app.payments.amount_invalid';
  };
  const submit = async (values: Record<string, unknown>) => {
    const amountCents = parseCents(String(values.amount ?? ''), locale);
    if (amountCents === null) return { amount: 'app.payments.amount_invalid' };
    const description = String(values.description ?? '').trim();
    try {
      const payment = await requestPayment(
        {
          terminalId: String(values.terminalId),
          amountCents,
          ...(values.customerId ? { customerId: String(values.customerId) } : {}),
          ...(description ? { description } : {}),
          ...(values.customerId && values.saveCard === true ? { saveCard: true } : {}),
        },
        idempotencyKey,
      );
      onRequested(payment);
      return undefined;
    } catch (error) {
      onRefused(error);
      const fields = formErrorsOrToast(error, (message) => notify(message, { type: 'error' }));
      // The API names amountCents; the form's field is the typed amount. An error left on a
      // name the form has no input for would never clear and block every later submit.
      if (!fields?.amountCents) return fields;
      const { amountCents: amount, ...others } = fields;
      return { ...others, amount };
    }
  };
  return (
    <Form record={{ amount: '', description: '', ...defaults }} onSubmit={submit} noValidate>
      <DialogContent sx={{ display: 'flex', flexDirection: 'column', gap: 0.5 }}>
        <TextInput
          source="amount"
          label={field('amount')}
          parse={asTyped}
          validate={validAmount}
          helperText="app.payments.amount_help"
          autoFocus
          slotProps={{ htmlInput: { inputMode: 'decimal', dir: 'ltr', autoComplete: 'off' } }}
        />
        <CustomerPicker label={field('customer')} />
        <SaveCardInput />
        <TextInput
          source="description"
          label={field('description')}
          parse={asTyped}
          multiline
          validate={maxLength(500, 'app.payments.description_too_long')}
          helperText={false}
        />
        <SelectInput
          source="terminalId"
          label={field('terminal')}
          choices={terminals.map((terminal) => ({
            id: terminal.id,
            name: `${terminal.name} (${terminal.deviceId})`,
          }))}
          validate={(value: string) => (value ? undefined : 'app.validation.required')}
          helperText={false}
        />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{translate('app.payments.cancel')}</Button>
        <ChargeButton />
      </DialogActions>
    </Form>
  );
}

/** "Charge $12.50 CAD" once the amount reads as one, as Stripe's button does. */
function ChargeButton() {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const typed = useWatch({ name: 'amount' }) as string | undefined;
  const { isSubmitting } = useFormState();
  const cents = parseCents(typed ?? '', locale);
  const label =
    cents !== null && cents >= minAmountCents && cents <= maxAmountCents
      ? translate('app.payments.charge', {
          amount: isolatedCents(cents, locale),
        })
      : translate('app.payments.take');
  return (
    <Button type="submit" variant="contained" disabled={isSubmitting}>
      <bdi>{label}</bdi>
    </Button>
  );
}
