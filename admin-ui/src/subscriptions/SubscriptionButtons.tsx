import Add from '@mui/icons-material/Add';
import ViewList from '@mui/icons-material/ViewList';
import { Button as LabelledButton } from '@mui/material';
import { type ReactElement, useState } from 'react';
import { Button, useRefresh, useTranslate } from 'react-admin';
import { useCanTakePayments } from '../payments/access';
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

/** Plans and Subscribe a customer; nothing for a reader (compliance) who may not bill. */
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
  const [open, setOpen] = useState<'plans' | 'subscribe'>();
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
      {open === 'plans' && <PlansDialog onClose={close} />}
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
