import { Button, DialogContent, Typography } from '@mui/material';
import { Form, useGetList, useLocaleState, useNotify, useTranslate } from 'react-admin';
import { useFormState } from 'react-hook-form';
import { Actions, FormDialog, formErrors, required } from '../etransfers/formParts';
import { TranslatedAutocompleteInput } from '../i18n/autocompleteTexts';
import { Detail } from '../lists/Detail';
import { pickerQueryOptions } from '../live/liveResources';
import { DateTime, Money } from '../payments/Money';
import { isolatedCents } from '../payments/money';
import { useIdempotencyKey } from '../session/idempotencyKey';
import { Interval } from './StatusChip';
import { changePlan, type Plan, type Subscription } from './subscriptionApi';

const label = (name: string) => `app.subscriptions.change_plan.${name}`;

function SubmitButton() {
  const translate = useTranslate();
  const { isSubmitting } = useFormState();
  return (
    <Button type="submit" variant="contained" disabled={isSubmitting}>
      {translate(label('submit'))}
    </Button>
  );
}

/**
 * Change plan from the next period (as Stripe's "at the end of the billing period"): the current
 * period stays on its plan, the next invoice is the new plan's. The current plan is not offered.
 */
export function ChangePlanDialog({
  subscription,
  onClose,
  onDone,
}: {
  subscription: Subscription;
  onClose: () => void;
  onDone: (subscription: Subscription) => void;
}) {
  const translate = useTranslate();
  const notify = useNotify();
  const [locale] = useLocaleState();
  const { idempotencyKey, renewAfter } = useIdempotencyKey();
  const plans = useGetList<Plan>('plans', {
    filter: { status: 'active' },
    sort: { field: 'name', order: 'ASC' },
    pagination: { page: 1, perPage: 100 },
    meta: pickerQueryOptions.meta,
  });
  // The plan it is on now is no change.
  const choices = (plans.data ?? []).filter((plan) => plan.id !== subscription.planId);
  const planText = (plan: Plan) =>
    `${plan.name} · ${isolatedCents(plan.amountCents, locale)} · ${translate(
      `app.subscriptions.interval.${plan.interval}`,
      { smart_count: plan.intervalCount },
    )}`;
  const submit = async (values: Record<string, unknown>) => {
    try {
      const changed = await changePlan(subscription.id, String(values.planId), idempotencyKey);
      notify(label('done'), { type: 'success' });
      onDone(changed);
      return undefined;
    } catch (error) {
      renewAfter(error);
      return formErrors(error, notify);
    }
  };
  return (
    <FormDialog id="change-plan-title" title={translate(label('title'))} onClose={onClose}>
      <Form record={{ planId: null }} onSubmit={submit} noValidate>
        <DialogContent sx={{ display: 'flex', flexDirection: 'column', gap: 0.5 }}>
          <Detail label={label('current')}>
            <bdi>{subscription.planName}</bdi> · <Money cents={subscription.amountCents} /> ·{' '}
            <Interval interval={subscription.interval} count={subscription.intervalCount} />
          </Detail>
          <TranslatedAutocompleteInput
            source="planId"
            label={label('new_plan')}
            choices={choices}
            optionText={planText}
            isPending={plans.isPending}
            validate={required}
            helperText={plans.data && choices.length === 0 ? label('no_other') : false}
            autoFocus
          />
          <Typography variant="body2" color="text.secondary" data-testid="change-plan-when">
            {subscription.nextBillAt ? (
              <>
                {translate(label('applies_on'))} <DateTime iso={subscription.nextBillAt} />
              </>
            ) : (
              translate(label('applies_next'))
            )}
          </Typography>
        </DialogContent>
        <Actions onClose={onClose}>
          <SubmitButton />
        </Actions>
      </Form>
    </FormDialog>
  );
}
