import { Alert, Button, DialogContent, Typography } from '@mui/material';
import {
  Form,
  NumberInput,
  RadioButtonGroupInput,
  SelectInput,
  useLocaleState,
  useNotify,
  useTranslate,
} from 'react-admin';
import { useFormState, useWatch } from 'react-hook-form';
import { Actions, CustomerInput, FormDialog, formErrors, required } from '../etransfers/formParts';
import { isolatedCents } from '../payments/money';
import { useTerminals } from '../payments/useTerminals';
import { apiUrl, errorCode, fieldErrors, httpClient } from '../session/http';
import { useIdempotencyKey } from '../session/idempotencyKey';
import type { Round } from './types';

const label = (name: string) => `app.funding.order_form.${name}`;

function Total({ round }: { round: Round }) {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const tokens = Number(useWatch({ name: 'tokens' }) ?? 0);
  if (!Number.isInteger(tokens) || tokens < 1) return null;
  return (
    <Typography>
      {translate(label('total'), { amount: isolatedCents(tokens * round.tokenPriceCents, locale) })}
    </Typography>
  );
}

const methods = [
  { id: 'terminal', name: label('method_terminal') },
  { id: 'etransfer', name: label('method_etransfer') },
];

/** How the order is paid: on a terminal (pick one), or by an e-transfer request to the investor. */
function PaymentInputs({ terminals }: { terminals: { id: string; name: string }[] }) {
  const translate = useTranslate();
  const method = useWatch({ name: 'method' }) as string | undefined;
  return (
    <>
      <RadioButtonGroupInput
        source="method"
        label={label('method')}
        choices={methods}
        helperText={false}
        row={false}
      />
      {method === 'etransfer' ? (
        <Alert severity="info">{translate(label('etransfer_hint'))}</Alert>
      ) : (
        <>
          {terminals.length === 0 && (
            <Alert severity="info">{translate(label('no_terminal'))}</Alert>
          )}
          <SelectInput
            source="terminalId"
            label={label('terminal')}
            choices={terminals.map((terminal) => ({ id: terminal.id, name: terminal.name }))}
            validate={required}
            helperText={false}
          />
        </>
      )}
    </>
  );
}

function Submit() {
  const translate = useTranslate();
  const { isSubmitting } = useFormState();
  return (
    <Button type="submit" variant="contained" disabled={isSubmitting}>
      {translate(label('submit'))}
    </Button>
  );
}

/**
 * An order of the round's tokens for an investor, paid on one of the company's terminals or by
 * an Interac e-transfer request sent to the investor.
 */
export function OrderDialog({
  round,
  onClose,
  onDone,
}: {
  round: Round;
  onClose: () => void;
  onDone: () => void;
}) {
  const translate = useTranslate();
  const notify = useNotify();
  const { terminals, activeId } = useTerminals();
  const { idempotencyKey, renewAfter } = useIdempotencyKey();
  const whole = (value: unknown) =>
    Number.isInteger(value) && (value as number) >= 1 ? undefined : label('whole');
  /** The API names what the investor lacks (walletAddress, investorStatus): said in the reader's language. */
  const notReady = (lacking: Record<string, string>) => {
    const reasons = [
      ...(lacking.walletAddress ? [translate(label('not_ready_wallet'))] : []),
      ...(lacking.investorStatus ? [translate(label('not_ready_status'))] : []),
    ];
    return { customerId: translate(label('not_ready'), { reasons: reasons.join('; ') }) };
  };
  const submit = async (values: Record<string, unknown>) => {
    try {
      await httpClient(`${apiUrl}/token-orders`, {
        method: 'POST',
        headers: new Headers({ Accept: 'application/json', 'Idempotency-Key': idempotencyKey }),
        body: JSON.stringify({
          roundId: round.id,
          customerId: values.customerId,
          tokens: Number(values.tokens),
          payment:
            values.method === 'etransfer'
              ? { method: 'etransfer' }
              : { method: 'terminal', terminalId: values.terminalId },
        }),
      });
      notify(label(values.method === 'etransfer' ? 'placed_etransfer' : 'placed'), {
        type: 'success',
      });
      onDone();
      return undefined;
    } catch (error) {
      renewAfter(error);
      if (errorCode(error) === 'investor_not_ready') return notReady(fieldErrors(error));
      return formErrors(error, notify);
    }
  };
  return (
    <FormDialog id="order-form-title" title={translate(label('title'))} onClose={onClose}>
      <Form
        record={{ customerId: '', tokens: 1, method: 'terminal', terminalId: activeId }}
        onSubmit={submit}
        noValidate
      >
        <DialogContent sx={{ display: 'flex', flexDirection: 'column', gap: 0.5 }}>
          <CustomerInput autoFocus />
          <NumberInput
            source="tokens"
            label={label('tokens')}
            min={1}
            step={1}
            validate={whole}
            helperText={false}
          />
          <PaymentInputs terminals={terminals} />
          <Total round={round} />
        </DialogContent>
        <Actions onClose={onClose}>
          <Submit />
        </Actions>
      </Form>
    </FormDialog>
  );
}
