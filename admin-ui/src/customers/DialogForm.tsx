import { Button, Dialog, DialogActions, DialogContent, DialogTitle } from '@mui/material';
import type { ReactNode } from 'react';
import { Form, type RaRecord, type useNotify, useTranslate } from 'react-admin';
import { formErrorsOrToast } from '../auth/submitErrors';

/**
 * A react-admin form in a dialog: the inputs, Cancel and a submit button. `onSubmit` may answer
 * field errors (`{ email: '…' }`), which appear under the inputs.
 */
export function DialogForm({
  title,
  open,
  onClose,
  onSubmit,
  record,
  submitLabel = 'app.customers.actions.save',
  children,
  notice,
}: {
  title: ReactNode;
  open: boolean;
  onClose: () => void;
  onSubmit: (values: Record<string, unknown>) => Promise<Record<string, string> | undefined>;
  record?: Partial<RaRecord>;
  submitLabel?: string;
  children: ReactNode;
  notice?: ReactNode;
}) {
  const translate = useTranslate();
  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="sm" aria-labelledby="dialog-title">
      <DialogTitle id="dialog-title">{title}</DialogTitle>
      <Form record={record} onSubmit={onSubmit} noValidate>
        <DialogContent sx={{ display: 'flex', flexDirection: 'column', gap: 0.5 }}>
          {notice}
          {children}
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>{translate('app.customers.actions.cancel')}</Button>
          <Button type="submit" variant="contained">
            {translate(submitLabel)}
          </Button>
        </DialogActions>
      </Form>
    </Dialog>
  );
}

/** A failed submit: the server's field messages go under the inputs, anything else to a toast. */
export function submitFailure(
  error: unknown,
  notify: ReturnType<typeof useNotify>,
): Record<string, string> | undefined {
  return formErrorsOrToast(error, (message) => notify(message, { type: 'error' }));
}
