import Close from '@mui/icons-material/Close';
import ReceiptLong from '@mui/icons-material/ReceiptLong';
import {
  Alert,
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  Divider,
  Drawer,
  IconButton,
  Stack,
  Typography,
} from '@mui/material';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useState } from 'react';
import { useLocaleState, useNotify, useRefresh, useTranslate } from 'react-admin';
import { Detail } from '../lists/Detail';
import { useCanTakePayments } from '../payments/access';
import { DateTime, Money } from '../payments/Money';
import { isolatedCents } from '../payments/money';
import { refreshBalance } from '../payments/settle';
import { EtransferStatusChip } from './EtransferStatusChip';
import { cancelEtransfer, type Etransfer, fetchEtransfer, simulateAnswer } from './etransferApi';
import {
  canSimulateAnswer,
  endedWithoutMoney,
  isOpenRequest,
  isUnmatched,
  movedMoney,
  signedCents,
} from './etransferLogic';
import { MatchDialog } from './MatchDialog';
import { changedEtransfer, useEtransferSandbox } from './useEtransferSandbox';

const etransferKey = (id: string) => ['etransfers', 'getOne', id, 'detail'];

const InvoiceDrawer = lazy(() =>
  import('../subscriptions/InvoiceDrawer').then((module) => ({ default: module.InvoiceDrawer })),
);

/** The subscription invoice a billing request collects, opening its detail. */
function InvoiceLink({ etransfer, onOpen }: { etransfer: Etransfer; onOpen: () => void }) {
  return (
    <Detail label="app.etransfers.collects_invoice">
      <Button
        size="small"
        startIcon={<ReceiptLong />}
        onClick={onOpen}
        data-testid="etransfer-invoice-link"
      >
        <bdi style={{ fontFamily: 'monospace' }}>{etransfer.reference ?? ''}</bdi>
      </Button>
    </Detail>
  );
}

/** Who an e-transfer is with, when, its message, reference and match. */
export function EtransferDetails({ etransfer }: { etransfer: Etransfer }) {
  const translate = useTranslate();
  const field = (name: string) => `app.etransfers.fields.${name}`;
  return (
    <>
      <Detail label={field('customer')}>
        {etransfer.customerName ??
          (etransfer.customerId ? '' : translate('app.etransfers.unmatched_customer'))}
      </Detail>
      <Detail label={field('email')}>
        <bdi>{etransfer.email}</bdi>
      </Detail>
      <Detail label={field('created_at')}>
        <DateTime iso={etransfer.createdAt} />
      </Detail>
      {etransfer.expiresAt && isOpenRequest(etransfer) && (
        <Detail label={field('expires')}>
          <DateTime iso={etransfer.expiresAt} />
        </Detail>
      )}
      {etransfer.completedAt && (
        // When it ended: "Completed" only where money moved; otherwise how it ended.
        <Detail
          label={
            movedMoney(etransfer)
              ? field('completed_at')
              : `app.etransfers.status.${etransfer.status}`
          }
        >
          <DateTime iso={etransfer.completedAt} />
        </Detail>
      )}
      {etransfer.message && <Detail label={field('message')}>{etransfer.message}</Detail>}
      {etransfer.reference && (
        <Detail label={field('reference')}>
          <bdi>{etransfer.reference}</bdi>
        </Detail>
      )}
      {etransfer.matchedBy && (
        <Detail label={field('matched')}>
          {translate(`app.etransfers.matched_by.${etransfer.matchedBy}`, {
            _: etransfer.matchedBy,
          })}
        </Detail>
      )}
      {etransfer.matchReason && <Detail label={field('reason')}>{etransfer.matchReason}</Detail>}
      <Detail label={field('id')}>
        <bdi style={{ fontFamily: 'monospace', fontSize: 12 }}>{etransfer.id}</bdi>
      </Detail>
    </>
  );
}

/** Cancel request, with a confirmation naming the amount. */
function CancelRequest({
  etransfer,
  onDone,
}: {
  etransfer: Etransfer;
  onDone: (e: Etransfer) => void;
}) {
  const translate = useTranslate();
  const notify = useNotify();
  const [locale] = useLocaleState();
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const cancel = async () => {
    setBusy(true);
    try {
      const cancelled = await cancelEtransfer(etransfer.id);
      notify('app.etransfers.cancel.done', { type: 'info' });
      onDone(cancelled);
    } catch (error) {
      notify((error as Error).message, { type: 'error' });
    } finally {
      setBusy(false);
      setAsking(false);
    }
  };
  return (
    <>
      <Button color="error" variant="outlined" onClick={() => setAsking(true)}>
        {translate('app.etransfers.cancel.action')}
      </Button>
      <Dialog open={asking} onClose={() => setAsking(false)} aria-describedby="cancel-request-text">
        <DialogContent>
          <Typography id="cancel-request-text">
            {translate('app.etransfers.cancel.confirm', {
              amount: isolatedCents(etransfer.amountCents, locale),
            })}
          </Typography>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setAsking(false)}>
            {translate('app.etransfers.cancel.keep')}
          </Button>
          <Button color="error" variant="contained" disabled={busy} onClick={() => void cancel()}>
            {translate('app.etransfers.cancel.action')}
          </Button>
        </DialogActions>
      </Dialog>
    </>
  );
}

