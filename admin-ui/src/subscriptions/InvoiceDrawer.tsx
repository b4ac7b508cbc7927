import Close from '@mui/icons-material/Close';
import SwapHoriz from '@mui/icons-material/SwapHoriz';
import { Alert, Box, Button, Divider, Drawer, IconButton, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useState } from 'react';
import { useTranslate } from 'react-admin';
import { EtransferStatusChip } from '../etransfers/EtransferStatusChip';
import { fetchEtransfer } from '../etransfers/etransferApi';
import { Detail } from '../lists/Detail';
import { DateTime, Money } from '../payments/Money';
import { InvoiceStatusChip } from './StatusChip';
import { fetchInvoice, fetchSubscription, type Invoice } from './subscriptionApi';

const SubscriptionDrawer = lazy(() =>
  import('./SubscriptionDrawer').then((module) => ({ default: module.SubscriptionDrawer })),
);
const EtransferDrawer = lazy(() =>
  import('../etransfers/EtransferDrawer').then((module) => ({ default: module.EtransferDrawer })),
);

const field = (name: string) => `app.subscriptions.invoice.${name}`;
export const invoiceKey = (id: string) => ['invoices', 'getOne', id, 'detail'];

/** The invoice's e-transfer request: its status and amount, opening its detail. */
function EtransferLink({ etransferId, onOpen }: { etransferId: string; onOpen: () => void }) {
  const translate = useTranslate();
  const etransfer = useQuery({
    queryKey: ['etransfers', 'getOne', etransferId, 'detail'],
    queryFn: () => fetchEtransfer(etransferId),
    retry: false,
  });
  return (
    <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap', mt: 1 }}>
      <Button
        variant="outlined"
        startIcon={<SwapHoriz />}
        onClick={onOpen}
        data-testid="invoice-etransfer-link"
      >
        {translate(field('open_etransfer'))}
      </Button>
      {etransfer.data && <EtransferStatusChip status={etransfer.data.status} />}
    </Box>
  );
}

function InvoiceDetails({
  invoice,
  onOpenSubscription,
}: {
  invoice: Invoice;
  onOpenSubscription?: () => void;
}) {
  return (
    <>
      <Detail label="app.subscriptions.fields.customer">
        <bdi>{invoice.customerName ?? ''}</bdi>
      </Detail>
      <Detail label="app.subscriptions.fields.plan">
        {onOpenSubscription ? (
          <Button size="small" onClick={onOpenSubscription} data-testid="invoice-subscription-link">
            <bdi>{invoice.planName}</bdi>
          </Button>
        ) : (
          <bdi>{invoice.planName}</bdi>
        )}
      </Detail>
      <Detail label="app.subscriptions.fields.invoice_period">
        <DateTime iso={invoice.periodStart} /> – <DateTime iso={invoice.periodEnd} />
      </Detail>
      <Detail label={field('issued_at')}>
        <DateTime iso={invoice.issuedAt} />
      </Detail>
      <Detail label={field('attempts')}>{invoice.attempts.toLocaleString()}</Detail>
      {invoice.status === 'open' && invoice.nextAttemptAt && (
        <Detail label={field('next_attempt_at')}>
          <DateTime iso={invoice.nextAttemptAt} />
        </Detail>
      )}
      {invoice.paidAt && (
        <Detail label={field('paid_at')}>
          <DateTime iso={invoice.paidAt} />
        </Detail>
      )}
      {invoice.closedAt && invoice.status !== 'paid' && (
        <Detail label={field('closed_at')}>
          <DateTime iso={invoice.closedAt} />
        </Detail>
      )}
      <Detail label={field('id')}>
        <bdi style={{ fontFamily: 'monospace', fontSize: 12 }}>{invoice.id}</bdi>
      </Detail>
    </>
  );
}

/**
 * One invoice's detail, as a drawer: number, amount, status, customer, plan, period, its
 * collection attempts and the e-transfer request that collects it (opened over this drawer; from
 * an e-transfer's own drawer, `onBack` returns to it instead of opening another), and its
 * subscription (unless opened from the subscription's own drawer: `inSubscription`).
 */
