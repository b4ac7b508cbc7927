import { Alert } from '@mui/material';
import { useState } from 'react';
import { HttpError, useNotify, useRefresh, useTranslate } from 'react-admin';
import { CustomerName } from './CustomerName';
import { type Customer, saveCustomer } from './customerApi';
import { CustomerInputs, pickEditable } from './customerInputs';
import { DialogForm, submitFailure } from './DialogForm';

/**
 * Edits a customer as the user saw it: the save carries the version it was opened at
 * (`If-Match`), and a change made by someone else meanwhile answers 412 instead of being lost.
 * Live updates refetch the list under the open dialog, so the customer is held as it was when the
 * dialog opened (the form keeps what the user typed) and a newer version shows the warning at once.
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
  const [openedAs, setOpenedAs] = useState<Customer | undefined>();
  if (open && !openedAs) setOpenedAs(customer);
  if (!open && openedAs) setOpenedAs(undefined);
  const edited = openedAs ?? customer;
  const changedMeanwhile = open && customer.version !== edited.version;
  const close = () => {
    setConflict(false);
    onClose();
  };
  const submit = async (values: Record<string, unknown>) => {
    try {
      await saveCustomer(edited, pickEditable(values));
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
      title={
        <>
          {`${translate('app.customers.actions.edit')}: `}
          <CustomerName customer={customer} />
        </>
      }
      open={open}
      onClose={close}
      onSubmit={submit}
      record={edited}
      notice={
        (conflict || changedMeanwhile) && (
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
