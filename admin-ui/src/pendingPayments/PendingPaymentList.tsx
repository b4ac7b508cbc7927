import PendingActions from '@mui/icons-material/PendingActions';
import { Alert, Box, Stack, Tab, Tabs, Typography, useMediaQuery } from '@mui/material';
import type { Theme } from '@mui/material/styles';
import {
  Datagrid,
  FunctionField,
  List,
  SimpleList,
  TopToolbar,
  useListContext,
  useTranslate,
} from 'react-admin';
import { Link, Navigate, useParams } from 'react-router-dom';
import { DotJoined } from '../layout/DotJoined';
import { EmptyState, listFailureProps } from '../layout/EmptyState';
import { PhoneTitle } from '../layout/PhoneTitle';
import { useCanTakePayments } from '../payments/access';
import { CancelPaymentButton } from '../payments/CancelPaymentButton';
import { DateTime, Money } from '../payments/Money';
import type { Payment } from '../payments/paymentApi';
import { usePaymentDescription } from '../payments/paymentDescription';
import { SimulateCardButton } from '../payments/SimulateCardButton';
import { TakePaymentButton } from '../payments/TakePaymentButton';
import { useTerminals } from '../payments/useTerminals';

const field = (name: string) => `app.payments.fields.${name}`;

function RowActions({ payment }: { payment: Payment }) {
  const allowed = useCanTakePayments();
  if (!allowed) return null;
  return (
    <Stack direction="row" sx={{ gap: 1, flexWrap: 'wrap', '& button': { whiteSpace: 'nowrap' } }}>
      <SimulateCardButton
        terminalId={payment.terminalId}
        paymentId={payment.id}
        size="small"
        watch
      />
      <CancelPaymentButton payment={payment} size="small" />
    </Stack>
  );
}

function NoPendingPayments() {
  const translate = useTranslate();
  const { error } = useListContext();
  if (error) {
    return (
      <Alert severity="error" sx={{ m: 2 }}>
        {translate('app.pendingpayments.load_failed', { message: (error as Error).message })}
      </Alert>
    );
  }
  return (
    <EmptyState
      icon={PendingActions}
      title={translate('app.pendingpayments.empty')}
      hint={translate('app.pendingpayments.empty_hint')}
    />
  );
}

function PendingRows() {
  const translate = useTranslate();
  const describe = usePaymentDescription();
  const small = useMediaQuery((theme: Theme) => theme.breakpoints.down('md'), { noSsr: true });
  if (small) {
    return (
      <SimpleList<Payment>
        empty={<NoPendingPayments />}
        rowClick={false}
        primaryText={(payment) => (
          <Box component="span" sx={{ fontWeight: 600 }}>
            <Money cents={payment.amountCents} />
          </Box>
        )}
        secondaryText={(payment) => {
          const parts = [payment.customerName, describe(payment)];
          return (
            <Box component="span" sx={{ display: 'block', overflowWrap: 'anywhere' }}>
              {translate('app.payments.waiting', {
                terminal: payment.terminalName ?? translate('app.payments.unknown_terminal'),
              })}
              {parts.some(Boolean) && (
                <Box component="span" sx={{ display: 'block' }}>
                  <DotJoined parts={parts} />
                </Box>
              )}
              <Box component="span" sx={{ display: 'block', mt: 1 }}>
                <RowActions payment={payment} />
              </Box>
            </Box>
          );
        }}
        tertiaryText={(payment) => <DateTime iso={payment.requestedAt} />}
      />
    );
  }
  return (
    <Datagrid
      empty={<NoPendingPayments />}
      rowClick={false}
      bulkActionButtons={false}
      sx={{ overflowX: 'auto', maxWidth: '100%' }}
    >
      <FunctionField
        source="requestedAt"
        label={field('requested_at')}
        render={(payment: Payment) => <DateTime iso={payment.requestedAt} />}
      />
      <FunctionField
        source="amountCents"
        label="app.transactions.fields.amount"
        render={(payment: Payment) => (
          <Box component="span" sx={{ fontWeight: 600 }}>
            <Money cents={payment.amountCents} />
          </Box>
        )}
      />
      <FunctionField
        source="customerName"
        label={field('customer')}
        sortable={false}
        render={(payment: Payment) => payment.customerName ?? ''}
      />
      <FunctionField
        source="description"
        label={field('description')}
        sortable={false}
        render={(payment: Payment) => describe(payment) ?? ''}
      />
      <FunctionField
        source="terminalName"
        label={field('terminal')}
        sortable={false}
        render={(payment: Payment) => payment.terminalName ?? ''}
      />
      <FunctionField
        source="expiresAt"
        label={field('expires_at')}
        sortable={false}
        render={(payment: Payment) => <DateTime iso={payment.expiresAt} />}
      />
      <FunctionField label="" render={(payment: Payment) => <RowActions payment={payment} />} />
    </Datagrid>
  );
}

/** One tab for every terminal and one for all of them, as the view in the address. */
function TerminalTabs({ view }: { view: string }) {
  const translate = useTranslate();
  const { terminals } = useTerminals();
  const known = view === 'all' || terminals.some((terminal) => terminal.id === view);
  return (
    <Tabs
      value={known ? view : false}
      variant="scrollable"
      allowScrollButtonsMobile
      aria-label={translate('app.pendingpayments.title')}
      sx={{ borderBottom: 1, borderColor: 'divider' }}
    >
      <Tab
        value="all"
        label={translate('app.pendingpayments.all_terminals')}
        component={Link}
        to="/pendingpayments/all"
      />
      {terminals.map((terminal) => (
        <Tab
          key={terminal.id}
          value={terminal.id}
          label={terminal.name}
          component={Link}
          to={`/pendingpayments/${terminal.id}`}
        />
      ))}
    </Tabs>
  );
}

/**
 * `/pendingpayments/:view`: the payments still waiting for a card, on every terminal (`all`) or one
 * (its id), with Simulate card and Cancel; live updates (`/api/changes`) take a payment that completes off the list.
 */
export default function PendingPaymentList() {
  const { view } = useParams();
  const translate = useTranslate();
  const { terminals, isPending } = useTerminals();
  if (!view) return <Navigate to="/pendingpayments/all" replace />;
  if (view !== 'all' && !isPending && terminals.length > 0 && !terminals.some((t) => t.id === view))
    return <Navigate to="/errors/error-404" replace />;
  return (
    <Box sx={{ minWidth: 0 }}>
      <PhoneTitle title={translate('app.pendingpayments.title')} />
      <TerminalTabs view={view} />
      <List
        {...listFailureProps}
        key={view}
        resource="payments"
        storeKey={`pendingpayments.${view}`}
        filter={view === 'all' ? { status: 'pending' } : { status: 'pending', terminalId: view }}
        title={translate('app.pendingpayments.title')}
        sort={{ field: 'requestedAt', order: 'DESC' }}
        perPage={25}
        actions={
          <TopToolbar sx={{ alignItems: 'center', gap: 2 }}>
            <Typography variant="caption" color="text.secondary">
              {translate('app.pendingpayments.refreshing')}
            </Typography>
            <TakePaymentButton variant="contained" />
          </TopToolbar>
        }
        exporter={false}
        empty={false}
        // A wide table scrolls inside its card, never the page.
        sx={{ '& .RaList-main': { minWidth: 0 } }}
      >
        <PendingRows />
      </List>
    </Box>
  );
}
