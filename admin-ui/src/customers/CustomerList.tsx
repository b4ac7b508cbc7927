import Delete from '@mui/icons-material/Delete';
import Download from '@mui/icons-material/Download';
import Edit from '@mui/icons-material/Edit';
import FilterAlt from '@mui/icons-material/FilterAlt';
import GroupAdd from '@mui/icons-material/GroupAdd';
import NotificationsActive from '@mui/icons-material/NotificationsActive';
import PersonAdd from '@mui/icons-material/PersonAdd';
import ReceiptLong from '@mui/icons-material/ReceiptLong';
import Star from '@mui/icons-material/Star';
import StarBorder from '@mui/icons-material/StarBorder';
import {
  Box,
  Card,
  CardContent,
  Drawer,
  IconButton,
  Stack,
  Tooltip,
  Typography,
  useMediaQuery,
} from '@mui/material';
import type { Theme } from '@mui/material/styles';
import {
  lazy,
  type MouseEvent,
  type ReactElement,
  type ReactNode,
  Suspense,
  useLayoutEffect,
  useRef,
  useState,
} from 'react';
import {
  Button,
  Confirm,
  Datagrid,
  DatagridConfigurable,
  DateField,
  FilterList,
  FilterListItem,
  FilterLiveSearch,
  FunctionField,
  List,
  SearchInput,
  SelectColumnsButton,
  TextField,
  TopToolbar,
  useListContext,
  useNotify,
  useRecordContext,
  useRefresh,
  useTranslate,
} from 'react-admin';
import { Navigate, useParams } from 'react-router-dom';
import { EmailAddress } from '../layout/EmailAddress';
import { listFailureProps } from '../layout/EmptyState';
import { PhoneTitle } from '../layout/PhoneTitle';
import { wrappingCell } from '../lists/cells';
import { customerDisplayName } from '../lists/customerFilter';
import { useCanChangeCustomers } from './access';
import {
  type Customer,
  downloadExport,
  removeCustomers,
  setStarred,
  toggleStar,
} from './customerApi';
import {
  investorStatuses,
  investorStatusLabel,
  leadStatuses,
  leadStatusLabel,
  viewFilter,
} from './statuses';

// Dialogs open on a click: loaded then, so the list's first screen carries none of them.
const AddCustomerDialog = lazy(() =>
  import('./AddCustomerDialog').then((module) => ({ default: module.AddCustomerDialog })),
);
const BulkAddDialog = lazy(() =>
  import('./BulkAddDialog').then((module) => ({ default: module.BulkAddDialog })),
);
const EditCustomerDialog = lazy(() =>
  import('./EditCustomerDialog').then((module) => ({ default: module.EditCustomerDialog })),
);
const PushNotificationDialog = lazy(() =>
  import('./PushNotificationDialog').then((module) => ({ default: module.PushNotificationDialog })),
);
const TransactionsDialog = lazy(() =>
  import('./TransactionsDialog').then((module) => ({ default: module.TransactionsDialog })),
);

const field = (name: string) => `app.customers.fields.${name}`;

/** Runs a command, shows its outcome, and reloads what is on screen. */
function useCustomerCommand() {
  const notify = useNotify();
  const refresh = useRefresh();
  return async (command: () => Promise<unknown>, done?: [string, Record<string, unknown>?]) => {
    try {
      await command();
      if (done) notify(done[0], { type: 'success', messageArgs: done[1] });
    } catch (error) {
      notify((error as Error).message, { type: 'error' });
    } finally {
      refresh();
    }
  };
}

/** The views and filters: beside the list from md up, in a drawer behind a button below. */
function Filters() {
  const translate = useTranslate();
  return (
    <>
      <FilterList label="app.customers.views.starred" icon={<Star />}>
        <FilterListItem label="app.customers.views.starred" value={{ starred: true }} />
      </FilterList>
      <FilterList label="app.customers.views.by_investor_status" icon={null}>
        {investorStatuses.map((status) => (
          <FilterListItem
            key={status}
            label={investorStatusLabel(status)}
            value={{ investorStatus: status }}
          />
        ))}
      </FilterList>
      <FilterList label="app.customers.views.by_lead_status" icon={null}>
        {leadStatuses.map((status) => (
          <FilterListItem
            key={status}
            label={leadStatusLabel(status)}
            value={{ leadStatus: status }}
          />
        ))}
      </FilterList>
      {/* A search box is not an item of a list: outside FilterList, which renders a <ul>. */}
      <Box component="section" aria-labelledby="customer-tags-filter" sx={{ mt: 2 }}>
        <Typography id="customer-tags-filter" variant="body2" sx={{ fontWeight: 500 }}>
          {translate('app.customers.views.tags')}
        </Typography>
        <FilterLiveSearch source="tags" label="app.customers.fields.tags" />
      </Box>
    </>
  );
}

