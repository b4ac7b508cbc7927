import AccountBalance from '@mui/icons-material/AccountBalance';
import Autorenew from '@mui/icons-material/Autorenew';
import Groups from '@mui/icons-material/Groups';
import HourglassTop from '@mui/icons-material/HourglassTop';
import ShowChart from '@mui/icons-material/ShowChart';
import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  Link,
  List,
  ListItem,
  ListItemText,
  Skeleton,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  ToggleButton,
  ToggleButtonGroup,
  Tooltip,
  Typography,
} from '@mui/material';
import { LineChart } from '@mui/x-charts/LineChart';
import type { AxisValueFormatterContext } from '@mui/x-charts/models';
import { PieChart } from '@mui/x-charts/PieChart';
import { useQuery } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { Title, useLocale, useTranslate } from 'react-admin';
import { Link as RouterLink } from 'react-router-dom';
import { Actor, EventAndAmount, RecordLink } from '../audit/AuditNames';
import { useCanChangeCustomers } from '../customers/access';
import { investorStatusLabel, statusView } from '../customers/statuses';
import { formatCad } from '../layout/formatCad';
import { LoadFailed } from '../layout/LoadFailed';
import { Percent } from '../layout/Percent';
import { DateTime } from '../payments/Money';
import { callApi, errorCode } from '../session/http';
import {
  type Dashboard,
  dashboardQueryKey,
  type FundingRange,
  fundingRanges,
  fundingTicks,
  rangeBounds,
} from './dashboardApi';

type Translate = (key: string, options?: object) => string;

/** The doughnut's hole: 66 % of its radius, as the seed's investor chart. */
const doughnutCutout = '66%';

/** `/dashboard`: the company's figures at a glance, refreshed live as data changes. */
export default function DashboardPage() {
  const translate = useTranslate();
  const t: Translate = (key, options) => translate(`app.dashboard.${key}`, options);
  const figures = useQuery({
    queryKey: [dashboardQueryKey],
    queryFn: () => callApi<Dashboard>('/dashboard?top=5&activity=8'),
  });
  return (
    <Box
      component="section"
      aria-labelledby="dashboard-title"
      aria-busy={figures.isPending}
      sx={{ py: 2, minWidth: 0 }}
    >
      <Title title={translate('app.nav.dashboard')} />
      <Typography id="dashboard-title" variant="h5" component="h1" sx={{ mb: 2 }}>
        {t('title')}
      </Typography>
      {figures.isPending && <Loading label={t('loading')} />}
      {figures.isError &&
        (errorCode(figures.error) === 'company_not_verified' ? (
          <Alert severity="info">{t('unverified')}</Alert>
        ) : (
          <LoadFailed title={t('error')} error={figures.error} onRetry={figures.refetch} />
        ))}
      {figures.data && <Figures data={figures.data} t={t} />}
    </Box>
  );
}

function Loading({ label }: { label: string }) {
  return (
    <Box role="status" aria-label={label} sx={grid(4)}>
      {[0, 1, 2, 3].map((i) => (
        <Skeleton key={i} variant="rounded" height={112} />
      ))}
      <Skeleton variant="rounded" height={300} sx={{ gridColumn: '1 / -1' }} />
    </Box>
  );
}

/** Cards side by side on a wide screen, two by two on a tablet, stacked on a phone. */
const grid = (wide: number) => ({
  display: 'grid',
  gap: 2,
  gridTemplateColumns: {
    xs: 'minmax(0, 1fr)',
    sm: 'repeat(2, minmax(0, 1fr))',
    lg: `repeat(${wide}, minmax(0, 1fr))`,
  },
  mb: 2,
});

