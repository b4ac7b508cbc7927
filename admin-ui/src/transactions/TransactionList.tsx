import Download from '@mui/icons-material/Download';
import ReceiptLong from '@mui/icons-material/ReceiptLong';
import { Alert, Box, Chip, useMediaQuery } from '@mui/material';
import type { Theme } from '@mui/material/styles';
import { lazy, Suspense, useState } from 'react';
import {
  Button,
  Datagrid,
  FilterButton,
  FunctionField,
  List,
  SearchInput,
  SelectInput,
  SimpleList,
  TopToolbar,
  useListContext,
  useNotify,
  useTranslate,
} from 'react-admin';
import { Navigate, useParams } from 'react-router-dom';
import { DotJoined } from '../layout/DotJoined';
import { ListEmpty, listFailureProps } from '../layout/EmptyState';
import { PhoneTitle } from '../layout/PhoneTitle';
import { customerFilter } from '../lists/customerFilter';
import { ViewTabs } from '../lists/ViewTabs';
import { DateTime, Money } from '../payments/Money';
import {
  downloadTransactions,
  type Transaction,
  transactionKinds,
  transactionStatuses,
} from '../payments/paymentApi';
import { usePaymentDescription } from '../payments/paymentDescription';
import { cardBrandName, kindLabel, transactionStatusLabel } from '../payments/statuses';
import { TakePaymentButton } from '../payments/TakePaymentButton';
import { useTerminals } from '../payments/useTerminals';
import { BalanceAsOf } from './BalanceAsOf';
import { AmountFilterInput, FromDateInput, ToDateInput } from './filterInputs';
import { TotalsLine } from './TotalsLine';
import { isTransactionView, transactionViews } from './views';

const TransactionDrawer = lazy(() =>
  import('./TransactionDrawer').then((module) => ({ default: module.TransactionDrawer })),
);

const field = (name: string) => `app.transactions.fields.${name}`;

function useFilters(view: string) {
  const translate = useTranslate();
  const { terminals } = useTerminals();
  return [
    <SearchInput key="q" source="q" alwaysOn placeholder={translate('ra.action.search')} />,
    <FromDateInput key="createdFrom" source="createdFrom" label="app.transactions.filters.from" />,
    <ToDateInput key="createdTo" source="createdTo" label="app.transactions.filters.to" />,
    <SelectInput
      key="status"
      source="status"
      label={field('status')}
      choices={transactionStatuses.map((id) => ({ id, name: transactionStatusLabel(id) }))}
    />,
    ...(view === 'all'
      ? [
          <SelectInput
            key="kind"
            source="kind"
            label={field('kind')}
            choices={transactionKinds.map((kind) => ({ id: kind, name: kindLabel(kind) }))}
          />,
        ]
      : []),
    customerFilter(field('customer')),
    ...(terminals.length > 0
      ? [
          <SelectInput
            key="terminalId"
            source="terminalId"
            label={field('terminal')}
            choices={terminals.map((terminal) => ({ id: terminal.id, name: terminal.name }))}
          />,
        ]
      : []),
    <AmountFilterInput key="amountMin" source="amountMin" label="app.transactions.filters.min" />,
    <AmountFilterInput key="amountMax" source="amountMax" label="app.transactions.filters.max" />,
  ];
}

function ExportButton() {
  const { filterValues, filter, sort } = useListContext();
  const notify = useNotify();
  const exportShown = async () => {
    try {
      await downloadTransactions({ ...filterValues, ...filter }, [sort.field, sort.order]);
    } catch (error) {
      notify('app.transactions.export_failed', {
        type: 'error',
        messageArgs: { message: (error as Error).message },
      });
    }
  };
  return (
    <Button label="app.transactions.export" onClick={() => void exportShown()}>
      <Download />
    </Button>
  );
}

function ListActions() {
  return (
    <TopToolbar sx={{ flexWrap: { xs: 'wrap', md: 'nowrap' } }}>
      <TakePaymentButton />
      <FilterButton />
      <ExportButton />
    </TopToolbar>
  );
}

/** The exact count and net of every matching row (not just this page), as Stripe shows above its list. */
function Totals() {
  const translate = useTranslate();
  const { total, meta, error, isPending } = useListContext();
  if (error) {
    return (
      <Alert severity="error" sx={{ m: 1 }}>
        {translate('app.transactions.load_failed', { message: (error as Error).message })}
      </Alert>
    );
  }
  if (isPending || !total) return null;
  const net = (meta as { netCents?: number | null } | undefined)?.netCents;
  return (
    <Box sx={{ px: 2, py: 1 }}>
      <TotalsLine total={total} netCents={net} />
    </Box>
  );
}

function KindChip({ kind }: { kind: string }) {
  const translate = useTranslate();
  return (
    <Chip
      size="small"
      variant="outlined"
      color={kind === 'refund' ? 'warning' : 'default'}
      label={translate(kindLabel(kind), { _: kind })}
    />
  );
}

/** A failed refund moved nothing: its amount struck through rather than $0.00. */
/**
 * A failed payout is two movements: the money left the balance when it was sent, and came back
 * when it failed (this row, positive). Both are shown as they moved the balance.
 */
const isReturnedPayout = (record: Transaction) => record.kind === 'payout' && record.netCents > 0;

