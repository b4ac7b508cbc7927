import { maxPlanIntervalCount } from '@issuer/events/rules';
import { Button, DialogContent } from '@mui/material';
import { Form, NumberInput, SelectInput, TextInput, useNotify, useTranslate } from 'react-admin';
import { useFormState } from 'react-hook-form';
import {
  Actions,
  AmountInput,
  asTyped,
  atMost,
  FormDialog,
  formErrors,
  isWholeIn,
  required,
  trimmed,
  useAmountRules,
} from '../etransfers/formParts';
import { centsToTyped } from '../payments/money';
import { useIdempotencyKey } from '../session/idempotencyKey';
import {
  createPlan,
  type Plan,
  type PlanInterval,
  planIntervals,
  updatePlan,
} from './subscriptionApi';

const label = (name: string) => `app.subscriptions.plans.${name}`;

const wholeIn = (min: number, max: number, message: string) => (value: unknown) =>
  isWholeIn(value, min, max) ? undefined : message;

/** As the API counts it: at most a year's worth of the plan's interval (52 weeks, 12 months, 1 year). */
const validIntervalCount = (value: unknown, values: Record<string, unknown>) => {
  const max = maxPlanIntervalCount[values.interval as PlanInterval] ?? 1;
  return isWholeIn(value, 1, max) ? undefined : { message: label('count_invalid'), args: { max } };
};

function SaveButton() {
  const translate = useTranslate();
  const { isSubmitting } = useFormState();
  return (
    <Button type="submit" variant="contained" disabled={isSubmitting}>
      {translate(label('save'))}
    </Button>
  );
}

/** A plan's name, amount in CAD, interval and count, and trial days: new, or the one given. */
export function PlanFormDialog({
  plan,
  onClose,
  onDone,
}: {
  plan?: Plan;
  onClose: () => void;
  onDone: (plan: Plan) => void;
}) {
  const translate = useTranslate();
  const notify = useNotify();
  const { cents } = useAmountRules();
  const { idempotencyKey, renewAfter } = useIdempotencyKey();
  const submit = async (values: Record<string, unknown>) => {
    const amountCents = cents(values.amount);
    if (amountCents === null) return { amount: 'app.etransfers.amount_invalid' };
    const input = {
      name: trimmed(values.name),
      amountCents,
      interval: values.interval as PlanInterval,
      intervalCount: Number(values.intervalCount),
      trialDays: Number(values.trialDays),
    };
    try {
      const saved = plan
        ? await updatePlan(plan.id, input, idempotencyKey)
        : await createPlan(input, idempotencyKey);
      notify(label('saved'), { type: 'success' });
      onDone(saved);
      return undefined;
    } catch (error) {
      renewAfter(error);
      return formErrors(error, notify);
    }
  };
  return (
    <FormDialog
      id="plan-form-title"
      title={translate(plan ? label('edit_title') : label('new'))}
      onClose={onClose}
    >
      <Form
        record={{
          name: plan?.name ?? '',
          amount: plan ? centsToTyped(plan.amountCents) : '',
          interval: plan?.interval ?? 'month',
          intervalCount: plan?.intervalCount ?? 1,
          trialDays: plan?.trialDays ?? 0,
        }}
        onSubmit={submit}
        noValidate
      >
        <DialogContent sx={{ display: 'flex', flexDirection: 'column', gap: 0.5 }}>
          <TextInput
            source="name"
            label={label('name')}
            parse={asTyped}
            validate={[required, atMost(100)]}
            helperText={false}
            autoFocus
          />
          <AmountInput />
          <SelectInput
            source="interval"
            label={label('interval')}
            choices={planIntervals.map((id) => ({
              id,
              name: `app.subscriptions.interval_name.${id}`,
            }))}
            validate={required}
            helperText={false}
          />
          <NumberInput
            source="intervalCount"
            label={label('interval_count')}
            min={1}
            step={1}
            validate={validIntervalCount}
            helperText={false}
          />
          <NumberInput
            source="trialDays"
            label={label('trial_days')}
            min={0}
            step={1}
            validate={wholeIn(0, 730, label('trial_invalid'))}
            helperText={false}
          />
        </DialogContent>
        <Actions onClose={onClose}>
          <SaveButton />
        </Actions>
      </Form>
    </FormDialog>
  );
}
