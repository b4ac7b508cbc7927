import {
  Alert,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Typography,
  useMediaQuery,
} from '@mui/material';
import type { Theme } from '@mui/material/styles';
import { type ReactNode, useState } from 'react';
import {
  AutocompleteInput,
  Form,
  HttpError,
  ReferenceInput,
  TextInput,
  useLocaleState,
  useNotify,
  useTranslate,
} from 'react-admin';
import { useFormState, useWatch } from 'react-hook-form';
import { formErrorsOrToast } from '../auth/submitErrors';
import { isolatedCents, maxAmountCents, minAmountCents, parseCents } from '../payments/money';
import { refreshBalance } from '../payments/settle';
import { balanceMoved, currentBalanceCents } from './balance';
import {
  type Etransfer,
  matchEtransfer,
  requestMoney,
  sendPayout,
  simulateIncoming,
} from './etransferApi';
import { dayAfter, defaultExpiryDays, expiryInstant } from './etransferLogic';

const field = (name: string) => `app.etransfers.fields.${name}`;

interface CustomerChoice {
  id: string;
  name?: string;
  lastName?: string;
  email: string;
}
const customerText = (customer: CustomerChoice) =>
  [customer.name, customer.lastName].filter(Boolean).join(' ') || customer.email;

/** Text as typed: react-admin would turn a cleared input into null. */
const asTyped = (value: string) => value ?? '';
const trimmed = (value: unknown) => String(value ?? '').trim();
const required = (value: string) => (trimmed(value) ? undefined : 'app.etransfers.required');
const atMost = (max: number) => (value: string) =>
  trimmed(value).length > max ? { message: 'app.etransfers.too_long', args: { max } } : undefined;

/** The dialog every e-transfer form sits in: full screen on a phone. */
function FormDialog({
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

function useAmountRules() {
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

function AmountInput() {
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

function CustomerInput({ autoFocus = false }: { autoFocus?: boolean }) {
  return (
    <ReferenceInput
      source="customerId"
      reference="customers"
      sort={{ field: 'name', order: 'ASC' }}
    >
      <AutocompleteInput
        label={field('customer')}
        optionText={customerText}
        filterToQuery={(q: string) => ({ q })}
        validate={required}
        helperText={false}
        autoFocus={autoFocus}
      />
    </ReferenceInput>
  );
}

/** "Request $12.50 CAD" once the amount reads as one, as Stripe's buttons say. */
function SubmitButton({ label, plain }: { label: string; plain: string }) {
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

function Actions({ onClose, children }: { onClose: () => void; children: ReactNode }) {
  const translate = useTranslate();
  return (
    <DialogActions>
      <Button onClick={onClose}>{translate('app.etransfers.cancel_dialog')}</Button>
      {children}
    </DialogActions>
  );
}

/** The API's field names as the form's inputs (an error left on a name no input has blocks every later submit). */
const formNames: Record<string, string> = { amountCents: 'amount', expiresAt: 'expiresOn' };

/** The API's field messages under the form's inputs: the amount is typed in dollars. */
function formErrors(error: unknown, notify: ReturnType<typeof useNotify>) {
  const fields = formErrorsOrToast(error, (message) => notify(message, { type: 'error' }));
  if (!fields) return undefined;
  return Object.fromEntries(
    Object.entries(fields).map(([name, message]) => [formNames[name] ?? name, message]),
  );
}

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
  const [idempotencyKey] = useState(() => crypto.randomUUID());
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
          <TextInput
            source="expiresOn"
            type="date"
            label={field('expires')}
            parse={asTyped}
            validate={validExpiry}
            helperText="app.etransfers.request.expires_help"
            slotProps={{ inputLabel: { shrink: true } }}
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
  const [idempotencyKey, setIdempotencyKey] = useState(() => crypto.randomUUID());
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
      if (error instanceof HttpError && error.status === 409) {
        // A refused payout recorded nothing: the next try is a new payout.
        setIdempotencyKey(crypto.randomUUID());
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

/** Matches an unmatched incoming e-transfer to a customer; the reason is recorded with the user. */
export function MatchDialog({
  etransfer,
  title,
  onClose,
  onDone,
}: {
  etransfer: Etransfer;
  title: string;
  onClose: () => void;
  onDone: (etransfer: Etransfer) => void;
}) {
  const translate = useTranslate();
  const notify = useNotify();
  const [idempotencyKey] = useState(() => crypto.randomUUID());
  const submit = async (values: Record<string, unknown>) => {
    try {
      const matched = await matchEtransfer(
        etransfer.id,
        { customerId: String(values.customerId), reason: trimmed(values.reason) },
        idempotencyKey,
      );
      notify('app.etransfers.match.done', { type: 'success' });
      onDone(matched);
      return undefined;
    } catch (error) {
      return formErrors(error, notify);
    }
  };
  return (
    <FormDialog id="match-title" title={title} onClose={onClose}>
      <Form record={{ customerId: null, reason: '' }} onSubmit={submit} noValidate>
        <DialogContent sx={{ display: 'flex', flexDirection: 'column', gap: 0.5 }}>
          <CustomerInput autoFocus />
          <TextInput
            source="reason"
            label={field('reason')}
            parse={asTyped}
            multiline
            validate={[required, atMost(500)]}
            helperText="app.etransfers.match.reason_help"
          />
        </DialogContent>
        <Actions onClose={onClose}>
          <Button type="submit" variant="contained">
            {translate('app.etransfers.match.submit')}
          </Button>
        </Actions>
      </Form>
    </FormDialog>
  );
}

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
    /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(trimmed(value)) ? undefined : 'app.etransfers.email_invalid';
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
