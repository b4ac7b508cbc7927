import { Button, DialogContent } from '@mui/material';
import { Form, TextInput, useNotify, useTranslate } from 'react-admin';
import { useIdempotencyKey } from '../session/idempotencyKey';
import { type Etransfer, matchEtransfer } from './etransferApi';
import {
  Actions,
  asTyped,
  atMost,
  CustomerInput,
  FormDialog,
  field,
  formErrors,
  required,
  trimmed,
} from './formParts';

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
  const { idempotencyKey, renewAfter } = useIdempotencyKey();
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
      renewAfter(error);
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
