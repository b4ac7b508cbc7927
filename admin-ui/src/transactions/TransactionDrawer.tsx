import Close from '@mui/icons-material/Close';
import Undo from '@mui/icons-material/Undo';
import {
  Alert,
  Box,
  Button,
  Chip,
  Divider,
  Drawer,
  IconButton,
  LinearProgress,
  Link,
  List,
  ListItem,
  ListItemText,
  Stack,
  Typography,
} from '@mui/material';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { lazy, type ReactNode, Suspense, useState } from 'react';
import { useRefresh, useTranslate } from 'react-admin';
import { Link as RouterLink } from 'react-router-dom';
import { EtransferSummary } from '../etransfers/EtransferSummary';
import { Detail } from '../lists/Detail';
import { offSessionTerminalId } from '../paymentMethods/cardApi';
import { useCanTakePayments } from '../payments/access';
import { DateTime, Money } from '../payments/Money';
import { fetchPayment, type Payment, type Refund, type Transaction } from '../payments/paymentApi';
import { usePaymentDescription } from '../payments/paymentDescription';
import { refreshBalance } from '../payments/settle';
import { cardLine, kindLabel, PaymentStatusChip } from '../payments/statuses';
import { RefundDialog } from './RefundDialog';

const InvoiceDrawer = lazy(() =>
  import('../subscriptions/InvoiceDrawer').then((module) => ({ default: module.InvoiceDrawer })),
);

const paymentKey = (id: string) => ['payments', 'getOne', id, 'detail'];

/**
 * A transaction's detail, as Stripe's payment page shows it: the payment it belongs to, its card,
 * customer and terminal, its refunds, and Refund while something remains refundable.
 */
export function TransactionDrawer({
  transaction,
  onClose,
}: {
  transaction: Transaction;
  onClose: () => void;
}) {
  const translate = useTranslate();
  const refresh = useRefresh();
  const queryClient = useQueryClient();
  const canRefund = useCanTakePayments();
  const [refunding, setRefunding] = useState(false);
  // Deposits and payouts belong to an e-transfer (its id in `paymentId`), not to a card payment.
  const ofEtransfer = transaction.kind === 'etransfer' || transaction.kind === 'payout';
  const payment = useQuery({
    queryKey: paymentKey(transaction.paymentId),
    queryFn: () => fetchPayment(transaction.paymentId),
    retry: false,
    enabled: !ofEtransfer,
  });
  const refunded = (changed: Payment) => {
    setRefunding(false);
    queryClient.setQueryData(paymentKey(changed.id), changed);
    refreshBalance();
    refresh();
  };
  return (
    <Drawer
      anchor="right"
      open
      onClose={onClose}
      slotProps={{ paper: { sx: { width: { xs: '100vw', sm: 440 } } } }}
    >
      <Box
        component="section"
        aria-labelledby="transaction-title"
        sx={{ p: 2 }}
        data-testid="transaction-drawer"
      >
        <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between' }}>
          <Typography id="transaction-title" variant="h6" component="h2">
            {translate(kindLabel(transaction.kind), { _: transaction.kind })}
          </Typography>
          <IconButton aria-label={translate('app.payments.close')} onClick={onClose}>
            <Close />
          </IconButton>
        </Box>
        <Typography variant="h4" component="p" sx={{ fontWeight: 600, my: 1 }}>
          {transaction.status === 'failed' ? (
            <Box component="span" sx={{ textDecoration: 'line-through', color: 'text.secondary' }}>
              <Money cents={-transaction.amountCents} />
            </Box>
          ) : (
            <Money cents={transaction.netCents} />
          )}
        </Typography>
        {transaction.status === 'failed' && (
          <Chip size="small" color="error" label={translate('app.transactions.status.failed')} />
        )}
        {transaction.status === 'pending' && (
          <Chip
            size="small"
            color="info"
            variant="outlined"
            label={translate('app.transactions.status.pending')}
          />
        )}
        <Detail label="app.transactions.fields.created_at">
          <DateTime iso={transaction.createdAt} />
        </Detail>
        {transaction.refundReason && (
          <Detail label="app.transactions.fields.refund_reason">{transaction.refundReason}</Detail>
        )}
        <Divider sx={{ my: 2 }} />
        {ofEtransfer && <EtransferSummary etransferId={transaction.paymentId} />}
        {!ofEtransfer && payment.isPending && <LinearProgress />}
        {payment.error && <Alert severity="error">{(payment.error as Error).message}</Alert>}
        {payment.data && (
          <PaymentDetails
            payment={payment.data}
            heading={transaction.kind !== 'payment'}
            refundButton={
              canRefund && payment.data.refundableCents > 0 ? (
                <Button
                  variant="outlined"
                  color="warning"
                  startIcon={<Undo />}
                  onClick={() => setRefunding(true)}
                >
                  {translate('app.payments.refund.action')}
                </Button>
              ) : null
            }
          />
        )}
      </Box>
      {refunding && payment.data && (
        <RefundDialog
          payment={payment.data}
          onClose={() => setRefunding(false)}
          onRefunded={refunded}
          onRefused={() => {
            void queryClient.invalidateQueries({ queryKey: paymentKey(transaction.paymentId) });
            refreshBalance();
            refresh();
          }}
        />
      )}
    </Drawer>
  );
}

type Translate = ReturnType<typeof useTranslate>;

/** The processor's reason in words when it is one we know, as it came otherwise. */
function failureText(translate: Translate, reason: string | null): string {
  const code = reason ?? 'unknown';
  return translate(`app.payments.refund_failure.${code}`, { _: code });
}

