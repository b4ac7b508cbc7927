import Autorenew from '@mui/icons-material/Autorenew';
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
import { SavedCards } from '../paymentMethods/SavedCards';
import { Money } from '../payments/Money';
import { Interval, SubscriptionStatusChip } from './StatusChip';
import { SubscriptionButtons } from './SubscriptionButtons';
import { InvoiceList } from './SubscriptionDrawer';
import type { Invoice, Subscription } from './subscriptionApi';

const SubscriptionDrawer = lazy(() =>
  import('./SubscriptionDrawer').then((module) => ({ default: module.SubscriptionDrawer })),
);

const shown = 25;
const newestFirst = { field: 'createdAt', order: 'DESC' } as const;

function SubscriptionItems({
  subscriptions,
  onOpen,
}: {
  subscriptions: Subscription[];
  onOpen: (s: Subscription) => void;
}) {
  return (
    <List dense>
      {subscriptions.map((subscription) => (
        <ListItemButton key={subscription.id} divider onClick={() => onOpen(subscription)}>
          <ListItemText
            primary={
              <Box
                component="span"
                sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', alignItems: 'center' }}
              >
                <bdi style={{ fontWeight: 600 }}>{subscription.planName}</bdi>
                <Money cents={subscription.amountCents} />
                <SubscriptionStatusChip status={subscription.status} />
              </Box>
            }
            secondary={
              <Interval interval={subscription.interval} count={subscription.intervalCount} />
            }
          />
        </ListItemButton>
      ))}
    </List>
  );
}

/** The customer page's subscriptions and invoices, each subscription opening its detail. */
export function CustomerSubscriptionsDialog({
  customer,
  onClose,
}: {
  customer: NamedCustomer & { id: string };
  onClose: () => void;
}) {
  const translate = useTranslate();
  const small = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'), { noSsr: true });
  const [opened, setOpened] = useState<Subscription | null>(null);
  const filter = { customerId: customer.id };
  const pagination = { page: 1, perPage: shown };
  const list = useGetList<Subscription>('subscriptions', { filter, sort: newestFirst, pagination });
  const invoices = useGetList<Invoice>('invoices', {
    filter,
    sort: { field: 'issuedAt', order: 'DESC' },
    pagination,
  });
  const error = list.error ?? invoices.error;
  return (
    <Dialog
      open
      onClose={onClose}
      fullWidth
      fullScreen={small}
      maxWidth="sm"
      aria-labelledby="customer-subscriptions"
    >
      <DialogTitle id="customer-subscriptions" sx={{ overflowWrap: 'anywhere' }}>
        {translate('app.subscriptions.customer_section')} · <CustomerName customer={customer} />
      </DialogTitle>
      <DialogContent>
        {(list.isPending || invoices.isPending) && (
          <LinearProgress aria-label={translate('app.subscriptions.customer_section')} />
        )}
        {error && (
          <Alert severity="error">
            {translate('app.subscriptions.load_failed', { message: (error as Error).message })}
          </Alert>
        )}
        {list.data?.length === 0 && (
          <Box sx={{ py: 4, textAlign: 'center' }}>
            <Autorenew sx={{ fontSize: 56, color: 'text.disabled' }} />
            <Typography>{translate('app.subscriptions.customer_empty')}</Typography>
          </Box>
        )}
        {list.data && list.data.length > 0 && (
          <>
            <Typography variant="body2" color="text.secondary">
              {translate('app.subscriptions.totals', { count: (list.total ?? 0).toLocaleString() })}
            </Typography>
            <SubscriptionItems subscriptions={list.data} onOpen={setOpened} />
          </>
        )}
        {invoices.data && (list.data?.length ?? 0) > 0 && (
          <>
            <Typography variant="subtitle1" component="h3" sx={{ mt: 2 }}>
              {translate('app.subscriptions.invoices')}
            </Typography>
            <InvoiceList invoices={invoices.data} />
          </>
        )}
        <SavedCards customerId={customer.id} />
      </DialogContent>
      <DialogActions sx={{ flexWrap: 'wrap', gap: 1 }}>
        <SubscriptionButtons customerId={customer.id} labelled plans={false} />
        <Button
          component={Link}
          to={`/subscriptions/all?filter=${encodeURIComponent(JSON.stringify(filter))}`}
          onClick={onClose}
        >
          {translate('app.subscriptions.see_all')}
        </Button>
        <Button
          component={Link}
          to={`/subscriptions/invoices?filter=${encodeURIComponent(JSON.stringify(filter))}`}
          onClick={onClose}
        >
          {translate('app.subscriptions.see_invoices')}
        </Button>
        <Button onClick={onClose}>{translate('app.subscriptions.close')}</Button>
      </DialogActions>
      {opened && (
        <Suspense fallback={null}>
          <SubscriptionDrawer subscription={opened} onClose={() => setOpened(null)} />
        </Suspense>
      )}
    </Dialog>
  );
}
