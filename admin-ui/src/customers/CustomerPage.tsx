import ArrowBack from '@mui/icons-material/ArrowBack';
import Autorenew from '@mui/icons-material/Autorenew';
import Edit from '@mui/icons-material/Edit';
import NotificationsActive from '@mui/icons-material/NotificationsActive';
import Print from '@mui/icons-material/Print';
import ReceiptLong from '@mui/icons-material/ReceiptLong';
import Star from '@mui/icons-material/Star';
import StarBorder from '@mui/icons-material/StarBorder';
import SwapHoriz from '@mui/icons-material/SwapHoriz';
import { Alert, Box, Button, Card, CardContent, Stack, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import {
  HttpError,
  Loading,
  Title,
  useLocaleState,
  useNotify,
  useRefresh,
  useTranslate,
} from 'react-admin';
import { Link, useParams, useSearchParams } from 'react-router-dom';
import { DatePickerField, dateValueOf } from '../dates/DatePickerField';
import { CustomerEtransfersDialog } from '../etransfers/CustomerEtransfersDialog';
import { customerDisplayName } from '../lists/customerFilter';
import { DetailList } from '../profile/DetailList';
import { CustomerSubscriptionsDialog } from '../subscriptions/CustomerSubscriptionsDialog';
import { useCanChangeCustomers } from './access';
import { CustomerTimeline, FieldValue } from './CustomerTimeline';
import {
  type Customer,
  type CustomerAsOf,
  type DetailedCustomer,
  fetchCustomer,
  fetchCustomerAsOf,
  fetchHistory,
  type HistoryEntry,
  toggleStar,
} from './customerApi';
import { EditCustomerDialog } from './EditCustomerDialog';
import { InvestorStatusPanel } from './InvestorStatusPanel';
import { PrintStyles } from './PrintStyles';
import { PushNotificationDialog } from './PushNotificationDialog';
import { TransactionsDialog } from './TransactionsDialog';

const detailFields = [
  'name',
  'lastName',
  'nickname',
  'email',
  'phone',
  'company',
  'jobTitle',
  'address',
  'birthday',
  'tags',
  'walletAddress',
  'roundId',
  'tokenPrice',
  'tokenBalance',
  'percentageOwned',
  'investorStatus',
  'leadStatus',
  'starred',
  'notes',
] as const;

const isEmpty = (value: unknown) =>
  value === null ||
  value === undefined ||
  value === '' ||
  (Array.isArray(value) && value.length === 0);

/** The fields with a value; the empty ones fold into one line that names them. */
function CustomerDetails({ customer }: { customer: Customer | CustomerAsOf }) {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const filled = detailFields.filter((name) => !isEmpty(customer[name]));
  const empty = detailFields.filter((name) => isEmpty(customer[name]));
  const rows: [string, ReactNode][] = filled.map((name) => [
    `app.customers.fields.${name}`,
    <FieldValue key={name} field={name} value={customer[name]} />,
  ]);
  rows.push(
    ['app.customers.fields.createdAt', new Date(customer.createdAt).toLocaleString(locale)],
    ['app.customers.fields.updatedAt', new Date(customer.updatedAt).toLocaleString(locale)],
  );
  return (
    <>
      <DetailList rows={rows} />
      {empty.length > 0 && (
        <Typography variant="body2" color="text.secondary" data-testid="empty-fields">
          {translate('app.customers.page.empty_folded', {
            fields: empty.map((name) => translate(`app.customers.fields.${name}`)).join(', '),
          })}
        </Typography>
      )}
    </>
  );
}

/** The as-of picker: a moment in the past, answered by the server replaying the stream. */
function AsOfPicker({
  moment,
  onShow,
}: {
  moment: Date | undefined;
  onShow: (moment: Date | undefined) => void;
}) {
  const translate = useTranslate();
  const [value, setValue] = useState(() => dateValueOf(moment ?? new Date(), 'second'));
  return (
    <Stack
      direction="row"
      data-print="hide"
      sx={{ gap: 1, alignItems: 'center', flexWrap: 'wrap' }}
    >
      <DatePickerField
        precision="second"
        size="small"
        label={translate('app.customers.page.as_of')}
        helperText={translate('app.customers.page.as_of_help')}
        value={value}
        onChange={setValue}
      />
      <Button
        variant="outlined"
        disabled={!value}
        onClick={() => onShow(value ? new Date(value) : undefined)}
      >
        {translate('app.customers.page.as_of_show')}
      </Button>
      <Button onClick={() => onShow(undefined)}>{translate('app.customers.page.as_of_now')}</Button>
    </Stack>
  );
}

/** The customer at the moment, as the server replays their stream up to it. */
function useCustomerAsOf(id: string, moment: Date | undefined) {
  return useQuery({
    queryKey: ['customers', 'asOf', id, moment?.toISOString()],
    queryFn: () => fetchCustomerAsOf(id, moment ?? new Date()),
    enabled: moment !== undefined,
    retry: false,
  });
}

function AsOfDetails({ moment, then }: { moment: Date; then: ReturnType<typeof useCustomerAsOf> }) {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const time = moment.toLocaleString(locale);
  if (then.isPending) return <Loading />;
  if (then.error) {
    const missing = then.error instanceof HttpError && then.error.status === 404;
    return (
      <Alert severity={missing ? 'info' : 'error'} role="status">
        {missing ? translate('app.customers.page.as_of_missing') : then.error.message}
      </Alert>
    );
  }
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
      <Alert severity="info" role="status">
        {translate('app.customers.page.as_of_showing', { time })}
        {then.data.removed && ` — ${translate('app.customers.page.as_of_removed')}`}
      </Alert>
      <CustomerDetails customer={then.data} />
    </Box>
  );
}