export function InvoiceDrawer({
  invoice,
  onClose,
  onBack,
  inSubscription = false,
}: {
  invoice: Pick<Invoice, 'id'> & Partial<Invoice>;
  onClose: () => void;
  onBack?: () => void;
  inSubscription?: boolean;
}) {
  const translate = useTranslate();
  const [etransferOpen, setEtransferOpen] = useState(false);
  const [subscriptionOpen, setSubscriptionOpen] = useState(false);
  const current = useQuery({
    queryKey: invoiceKey(invoice.id),
    queryFn: () => fetchInvoice(invoice.id),
    refetchInterval: 5000,
    retry: false,
  });
  const shown = current.data;
  const etransferId = shown?.etransferId;
  return (
    <Drawer
      anchor="right"
      open
      onClose={onClose}
      // Over the dialog it may open from (the customer page's): a drawer sits below modals.
      sx={{ zIndex: 'modal' }}
      slotProps={{ paper: { sx: { width: { xs: '100vw', sm: 440 } } } }}
    >
      <Box
        component="section"
        aria-labelledby="invoice-title"
        sx={{ p: 2 }}
        data-testid="invoice-drawer"
      >
        <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between' }}>
          <Typography id="invoice-title" variant="h6" component="h2">
            {translate(field('title'))}{' '}
            <bdi style={{ fontFamily: 'monospace' }}>{shown?.number ?? invoice.number ?? ''}</bdi>
          </Typography>
          <IconButton aria-label={translate('app.subscriptions.close')} onClick={onClose}>
            <Close />
          </IconButton>
        </Box>
        {current.error && (
          <Alert severity="error" sx={{ mt: 1 }}>
            {(current.error as Error).message}
          </Alert>
        )}
        {current.isPending && (
          <Typography color="text.secondary" sx={{ my: 2 }}>
            {translate('ra.page.loading')}
          </Typography>
        )}
        {shown && (
          <>
            <Typography variant="h4" component="p" sx={{ fontWeight: 600, my: 1 }}>
              <Money cents={shown.amountCents} />
            </Typography>
            <InvoiceStatusChip status={shown.status} />
            <Divider sx={{ my: 2 }} />
            <InvoiceDetails
              invoice={shown}
              onOpenSubscription={inSubscription ? undefined : () => setSubscriptionOpen(true)}
            />
            <Divider sx={{ my: 2 }} />
            <Typography variant="subtitle1" component="h3">
              {translate(shown.paymentId ? 'app.cards.method_card' : field('etransfer'))}
            </Typography>
            {shown.paymentId ? (
              <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }}>
                {translate('app.cards.invoice_charged')} <bdi dir="ltr">{shown.paymentId}</bdi>
              </Typography>
            ) : etransferId ? (
              <EtransferLink
                etransferId={etransferId}
                onOpen={() => (onBack ? onBack() : setEtransferOpen(true))}
              />
            ) : (
              <Typography variant="body2" color="text.secondary">
                {translate(field('no_etransfer'))}
              </Typography>
            )}
          </>
        )}
      </Box>
      {etransferOpen && etransferId && (
        <Suspense fallback={null}>
          <EtransferById
            id={etransferId}
            onClose={() => setEtransferOpen(false)}
            onBack={() => setEtransferOpen(false)}
          />
        </Suspense>
      )}
      {subscriptionOpen && shown && (
        <Suspense fallback={null}>
          <SubscriptionById id={shown.subscriptionId} onClose={() => setSubscriptionOpen(false)} />
        </Suspense>
      )}
    </Drawer>
  );
}

/** The subscription drawer once its subscription is loaded. */
function SubscriptionById({ id, onClose }: { id: string; onClose: () => void }) {
  const subscription = useQuery({
    queryKey: ['subscriptions', 'getOne', id, 'detail'],
    queryFn: () => fetchSubscription(id),
    retry: false,
  });
  if (!subscription.data) return null;
  return <SubscriptionDrawer subscription={subscription.data} onClose={onClose} />;
}

/** The e-transfer drawer once its e-transfer is loaded. */
function EtransferById({
  id,
  onClose,
  onBack,
}: {
  id: string;
  onClose: () => void;
  onBack: () => void;
}) {
  const etransfer = useQuery({
    queryKey: ['etransfers', 'getOne', id, 'detail'],
    queryFn: () => fetchEtransfer(id),
    retry: false,
  });
  if (!etransfer.data) return null;
  return <EtransferDrawer etransfer={etransfer.data} onClose={onClose} onBack={onBack} />;
}