function Amount({ record }: { record: Transaction }) {
  // A failed payment moved nothing: its amount struck through. A failed payout's did move.
  if (record.status === 'failed' && record.kind !== 'payout') {
    return (
      <Box component="span" sx={{ textDecoration: 'line-through', color: 'text.secondary' }}>
        <Money cents={-record.amountCents} />
      </Box>
    );
  }
  return (
    <Box
      component="span"
      sx={{ fontWeight: 600, color: record.netCents < 0 ? 'warning.dark' : 'text.primary' }}
    >
      <Money cents={record.netCents} />
    </Box>
  );
}

function NoTransactions() {
  return (
    <ListEmpty
      icon={ReceiptLong}
      empty="app.transactions.empty"
      noMatch="app.transactions.no_match"
      hint="app.transactions.empty_hint"
    />
  );
}

function TransactionRows({ onOpen }: { onOpen: (record: Transaction) => void }) {
  const translate = useTranslate();
  const describe = usePaymentDescription();
  // The same words on a phone and a desktop: a refund's reason, a returned payout's why.
  const describeRow = (record: Transaction) =>
    isReturnedPayout(record)
      ? translate('app.transactions.payout_returned')
      : (record.refundReason ?? describe(record) ?? '');
  const small = useMediaQuery((theme: Theme) => theme.breakpoints.down('md'), { noSsr: true });
  const open = (_id: unknown, _resource: string, record: unknown) => {
    onOpen(record as Transaction);
    return false as const;
  };
  if (small) {
    return (
      <SimpleList<Transaction>
        empty={<NoTransactions />}
        rowClick={open}
        primaryText={(record) => (
          <Box component="span" sx={{ display: 'flex', gap: 1, alignItems: 'center' }}>
            <Amount record={record} />
            <KindChip kind={record.kind} />
          </Box>
        )}
        secondaryText={(record) => <DotJoined parts={[record.customerName, describeRow(record)]} />}
        tertiaryText={(record) => <DateTime iso={record.createdAt} />}
        rowSx={() => ({ overflowWrap: 'anywhere' })}
      />
    );
  }
  return (
    <Datagrid
      empty={<NoTransactions />}
      rowClick={open}
      bulkActionButtons={false}
      sx={{ overflowX: 'auto', maxWidth: '100%' }}
    >
      <FunctionField
        source="createdAt"
        label={field('created_at')}
        render={(record: Transaction) => <DateTime iso={record.createdAt} />}
      />
      <FunctionField
        source="amountCents"
        label={field('amount')}
        textAlign="right"
        render={(record: Transaction) => <Amount record={record} />}
      />
      <FunctionField
        source="kind"
        label={field('kind')}
        sortable={false}
        render={(record: Transaction) => <KindChip kind={record.kind} />}
      />
      <FunctionField
        source="status"
        label={field('status')}
        sortable={false}
        render={(record: Transaction) =>
          translate(transactionStatusLabel(record.status), { _: record.status })
        }
      />
      <FunctionField
        source="customerName"
        label={field('customer')}
        sortable={false}
        render={(record: Transaction) => record.customerName ?? ''}
      />
      <FunctionField
        source="description"
        label={field('description')}
        sortable={false}
        render={(record: Transaction) => describeRow(record)}
      />
      <FunctionField
        source="terminalName"
        label={field('terminal')}
        sortable={false}
        render={(record: Transaction) => record.terminalName ?? ''}
      />
      <FunctionField
        source="cardLast4"
        label={field('card')}
        sortable={false}
        // The brand above the digits: "Mastercard •••• 4444" on one line pushed the table past
        // a 1280 px window.
        render={(record: Transaction) =>
          record.cardLast4 && (
            <Box component="span" sx={{ display: 'inline-flex', flexDirection: 'column' }}>
              {record.cardBrand && <span>{cardBrandName(record.cardBrand)}</span>}
              <bdi dir="ltr" style={{ whiteSpace: 'nowrap' }}>
                {`•••• ${record.cardLast4}`}
              </bdi>
            </Box>
          )
        }
      />
    </Datagrid>
  );
}

/**
 * `/transactions/:view`: every money movement of the company (all, payments or refunds), with
 * search, filters, sort, the exact count and net total, CSV export and a detail drawer.
 */
export default function TransactionList() {
  const { view } = useParams();
  const translate = useTranslate();
  const [opened, setOpened] = useState<Transaction | null>(null);
  const filters = useFilters(view ?? 'all');
  if (!isTransactionView(view)) return <Navigate to="/errors/error-404" replace />;
  return (
    <Box sx={{ minWidth: 0 }}>
      <PhoneTitle title={translate('app.transactions.title')} />
      <ViewTabs resource="transactions" views={Object.keys(transactionViews)} view={view} />
      <List
        {...listFailureProps}
        key={view}
        resource="transactions"
        storeKey={`transactions.${view}`}
        filter={transactionViews[view]}
        title={translate('app.transactions.title')}
        filters={filters}
        sort={{ field: 'createdAt', order: 'DESC' }}
        perPage={25}
        actions={<ListActions />}
        exporter={false}
        empty={false}
        // A wide table scrolls inside its card, never the page.
        sx={{ '& .RaList-main': { minWidth: 0 } }}
      >
        <Totals />
        <TransactionRows onOpen={setOpened} />
      </List>
      <BalanceAsOf />
      {opened && (
        <Suspense fallback={null}>
          <TransactionDrawer transaction={opened} onClose={() => setOpened(null)} />
        </Suspense>
      )}
    </Box>
  );
}
