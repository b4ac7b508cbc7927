import { Alert, Button, DialogContent, LinearProgress, Typography } from '@mui/material';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Form, RadioButtonGroupInput, TextInput, useNotify, useTranslate } from 'react-admin';
import { useFormState } from 'react-hook-form';
import { Actions, asTyped, FormDialog, formErrors } from '../etransfers/formParts';
import { useIdempotencyKey } from '../session/idempotencyKey';
import {
  type BillingSettings,
  fetchBillingSettings,
  finalFailureActions,
  saveBillingSettings,
} from './subscriptionApi';
import { retryDaysOf } from './subscriptionLogic';

const label = (name: string) => `app.subscriptions.settings.${name}`;
const settingsKey = ['billing', 'settings'];

function SaveButton() {
  const translate = useTranslate();
  const { isSubmitting } = useFormState();
  return (
    <Button type="submit" variant="contained" disabled={isSubmitting}>
      {translate(label('save'))}
    </Button>
  );
}

const validDays = (value: string) =>
  retryDaysOf(value ?? '') === undefined ? label('retry_invalid') : undefined;

function SettingsForm({ settings, onClose }: { settings: BillingSettings; onClose: () => void }) {
  const translate = useTranslate();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const { idempotencyKey, renewAfter } = useIdempotencyKey();
  const submit = async (values: Record<string, unknown>) => {
    const retryDays = retryDaysOf(String(values.retryDays ?? ''));
    if (!retryDays) return { retryDays: label('retry_invalid') };
    try {
      const saved = await saveBillingSettings(
        { retryDays, afterFinalFailure: values.afterFinalFailure as 'unpaid' | 'cancel' },
        idempotencyKey,
      );
      queryClient.setQueryData(settingsKey, saved);
      notify(label('saved'), { type: 'success' });
      onClose();
      return undefined;
    } catch (error) {
      renewAfter(error);
      return formErrors(error, notify);
    }
  };
  return (
    <Form
      record={{
        retryDays: settings.retryDays.join(', '),
        afterFinalFailure: settings.afterFinalFailure,
      }}
      onSubmit={submit}
      noValidate
    >
      <DialogContent sx={{ display: 'flex', flexDirection: 'column', gap: 0.5 }}>
        <Typography variant="body2" color="text.secondary">
          {translate(label('intro'))}
        </Typography>
        <TextInput
          source="retryDays"
          label={label('retry_days')}
          parse={asTyped}
          validate={validDays}
          helperText={label('retry_help')}
          slotProps={{ htmlInput: { inputMode: 'numeric', dir: 'ltr', autoComplete: 'off' } }}
          autoFocus
        />
        <RadioButtonGroupInput
          source="afterFinalFailure"
          label={label('after_final')}
          choices={finalFailureActions.map((id) => ({ id, name: label(`final.${id}`) }))}
          row={false}
          helperText={false}
        />
      </DialogContent>
      <Actions onClose={onClose}>
        <SaveButton />
      </Actions>
    </Form>
  );
}

/**
 * The company's billing settings (Stripe's "Billing settings", retries): how many days after the
 * first failed collection each retry comes, and what the last failure does to the subscription.
 */
export function BillingSettingsDialog({ onClose }: { onClose: () => void }) {
  const translate = useTranslate();
  const current = useQuery({ queryKey: settingsKey, queryFn: fetchBillingSettings, retry: false });
  return (
    <FormDialog id="billing-settings-title" title={translate(label('title'))} onClose={onClose}>
      {current.isPending && <LinearProgress aria-label={translate(label('title'))} />}
      {current.error && (
        <DialogContent>
          <Alert severity="error">
            {translate(label('load_failed'), { message: (current.error as Error).message })}
          </Alert>
        </DialogContent>
      )}
      {current.data && <SettingsForm settings={current.data} onClose={onClose} />}
      {!current.data && <Actions onClose={onClose}>{null}</Actions>}
    </FormDialog>
  );
}
