import ReceiptLong from '@mui/icons-material/ReceiptLong';
import { Box, useMediaQuery } from '@mui/material';
import type { Theme } from '@mui/material/styles';
import { lazy, Suspense, useState } from 'react';
import {
  Datagrid,
  FilterButton,
  FunctionField,
  List,
  SelectInput,
  SimpleList,
  TopToolbar,
  useTranslate,
} from 'react-admin';
import { ListEmpty, listFailureProps } from '../layout/EmptyState';
import { customerFilter } from '../lists/customerFilter';
import { ListTotals } from '../lists/ListTotals';
import { DateTime, Money } from '../payments/Money';
import { InvoiceStatusChip } from './StatusChip';
import { type Invoice, invoiceStatuses } from './subscriptionApi';

const InvoiceDrawer = lazy(() =>
  import('./InvoiceDrawer').then((module) => ({ default: module.InvoiceDrawer })),
);

const field = (name: string) => `app.subscriptions.fields.${name}`;

const filters = [
  <SelectInput
    key="status"
    source="status"
    label={field('status')}
    choices={invoiceStatuses.map((id) => ({ id, name: `app.subscriptions.invoice_status.${id}` }))}
    alwaysOn
  />,
  customerFilter(field('customer')),
];

function Period({ invoice }: { invoice: Invoice }) {
  return (
    <>
      <DateTime iso={invoice.periodStart} /> – <DateTime iso={invoice.periodEnd} />
    </>
  );
}

function NoInvoices() {
  return (
    <ListEmpty
      icon={ReceiptLong}
      empty="app.subscriptions.invoice.empty"
      noMatch="app.subscriptions.invoice.no_match"
      hint="app.subscriptions.invoice.empty_hint"
    />
  );
}

function InvoiceRows({ onOpen }: { onOpen: (invoice: Invoice) => void }) {
  const small = useMediaQuery((theme: Theme) => theme.breakpoints.down('md'), { noSsr: true });
  const open = (_id: unknown, _resource: string, record: unknown) => {
    onOpen(record as Invoice);
    return false as const;
  };
  if (small) {
    return (
      <SimpleList<Invoice>
        empty={<NoInvoices />}
        rowClick={open}
        primaryText={(record) => (
          <Box
            component="span"
            sx={{ display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap' }}
          >
            <bdi style={{ fontFamily: 'monospace' }}>{record.number}</bdi>
            <Money cents={record.amountCents} />
            <InvoiceStatusChip status={record.status} />
          </Box>
        )}
        // The period under the name, not beside it: a phone has no room for both on one line.
        secondaryText={(record) => (
          <>
            <bdi>{record.customerName ?? ''}</bdi>
            <br />
            <Period invoice={record} />
          </>
        )}
        rowSx={() => ({ overflowWrap: 'anywhere' })}
      />
    );
  }
  return (
    <Datagrid
      empty={<NoInvoices />}
      rowClick={open}
      bulkActionButtons={false}
      sx={{ overflowX: 'auto', maxWidth: '100%' }}
    >
      <FunctionField
        source="number"
        label={field('number')}
        sortable={false}
        render={(record: Invoice) => <bdi style={{ fontFamily: 'monospace' }}>{record.number}</bdi>}
      />
      <FunctionField
        source="customerName"
        label={field('customer')}
        sortable={false}
        render={(record: Invoice) => <bdi>{record.customerName ?? ''}</bdi>}
      />
      <FunctionField
        source="periodStart"
        label={field('invoice_period')}
        render={(record: Invoice) => <Period invoice={record} />}
      />
      <FunctionField
        source="amountCents"
        label={field('amount')}
        textAlign="right"
        render={(record: Invoice) => <Money cents={record.amountCents} />}
      />
      <FunctionField
        source="status"
        label={field('status')}
        sortable={false}
        render={(record: Invoice) => <InvoiceStatusChip status={record.status} />}
      />
      <FunctionField
        source="issuedAt"
        label="app.subscriptions.invoice.issued_at"
        render={(record: Invoice) => <DateTime iso={record.issuedAt} />}
      />
    </Datagrid>
  );
}

/**
 * `/subscriptions/invoices`: every invoice of the company's subscriptions, newest first, by status
 * and customer, each opening its detail (and from there its e-transfer).
 */
export function InvoicesView() {
  const translate = useTranslate();
  const [opened, setOpened] = useState<Invoice | null>(null);
  return (
    <>
      <List
        {...listFailureProps}
        resource="invoices"
        storeKey="subscriptions.invoices"
        title={translate('app.subscriptions.invoice.list_title')}
        filters={filters}
        sort={{ field: 'issuedAt', order: 'DESC' }}
        perPage={25}
        actions={
          <TopToolbar sx={{ flexWrap: 'wrap' }}>
            <FilterButton />
          </TopToolbar>
        }
        exporter={false}
        empty={false}
        sx={{ '& .RaList-main': { minWidth: 0 } }}
      >
        <ListTotals messages="app.subscriptions.invoice" testId="invoices-totals" />
        <InvoiceRows onOpen={setOpened} />
      </List>
      {opened && (
        <Suspense fallback={null}>
          <InvoiceDrawer invoice={opened} onClose={() => setOpened(null)} />
        </Suspense>
      )}
    </>
  );
}