function FilterSidebar() {
  return (
    // Hidden below md: beside the list it would leave the rows no room on a phone.
    <Card
      sx={{
        order: -1,
        mr: 2,
        mt: 8,
        width: 180,
        flexShrink: 0,
        display: { xs: 'none', md: 'block' },
      }}
    >
      <CardContent>
        <Filters />
      </CardContent>
    </Card>
  );
}

/** Below md: the filters open in a drawer from the bottom (MUI keeps the focus inside). */
function FiltersButton() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button
        label="app.customers.actions.filters"
        onClick={() => setOpen(true)}
        sx={{ display: { md: 'none' } }}
      >
        <FilterAlt />
      </Button>
      <Drawer anchor="bottom" open={open} onClose={() => setOpen(false)}>
        <Box sx={{ p: 2, maxHeight: '80vh', overflowY: 'auto' }}>
          <Filters />
        </Box>
      </Drawer>
    </>
  );
}

/** The filter the list shows, the view's fixed one included: what an export should contain. */
function useShownFilter() {
  const { filterValues, filter, sort } = useListContext();
  return {
    filter: { ...filterValues, ...filter },
    sort: [sort.field, sort.order] as [string, string],
  };
}

function ExportButton({ ids }: { ids?: string[] }) {
  const shown = useShownFilter();
  const notify = useNotify();
  const exportShown = async () => {
    try {
      await downloadExport(ids ? { id: ids } : shown.filter, shown.sort);
    } catch (error) {
      notify('app.customers.notices.export_failed', {
        type: 'error',
        messageArgs: { message: (error as Error).message },
      });
    }
  };
  return (
    <Button label="app.customers.actions.export" onClick={() => void exportShown()}>
      <Download />
    </Button>
  );
}

function DialogButton({
  label,
  icon,
  dialog,
}: {
  label: string;
  icon: ReactElement;
  dialog: (open: boolean, close: () => void) => ReactNode;
}) {
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const wasOpen = useRef(false);
  // The dialog unmounts at once on close, so its own focus return can race a re-render: the
  // focus goes back to the button that opened it, as WAI-ARIA's dialog pattern asks.
  useLayoutEffect(() => {
    if (wasOpen.current && !open) button.current?.focus();
    wasOpen.current = open;
  }, [open]);
  return (
    <>
      <Button ref={button} label={label} onClick={() => setOpen(true)}>
        {icon}
      </Button>
      {open && <Suspense fallback={null}>{dialog(open, () => setOpen(false))}</Suspense>}
    </>
  );
}

function ListActions() {
  const canChange = useCanChangeCustomers();
  // A phone's list is one column: there are no columns to choose.
  const small = useMediaQuery((theme: Theme) => theme.breakpoints.down('md'), { noSsr: true });
  return (
    // From md up the buttons keep one line, under the search when both do not fit (see the List).
    <TopToolbar sx={{ flexWrap: { xs: 'wrap', md: 'nowrap' }, ml: 'auto' }}>
      {canChange && (
        <>
          <DialogButton
            label="app.customers.actions.add"
            icon={<PersonAdd />}
            dialog={(open, close) => <AddCustomerDialog open={open} onClose={close} />}
          />
          <DialogButton
            label="app.customers.actions.bulk_add"
            icon={<GroupAdd />}
            dialog={(open, close) => <BulkAddDialog open={open} onClose={close} />}
          />
        </>
      )}
      <FiltersButton />
      {!small && <SelectColumnsButton />}
      <ExportButton />
    </TopToolbar>
  );
}

function BulkActions() {
  const { selectedIds, onUnselectItems } = useListContext();
  const translate = useTranslate();
  const run = useCustomerCommand();
  const [confirmRemove, setConfirmRemove] = useState(false);
  const ids = selectedIds.map(String);
  const count = { smart_count: ids.length };
  const canChange = useCanChangeCustomers();
  // A bulk command ends the selection, whatever its outcome: the rows it named may have changed.
  const runOnSelection = (command: () => Promise<unknown>, done: string) =>
    void run(async () => {
      try {
        await command();
      } finally {
        onUnselectItems();
      }
    }, [done, count]);
  const remove = () => {
    setConfirmRemove(false);
    runOnSelection(() => removeCustomers(ids), 'app.customers.notices.removed');
  };
  return (
    <>
      {canChange && (
        <>
          <Button
            label="app.customers.actions.star"
            onClick={() =>
              runOnSelection(() => setStarred(ids, true), 'app.customers.notices.starred')
            }
          >
            <Star />
          </Button>
          <Button
            label="app.customers.actions.unstar"
            onClick={() =>
              runOnSelection(() => setStarred(ids, false), 'app.customers.notices.unstarred')
            }
          >
            <StarBorder />
          </Button>
          <Button
            label="app.customers.actions.remove"
            color="error"
            onClick={() => setConfirmRemove(true)}
          >
            <Delete />
          </Button>
          <Confirm
            isOpen={confirmRemove}
            title="app.customers.actions.remove"
            content="ra.message.bulk_delete_content"
            translateOptions={{ ...count, name: translate('app.customers.one_name') }}
            onConfirm={remove}
            onClose={() => setConfirmRemove(false)}
          />
        </>
      )}
      <ExportButton ids={ids} />
    </>
  );
}

