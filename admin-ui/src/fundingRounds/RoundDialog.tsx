import { roundHandlePattern } from '@issuer/events/rules';
import { Alert, Button, DialogContent } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import {
  Form,
  SelectInput,
  TextInput,
  useLocaleState,
  useNotify,
  useTranslate,
  type Validator,
} from 'react-admin';
import { useFormState } from 'react-hook-form';
import { DateInput } from '../dates/DateInput';
import {
  Actions,
  asTyped,
  atMost,
  FormDialog,
  formErrors,
  required,
  trimmed,
} from '../etransfers/formParts';
import { centsToTyped, parseCents } from '../payments/money';
import { apiUrl, callApi, httpClient } from '../session/http';
import { useIdempotencyKey } from '../session/idempotencyKey';
import type { Round } from './types';

const label = (name: string) => `app.funding.form.${name}`;
const day = (iso: string) => iso.slice(0, 10);
/** The API's rule for a round's handle (it lower-cases what is typed). */
const validHandle = (value: unknown) =>
  roundHandlePattern.test(trimmed(value).toLowerCase()) ? undefined : label('handle_invalid');

function SaveButton() {
  const translate = useTranslate();
  const { isSubmitting } = useFormState();
  return (
    <Button type="submit" variant="contained" disabled={isSubmitting}>
      {translate(label('save'))}
    </Button>
  );
}

