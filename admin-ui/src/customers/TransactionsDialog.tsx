import ReceiptLong from '@mui/icons-material/ReceiptLong';
import {
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Typography,
} from '@mui/material';
import { useTranslate } from 'react-admin';
import type { Customer } from './customerApi';

/** A customer's transactions: none exist until payments are built, and it says so. */
export function TransactionsDialog({
  customer,
  open,
  onClose,
}: {
  customer: Pick<Customer, 'email'>;
  open: boolean;
  onClose: () => void;
}) {
  const translate = useTranslate();
  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="sm" aria-labelledby="transactions">
      <DialogTitle id="transactions">
        {translate('app.customers.transactions.title', { email: customer.email })}
      </DialogTitle>
      <DialogContent>
        <Box sx={{ py: 4, textAlign: 'center' }}>
          <ReceiptLong sx={{ fontSize: 56, color: 'text.disabled' }} />
          <Typography>{translate('app.empty.transactions')}</Typography>
        </Box>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{translate('app.customers.actions.close')}</Button>
      </DialogActions>
    </Dialog>
  );
}
