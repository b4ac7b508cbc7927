import Autorenew from '@mui/icons-material/Autorenew';
import { Box, Typography, useMediaQuery } from '@mui/material';
import type { Theme } from '@mui/material/styles';
import { lazy, Suspense, useState } from 'react';
import {
  Datagrid,
  FilterButton,
  FunctionField,
  List,
  ReferenceInput,
  SearchInput,
  SelectInput,
  SimpleList,
  TopToolbar,
  useTranslate,
} from 'react-admin';
import { Navigate, useParams } from 'react-router-dom';
import { TranslatedAutocompleteInput } from '../i18n/autocompleteTexts';
import { ListEmpty, listFailureProps } from '../layout/EmptyState';
import { PhoneTitle } from '../layout/PhoneTitle';
import { customerFilter } from '../lists/customerFilter';
import { ListTotals } from '../lists/ListTotals';
import { ViewTabs } from '../lists/ViewTabs';
import { pickerQueryOptions } from '../live/liveResources';
import { DateTime, Money } from '../payments/Money';
import { InvoicesView } from './InvoicesView';
import { Interval, SubscriptionStatusChip } from './StatusChip';
import { SubscriptionButtons } from './SubscriptionButtons';
import {
  isSubscriptionView,
  type Subscription,
  subscriptionStatuses,
  subscriptionViews,
} from './subscriptionApi';

const SubscriptionDrawer = lazy(() =>
  import('./SubscriptionDrawer').then((module) => ({ default: module.SubscriptionDrawer })),
);

const field = (name: string) => `app.subscriptions.fields.${name}`;

/** The screen's tabs: the subscription views, then every invoice (`/subscriptions/invoices`). */
const screenViews = [...subscriptionViews, 'invoices'] as const;

function useFilters() {
  const translate = useTranslate();
  return [
    <SearchInput key="q" source="q" alwaysOn placeholder={translate('ra.action.search')} />,
    <SelectInput
      key="status"
      source="status"
      label={field('status')}
      choices={subscriptionStatuses.map((id) => ({ id, name: `app.subscriptions.status.${id}` }))}
    />,
    <ReferenceInput
      key="planId"
      source="planId"
      reference="plans"
      sort={{ field: 'name', order: 'ASC' }}
      queryOptions={pickerQueryOptions}
    >
      <TranslatedAutocompleteInput
        label={field('plan')}
        optionText="name"
        filterToQuery={(q: string) => ({ q })}
        sx={{ minWidth: 220 }}
      />
    </ReferenceInput>,
    customerFilter(field('customer')),
  ];
}

function ListActions() {
  return (
    <TopToolbar sx={{ flexWrap: 'wrap' }}>
      <SubscriptionButtons />
      <FilterButton />
    </TopToolbar>
  );
}

/** What an empty list says: how subscriptions come to be, or that none matches the filters. */
function NoSubscriptions() {
  return (
    <ListEmpty
      icon={Autorenew}
      empty="app.subscriptions.empty"
      noMatch="app.subscriptions.no_match"
      hint="app.subscriptions.empty_hint"
    />
  );
}

/** What is scheduled, as Stripe's list says it: "Cancels on …", "Changes to … on …". */
function Scheduled({ subscription: s }: { subscription: Subscription }) {
  const translate = useTranslate();
  const cancels = s.cancelAt && !s.cancelledAt;
  if (!cancels && !s.pendingPlanChange) return null;
  return (
    <Typography
      variant="caption"
      color="text.secondary"
      component="span"
      data-testid="subscription-scheduled"
    >
      {cancels ? (
        <>
          {translate('app.subscriptions.scheduled.cancels')} <DateTime iso={s.cancelAt} />
        </>
      ) : (
        <>
          {translate('app.subscriptions.scheduled.changes_to')}{' '}
          <bdi>{s.pendingPlanChange?.planName}</bdi>
        </>
      )}
    </Typography>
  );
}

/** The table's Next invoice column, named on a phone: a bare future date reads as a start date. */
function NextInvoiceLine({ subscription }: { subscription: Subscription }) {
  const translate = useTranslate();
  const next = subscription.nextInvoiceAt;
  if (!next) return null;
  return (
    <Box component="span" sx={{ display: 'block' }} data-testid="next-invoice">
      {translate(field('next_bill_at'))}: <DateTime iso={next} />
    </Box>
  );
}

