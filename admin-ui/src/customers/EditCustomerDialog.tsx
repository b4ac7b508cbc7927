import { Alert } from '@mui/material';
import { useState } from 'react';
import { HttpError, useNotify, useRefresh, useTranslate } from 'react-admin';
import { type Customer, saveCustomer } from './customerApi';
import { CustomerInputs, pickEditable } from './customerInputs';
import { DialogForm, submitFailure } from './DialogForm';

/**
 * Edits a customer as the user saw it: the save carries the version it was opened at
 * (`If-Match`), and a change made by someone else meanwhile answers 412 instead of being lost.
 */
export function EditCustomerDialog({
  customer,
  open,
  onClose,
}: {
  customer: Customer;
  open: boolean;
  onClose: () => void;
}) {
  const translate = useTranslate();
  const notify = useNotify();
  const refresh = useRefresh();
  const [conflict, setConflict] = useState(false);
  const close = () => {
    setConflict(false);
    onClose();
  };
  const submit = async (values: Record<string, unknown>) => {
    try {
      await saveCustomer(customer, pickEditable(values));
      notify('app.customers.notices.updated', { type: 'success' });
      refresh();
      close();
      return undefined;
    } catch (error) {
      if (error instanceof HttpError && error.status === 412) {
        setConflict(true);
        notify('app.customers.notices.conflict', { type: 'error' });
        refresh();
        return undefined;
      }
      return submitFailure(error, notify);
    }
  };
  return (
    <DialogForm
      title={`${translate('app.customers.actions.edit')}: ${customer.email}`}
      open={open}
      onClose={close}
      onSubmit={submit}
      record={customer}
      notice={
        conflict && (
          <Alert severity="warning" role="alert">
            {translate('app.customers.notices.conflict')}
          </Alert>
        )
      }
    >
      <CustomerInputs complete />
    </DialogForm>
  );
}
