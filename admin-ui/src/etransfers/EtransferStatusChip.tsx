import { Chip } from '@mui/material';
import { useTranslate } from 'react-admin';
import type { EtransferStatus } from './etransferApi';
import { statusColors } from './etransferLogic';

/** An e-transfer's status as a small coloured label, as Stripe's dashboard shows statuses. */
export function EtransferStatusChip({ status }: { status: EtransferStatus }) {
  const translate = useTranslate();
  return (
    <Chip
      size="small"
      color={statusColors[status] ?? 'default'}
      label={translate(`app.etransfers.status.${status}`, { _: status })}
      data-testid="etransfer-status"
    />
  );
}