function Figures({ data, t }: { data: Dashboard; t: Translate }) {
  const locale = useLocale();
  const cad = (cents: number) => formatCad(cents / 100, locale);
  const number = (value: number) => value.toLocaleString(locale);
  return (
    <>
      <Typography color="text.secondary" variant="body2" sx={{ mt: -1.5, mb: 2 }}>
        {t('as_of', { time: new Date(data.asOf).toLocaleString(locale) })}
      </Typography>
      <Box sx={grid(4)}>
        <Stat
          id="balance"
          icon={<AccountBalance />}
          title={t('balance')}
          value={cad(data.balance.availableCents)}
          hint={t('balance_hint')}
          to="/transactions/all"
        />
        <Stat
          id="pending"
          icon={<HourglassTop />}
          title={t('pending')}
          value={cad(data.pendingPayments.amountCents)}
          hint={t('pending_hint', { count: number(data.pendingPayments.count) })}
          to="/pendingpayments/all"
        />
        <Stat
          id="mrr"
          icon={<Autorenew />}
          title={t('mrr')}
          value={cad(data.monthlyRecurringRevenue.amountCents)}
          hint={t('mrr_hint', { count: number(data.monthlyRecurringRevenue.subscriptions) })}
          to="/subscriptions/active"
        />
        <Stat
          id="holders"
          icon={<Groups />}
          title={t('holders')}
          value={number(data.capTable.holders)}
          hint={t('holders_hint', { issued: number(data.capTable.issued) })}
          to="/captable"
        />
      </Box>
      <Box
        sx={{
          ...grid(2),
          gridTemplateColumns: { xs: 'minmax(0, 1fr)', md: 'repeat(2, minmax(0, 1fr))' },
        }}
      >
        <InvestorStatuses data={data} t={t} />
        <FundingProgress data={data} t={t} />
      </Box>
      <Box
        sx={{
          ...grid(2),
          gridTemplateColumns: { xs: 'minmax(0, 1fr)', md: 'repeat(2, minmax(0, 1fr))' },
        }}
      >
        <TopHolders data={data} t={t} />
        <ShareClasses data={data} t={t} />
      </Box>
      <RecentActivity data={data} t={t} />
    </>
  );
}

function Panel({
  id,
  title,
  action,
  children,
}: {
  id: string;
  title: string;
  action?: ReactNode;
  children: ReactNode;
}) {
  return (
    <Card
      component="section"
      aria-labelledby={`dashboard-${id}-title`}
      data-testid={`dashboard-${id}`}
      sx={{ minWidth: 0 }}
    >
      <CardContent>
        <Stack direction="row" spacing={1} sx={{ mb: 1.5, alignItems: 'center', flexWrap: 'wrap' }}>
          <Typography id={`dashboard-${id}-title`} variant="h6" component="h2" sx={{ flexGrow: 1 }}>
            {title}
          </Typography>
          {action}
        </Stack>
        {children}
      </CardContent>
    </Card>
  );
}

function Stat(props: {
  id: string;
  icon: ReactNode;
  title: string;
  value: string;
  hint: string;
  to: string;
}) {
  return (
    <Card
      component="section"
      aria-labelledby={`stat-${props.id}-title`}
      data-testid={`stat-${props.id}`}
      sx={{ minWidth: 0 }}
    >
      <CardContent>
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center', color: 'text.secondary' }}>
          {props.icon}
          <Typography id={`stat-${props.id}-title`} variant="subtitle2" component="h2">
            <Link component={RouterLink} to={props.to} color="inherit" underline="hover">
              {props.title}
            </Link>
          </Typography>
        </Stack>
        <Typography
          variant="h5"
          component="p"
          data-testid={`stat-${props.id}-value`}
          sx={{ mt: 1, fontWeight: 600, overflowWrap: 'anywhere' }}
        >
          {/* An amount keeps its left-to-right order in Arabic, as Money writes it elsewhere. */}
          <bdi dir="ltr">{props.value}</bdi>
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {props.hint}
        </Typography>
      </CardContent>
    </Card>
  );
}

function Empty({ title, hint, action }: { title: string; hint?: string; action?: ReactNode }) {
  return (
    <Box sx={{ py: 4, px: 1, textAlign: 'center' }} data-testid="dashboard-empty">
      <ShowChart sx={{ fontSize: 48, color: 'text.disabled' }} />
      <Typography variant="subtitle1" component="p">
        {title}
      </Typography>
      {hint && (
        <Typography variant="body2" color="text.secondary">
          {hint}
        </Typography>
      )}
      {action && <Box sx={{ mt: 1.5 }}>{action}</Box>}
    </Box>
  );
}