function PageActions({
  customer,
  past,
  starred,
}: {
  customer: Customer;
  past: boolean;
  /** The star as the page shows it: the moment's in as-of mode. */
  starred: boolean;
}) {
  const translate = useTranslate();
  const notify = useNotify();
  const refresh = useRefresh();
  const [dialog, setDialog] = useState<
    'edit' | 'push' | 'transactions' | 'etransfers' | 'subscriptions'
  >();
  const canChange = useCanChangeCustomers();
  const close = () => setDialog(undefined);
  const star = async () => {
    try {
      await toggleStar(customer.id);
    } catch (error) {
      notify((error as Error).message, { type: 'error' });
    } finally {
      refresh();
    }
  };
  return (
    <Stack direction="row" data-print="hide" sx={{ gap: 1, flexWrap: 'wrap' }}>
      {canChange && (
        <>
          <Button
            startIcon={starred ? <Star /> : <StarBorder />}
            aria-pressed={starred}
            disabled={past}
            onClick={() => void star()}
          >
            {translate(starred ? 'app.customers.actions.unstar' : 'app.customers.actions.star')}
          </Button>
          <Button startIcon={<Edit />} disabled={past} onClick={() => setDialog('edit')}>
            {translate('app.customers.actions.edit')}
          </Button>
          <Button
            startIcon={<NotificationsActive />}
            disabled={past}
            onClick={() => setDialog('push')}
          >
            {translate('app.customers.actions.push')}
          </Button>
        </>
      )}
      <Button startIcon={<ReceiptLong />} onClick={() => setDialog('transactions')}>
        {translate('app.customers.actions.transactions')}
      </Button>
      <Button startIcon={<SwapHoriz />} onClick={() => setDialog('etransfers')}>
        {translate('app.etransfers.customer_section')}
      </Button>
      <Button startIcon={<Autorenew />} onClick={() => setDialog('subscriptions')}>
        {translate('app.subscriptions.customer_section')}
      </Button>
      <Button startIcon={<Print />} onClick={() => window.print()}>
        {translate('app.customers.page.print')}
      </Button>
      {dialog === 'edit' && <EditCustomerDialog customer={customer} open onClose={close} />}
      {dialog === 'push' && <PushNotificationDialog customer={customer} open onClose={close} />}
      {dialog === 'transactions' && <TransactionsDialog customer={customer} open onClose={close} />}
      {dialog === 'etransfers' && <CustomerEtransfersDialog customer={customer} onClose={close} />}
      {dialog === 'subscriptions' && (
        <CustomerSubscriptionsDialog customer={customer} onClose={close} />
      )}
    </Stack>
  );
}

/** `?asOf=<ISO moment>`: the moment the page shows, so a reviewer can share or reload it. */
function useAsOfParam() {
  const [params, setParams] = useSearchParams();
  const raw = params.get('asOf');
  const parsed = raw === null ? undefined : new Date(raw);
  const valid = parsed && !Number.isNaN(parsed.getTime()) ? parsed : undefined;
  const show = (moment: Date | undefined) =>
    setParams(moment ? { asOf: moment.toISOString() } : {});
  return { asOf: valid, invalid: raw !== null && !valid, show };
}

/** The history up to the moment, stopping where the server's replay stops. */
function historyUpTo(entries: HistoryEntry[], moment: Date | undefined) {
  if (!moment) return entries;
  const cut = entries.findIndex((entry) => Date.parse(entry.at) > moment.getTime());
  return cut === -1 ? entries : entries.slice(0, cut);
}

