import { parValuePattern } from '@issuer/events/rules';
import { Button, DialogContent } from '@mui/material';
import {
  Form,
  NumberInput,
  SelectInput,
  TextInput,
  useLocaleState,
  useNotify,
  useTranslate,
} from 'react-admin';
import { useFormState } from 'react-hook-form';
import {
  Actions,
  asTyped,
  atMost,
  FormDialog,
  formErrors,
  isWholeIn,
  required,
  trimmed,
} from '../etransfers/formParts';
import { apiUrl, httpClient } from '../session/http';
import { useIdempotencyKey } from '../session/idempotencyKey';

const label = (name: string) => `app.captable.form.${name}`;

/** Par value as the API takes it (a dot for decimals); a decimal comma, as Turkish types it, is read too. */
const parValueOf = (value: unknown) => trimmed(value).replace(',', '.');
const validParValue = (value: unknown) =>
  !trimmed(value) || parValuePattern.test(parValueOf(value)) ? undefined : label('par_invalid');

function SaveButton() {
  const translate = useTranslate();
  const { isSubmitting } = useFormState();
  return (
    <Button type="submit" variant="contained" disabled={isSubmitting}>
      {translate(label('save'))}
    </Button>
  );
}

/** A new share class: name, kind, votes per share, authorized count, liquidation terms. */
export function ShareClassDialog({ onClose, onDone }: { onClose: () => void; onDone: () => void }) {
  const translate = useTranslate();
  const notify = useNotify();
  const { idempotencyKey, renewAfter } = useIdempotencyKey();
  const [locale] = useLocaleState();
  const wholeIn = (min: number, max: number) => (value: unknown) =>
    isWholeIn(value, min, max)
      ? undefined
      : {
          message: label('whole_in'),
          args: { min: min.toLocaleString(locale), max: max.toLocaleString(locale) },
        };
  const submit = async (values: Record<string, unknown>) => {
    const body = {
      name: trimmed(values.name),
      kind: values.kind,
      votesPerShare: Number(values.votesPerShare),
      authorized: Number(values.authorized),
      liquidationPreferenceMultiple: Number(values.liquidationPreferenceMultiple),
      seniority: Number(values.seniority),
      ...(trimmed(values.parValue) ? { parValue: parValueOf(values.parValue) } : {}),
    };
    try {
      await httpClient(`${apiUrl}/share-classes`, {
        method: 'POST',
        headers: new Headers({ Accept: 'application/json', 'Idempotency-Key': idempotencyKey }),
        body: JSON.stringify(body),
      });
      notify(label('saved'), { type: 'success' });
      onDone();
      return undefined;
    } catch (error) {
      renewAfter(error);
      return formErrors(error, notify);
    }
  };
  return (
    <FormDialog id="share-class-form-title" title={translate(label('title'))} onClose={onClose}>
      <Form
        record={{
          name: '',
          kind: 'common',
          votesPerShare: 1,
          authorized: 10_000_000,
          parValue: '',
          liquidationPreferenceMultiple: 1,
          seniority: 0,
        }}
        onSubmit={submit}
        noValidate
      >
        <DialogContent sx={{ display: 'flex', flexDirection: 'column', gap: 0.5 }}>
          <TextInput
            source="name"
            label={label('name')}
            parse={asTyped}
            validate={[required, atMost(100)]}
            helperText={false}
            autoFocus
          />
          <SelectInput
            source="kind"
            label={label('kind')}
            choices={['common', 'preferred'].map((id) => ({
              id,
              name: `app.captable.kinds.${id}`,
            }))}
            validate={required}
            helperText={false}
          />
          <NumberInput
            source="votesPerShare"
            label={label('votes')}
            min={0}
            step={1}
            validate={wholeIn(0, 1000)}
            helperText={false}
          />
          <NumberInput
            source="authorized"
            label={label('authorized')}
            min={1}
            step={1}
            validate={wholeIn(1, 1_000_000_000_000_000)}
            helperText={false}
          />
          <TextInput
            source="parValue"
            label={label('par_value')}
            validate={validParValue}
            helperText={false}
            slotProps={{ htmlInput: { inputMode: 'decimal', dir: 'ltr', autoComplete: 'off' } }}
          />
          <NumberInput
            source="liquidationPreferenceMultiple"
            label={label('preference')}
            min={0}
            step={0.5}
            helperText={false}
          />
          <NumberInput
            source="seniority"
            label={label('seniority')}
            min={0}
            step={1}
            validate={wholeIn(0, 100)}
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
