import { Alert, Box, Button, LinearProgress, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useTranslate } from 'react-admin';
import { Link } from 'react-router-dom';
import { EtransferDetails } from './EtransferDrawer';
import { EtransferStatusChip } from './EtransferStatusChip';
import { fetchEtransfer } from './etransferApi';

/**
 * The e-transfer a Transactions row moved money for (a deposit or a payout): its status and
 * details, and a link to it in E-Transfers where its commands are.
 */
export function EtransferSummary({ etransferId }: { etransferId: string }) {
  const translate = useTranslate();
  const etransfer = useQuery({
    queryKey: ['etransfers', 'getOne', etransferId, 'detail'],
    queryFn: () => fetchEtransfer(etransferId),
    retry: false,
  });
  if (etransfer.isPending) return <LinearProgress />;
  if (etransfer.error) return <Alert severity="error">{(etransfer.error as Error).message}</Alert>;
  const filter = encodeURIComponent(JSON.stringify({ q: etransferId }));
  return (
    <Box data-testid="transaction-etransfer">
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap', mb: 1 }}>
        <Typography variant="subtitle1" component="h3">
          {translate(`app.etransfers.kind.${etransfer.data.kind}`)}
        </Typography>
        <EtransferStatusChip status={etransfer.data.status} />
      </Box>
      <EtransferDetails etransfer={etransfer.data} />
      <Button component={Link} to={`/etransfers/all?filter=${filter}`} sx={{ mt: 1 }}>
        {translate('app.etransfers.open_in_list')}
      </Button>
    </Box>
  );
}