function InvestorStatuses({ data, t }: { data: Dashboard; t: Translate }) {
  const translate = useTranslate();
  const locale = useLocale();
  const writes = useCanChangeCustomers();
  const present = data.investorStatuses.filter((row) => row.count > 0);
  return (
    <Panel
      id="investors"
      title={t('investors')}
      action={
        data.customers > 0 && (
          <Typography variant="body2" color="text.secondary">
            {t('investors_total', { count: data.customers.toLocaleString(locale) })}
          </Typography>
        )
      }
    >
      {present.length === 0 ? (
        <Empty
          title={t('investors_empty')}
          hint={t('investors_empty_hint')}
          action={
            writes && (
              <Button component={RouterLink} to="/customers/all" variant="outlined" size="small">
                {t('add_customers')}
              </Button>
            )
          }
        />
      ) : (
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: 'center' }}>
          {/* A picture of the list beside it, which carries the same counts as links: kept out of
              the tab order and the accessibility tree (the chart's own keyboard proxy included). */}
          <Box sx={{ width: 200, height: 200, flexShrink: 0 }} inert>
            <PieChart
              width={200}
              height={200}
              hideLegend
              margin={{ top: 0, bottom: 0, left: 0, right: 0 }}
              series={[
                {
                  innerRadius: doughnutCutout,
                  outerRadius: '100%',
                  paddingAngle: 1,
                  cornerRadius: 3,
                  data: present.map((row) => ({
                    id: row.status,
                    value: row.count,
                    label: translate(investorStatusLabel(row.status)),
                  })),
                },
              ]}
            />
          </Box>
          <List dense sx={{ width: '100%', minWidth: 0 }} data-testid="investor-statuses">
            {present.map((row) => (
              <ListItem
                key={row.status}
                disableGutters
                secondaryAction={<bdi>{row.count.toLocaleString(locale)}</bdi>}
              >
                <ListItemText
                  primary={
                    <Link component={RouterLink} to={`/customers/${statusView(row.status)}`}>
                      {translate(investorStatusLabel(row.status))}
                    </Link>
                  }
                />
              </ListItem>
            ))}
          </List>
        </Stack>
      )}
    </Panel>
  );
}

function FundingProgress({ data, t }: { data: Dashboard; t: Translate }) {
  const locale = useLocale();
  const [range, setRange] = useState<FundingRange>('tw');
  const { from, to } = rangeBounds(range, new Date(data.asOf));
  const points = data.fundingProgress.series
    .map((point) => ({ at: new Date(point.at), raised: point.raisedCents / 100 }))
    .filter((point) => point.at.getTime() >= from && point.at.getTime() < to);
  const ticks = fundingTicks(Math.max(0, ...points.map((point) => point.raised)));
  const ranges = (
    <ToggleButtonGroup
      size="small"
      exclusive
      value={range}
      onChange={(_event, next: FundingRange | null) => next && setRange(next)}
      aria-label={t('ranges.label')}
    >
      {/* A short label in words; its full wording names it and shows on hover, focus or a long press. */}
      {fundingRanges.map((id) => (
        <Tooltip key={id} title={t(`ranges.${id}_long`)}>
          <ToggleButton
            value={id}
            aria-label={t(`ranges.${id}_long`)}
            sx={{ px: 1.25, whiteSpace: 'nowrap' }}
          >
            {t(`ranges.${id}`)}
          </ToggleButton>
        </Tooltip>
      ))}
    </ToggleButtonGroup>
  );
  return (
    <Panel id="funding" title={t('funding')} action={ranges}>
      {!data.fundingProgress.available || points.length === 0 ? (
        <Empty title={t('funding_empty')} hint={t('funding_empty_hint')} />
      ) : (
        <Box sx={{ height: 240 }} data-testid="funding-chart">
          <LineChart
            height={240}
            // Room for half the last day's label ("27 نوفمبر" is twice as wide as "Nov 27").
            margin={{ right: 40 }}
            xAxis={[
              {
                scaleType: 'time',
                data: points.map((point) => point.at),
                // One tick a day (the points are UTC days), written short: "Nov 24".
                tickInterval: points.map((point) => point.at),
                valueFormatter: (value: Date) =>
                  value.toLocaleDateString(locale, {
                    month: 'short',
                    day: 'numeric',
                    timeZone: 'UTC',
                  }),
              },
            ]}
            yAxis={[
              {
                label: t('funding_raised'),
                width: 72,
                min: 0,
                max: ticks.at(-1),
                tickInterval: ticks,
                // Ticks short ("120K"), so they fit the axis; the tooltip says the whole amount.
                valueFormatter: (value: number, context: AxisValueFormatterContext) =>
                  value.toLocaleString(
                    locale,
                    context.location === 'tick'
                      ? { notation: 'compact', maximumFractionDigits: 1 }
                      : undefined,
                  ),
              },
            ]}
            series={[{ data: points.map((point) => point.raised), area: true, showMark: false }]}
            hideLegend
          />
        </Box>
      )}
    </Panel>
  );
}

