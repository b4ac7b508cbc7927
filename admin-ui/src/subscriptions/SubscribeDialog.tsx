import { Button, DialogContent } from '@mui/material';
import { Form, ReferenceInput, useNotify, useTranslate } from 'react-admin';
import { useFormState } from 'react-hook-form';
import { DateInput } from '../dates/DateInput';
import {
  Actions,
  asTyped,
  CustomerInput,
  FormDialog,
  formErrors,
  required,
  trimmed,
} from '../etransfers/formParts';
import { TranslatedAutocompleteInput } from '../i18n/autocompleteTexts';
import { pickerQueryOptions } from '../live/liveResources';
import { CollectionMethodInput } from '../paymentMethods/CardOnFileInput';
import { useIdempotencyKey } from '../session/idempotencyKey';
import { type Plan, type Subscription, subscribe } from './subscriptionApi';
import { startInstant } from './subscriptionLogic';

const label = (name: string) => `app.subscriptions.subscribe.${name}`;

function SubmitButton() {
  const translate = useTranslate();
  const { isSubmitting } = useFormState();
  return (
    <Button type="submit" variant="contained" disabled={isSubmitting}>
      {translate(label('submit'))}
    </Button>
  );
}

const planText = (plan: Plan) => plan.name;

/**
 * Subscribe a customer to an active plan from a start date (today when empty); each invoice is
 * collected with an e-transfer request (the default) or by charging the customer's card on file.
 */
export function SubscribeDialog({
  customerId,
  onClose,
  onDone,
}: {
  customerId?: string;
  onClose: () => void;
  onDone: (subscription: Subscription) => void;
}) {
  const translate = useTranslate();
  const notify = useNotify();
  const { idempotencyKey, renewAfter } = useIdempotencyKey();
  const validStart = (value: string) =>
    startInstant(trimmed(value), new Date()) === undefined ? label('start_invalid') : undefined;
  const submit = async (values: Record<string, unknown>) => {
    const startAt = startInstant(trimmed(values.startOn), new Date());
    if (startAt === undefined) return { startOn: label('start_invalid') };
    try {
      const created = await subscribe(
        {
          customerId: String(values.customerId),
          planId: String(values.planId),
          ...(startAt ? { startAt } : {}),
          ...(values.collectionMethod === 'card'
            ? {
                collectionMethod: 'card' as const,
                ...(values.paymentMethodId
                  ? { paymentMethodId: String(values.paymentMethodId) }
                  : {}),
              }
            : {}),
        },
        idempotencyKey,
      );
      notify(label('done'), { type: 'success' });
      onDone(created);
      return undefined;
    } catch (error) {
      renewAfter(error);
      const fields = formErrors(error, notify);
      return fields && { ...fields, ...(fields.startAt ? { startOn: fields.startAt } : {}) };
    }
  };
  return (
    <FormDialog id="subscribe-title" title={translate(label('title'))} onClose={onClose}>
      <Form
        record={{
          customerId: customerId ?? null,
          planId: null,
          startOn: '',
          collectionMethod: 'etransfer',
        }}
        onSubmit={submit}
        noValidate
      >
        <DialogContent sx={{ display: 'flex', flexDirection: 'column', gap: 0.5 }}>
          <CustomerInput autoFocus={!customerId} />
          <ReferenceInput
            source="planId"
            reference="plans"
            filter={{ status: 'active' }}
            sort={{ field: 'name', order: 'ASC' }}
            queryOptions={pickerQueryOptions}
          >
            <TranslatedAutocompleteInput
              label="app.subscriptions.fields.plan"
              optionText={planText}
              filterToQuery={(q: string) => ({ q })}
              validate={required}
              helperText={false}
            />
          </ReferenceInput>
          <DateInput
            source="startOn"
            label="app.subscriptions.fields.start_on"
            parse={asTyped}
            validate={validStart}
            helperText={label('start_help')}
          />
          <CollectionMethodInput />
        </DialogContent>
        <Actions onClose={onClose}>
          <SubmitButton />
        </Actions>
      </Form>
    </FormDialog>
  );
}
