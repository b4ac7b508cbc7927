import SwapHoriz from '@mui/icons-material/SwapHoriz';
import { Box, Chip, useMediaQuery } from '@mui/material';
import type { Theme } from '@mui/material/styles';
import { lazy, Suspense, useState } from 'react';
import {
  Datagrid,
  FilterButton,
  FunctionField,
  List,
  SearchInput,
  SelectInput,
  SimpleList,
  TopToolbar,
  useTranslate,
} from 'react-admin';
import { Navigate, useParams } from 'react-router-dom';
import { ListEmpty, listFailureProps } from '../layout/EmptyState';
import { PhoneTitle } from '../layout/PhoneTitle';
import { wrappingCell } from '../lists/cells';
import { customerFilter } from '../lists/customerFilter';
import { ListTotals } from '../lists/ListTotals';
import { ViewTabs } from '../lists/ViewTabs';
import { DateTime, Money } from '../payments/Money';
import { EtransferButtons } from './EtransferButtons';
import { EtransferStatusChip } from './EtransferStatusChip';
import { type Etransfer, etransferKinds, etransferStatuses } from './etransferApi';
import {
  type EtransferView,
  etransferViews,
  isEtransferView,
  movedMoney,
  signedCents,
} from './etransferLogic';

const EtransferDrawer = lazy(() =>
  import('./EtransferDrawer').then((module) => ({ default: module.EtransferDrawer })),
);

const field = (name: string) => `app.etransfers.fields.${name}`;

function useFilters() {
  const translate = useTranslate();
  return [
    <SearchInput key="q" source="q" alwaysOn placeholder={translate('ra.action.search')} />,
    <SelectInput
      key="status"
      source="status"
      label={field('status')}
      choices={etransferStatuses.map((id) => ({ id, name: `app.etransfers.status.${id}` }))}
    />,
    <SelectInput
      key="kind"
      source="kind"
      label={field('kind')}
      choices={etransferKinds.map((id) => ({ id, name: `app.etransfers.kind.${id}` }))}
    />,
    customerFilter(field('customer')),
  ];
}

function ListActions() {
  return (
    <TopToolbar sx={{ flexWrap: 'wrap' }}>
      <EtransferButtons />
      <FilterButton />
    </TopToolbar>
  );
}

/** The exact count of every matching e-transfer (not just this page), or why the list failed. */
function NoEtransfers({ view }: { view: EtransferView }) {
  const all = view === 'all';
  return (
    <ListEmpty
      icon={SwapHoriz}
      empty={all ? 'app.etransfers.empty' : `app.etransfers.empty_${view}`}
      noMatch="app.etransfers.no_match"
      hint={all ? 'app.etransfers.empty_hint' : undefined}
    />
  );
}

function Amount({ record }: { record: Etransfer }) {
  return (
    <Box
      component="span"
      sx={{ fontWeight: 600, color: movedMoney(record) ? 'text.primary' : 'text.secondary' }}
    >
      <Money cents={signedCents(record)} />
    </Box>
  );
}

function KindChip({ kind }: { kind: string }) {
  const translate = useTranslate();
  return (
    <Chip
      size="small"
      variant="outlined"
      label={translate(`app.etransfers.kind.${kind}`, { _: kind })}
    />
  );
}

/** The customer's name; an unmatched one says so (as a chip, or as words inside a line of text). */
function Who({ record, inline = false }: { record: Etransfer; inline?: boolean }) {
  const translate = useTranslate();
  if (record.customerName) return <>{record.customerName}</>;
  if (!record.customerId && inline) return <>{translate('app.etransfers.unmatched_customer')}</>;
  if (!record.customerId) {
    return (
      <Chip
        size="small"
        color="warning"
        variant="outlined"
        label={translate('app.etransfers.unmatched_customer')}
      />
    );
  }
  return null;
}

