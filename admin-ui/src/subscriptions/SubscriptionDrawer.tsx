import Close from '@mui/icons-material/Close';
import {
  Alert,
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Divider,
  Drawer,
  IconButton,
  List,
  ListItem,
  ListItemButton,
  ListItemText,
  Stack,
  Typography,
} from '@mui/material';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useRef, useState } from 'react';
import { useNotify, useRefresh, useTranslate } from 'react-admin';
import { Detail } from '../lists/Detail';
import { useCanTakePayments } from '../payments/access';
import { DateTime, Money } from '../payments/Money';
import { ChangePlanDialog } from './ChangePlanDialog';
import { Interval, InvoiceStatusChip, SubscriptionStatusChip } from './StatusChip';
import {
  actOn,
  allowedActions,
  fetchSubscription,
  type Invoice,
  type Subscription,
  type SubscriptionAction,
} from './subscriptionApi';

const InvoiceDrawer = lazy(() =>
  import('./InvoiceDrawer').then((module) => ({ default: module.InvoiceDrawer })),
);

const subscriptionKey = (id: string) => ['subscriptions', 'getOne', id, 'detail'];
const field = (name: string) => `app.subscriptions.fields.${name}`;

function Period({ start, end }: { start: string | null; end: string | null }) {
  if (!start) return null;
  return (
    <>
      <DateTime iso={start} /> – <DateTime iso={end} />
    </>
  );
}

export function SubscriptionDetails({ subscription: s }: { subscription: Subscription }) {
  const translate = useTranslate();
  return (
    <>
      <Detail label={field('customer')}>
        <bdi>{s.customerName ?? ''}</bdi>
      </Detail>
      <Detail label={field('billing')}>
        <Interval interval={s.interval} count={s.intervalCount} />
      </Detail>
      <Detail label={field('start_at')}>
        <DateTime iso={s.startAt} />
      </Detail>
      {s.trialEndsAt && (
        <Detail label={field('trial_ends_at')}>
          <DateTime iso={s.trialEndsAt} />
        </Detail>
      )}
      {s.currentPeriodStart && (
        <Detail label={field('period')}>
          <Period start={s.currentPeriodStart} end={s.currentPeriodEnd} />
        </Detail>
      )}
      {s.nextInvoiceAt && (
        <Detail label={field('next_bill_at')}>
          <DateTime iso={s.nextInvoiceAt} />
        </Detail>
      )}
      {s.pendingPlanChange && (
        <Detail label={field('plan_change')}>
          <span data-testid="pending-plan-change">
            <bdi>{s.pendingPlanChange.planName}</bdi> ·{' '}
            <Money cents={s.pendingPlanChange.amountCents} />
            {s.nextBillAt && (
              <>
                {' · '}
                {translate('app.subscriptions.change_plan.from')} <DateTime iso={s.nextBillAt} />
              </>
            )}
          </span>
        </Detail>
      )}
      {s.cancelAt && !s.cancelledAt && (
        <Detail label={field('cancel_at')}>
          <span data-testid="scheduled-cancel">
            <DateTime iso={s.cancelAt} />
          </span>
        </Detail>
      )}
      {s.cancelledAt && (
        <Detail label={field('cancelled_at')}>
          <DateTime iso={s.cancelledAt} />
        </Detail>
      )}
      <Detail label={field('id')}>
        <bdi style={{ fontFamily: 'monospace', fontSize: 12 }}>{s.id}</bdi>
      </Detail>
    </>
  );
}

/**
 * The invoices, newest first: number, period, amount, status; each opens its detail (which links
 * to its subscription, unless listed `inSubscription`, in the subscription's own drawer).
 */
