import Add from '@mui/icons-material/Add';
import Settings from '@mui/icons-material/Settings';
import ViewList from '@mui/icons-material/ViewList';
import { Button as LabelledButton } from '@mui/material';
import { type ReactElement, useState } from 'react';
import { Button, useRefresh, useTranslate } from 'react-admin';
import { useCanTakePayments } from '../payments/access';
import { BillingSettingsDialog } from './BillingSettingsDialog';
import { PlansDialog } from './PlansDialog';
import { SubscribeDialog } from './SubscribeDialog';

function OpenButton({
  label,
  icon,
  labelled,
  onClick,
}: {
  label: string;
  icon: ReactElement;
  labelled: boolean;
  onClick: () => void;
}) {
  const translate = useTranslate();
  if (!labelled) {
    return (
      <Button label={label} onClick={onClick}>
        {icon}
      </Button>
    );
  }
  return (
    <LabelledButton size="small" variant="outlined" startIcon={icon} onClick={onClick}>
      {translate(label)}
    </LabelledButton>
  );
}

/**
 * Plans, Subscribe a customer and Billing settings (the list's toolbar only); nothing for a reader
 * (compliance), whom the API refuses every change.
 */
export function SubscriptionButtons({
  customerId,
  labelled = false,
  plans = true,
}: {
  customerId?: string;
  labelled?: boolean;
  plans?: boolean;
}) {
  const refresh = useRefresh();
  const canAct = useCanTakePayments();
  const [open, setOpen] = useState<'plans' | 'subscribe' | 'settings'>();
  if (!canAct) return null;
  const close = () => setOpen(undefined);
  return (
    <>
      {plans && (
        <OpenButton
          label="app.subscriptions.plans.action"
          icon={<ViewList />}
          labelled={labelled}
          onClick={() => setOpen('plans')}
        />
      )}
      <OpenButton
        label="app.subscriptions.subscribe.action"
        icon={<Add />}
        labelled={labelled}
        onClick={() => setOpen('subscribe')}
      />
      {plans && (
        <OpenButton
          label="app.subscriptions.settings.action"
          icon={<Settings />}
          labelled={labelled}
          onClick={() => setOpen('settings')}
        />
      )}
      {open === 'plans' && <PlansDialog onClose={close} />}
      {open === 'settings' && <BillingSettingsDialog onClose={close} />}
      {open === 'subscribe' && (
        <SubscribeDialog
          customerId={customerId}
          onClose={close}
          onDone={() => {
            close();
            refresh();
          }}
        />
      )}
    </>
  );
}
