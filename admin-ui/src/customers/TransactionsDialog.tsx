import ReceiptLong from '@mui/icons-material/ReceiptLong';
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
  ListItem,
  ListItemText,
  Typography,
  useMediaQuery,
} from '@mui/material';
import type { Theme } from '@mui/material/styles';
import { type GetListResult, useGetList, useTranslate } from 'react-admin';
import { Link } from 'react-router-dom';
import { DotJoined } from '../layout/DotJoined';
import { DateTime, Money } from '../payments/Money';
import type { Transaction } from '../payments/paymentApi';
import { usePaymentDescription } from '../payments/paymentDescription';
import { kindLabel } from '../payments/statuses';
import { TakePaymentButton } from '../payments/TakePaymentButton';
import { TotalsLine } from '../transactions/TotalsLine';
import { CustomerTitle } from './CustomerName';
import type { Customer } from './customerApi';

const shown = 25;

/** The seed's "view a transaction": the customer's money movements, newest first. */
export function TransactionsDialog({
  customer,
  open,
  onClose,
}: {
  customer: Pick<Customer, 'id' | 'email' | 'name' | 'lastName'>;
  open: boolean;
  onClose: () => void;
}) {
  const translate = useTranslate();
  const describe = usePaymentDescription();
  const small = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'), { noSsr: true });
  const filter = { customerId: customer.id };
  const list = useGetList<Transaction>('transactions', {
    filter,
    sort: { field: 'createdAt', order: 'DESC' },
    pagination: { page: 1, perPage: shown },
  });
  const net = (list.meta as GetListResult['meta'])?.netCents as number | null | undefined;
  return (
    <Dialog
      open={open}
      onClose={onClose}
      fullWidth
      fullScreen={small}
      maxWidth="sm"
      aria-labelledby="transactions"
    >
      <DialogTitle id="transactions" sx={{ overflowWrap: 'anywhere' }}>
        <CustomerTitle message="app.customers.transactions.title" customer={customer} />
      </DialogTitle>
      <DialogContent>
        {list.isPending && <LinearProgress />}
        {list.error && (
          <Alert severity="error">
            {translate('app.transactions.load_failed', {
              message: (list.error as Error).message,
            })}
          </Alert>
        )}
        {list.data?.length === 0 && (
          <Box sx={{ py: 4, textAlign: 'center' }}>
            <ReceiptLong sx={{ fontSize: 56, color: 'text.disabled' }} />
            <Typography>{translate('app.empty.transactions')}</Typography>
          </Box>
        )}
        {list.data && list.data.length > 0 && (
          <>
            <TotalsLine total={list.total ?? list.data.length} netCents={net} />
            <List dense>
              {list.data.map((transaction) => (
                <ListItem key={transaction.id} disableGutters divider>
                  <ListItemText
                    primary={
                      <Box component="span" sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
                        <Box component="span" sx={{ fontWeight: 600 }}>
                          <Money cents={transaction.netCents} />
                        </Box>
                        <span>
                          {translate(kindLabel(transaction.kind), { _: transaction.kind })}
                        </span>
                      </Box>
                    }
                    secondary={
                      <DotJoined
                        parts={[
                          <DateTime key="at" iso={transaction.createdAt} />,
                          transaction.refundReason ?? describe(transaction),
                        ]}
                      />
                    }
                    slotProps={{ secondary: { sx: { overflowWrap: 'anywhere' } } }}
                  />
                </ListItem>
              ))}
            </List>
          </>
        )}
      </DialogContent>
      <DialogActions sx={{ flexWrap: 'wrap' }}>
        <TakePaymentButton customerId={customer.id} labelled />
        <Button
          component={Link}
          to={`/transactions/all?filter=${encodeURIComponent(JSON.stringify(filter))}`}
          onClick={onClose}
        >
          {translate('app.transactions.title')}
        </Button>
        <Button onClick={onClose}>{translate('app.customers.actions.close')}</Button>
      </DialogActions>
    </Dialog>
  );
}