/** A failed refund: its amount struck through (no money moved) and a "Failed" chip. */
function RefundAmount({ refund }: { refund: Refund }) {
  const translate = useTranslate();
  if (refund.status === 'pending') {
    return (
      <Box component="span" sx={{ display: 'inline-flex', alignItems: 'center', gap: 1 }}>
        <Money cents={-refund.amountCents} />
        <Chip
          size="small"
          color="info"
          variant="outlined"
          label={translate('app.payments.refund.pending')}
          title={translate('app.payments.refund.pending_help')}
          data-testid="refund-pending"
        />
      </Box>
    );
  }
  if (refund.status !== 'failed') return <Money cents={-refund.amountCents} />;
  return (
    <Box component="span" sx={{ display: 'inline-flex', alignItems: 'center', gap: 1 }}>
      <Box component="span" sx={{ textDecoration: 'line-through', color: 'text.secondary' }}>
        <Money cents={-refund.amountCents} />
      </Box>
      <Chip
        size="small"
        color="error"
        label={translate('app.payments.refund.failed')}
        data-testid="refund-failed"
      />
    </Box>
  );
}

/** `heading`: a refund's drawer names the payment it returned money from. */
function PaymentDetails({
  payment,
  heading,
  refundButton,
}: {
  payment: Payment;
  heading: boolean;
  refundButton: ReactNode;
}) {
  const translate = useTranslate();
  const describe = usePaymentDescription();
  const description = describe(payment);
  const [invoiceOpen, setInvoiceOpen] = useState(false);
  const invoiceId = payment.purpose?.kind === 'invoice' ? payment.purpose.invoiceId : undefined;
  return (
    <Stack spacing={0}>
      {/* A payment's own drawer starts its details with the status, at the start side, as an
          e-transfer's shows its status; a refund's names the payment first, its status at the end. */}
      <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', mb: 1 }}>
        {heading && (
          <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600 }}>
            {translate('app.transactions.detail.payment')} <Money cents={payment.amountCents} />
          </Typography>
        )}
        <PaymentStatusChip status={payment.status} />
      </Box>
      <Detail label="app.payments.fields.payment_id">
        <bdi style={{ fontFamily: 'monospace', fontSize: '0.8rem' }}>{payment.id}</bdi>
      </Detail>
      {payment.customerName && (
        <Detail label="app.payments.fields.customer">{payment.customerName}</Detail>
      )}
      {description && (
        <Detail label="app.payments.fields.description">
          {payment.purpose?.kind === 'token_order' ? (
            // A token order's payment opens the order it pays.
            <Link component={RouterLink} to={`/nftorders/${payment.purpose.orderId}`}>
              {description}
            </Link>
          ) : invoiceId ? (
            // An invoice's payment opens the invoice over this drawer.
            <Link
              component="button"
              type="button"
              onClick={() => setInvoiceOpen(true)}
              sx={{ textAlign: 'start' }}
              data-testid="payment-invoice-link"
            >
              {description}
            </Link>
          ) : (
            description
          )}
        </Detail>
      )}
      {invoiceOpen && invoiceId && (
        <Suspense fallback={null}>
          <InvoiceDrawer invoice={{ id: invoiceId }} onClose={() => setInvoiceOpen(false)} />
        </Suspense>
      )}
      <Detail label="app.payments.fields.terminal">
        {payment.terminalId === offSessionTerminalId
          ? translate('app.cards.off_session')
          : (payment.terminalName ?? payment.terminalId)}
      </Detail>
      {payment.cardLast4 && (
        <Detail label="app.payments.fields.card">
          <bdi dir="ltr">{cardLine(payment)}</bdi>
        </Detail>
      )}
      <Detail label="app.payments.fields.requested_at">
        <DateTime iso={payment.requestedAt} />
      </Detail>
      {payment.completedAt && (
        <Detail label="app.payments.fields.completed_at">
          <DateTime iso={payment.completedAt} />
        </Detail>
      )}
      <Detail label="app.payments.fields.refunded">
        <Money cents={payment.refundedCents} />
      </Detail>
      <Detail label="app.payments.fields.refundable">
        <span data-testid="refundable">
          <Money cents={payment.refundableCents} />
        </span>
      </Detail>
      <Box sx={{ my: 1.5 }}>{refundButton}</Box>
      <Typography variant="subtitle2" component="h3" sx={{ mt: 1 }}>
        {translate('app.payments.refund.history')}
      </Typography>
      {payment.refunds.length === 0 ? (
        <Typography variant="body2" color="text.secondary">
          {translate('app.payments.refund.none')}
        </Typography>
      ) : (
        <List dense disablePadding>
          {payment.refunds.map((refund) => (
            <ListItem key={refund.id} disableGutters>
              <ListItemText
                primary={<RefundAmount refund={refund} />}
                secondary={
                  <>
                    <DateTime iso={refund.refundedAt} /> · {refund.reason}
                    {refund.status === 'failed' && (
                      <Box component="span" sx={{ display: 'block', color: 'error.main' }}>
                        {translate('app.payments.refund.failed_because', {
                          reason: failureText(translate, refund.failureReason),
                        })}
                      </Box>
                    )}
                  </>
                }
                slotProps={{ secondary: { sx: { overflowWrap: 'anywhere' } } }}
              />
            </ListItem>
          ))}
        </List>
      )}
    </Stack>
  );
}