/** The sandbox's customer pays or declines the request; the outcome is announced once it lands. */
function SimulateAnswer({
  etransfer,
  onDone,
}: {
  etransfer: Etransfer;
  onDone: (e: Etransfer) => void;
}) {
  const translate = useTranslate();
  const notify = useNotify();
  const [locale] = useLocaleState();
  const [busy, setBusy] = useState(false);
  const act = async (action: 'deposit' | 'decline') => {
    setBusy(true);
    try {
      await simulateAnswer(etransfer.id, action);
      const changed = await changedEtransfer(etransfer.id, etransfer.status);
      if (!changed) {
        notify('app.etransfers.simulate.waiting', { type: 'info' });
        return;
      }
      if (changed.status === 'deposited') {
        notify('app.etransfers.simulate.deposited', {
          type: 'success',
          messageArgs: { amount: isolatedCents(changed.amountCents, locale) },
        });
        refreshBalance();
      } else if (changed.status === 'declined') {
        notify('app.etransfers.simulate.declined', { type: 'warning' });
      }
      onDone(changed);
    } catch (error) {
      notify((error as Error).message, { type: 'error' });
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <Button variant="outlined" disabled={busy} onClick={() => void act('deposit')}>
        {translate('app.etransfers.simulate.deposit')}
      </Button>
      <Button variant="outlined" disabled={busy} onClick={() => void act('decline')}>
        {translate('app.etransfers.simulate.decline')}
      </Button>
    </>
  );
}

function Actions({
  etransfer,
  onChanged,
}: {
  etransfer: Etransfer;
  onChanged: (e: Etransfer) => void;
}) {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const sandbox = useEtransferSandbox();
  const [matching, setMatching] = useState(false);
  const matched = (changed: Etransfer) => {
    setMatching(false);
    onChanged(changed);
  };
  return (
    <Stack direction="row" sx={{ gap: 1, flexWrap: 'wrap', mt: 2 }}>
      {isUnmatched(etransfer) && (
        <Button variant="contained" onClick={() => setMatching(true)}>
          {translate('app.etransfers.match.action')}
        </Button>
      )}
      {sandbox && canSimulateAnswer(etransfer) && (
        <SimulateAnswer etransfer={etransfer} onDone={onChanged} />
      )}
      {isOpenRequest(etransfer) && <CancelRequest etransfer={etransfer} onDone={onChanged} />}
      {matching && (
        <MatchDialog
          etransfer={etransfer}
          title={translate('app.etransfers.match.title', {
            amount: isolatedCents(etransfer.amountCents, locale),
            email: etransfer.email,
          })}
          onClose={() => setMatching(false)}
          onDone={matched}
        />
      )}
    </Stack>
  );
}

/**
 * One e-transfer's detail, as a drawer over the list: its amount and status, who it is with, its
 * message, reference and match, the invoice it collects, and what can be done with it now. From
 * an invoice's own drawer, `onBack` returns to it instead of opening another.
 */
export function EtransferDrawer({
  etransfer,
  onClose,
  onBack,
}: {
  etransfer: Etransfer;
  onClose: () => void;
  onBack?: () => void;
}) {
  const [invoiceOpen, setInvoiceOpen] = useState(false);
  const translate = useTranslate();
  const refresh = useRefresh();
  const queryClient = useQueryClient();
  const canAct = useCanTakePayments();
  const current = useQuery({
    queryKey: etransferKey(etransfer.id),
    queryFn: () => fetchEtransfer(etransfer.id),
    initialData: etransfer,
    retry: false,
  });
  const shown = current.data ?? etransfer;
  const changed = (next: Etransfer) => {
    queryClient.setQueryData(etransferKey(next.id), next);
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
        aria-labelledby="etransfer-title"
        sx={{ p: 2 }}
        data-testid="etransfer-drawer"
      >
        <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between' }}>
          <Typography id="etransfer-title" variant="h6" component="h2">
            {translate(`app.etransfers.kind.${shown.kind}`, { _: shown.kind })}
          </Typography>
          <IconButton aria-label={translate('app.etransfers.close')} onClick={onClose}>
            <Close />
          </IconButton>
        </Box>
        {endedWithoutMoney(shown) ? (
          // Nothing moved: the amount it was for, struck through, as Transactions shows it.
          <Typography
            variant="h4"
            component="p"
            color="text.secondary"
            sx={{ fontWeight: 600, my: 1, textDecoration: 'line-through' }}
            data-testid="etransfer-amount"
          >
            <Money cents={shown.amountCents} />
          </Typography>
        ) : (
          <Typography
            variant="h4"
            component="p"
            sx={{ fontWeight: 600, my: 1 }}
            data-testid="etransfer-amount"
          >
            <Money cents={signedCents(shown)} signed />
          </Typography>
        )}
        <EtransferStatusChip status={shown.status} />
        {shown.failureReason && (
          <Alert severity="error" sx={{ mt: 1 }}>
            {translate(`app.etransfers.failure.${shown.failureReason}`, { _: shown.failureReason })}
          </Alert>
        )}
        {current.error && (
          <Alert severity="error" sx={{ mt: 1 }}>
            {(current.error as Error).message}
          </Alert>
        )}
        <Divider sx={{ my: 2 }} />
        {shown.invoiceId && (
          <InvoiceLink
            etransfer={shown}
            onOpen={() => (onBack ? onBack() : setInvoiceOpen(true))}
          />
        )}
        <EtransferDetails etransfer={shown} />
        {canAct && <Actions etransfer={shown} onChanged={changed} />}
      </Box>
      {invoiceOpen && shown.invoiceId && (
        <Suspense fallback={null}>
          <InvoiceDrawer
            invoice={{ id: shown.invoiceId }}
            onClose={() => setInvoiceOpen(false)}
            onBack={() => setInvoiceOpen(false)}
          />
        </Suspense>
      )}
    </Drawer>
  );
}
