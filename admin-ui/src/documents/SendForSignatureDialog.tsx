import { Alert, Button, DialogActions, DialogContent, TextField } from '@mui/material';
import { useState } from 'react';
import {
  AutocompleteArrayInput,
  Form,
  ReferenceArrayInput,
  TextInput,
  useNotify,
  useTranslate,
} from 'react-admin';
import { useFormState } from 'react-hook-form';
import { Actions, CustomerInput, FormDialog, formErrors } from '../etransfers/formParts';
import { useIdempotencyKey } from '../session/idempotencyKey';
import {
  type DocumentRecord,
  requestSignature,
  type SignatureRequestRecord,
  signingUrl,
} from './documentApi';

function SubmitButton() {
  const translate = useTranslate();
  const { isSubmitting } = useFormState();
  return (
    <Button type="submit" variant="contained" disabled={isSubmitting}>
      {translate('app.documents.send.submit')}
    </Button>
  );
}

const atLeastOne = (value: unknown) =>
  Array.isArray(value) && value.length > 0 ? undefined : 'app.etransfers.required';

/** One or more documents to one customer; the link is shown here and sent to the customer. */
export function SendForSignatureDialog({
  document,
  onClose,
}: {
  document: DocumentRecord;
  onClose: () => void;
}) {
  const translate = useTranslate();
  const notify = useNotify();
  const { idempotencyKey, renewAfter } = useIdempotencyKey();
  const [sent, setSent] = useState<SignatureRequestRecord | null>(null);
  const submit = async (values: Record<string, unknown>) => {
    try {
      const message = String(values.message ?? '').trim();
      const created = await requestSignature(
        {
          customerId: String(values.customerId),
          documentIds: values.documentIds as string[],
          ...(message ? { message } : {}),
        },
        idempotencyKey,
      );
      notify('app.documents.send.done', { type: 'success' });
      setSent(created);
      return undefined;
    } catch (error) {
      renewAfter(error);
      return formErrors(error, notify);
    }
  };
  const title = translate('app.documents.send.title');
  if (sent?.signingPath) {
    return (
      <FormDialog id="send-signature-title" title={title} onClose={onClose}>
        <DialogContent>
          <Alert severity="success" sx={{ mb: 2 }}>
            {translate('app.documents.send.done')}
          </Alert>
          <TextField
            label={translate('app.documents.send.link')}
            value={signingUrl(sent.signingPath)}
            fullWidth
            slotProps={{ htmlInput: { readOnly: true, 'data-testid': 'signing-link' } }}
          />
        </DialogContent>
        {/* Sent: nothing is left to cancel; the link can be copied, and the dialog closed. */}
        <DialogActions>
          <Button
            onClick={() =>
              navigator.clipboard.writeText(signingUrl(sent.signingPath ?? '')).then(
                () => notify('app.documents.link_copied', { type: 'info' }),
                (error: Error) => notify(error.message, { type: 'error' }),
              )
            }
          >
            {translate('app.documents.actions.copy_link')}
          </Button>
          <Button variant="contained" onClick={onClose}>
            {translate('app.documents.actions.close')}
          </Button>
        </DialogActions>
      </FormDialog>
    );
  }
  return (
    <FormDialog id="send-signature-title" title={title} onClose={onClose}>
      <Form
        record={{ customerId: document.customerId, documentIds: [document.id], message: '' }}
        onSubmit={submit}
        noValidate
      >
        <DialogContent sx={{ display: 'flex', flexDirection: 'column', gap: 0.5 }}>
          <CustomerInput autoFocus={!document.customerId} />
          <ReferenceArrayInput
            source="documentIds"
            reference="documents"
            sort={{ field: 'updatedAt', order: 'DESC' }}
          >
            <AutocompleteArrayInput
              label="app.documents.send.documents"
              optionText="title"
              filterToQuery={(q: string) => ({ q })}
              validate={atLeastOne}
              helperText={false}
            />
          </ReferenceArrayInput>
          <TextInput
            source="message"
            label="app.documents.fields.message"
            multiline
            helperText={false}
          />
        </DialogContent>
        <Actions onClose={onClose}>
          <SubmitButton />
        </Actions>
      </Form>
    </FormDialog>
  );
}