const stopRowClick = (event: MouseEvent) => event.stopPropagation();

function StarToggle() {
  const customer = useRecordContext<Customer>();
  const translate = useTranslate();
  const canChange = useCanChangeCustomers();
  const run = useCustomerCommand();
  if (!customer) return null;
  const icon = customer.starred ? <Star color="warning" /> : <StarBorder />;
  if (!canChange) return icon;
  return (
    <IconButton
      size="small"
      aria-pressed={customer.starred}
      aria-label={translate('app.customers.actions.toggle_star', {
        name: customerDisplayName(customer),
      })}
      onClick={(event) => {
        stopRowClick(event);
        // The same notice as the bulk command's, for one customer.
        void run(
          () => toggleStar(customer.id),
          [
            customer.starred ? 'app.customers.notices.unstarred' : 'app.customers.notices.starred',
            { smart_count: 1 },
          ],
        );
      }}
    >
      {icon}
    </IconButton>
  );
}

function RowDialogButton({
  label,
  icon,
  dialog,
}: {
  label: string;
  icon: ReactNode;
  dialog: (customer: Customer, close: () => void) => ReactNode;
}) {
  const customer = useRecordContext<Customer>();
  const translate = useTranslate();
  const [open, setOpen] = useState(false);
  if (!customer) return null;
  return (
    // Clicks inside (the dialog is portalled, but React bubbles through it) must not open the row.
    // biome-ignore lint/a11y/noStaticElementInteractions: it only stops clicks reaching the row
    <span onClick={stopRowClick} onKeyDown={(event) => event.stopPropagation()}>
      <Tooltip title={translate(label)}>
        <IconButton
          size="small"
          aria-label={`${translate(label)} ${customer.email}`}
          onClick={() => setOpen(true)}
        >
          {icon}
        </IconButton>
      </Tooltip>
      {open && <Suspense fallback={null}>{dialog(customer, () => setOpen(false))}</Suspense>}
    </span>
  );
}

function RowActions() {
  const canChange = useCanChangeCustomers();
  return (
    <Stack direction="row">
      {canChange && (
        <>
          <RowDialogButton
            label="app.customers.actions.edit"
            icon={<Edit fontSize="small" />}
            dialog={(customer, close) => (
              <EditCustomerDialog customer={customer} open onClose={close} />
            )}
          />
          <RowDialogButton
            label="app.customers.actions.push"
            icon={<NotificationsActive fontSize="small" />}
            dialog={(customer, close) => (
              <PushNotificationDialog customer={customer} open onClose={close} />
            )}
          />
        </>
      )}
      <RowDialogButton
        label="app.customers.actions.transactions"
        icon={<ReceiptLong fontSize="small" />}
        dialog={(customer, close) => (
          <TransactionsDialog customer={customer} open onClose={close} />
        )}
      />
    </Stack>
  );
}

/**
 * The customers as a table, or on a phone as one column (name, email, investor status) that
 * opens the customer: the table's columns would not fit there, and the row checkboxes keep the
 * bulk actions within reach.
 */