export function InvoiceList({
  invoices,
  inSubscription = false,
  ended = false,
}: {
  invoices: Invoice[];
  inSubscription?: boolean;
  /** The subscription ended: no first invoice is coming. */
  ended?: boolean;
}) {
  const translate = useTranslate();
  const [opened, setOpened] = useState<Invoice | null>(null);
  const drawer = opened && (
    <Suspense fallback={null}>
      <InvoiceDrawer
        invoice={opened}
        onClose={() => setOpened(null)}
        inSubscription={inSubscription}
      />
    </Suspense>
  );
  if (invoices.length === 0) {
    return (
      <Typography variant="body2" color="text.secondary">
        {translate(ended ? 'app.subscriptions.no_invoices_ended' : 'app.subscriptions.no_invoices')}
      </Typography>
    );
  }
  return (
    <>
      <List dense disablePadding data-testid="invoices">
        {invoices.map((invoice) => (
          <ListItem key={invoice.id} disablePadding divider>
            <ListItemButton
              onClick={() => setOpened(invoice)}
              sx={{ px: 0.5 }}
              data-testid="invoice"
            >
              <ListItemText
                primary={
                  <Box
                    component="span"
                    sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', alignItems: 'center' }}
                  >
                    <bdi style={{ fontFamily: 'monospace' }}>{invoice.number}</bdi>
                    <Box component="span" sx={{ fontWeight: 600 }}>
                      <Money cents={invoice.amountCents} />
                    </Box>
                    <InvoiceStatusChip status={invoice.status} />
                  </Box>
                }
                secondary={<Period start={invoice.periodStart} end={invoice.periodEnd} />}
                slotProps={{ secondary: { sx: { overflowWrap: 'anywhere' } } }}
              />
            </ListItemButton>
          </ListItem>
        ))}
      </List>
      {drawer}
    </>
  );
}

type Asking = 'pause' | 'cancel' | 'change' | null;

/** Pause, resume and cancel (now or at the end of the period), each after a confirmation. */
function Actions({
  subscription,
  onChanged,
  onSettled,
}: {
  subscription: Subscription;
  onChanged: (s: Subscription) => void;
  /** After an action: the button that asked for it may be gone, so the drawer takes the focus. */
  onSettled: () => void;
}) {
  const translate = useTranslate();
  const notify = useNotify();
  const [asking, setAsking] = useState<Asking>(null);
  const [busy, setBusy] = useState(false);
  // Whether the confirmation closing now ran its action: then the drawer takes the focus once it
  // is gone (it gives the focus back to the button that opened it, which may be gone too).
  const acted = useRef(false);
  const allowed = allowedActions(subscription);
  const run = async (action: SubscriptionAction, done: string, atPeriodEnd = false) => {
    setBusy(true);
    try {
      onChanged(await actOn(subscription.id, action, atPeriodEnd));
      notify(`app.subscriptions.actions.${done}`, { type: 'info' });
    } catch (error) {
      notify((error as Error).message, { type: 'error' });
    } finally {
      setBusy(false);
      acted.current = asking !== null;
      setAsking(null);
    }
  };
  const settled = () => {
    if (acted.current) onSettled();
    acted.current = false;
  };
  const close = () => setAsking(null);
  return (
    <Stack direction="row" sx={{ gap: 1, flexWrap: 'wrap', mt: 2 }}>
      {allowed.pause && (
        <Button variant="outlined" disabled={busy} onClick={() => setAsking('pause')}>
          {translate('app.subscriptions.actions.pause')}
        </Button>
      )}
      {allowed.resume && (
        <Button
          variant="contained"
          disabled={busy}
          onClick={() => void run('resume', 'resumed').then(onSettled)}
        >
          {translate('app.subscriptions.actions.resume')}
        </Button>
      )}
      {allowed.changePlan && (
        <Button variant="outlined" disabled={busy} onClick={() => setAsking('change')}>
          {translate('app.subscriptions.change_plan.action')}
        </Button>
      )}
      {asking === 'change' && (
        <ChangePlanDialog
          subscription={subscription}
          onClose={close}
          onDone={(changed) => {
            onChanged(changed);
            setAsking(null);
          }}
        />
      )}
      {allowed.cancel && (
        <Button
          color="error"
          variant="outlined"
          disabled={busy}
          onClick={() => setAsking('cancel')}
        >
          {translate('app.subscriptions.actions.cancel')}
        </Button>
      )}
      <Dialog
        open={asking === 'pause'}
        onClose={close}
        aria-describedby="pause-text"
        slotProps={{ transition: { onExited: settled } }}
      >
        <DialogContent>
          <Typography id="pause-text">
            {translate('app.subscriptions.actions.pause_confirm')}
          </Typography>
        </DialogContent>
        <DialogActions>
          <Button onClick={close}>{translate('app.subscriptions.actions.keep')}</Button>
          <Button variant="contained" disabled={busy} onClick={() => void run('pause', 'paused')}>
            {translate('app.subscriptions.actions.pause')}
          </Button>
        </DialogActions>
      </Dialog>
      <Dialog
        open={asking === 'cancel'}
        onClose={close}
        slotProps={{ transition: { onExited: settled } }}
        aria-labelledby="cancel-title"
        aria-describedby="cancel-text"
      >
        <DialogTitle id="cancel-title" sx={{ overflowWrap: 'anywhere' }}>
          {translate('app.subscriptions.actions.cancel_title', { plan: subscription.planName })}
        </DialogTitle>
        <DialogContent>
          <Typography id="cancel-text">
            {translate('app.subscriptions.actions.cancel_help')}
          </Typography>
        </DialogContent>
        <DialogActions sx={{ flexWrap: 'wrap', gap: 1 }}>
          <Button onClick={close}>{translate('app.subscriptions.actions.keep')}</Button>
          {allowed.cancelAtPeriodEnd && (
            <Button
              color="error"
              variant="outlined"
              disabled={busy}
              onClick={() => void run('cancel', 'cancel_scheduled', true)}
            >
              {translate('app.subscriptions.actions.cancel_at_end')}
            </Button>
          )}
          <Button
            color="error"
            variant="contained"
            disabled={busy}
            onClick={() => void run('cancel', 'cancelled')}
          >
            {translate('app.subscriptions.actions.cancel_now')}
          </Button>
        </DialogActions>
      </Dialog>
    </Stack>
  );
}