/**
 * `/customers/:view/:id`: the customer's details, investor status with the workflow's next steps,
 * the history of every change, and the customer as they were at a chosen moment (`?asOf=`): then
 * everything on the page shows that moment and every command is off.
 */
export default function CustomerPage() {
  const { view = 'all', id = '' } = useParams();
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const canChange = useCanChangeCustomers();
  const { asOf, invalid, show } = useAsOfParam();
  const customer = useQuery({
    queryKey: ['customers', 'getOne', id, 'detailed'],
    queryFn: () => fetchCustomer(id),
    retry: false,
  });
  const history = useQuery({
    queryKey: ['customers', 'history', id],
    queryFn: () => fetchHistory(id),
    retry: false,
  });
  const then = useCustomerAsOf(id, asOf);
  const back = (
    <Button
      component={Link}
      to={`/customers/${view}`}
      data-print="hide"
      startIcon={
        <ArrowBack
          sx={{ transform: (theme) => (theme.direction === 'rtl' ? 'scaleX(-1)' : 'none') }}
        />
      }
    >
      {translate('app.customers.actions.back')}
    </Button>
  );
  if (customer.isPending) return <Loading />;
  if (customer.error) {
    return (
      <Box sx={{ py: 4 }}>
        <Alert severity="warning">{translate('app.customers.page.not_found')}</Alert>
        {back}
      </Box>
    );
  }
  const current = customer.data;
  // In as-of mode the status card, lead status and star are the moment's, never today's.
  const shown: DetailedCustomer | undefined = asOf
    ? then.data && { ...then.data, id, nextInvestorStatuses: [] }
    : current;
  const name = customerDisplayName(current);
  const time = asOf?.toLocaleString(locale);
  return (
    <Box sx={{ py: 2, display: 'flex', flexDirection: 'column', gap: 2 }}>
      <PrintStyles />
      <Title title={name} />
      <Box>{back}</Box>
      <Stack direction="row" sx={{ alignItems: 'center', gap: 2, flexWrap: 'wrap' }}>
        {/* A long name or e-mail wraps anywhere rather than widen the page on a phone. */}
        <Box sx={{ flexGrow: 1, minWidth: 0, overflowWrap: 'anywhere' }}>
          <Typography variant="h5" component="h1" data-testid="customer-name">
            <bdi>{name}</bdi>
            {shown?.starred && (
              <Star
                color="warning"
                titleAccess={translate('app.customers.fields.starred')}
                sx={{ verticalAlign: 'middle', mx: 1 }}
                data-testid="starred-mark"
              />
            )}
          </Typography>
          <Typography color="text.secondary" data-testid="customer-email">
            <bdi dir="ltr">{current.email}</bdi>
          </Typography>
        </Box>
        <PageActions
          customer={current}
          past={asOf !== undefined}
          starred={shown?.starred ?? current.starred}
        />
      </Stack>
      {asOf && (
        <Alert severity="warning" data-testid="as-of-note">
          {translate('app.customers.page.as_of_commands_off', { time })}
        </Alert>
      )}
      {invalid && <Alert severity="warning">{translate('app.customers.page.as_of_invalid')}</Alert>}
      {!canChange && <Alert severity="info">{translate('app.customers.notices.read_only')}</Alert>}
      <Box
        sx={{
          display: 'grid',
          gap: 2,
          // minmax(0, …): a long value wraps inside its card instead of widening the column.
          gridTemplateColumns: { xs: 'minmax(0, 1fr)', md: 'minmax(0, 3fr) minmax(0, 2fr)' },
          alignItems: 'start',
        }}
      >
        <Card component="section" aria-labelledby="details-title">
          <CardContent sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
            <Typography id="details-title" variant="h6" component="h2">
              {translate('app.customers.page.details')}
            </Typography>
            <AsOfPicker key={asOf?.toISOString() ?? 'now'} moment={asOf} onShow={show} />
            {asOf ? (
              <AsOfDetails moment={asOf} then={then} />
            ) : (
              <CustomerDetails customer={current} />
            )}
          </CardContent>
        </Card>
        {shown && <InvestorStatusPanel customer={shown} canChange={canChange && !asOf} />}
      </Box>
      {history.data && (
        <CustomerTimeline
          entries={historyUpTo(history.data.entries, asOf)}
          upTo={time && translate('app.customers.page.as_of_history', { time })}
        />
      )}
    </Box>
  );
}