function TopHolders({ data, t }: { data: Dashboard; t: Translate }) {
  const locale = useLocale();
  const holders = data.capTable.topHolders;
  return (
    <Panel
      id="holders"
      title={t('top_holders')}
      action={
        <Link component={RouterLink} to="/captable" variant="body2">
          {t('open_cap_table')}
        </Link>
      }
    >
      {holders.length === 0 ? (
        <Empty title={t('top_holders_empty')} />
      ) : (
        <Table size="small" aria-labelledby="dashboard-holders-title" sx={{ tableLayout: 'fixed' }}>
          <TableHead>
            <TableRow>
              <TableCell>{t('holder')}</TableCell>
              <TableCell align="right" sx={{ width: '28%' }}>
                {t('shares')}
              </TableCell>
              <TableCell align="right" sx={{ width: '24%' }}>
                {t('percent')}
              </TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {holders.map((holder) => (
              <TableRow key={holder.customerId}>
                <TableCell sx={{ overflowWrap: 'anywhere' }}>
                  <Link component={RouterLink} to={`/customers/all/${holder.customerId}`}>
                    <bdi>{holder.name ?? holder.email ?? holder.customerId}</bdi>
                  </Link>
                </TableCell>
                <TableCell align="right">{holder.shares.toLocaleString(locale)}</TableCell>
                <TableCell align="right">
                  <Percent value={holder.percentOwned} />
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
    </Panel>
  );
}

function ShareClasses({ data, t }: { data: Dashboard; t: Translate }) {
  const translate = useTranslate();
  const locale = useLocale();
  const classes = data.capTable.shareClasses;
  return (
    <Panel id="classes" title={t('classes')}>
      {classes.length === 0 ? (
        <Empty title={t('classes_empty')} />
      ) : (
        <List dense disablePadding>
          {classes.map((shareClass) => (
            <ListItem key={shareClass.id} disableGutters>
              <ListItemText
                primary={
                  <>
                    <bdi>{shareClass.name}</bdi>
                    {` · ${translate(`app.captable.kinds.${shareClass.kind}`)}`}
                  </>
                }
                secondary={t('class_issued', {
                  issued: shareClass.issued.toLocaleString(locale),
                  authorized: shareClass.authorized.toLocaleString(locale),
                })}
              />
            </ListItem>
          ))}
        </List>
      )}
    </Panel>
  );
}

function RecentActivity({ data, t }: { data: Dashboard; t: Translate }) {
  const entries = data.recentActivity;
  return (
    <Panel
      id="activity"
      title={t('activity')}
      action={
        entries && (
          <Link component={RouterLink} to="/audit" variant="body2">
            {t('open_audit')}
          </Link>
        )
      }
    >
      {entries === null ? (
        <Typography color="text.secondary">{t('activity_hidden')}</Typography>
      ) : entries.length === 0 ? (
        <Empty title={t('activity_empty')} />
      ) : (
        <List dense disablePadding data-testid="dashboard-activity-list">
          {entries.map((entry) => (
            <ListItem key={entry.id} disableGutters divider>
              <ListItemText
                sx={{ minWidth: 0, overflowWrap: 'anywhere' }}
                primary={
                  <>
                    <EventAndAmount entry={entry} />
                    {' · '}
                    <RecordLink entry={entry} />
                  </>
                }
                secondary={
                  <>
                    <Actor entry={entry} />
                    {' · '}
                    <DateTime iso={entry.at} />
                  </>
                }
              />
            </ListItem>
          ))}
        </List>
      )}
    </Panel>
  );
}
