import { HttpError, useDataProvider, useNotify, useRefresh, useTranslate } from 'react-admin';
import type { Customer } from './customerApi';
import { CustomerInputs, pickEditable } from './customerInputs';
import { DialogForm, submitFailure } from './DialogForm';

/**
 * Adds one customer. The seed's toasts: 'Successfully added customer: {email}', or when the email
 * is taken 'Error: Customer may already exists - check email' and the list reloads.
 */
export function AddCustomerDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const translate = useTranslate();
  const dataProvider = useDataProvider();
  const notify = useNotify();
  const refresh = useRefresh();
  const submit = async (values: Record<string, unknown>) => {
    try {
      const { data } = await dataProvider.create<Customer>('customers', {
        data: pickEditable(values),
      });
      notify('app.customers.notices.added', {
        type: 'success',
        messageArgs: { email: data.email },
      });
      refresh();
      onClose();
      return undefined;
    } catch (error) {
      if (error instanceof HttpError && error.status === 409) {
        notify('app.customers.notices.add_failed', { type: 'error' });
        refresh();
        return undefined;
      }
      return submitFailure(error, notify);
    }
  };
  return (
    <DialogForm
      title={translate('app.customers.actions.add')}
      open={open}
      onClose={onClose}
      onSubmit={submit}
      record={{ leadStatus: 'Cold' }}
      submitLabel="app.customers.actions.add"
    >
      <CustomerInputs />
    </DialogForm>
  );
}