/** A new round (a draft), or a draft's terms changed: amounts typed in dollars, days for the window. */
export function RoundDialog({
  round,
  onClose,
  onDone,
}: {
  round?: Round;
  onClose: () => void;
  onDone: (round: Round) => void;
}) {
  const translate = useTranslate();
  const notify = useNotify();
  const [locale] = useLocaleState();
  const { idempotencyKey, renewAfter } = useIdempotencyKey();
  const classes = useQuery({
    queryKey: ['share-classes', 'choices'],
    queryFn: () => callApi<{ id: string; name: string }[]>('/share-classes?range=[0,99]'),
  });
  const cents = (value: unknown) => parseCents(trimmed(value), locale);
  const amount = (optional: boolean) => (value: unknown) => {
    if (!trimmed(value)) return optional ? undefined : required(trimmed(value));
    const parsed = cents(value);
    return parsed !== null && parsed >= 1 ? undefined : label('amount_invalid');
  };
  /** The rules between the terms, said here in the reader's words before the API says them. */
  /** An amount against another of the form: `wrong(mine, theirs)` says when the pair breaks. */
  const against =
    (other: string, wrong: (mine: number, theirs: number) => boolean, message: string) =>
    (value: unknown, values: Record<string, unknown>) => {
      const mine = trimmed(value) ? cents(value) : null;
      const theirs = trimmed(values[other]) ? cents(values[other]) : null;
      return mine !== null && theirs !== null && wrong(mine, theirs) ? message : undefined;
    };
  const termRules: Record<string, Validator> = {
    maxInvestment: against('minInvestment', (max, min) => max < min, label('max_below_min')),
    minInvestment: against('raiseAmount', (min, raise) => min > raise, label('min_above_raise')),
  };
  const closesAfterOpening = (value: unknown, values: Record<string, unknown>) =>
    trimmed(value) && trimmed(values.opensAt) && trimmed(value) < trimmed(values.opensAt)
      ? label('closes_before_opens')
      : undefined;
  const submit = async (values: Record<string, unknown>) => {
    const optional = (value: unknown) => (trimmed(value) ? cents(value) : null);
    const body = {
      name: trimmed(values.name),
      handle: trimmed(values.handle).toLowerCase(),
      shareClassId: values.shareClassId,
      tokenPriceCents: cents(values.tokenPrice),
      raiseAmountCents: cents(values.raiseAmount),
      minInvestmentCents: optional(values.minInvestment),
      maxInvestmentCents: optional(values.maxInvestment),
      opensAt: `${trimmed(values.opensAt).slice(0, 10)}T00:00:00Z`,
      closesAt: `${trimmed(values.closesAt).slice(0, 10)}T23:59:59Z`,
      description: trimmed(values.description),
    };
    try {
      const { json } = await httpClient(`${apiUrl}/funding-rounds${round ? `/${round.id}` : ''}`, {
        method: round ? 'PUT' : 'POST',
        headers: new Headers({ Accept: 'application/json', 'Idempotency-Key': idempotencyKey }),
        body: JSON.stringify(body),
      });
      notify(label('saved'), { type: 'success' });
      onDone(json as Round);
      return undefined;
    } catch (error) {
      renewAfter(error);
      const fields = formErrors(error, notify) as Record<string, string> | undefined;
      if (!fields) return fields;
      const names: Record<string, string> = {
        tokenPriceCents: 'tokenPrice',
        raiseAmountCents: 'raiseAmount',
        minInvestmentCents: 'minInvestment',
        maxInvestmentCents: 'maxInvestment',
      };
      return Object.fromEntries(Object.entries(fields).map(([k, v]) => [names[k] ?? k, v]));
    }
  };
  const today = new Date().toISOString().slice(0, 10);
  const inMonth = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
  const typed = (value: number | null | undefined) => (value ? centsToTyped(value) : '');
  return (
    <FormDialog
      id="round-form-title"
      title={translate(label(round ? 'edit_title' : 'new_title'))}
      onClose={onClose}
    >
      <Form
        record={{
          name: round?.name ?? '',
          handle: round?.handle ?? '',
          shareClassId: round?.shareClassId ?? '',
          tokenPrice: typed(round?.tokenPriceCents),
          raiseAmount: typed(round?.raiseAmountCents),
          minInvestment: typed(round?.minInvestmentCents),
          maxInvestment: typed(round?.maxInvestmentCents),
          opensAt: round ? day(round.opensAt) : today,
          closesAt: round ? day(round.closesAt) : inMonth,
          description: round?.description ?? '',
        }}
        onSubmit={submit}
        noValidate
      >
        <DialogContent sx={{ display: 'flex', flexDirection: 'column', gap: 0.5 }}>
          {classes.data?.length === 0 && (
            <Alert severity="info">{translate(label('no_classes'))}</Alert>
          )}
          <TextInput
            source="name"
            label={label('name')}
            parse={asTyped}
            validate={[required, atMost(100)]}
            helperText={false}
            autoFocus
          />
          <TextInput
            source="handle"
            label={label('handle')}
            parse={asTyped}
            validate={[required, atMost(100), validHandle]}
            helperText={false}
            slotProps={{ htmlInput: { dir: 'ltr', autoComplete: 'off' } }}
          />
          <SelectInput
            source="shareClassId"
            label={label('share_class')}
            choices={classes.data ?? []}
            isPending={classes.isPending}
            validate={required}
            helperText={false}
          />
          {(['tokenPrice', 'raiseAmount', 'minInvestment', 'maxInvestment'] as const).map(
            (name) => (
              <TextInput
                key={name}
                source={name}
                label={label(
                  {
                    tokenPrice: 'token_price',
                    raiseAmount: 'raise_amount',
                    minInvestment: 'min_investment',
                    maxInvestment: 'max_investment',
                  }[name],
                )}
                parse={asTyped}
                validate={[
                  amount(name === 'minInvestment' || name === 'maxInvestment'),
                  ...(termRules[name] ? [termRules[name]] : []),
                ]}
                helperText={false}
                slotProps={{ htmlInput: { inputMode: 'decimal', dir: 'ltr', autoComplete: 'off' } }}
              />
            ),
          )}
          <DateInput
            source="opensAt"
            label={label('opens_at')}
            validate={required}
            helperText={false}
          />
          <DateInput
            source="closesAt"
            label={label('closes_at')}
            validate={[required, closesAfterOpening]}
            helperText={false}
          />
          <TextInput
            source="description"
            label={label('description')}
            parse={asTyped}
            multiline
            minRows={2}
            validate={atMost(5000)}
            helperText={false}
          />
        </DialogContent>
        <Actions onClose={onClose}>
          <SaveButton />
        </Actions>
      </Form>
    </FormDialog>
  );
}
