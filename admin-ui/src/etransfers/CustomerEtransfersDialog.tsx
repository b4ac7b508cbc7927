import SwapHoriz from '@mui/icons-material/SwapHoriz';
import {
  Alert,
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  LinearProgress,
  List,
  ListItemButton,
  ListItemText,
  Typography,
  useMediaQuery,
} from '@mui/material';
import type { Theme } from '@mui/material/styles';
import { lazy, Suspense, useState } from 'react';
import { useGetList, useTranslate } from 'react-admin';
import { Link } from 'react-router-dom';
import { CustomerName } from '../customers/CustomerName';
import type { NamedCustomer } from '../lists/customerFilter';
import { DateTime, Money } from '../payments/Money';
import { EtransferButtons } from './EtransferButtons';
import { EtransferStatusChip } from './EtransferStatusChip';
import type { Etransfer } from './etransferApi';
import { signedCents } from './etransferLogic';

const EtransferDrawer = lazy(() =>
  import('./EtransferDrawer').then((module) => ({ default: module.EtransferDrawer })),
);

const shown = 25;

/** The customer page's e-transfers: newest first, each opening its detail, with Request/Send money. */
export function CustomerEtransfersDialog({
  customer,
  onClose,
}: {
  customer: NamedCustomer & { id: string };
  onClose: () => void;
}) {
  const translate = useTranslate();
  const small = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'), { noSsr: true });
  const [opened, setOpened] = useState<Etransfer | null>(null);
  const filter = { customerId: customer.id };
  const list = useGetList<Etransfer>('etransfers', {
    filter,
    sort: { field: 'createdAt', order: 'DESC' },
    pagination: { page: 1, perPage: shown },
  });
  return (
    <Dialog
      open
      onClose={onClose}
      fullWidth
      fullScreen={small}
      maxWidth="sm"
      aria-labelledby="customer-etransfers"
    >
      <DialogTitle id="customer-etransfers" sx={{ overflowWrap: 'anywhere' }}>
        {translate('app.etransfers.customer_section')} · <CustomerName customer={customer} />
      </DialogTitle>
      <DialogContent>
        {list.isPending && <LinearProgress />}
        {list.error && (
          <Alert severity="error">
            {translate('app.etransfers.load_failed', { message: (list.error as Error).message })}
          </Alert>
        )}
        {list.data?.length === 0 && (
          <Box sx={{ py: 4, textAlign: 'center' }}>
            <SwapHoriz sx={{ fontSize: 56, color: 'text.disabled' }} />
            <Typography>{translate('app.etransfers.customer_empty')}</Typography>
          </Box>
        )}
        {list.data && list.data.length > 0 && (
          <>
            <Typography variant="body2" color="text.secondary">
              {translate('app.etransfers.totals', { count: (list.total ?? 0).toLocaleString() })}
            </Typography>
            <List dense>
              {list.data.map((etransfer) => (
                <ListItemButton key={etransfer.id} divider onClick={() => setOpened(etransfer)}>
                  <ListItemText
                    primary={
                      <Box
                        component="span"
                        sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', alignItems: 'center' }}
                      >
                        <Box component="span" sx={{ fontWeight: 600 }}>
                          <Money cents={signedCents(etransfer)} />
                        </Box>
                        <span>{translate(`app.etransfers.kind.${etransfer.kind}`)}</span>
                        <EtransferStatusChip status={etransfer.status} />
                      </Box>
                    }
                    secondary={
                      <>
                        <DateTime iso={etransfer.createdAt} />
                        {(etransfer.reference ?? etransfer.message) &&
                          ` · ${etransfer.reference ?? etransfer.message}`}
                      </>
                    }
                    slotProps={{ secondary: { sx: { overflowWrap: 'anywhere' } } }}
                  />
                </ListItemButton>
              ))}
            </List>
          </>
        )}
      </DialogContent>
      <DialogActions sx={{ flexWrap: 'wrap', gap: 1 }}>
        <EtransferButtons customerId={customer.id} labelled incoming={false} />
        <Button
          component={Link}
          to={`/etransfers/all?filter=${encodeURIComponent(JSON.stringify(filter))}`}
          onClick={onClose}
        >
          {translate('app.etransfers.see_all')}
        </Button>
        <Button onClick={onClose}>{translate('app.etransfers.close')}</Button>
      </DialogActions>
      {opened && (
        <Suspense fallback={null}>
          <EtransferDrawer etransfer={opened} onClose={() => setOpened(null)} />
        </Suspense>
      )}
    </Dialog>
  );
}
