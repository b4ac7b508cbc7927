import CallMade from '@mui/icons-material/CallMade';
import CallReceived from '@mui/icons-material/CallReceived';
import Science from '@mui/icons-material/Science';
import { Button as LabelledButton } from '@mui/material';
import { type ReactElement, useState } from 'react';
import { Button, useRefresh, useTranslate } from 'react-admin';
import { useCanTakePayments } from '../payments/access';
import { IncomingDialog } from './IncomingDialog';
import { RequestMoneyDialog } from './RequestMoneyDialog';
import { SendMoneyDialog } from './SendMoneyDialog';
import { useEtransferSandbox } from './useEtransferSandbox';

type Which = 'request' | 'payout' | 'incoming';

const buttons: Record<Which, { label: string; icon: ReactElement }> = {
  request: { label: 'app.etransfers.request.action', icon: <CallReceived /> },
  payout: { label: 'app.etransfers.payout.action', icon: <CallMade /> },
  incoming: { label: 'app.etransfers.simulate.incoming', icon: <Science /> },
};

function OpenButton({
  which,
  labelled,
  onClick,
}: {
  which: Which;
  labelled: boolean;
  onClick: () => void;
}) {
  const { label, icon } = buttons[which];
  if (!labelled) {
    return (
      <Button label={label} onClick={onClick}>
        {icon}
      </Button>
    );
  }
  return <LabelledOpen label={label} icon={icon} onClick={onClick} />;
}

function LabelledOpen({
  label,
  icon,
  onClick,
}: {
  label: string;
  icon: ReactElement;
  onClick: () => void;
}) {
  const translate = useTranslate();
  return (
    <LabelledButton size="small" variant="outlined" startIcon={icon} onClick={onClick}>
      {translate(label)}
    </LabelledButton>
  );
}

/**
 * Request money, Send money and, while the simulator is the provider, Simulate incoming
 * e-transfer; nothing for a reader (compliance) who may not move money. In a toolbar they are
 * react-admin's buttons (an icon alone on a phone); `labelled` keeps the words everywhere.
 */
export function EtransferButtons({
  customerId,
  labelled = false,
  incoming = true,
}: {
  customerId?: string;
  labelled?: boolean;
  incoming?: boolean;
}) {
  const refresh = useRefresh();
  const allowed = useCanTakePayments();
  const sandbox = useEtransferSandbox();
  const [open, setOpen] = useState<Which>();
  if (!allowed) return null;
  const close = () => setOpen(undefined);
  const done = () => {
    close();
    refresh();
  };
  return (
    <>
      <OpenButton which="request" labelled={labelled} onClick={() => setOpen('request')} />
      <OpenButton which="payout" labelled={labelled} onClick={() => setOpen('payout')} />
      {sandbox && incoming && (
        <OpenButton which="incoming" labelled={labelled} onClick={() => setOpen('incoming')} />
      )}
      {open === 'request' && (
        <RequestMoneyDialog customerId={customerId} onClose={close} onDone={done} />
      )}
      {open === 'payout' && (
        <SendMoneyDialog customerId={customerId} onClose={close} onDone={done} />
      )}
      {open === 'incoming' && <IncomingDialog onClose={close} onDone={done} onArrived={refresh} />}
    </>
  );
}