function EtransferRows({
  view,
  onOpen,
}: {
  view: EtransferView;
  onOpen: (record: Etransfer) => void;
}) {
  const small = useMediaQuery((theme: Theme) => theme.breakpoints.down('md'), { noSsr: true });
  const open = (_id: unknown, _resource: string, record: unknown) => {
    onOpen(record as Etransfer);
    return false as const;
  };
  if (small) {
    return (
      <SimpleList<Etransfer>
        empty={<NoEtransfers view={view} />}
        rowClick={open}
        primaryText={(record) => (
          <Box
            component="span"
            sx={{ display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap' }}
          >
            <Amount record={record} />
            <EtransferStatusChip status={record.status} />
          </Box>
        )}
        secondaryText={(record) => (
          <>
            <Who record={record} inline /> · <bdi>{record.email}</bdi>
          </>
        )}
        tertiaryText={(record) => <DateTime iso={record.createdAt} />}
        rowSx={() => ({ overflowWrap: 'anywhere' })}
      />
    );
  }
  return (
    <Datagrid
      empty={<NoEtransfers view={view} />}
      rowClick={open}
      bulkActionButtons={false}
      sx={{ overflowX: 'auto', maxWidth: '100%' }}
    >
      <FunctionField
        source="createdAt"
        label={field('created_at')}
        render={(record: Etransfer) => <DateTime iso={record.createdAt} />}
      />
      <FunctionField
        source="amountCents"
        label={field('amount')}
        textAlign="right"
        render={(record: Etransfer) => <Amount record={record} />}
      />
      <FunctionField
        source="kind"
        label={field('kind')}
        sortable={false}
        render={(record: Etransfer) => <KindChip kind={record.kind} />}
      />
      <FunctionField
        source="status"
        label={field('status')}
        sortable={false}
        render={(record: Etransfer) => <EtransferStatusChip status={record.status} />}
      />
      <FunctionField
        source="customerName"
        label={field('customer')}
        sortable={false}
        render={(record: Etransfer) => <Who record={record} />}
      />
      <FunctionField
        source="email"
        label={field('email')}
        sortable={false}
        // Left to right even in an Arabic cell, and wrapped anywhere: addresses can be long.
        sx={wrappingCell(140)}
        render={(record: Etransfer) => <bdi dir="ltr">{record.email}</bdi>}
      />
      <FunctionField
        source="reference"
        label={field('reference')}
        sortable={false}
        sx={wrappingCell(100)}
        render={(record: Etransfer) => record.reference ?? record.message ?? ''}
      />
    </Datagrid>
  );
}

/**
 * `/etransfers/:view`: the company's Interac e-transfers (all, requested, deposited, sent,
 * unmatched) with search, filters, sort, the exact count, the actions and a detail drawer.
 */
export default function EtransferList() {
  const { view } = useParams();
  const translate = useTranslate();
  const [opened, setOpened] = useState<Etransfer | null>(null);
  const filters = useFilters();
  if (!isEtransferView(view)) return <Navigate to="/errors/error-404" replace />;
  return (
    <Box sx={{ minWidth: 0 }}>
      <PhoneTitle title={translate('app.etransfers.title')} />
      <ViewTabs resource="etransfers" views={etransferViews} view={view} />
      <List
        {...listFailureProps}
        key={view}
        resource="etransfers"
        storeKey={`etransfers.${view}`}
        filter={{ view }}
        title={translate('app.etransfers.title')}
        filters={filters}
        sort={{ field: 'createdAt', order: 'DESC' }}
        perPage={25}
        actions={<ListActions />}
        exporter={false}
        empty={false}
        sx={{ '& .RaList-main': { minWidth: 0 } }}
      >
        <ListTotals messages="app.etransfers" testId="etransfers-totals" />
        <EtransferRows view={view} onOpen={setOpened} />
      </List>
      {opened && (
        <Suspense fallback={null}>
          <EtransferDrawer etransfer={opened} onClose={() => setOpened(null)} />
        </Suspense>
      )}
    </Box>
  );
}
