import { Button, DialogContent, Typography } from '@mui/material';
import { useState } from 'react';
import {
  AutocompleteInput,
  Form,
  ReferenceInput,
  TextInput,
  useNotify,
  useTranslate,
} from 'react-admin';
import { useFormState } from 'react-hook-form';
import {
  Actions,
  asTyped,
  CustomerInput,
  FormDialog,
  formErrors,
  required,
  trimmed,
} from '../etransfers/formParts';
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
 * collected with an e-transfer request, the default collection method.
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
  const [idempotencyKey] = useState(() => crypto.randomUUID());
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
        },
        idempotencyKey,
      );
      notify(label('done'), { type: 'success' });
      onDone(created);
      return undefined;
    } catch (error) {
      const fields = formErrors(error, notify);
      return fields && { ...fields, ...(fields.startAt ? { startOn: fields.startAt } : {}) };
    }
  };
  return (
    <FormDialog id="subscribe-title" title={translate(label('title'))} onClose={onClose}>
      <Form
        record={{ customerId: customerId ?? null, planId: null, startOn: '' }}
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
          >
            <AutocompleteInput
              label="app.subscriptions.fields.plan"
              optionText={planText}
              filterToQuery={(q: string) => ({ q })}
              validate={required}
              helperText={false}
            />
          </ReferenceInput>
          <TextInput
            source="startOn"
            type="date"
            label="app.subscriptions.fields.start_on"
            parse={asTyped}
            validate={validStart}
            helperText={label('start_help')}
            slotProps={{ inputLabel: { shrink: true } }}
          />
          <Typography variant="body2" color="text.secondary">
            {translate(label('collection_help'))}
          </Typography>
        </DialogContent>
        <Actions onClose={onClose}>
          <SubmitButton />
        </Actions>
      </Form>
    </FormDialog>
  );
}
