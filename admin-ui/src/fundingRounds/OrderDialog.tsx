import { Alert, Button, DialogContent, Typography } from '@mui/material';
import { useState } from 'react';
import {
  Form,
  NumberInput,
  SelectInput,
  useLocaleState,
  useNotify,
  useTranslate,
} from 'react-admin';
import { useFormState, useWatch } from 'react-hook-form';
import { Actions, CustomerInput, FormDialog, formErrors, required } from '../etransfers/formParts';
import { isolatedCents } from '../payments/money';
import { useTerminals } from '../payments/useTerminals';
import { apiUrl, httpClient } from '../session/http';
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

function Submit() {
  const translate = useTranslate();
  const { isSubmitting } = useFormState();
  return (
    <Button type="submit" variant="contained" disabled={isSubmitting}>
      {translate(label('submit'))}
    </Button>
  );
}

/** An order of the round's tokens for an investor, paid on one of the company's terminals. */
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
  const [idempotencyKey] = useState(() => crypto.randomUUID());
  const whole = (value: unknown) =>
    Number.isInteger(value) && (value as number) >= 1 ? undefined : label('whole');
  const submit = async (values: Record<string, unknown>) => {
    try {
      await httpClient(`${apiUrl}/token-orders`, {
        method: 'POST',
        headers: new Headers({ Accept: 'application/json', 'Idempotency-Key': idempotencyKey }),
        body: JSON.stringify({
          roundId: round.id,
          customerId: values.customerId,
          tokens: Number(values.tokens),
          payment: { method: 'terminal', terminalId: values.terminalId },
        }),
      });
      notify(label('placed'), { type: 'success' });
      onDone();
      return undefined;
    } catch (error) {
      return formErrors(error, notify);
    }
  };
  return (
    <FormDialog id="order-form-title" title={translate(label('title'))} onClose={onClose}>
      <Form
        record={{ customerId: '', tokens: 1, terminalId: activeId }}
        onSubmit={submit}
        noValidate
      >
        <DialogContent sx={{ display: 'flex', flexDirection: 'column', gap: 0.5 }}>
          {terminals.length === 0 && (
            <Alert severity="info">{translate(label('no_terminal'))}</Alert>
          )}
          <CustomerInput autoFocus />
          <NumberInput
            source="tokens"
            label={label('tokens')}
            min={1}
            step={1}
            validate={whole}
            helperText={false}
          />
          <SelectInput
            source="terminalId"
            label={label('terminal')}
            choices={terminals.map((terminal) => ({ id: terminal.id, name: terminal.name }))}
            validate={required}
            helperText={false}
          />
          <Total round={round} />
        </DialogContent>
        <Actions onClose={onClose}>
          <Submit />
        </Actions>
      </Form>
    </FormDialog>
  );
}