function SubscriptionRows({ onOpen }: { onOpen: (record: Subscription) => void }) {
  const small = useMediaQuery((theme: Theme) => theme.breakpoints.down('md'), { noSsr: true });
  const open = (_id: unknown, _resource: string, record: unknown) => {
    onOpen(record as Subscription);
    return false as const;
  };
  if (small) {
    return (
      <SimpleList<Subscription>
        empty={<NoSubscriptions />}
        rowClick={open}
        primaryText={(record) => (
          <Box
            component="span"
            sx={{ display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap' }}
          >
            <bdi>{record.customerName ?? ''}</bdi>
            <SubscriptionStatusChip status={record.status} />
            <Scheduled subscription={record} />
          </Box>
        )}
        secondaryText={(record) => (
          <>
            <bdi>{record.planName}</bdi> · <Money cents={record.amountCents} /> ·{' '}
            <Interval interval={record.interval} count={record.intervalCount} />
            <NextInvoiceLine subscription={record} />
          </>
        )}
        rowSx={() => ({ overflowWrap: 'anywhere' })}
      />
    );
  }
  return (
    <Datagrid
      empty={<NoSubscriptions />}
      rowClick={open}
      bulkActionButtons={false}
      sx={{ overflowX: 'auto', maxWidth: '100%' }}
    >
      <FunctionField
        source="customerName"
        label={field('customer')}
        sortable={false}
        render={(record: Subscription) => <bdi>{record.customerName ?? ''}</bdi>}
      />
      <FunctionField
        source="planName"
        label={field('plan')}
        sortable={false}
        render={(record: Subscription) => <bdi>{record.planName}</bdi>}
      />
      <FunctionField
        source="status"
        label={field('status')}
        sortable={false}
        render={(record: Subscription) => (
          <Box
            sx={{ display: 'flex', flexDirection: 'column', alignItems: 'flex-start', gap: 0.5 }}
          >
            <SubscriptionStatusChip status={record.status} />
            <Scheduled subscription={record} />
          </Box>
        )}
      />
      <FunctionField
        source="amountCents"
        label={field('amount')}
        textAlign="right"
        render={(record: Subscription) => <Money cents={record.amountCents} />}
      />
      <FunctionField
        source="interval"
        label={field('billing')}
        sortable={false}
        render={(record: Subscription) => (
          <Interval interval={record.interval} count={record.intervalCount} />
        )}
      />
      <FunctionField
        source="nextBillAt"
        label={field('next_bill_at')}
        render={(record: Subscription) => <DateTime iso={record.nextInvoiceAt} />}
      />
      <FunctionField
        source="createdAt"
        label={field('created_at')}
        render={(record: Subscription) => <DateTime iso={record.createdAt} />}
      />
    </Datagrid>
  );
}

/**
 * `/subscriptions/:view`: the company's subscriptions (all, trialing, active, past due, paused,
 * cancelled) with search, filters, sort, the exact count, plans, billing settings and a detail
 * drawer; the last tab, `invoices`, lists the invoices.
 */
export default function SubscriptionList() {
  const { view } = useParams();
  const translate = useTranslate();
  const [opened, setOpened] = useState<Subscription | null>(null);
  const filters = useFilters();
  if (view === 'invoices') {
    return (
      <Box sx={{ minWidth: 0 }}>
        <PhoneTitle title={translate('app.subscriptions.invoice.list_title')} />
        <ViewTabs resource="subscriptions" views={screenViews} view={view} />
        <InvoicesView />
      </Box>
    );
  }
  if (!isSubscriptionView(view)) return <Navigate to="/errors/error-404" replace />;
  return (
    <Box sx={{ minWidth: 0 }}>
      <PhoneTitle title={translate('app.subscriptions.title')} />
      <ViewTabs resource="subscriptions" views={screenViews} view={view} />
      <List
        {...listFailureProps}
        key={view}
        resource="subscriptions"
        storeKey={`subscriptions.${view}`}
        filter={{ view }}
        title={translate('app.subscriptions.title')}
        filters={filters}
        sort={{ field: 'createdAt', order: 'DESC' }}
        perPage={25}
        actions={<ListActions />}
        exporter={false}
        empty={false}
        sx={{ '& .RaList-main': { minWidth: 0 } }}
      >
        <ListTotals messages="app.subscriptions" testId="subscriptions-totals" />
        <SubscriptionRows onOpen={setOpened} />
      </List>
      {opened && (
        <Suspense fallback={null}>
          <SubscriptionDrawer subscription={opened} onClose={() => setOpened(null)} />
        </Suspense>
      )}
    </Box>
  );
}