/**
 * One subscription's detail, as a drawer over the list: its plan, amount and status, its periods,
 * its invoices, and pause / resume / cancel.
 */
export function SubscriptionDrawer({
  subscription,
  onClose,
}: {
  subscription: Subscription;
  onClose: () => void;
}) {
  const translate = useTranslate();
  const refresh = useRefresh();
  const queryClient = useQueryClient();
  const canAct = useCanTakePayments();
  const current = useQuery({
    queryKey: subscriptionKey(subscription.id),
    queryFn: () => fetchSubscription(subscription.id),
    refetchInterval: 5000,
    retry: false,
  });
  const shown = current.data ?? subscription;
  const section = useRef<HTMLElement>(null);
  const focusDrawer = () => section.current?.focus();
  const changed = (next: Subscription) => {
    queryClient.setQueryData(subscriptionKey(next.id), next);
    refresh();
  };
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
        ref={section}
        tabIndex={-1}
        aria-labelledby="subscription-title"
        sx={{ p: 2 }}
        data-testid="subscription-drawer"
      >
        <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between' }}>
          <Typography
            id="subscription-title"
            variant="h6"
            component="h2"
            sx={{ overflowWrap: 'anywhere' }}
          >
            <bdi>{shown.planName}</bdi>
          </Typography>
          <IconButton aria-label={translate('app.subscriptions.close')} onClick={onClose}>
            <Close />
          </IconButton>
        </Box>
        <Typography variant="h4" component="p" sx={{ fontWeight: 600, my: 1 }}>
          <Money cents={shown.amountCents} />
        </Typography>
        <SubscriptionStatusChip status={shown.status} />
        {current.error && (
          <Alert severity="error" sx={{ mt: 1 }}>
            {(current.error as Error).message}
          </Alert>
        )}
        <Divider sx={{ my: 2 }} />
        <SubscriptionDetails subscription={shown} />
        {canAct && <Actions subscription={shown} onChanged={changed} onSettled={focusDrawer} />}
        <Divider sx={{ my: 2 }} />
        <Typography variant="subtitle1" component="h3">
          {translate('app.subscriptions.invoices')}
        </Typography>
        {current.isPending ? null : (
          <InvoiceList
            invoices={shown.invoices ?? []}
            inSubscription
            ended={shown.status === 'cancelled'}
          />
        )}
      </Box>
    </Drawer>
  );
}
