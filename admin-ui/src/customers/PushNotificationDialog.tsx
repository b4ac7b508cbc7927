import { required, TextInput, useNotify, useRefresh } from 'react-admin';
import { customerDisplayName } from '../lists/customerFilter';
import { CustomerTitle } from './CustomerName';
import { type Customer, sendPushNotification } from './customerApi';
import { DialogForm, submitFailure } from './DialogForm';

/** Sends a push notification; it is recorded and shows in the customer's history. */
export function PushNotificationDialog({
  customer,
  open,
  onClose,
}: {
  customer: Pick<Customer, 'id' | 'email' | 'name' | 'lastName'>;
  open: boolean;
  onClose: () => void;
}) {
  const notify = useNotify();
  const refresh = useRefresh();
  const submit = async (values: Record<string, unknown>) => {
    try {
      await sendPushNotification(customer.id, {
        title: String(values.title ?? ''),
        message: String(values.message ?? ''),
      });
      notify('app.customers.notices.push_sent', {
        type: 'success',
        messageArgs: { name: customerDisplayName(customer) },
      });
      refresh();
      onClose();
      return undefined;
    } catch (error) {
      return submitFailure(error, notify);
    }
  };
  return (
    <DialogForm
      title={<CustomerTitle message="app.customers.push.title" customer={customer} />}
      open={open}
      onClose={onClose}
      onSubmit={submit}
      submitLabel="app.customers.push.send"
    >
      <TextInput
        source="title"
        label="app.customers.push.subject"
        validate={required('app.validation.required')}
      />
      <TextInput
        source="message"
        label="app.customers.push.message"
        multiline
        minRows={3}
        validate={required('app.validation.required')}
      />
    </DialogForm>
  );
}