function CustomerRows({ view }: { view: string | undefined }) {
  const translate = useTranslate();
  const small = useMediaQuery((theme: Theme) => theme.breakpoints.down('md'), { noSsr: true });
  if (small) {
    return (
      <Datagrid
        empty={<NoCustomers />}
        rowClick={(id) => `/customers/${view}/${id}`}
        bulkActionButtons={<BulkActions />}
        // Four icon buttons beside "N items selected" fit a phone once they are compact.
        sx={{
          '& .RaBulkActionsToolbar-topToolbar': { gap: 0, paddingInlineStart: 0 },
          '& .RaBulkActionsToolbar-topToolbar .MuiIconButton-root': { padding: '6px' },
        }}
      >
        <FunctionField
          source="name"
          label={field('fullName')}
          render={(customer: Customer) => (
            <Box sx={{ overflowWrap: 'anywhere' }}>
              <Typography variant="body2" sx={{ fontWeight: 500 }}>
                {customerDisplayName(customer)}
              </Typography>
              <Typography variant="body2" color="text.secondary">
                <bdi>{customer.email}</bdi>
              </Typography>
              <Typography variant="caption" color="text.secondary">
                {translate(investorStatusLabel(customer.investorStatus))}
              </Typography>
            </Box>
          )}
        />
      </Datagrid>
    );
  }
  return (
    <DatagridConfigurable
      empty={<NoCustomers />}
      rowClick={(id) => `/customers/${view}/${id}`}
      bulkActionButtons={<BulkActions />}
      // The default columns fit a 1280 px window beside the filters; the others are a click away.
      omit={['phone', 'company', 'jobTitle', 'tags', 'createdAt']}
      // The table scrolls, not the root: the selection's toolbar sits above the root's box. The
      // row actions stay in view at the table's end when its other columns scroll.
      sx={{
        maxWidth: '100%',
        '& .RaDatagrid-tableWrapper': { overflowX: 'auto' },
        '& .RaDatagrid-row > td:last-of-type, & .RaDatagrid-headerRow > th:last-of-type': {
          position: 'sticky',
          insetInlineEnd: 0,
          bgcolor: 'background.paper',
          zIndex: 1,
        },
      }}
    >
      <FunctionField source="starred" label={field('starred')} render={() => <StarToggle />} />
      <FunctionField
        source="name"
        label={field('fullName')}
        // A customer without a name shows the email here: it wraps like one.
        sx={wrappingCell(110)}
        render={(customer: Customer) => customerDisplayName(customer)}
      />
      <FunctionField
        source="email"
        label={field('email')}
        sx={wrappingCell(140)}
        render={(customer: Customer) => <EmailAddress email={customer.email} />}
      />
      <FunctionField
        source="phone"
        label={field('phone')}
        render={(customer: Customer) => (
          <bdi dir="ltr" style={{ whiteSpace: 'nowrap' }}>
            {customer.phone}
          </bdi>
        )}
      />
      <TextField source="company" label={field('company')} />
      <TextField source="jobTitle" label={field('jobTitle')} />
      <FunctionField
        source="investorStatus"
        label={field('investorStatus')}
        render={(customer: Customer) => translate(investorStatusLabel(customer.investorStatus))}
      />
      <FunctionField
        source="leadStatus"
        label={field('leadStatus')}
        render={(customer: Customer) => translate(leadStatusLabel(customer.leadStatus))}
      />
      <FunctionField
        source="tags"
        label={field('tags')}
        sortable={false}
        render={(customer: Customer) => customer.tags.join(', ')}
      />
      <DateField source="createdAt" label={field('createdAt')} />
      <FunctionField label={field('actions')} render={() => <RowActions />} />
    </DatagridConfigurable>
  );
}

/**
 * `/customers/:view`: all customers, the starred ones, or those of one investor or lead status,
 * with search, sort, pages, the filter sidebar, a column chooser and bulk commands.
 */
export default function CustomerList() {
  const { view } = useParams();
  const translate = useTranslate();
  const fixed = viewFilter(view);
  if (!fixed) return <Navigate to="/errors/error-404" replace />;
  return (
    <>
      <PhoneTitle title={translate('app.customers.title')} />
      <List
        {...listFailureProps}
        key={view}
        resource="customers"
        storeKey={`customers.${view}`}
        filter={fixed}
        title={translate('app.customers.title')}
        filters={[
          <SearchInput key="q" source="q" alwaysOn placeholder={translate('ra.action.search')} />,
        ]}
        sort={{ field: 'name', order: 'ASC' }}
        perPage={25}
        aside={<FilterSidebar />}
        actions={<ListActions />}
        exporter={false}
        empty={false}
        // A wide table scrolls inside its card, never the page.
        sx={{
          '& .RaList-main': { minWidth: 0 },
          '& .RaList-actions': { flexWrap: { md: 'wrap' } },
        }}
      >
        <CustomerRows view={view} />
      </List>
    </>
  );
}

/**
 * A company without customers yet is told so (Add customer and Bulk add are in the toolbar
 * above); a search or filter that matches nothing says that instead.
 */
function NoCustomers() {
  const translate = useTranslate();
  const { filterValues, filter } = useListContext();
  const filtered = Object.keys({ ...filter, ...filterValues }).length > 0;
  return (
    <Box component="section" sx={{ py: 6, textAlign: 'center' }}>
      <Typography variant="h6" component="p">
        {filtered
          ? translate('ra.navigation.no_results', { name: translate('app.customers.many_name') })
          : translate('app.empty.customers')}
      </Typography>
    </Box>
  );
}
