import Download from '@mui/icons-material/Download';
import Policy from '@mui/icons-material/Policy';
import { Box, Button, Drawer, IconButton, Typography, useMediaQuery } from '@mui/material';
import type { Theme } from '@mui/material/styles';
import { useState } from 'react';
import {
  Datagrid,
  FilterButton,
  FunctionField,
  List,
  SelectInput,
  SimpleList,
  TextInput,
  TopToolbar,
  useListContext,
  useNotify,
  useTranslate,
} from 'react-admin';
import { DateInput } from '../dates/DateInput';
import { TranslatedAutocompleteInput } from '../i18n/autocompleteTexts';
import { ListEmpty, listFailureProps } from '../layout/EmptyState';
import { PhoneTitle } from '../layout/PhoneTitle';
import { Detail } from '../lists/Detail';
import { ListTotals } from '../lists/ListTotals';
import { DateTime, Money } from '../payments/Money';
import { Actor, EventAndAmount, EventName, RecordLink, RecordName } from './AuditNames';
import { type AuditEntry, downloadAudit } from './auditApi';
import { auditedEventTypes } from './auditedEvents';
import { ReasonText } from './ReasonText';

const field = (name: string) => `app.audit.fields.${name}`;
const resources = [
  'customers',
  'payments',
  'etransfers',
  'subscriptions',
  'plans',
  'company',
  'users',
  'wallet',
];

const filters = [
  <TextInput key="actorId" source="actorId" label={field('actor_id')} />,
  // Picked from the events' names as the log shows them: the stored type is no word a reader
  // would type, and any other word is refused.
  <TranslatedAutocompleteInput
    key="eventType"
    source="eventType"
    label={field('event_type')}
    choices={auditedEventTypes.map((id) => ({ id, name: `app.audit.events.${id}` }))}
    sx={{ minWidth: 260 }}
  />,
  <SelectInput
    key="resource"
    source="resource"
    label={field('resource')}
    choices={resources.map((id) => ({ id, name: id }))}
  />,
  <TextInput key="recordId" source="recordId" label={field('record_id')} />,
  <DateInput key="from" source="from" label={field('from')} precision="minute" />,
  <DateInput key="to" source="to" label={field('to')} precision="minute" />,
];

function ExportButton() {
  const translate = useTranslate();
  const notify = useNotify();
  const { filterValues, total } = useListContext();
  return (
    <Button
      size="small"
      startIcon={<Download />}
      disabled={!total}
      onClick={() =>
        void downloadAudit(filterValues).catch(() =>
          notify('app.audit.export_failed', { type: 'error' }),
        )
      }
    >
      {translate('app.audit.export')}
    </Button>
  );
}

function NoEntries() {
  return <ListEmpty icon={Policy} empty="app.audit.empty" noMatch="app.audit.no_match" />;
}

function AuditRows({ onOpen }: { onOpen: (entry: AuditEntry) => void }) {
  const small = useMediaQuery((theme: Theme) => theme.breakpoints.down('md'), { noSsr: true });
  const open = (_id: unknown, _resource: string, record: unknown) => {
    onOpen(record as AuditEntry);
    return false as const;
  };
  if (small) {
    return (
      <SimpleList<AuditEntry>
        empty={<NoEntries />}
        rowClick={open}
        primaryText={(entry) => <EventAndAmount entry={entry} />}
        // What the table's Record column says, as text: the whole row opens the entry.
        secondaryText={(entry) => (
          <>
            <RecordName entry={entry} /> · <Actor entry={entry} />
          </>
        )}
        tertiaryText={(entry) => <DateTime iso={entry.at} />}
        rowSx={() => ({ overflowWrap: 'anywhere' })}
      />
    );
  }
  return (
    <Datagrid
      empty={<NoEntries />}
      rowClick={open}
      bulkActionButtons={false}
      sx={{ overflowX: 'auto', maxWidth: '100%' }}
    >
      <FunctionField
        source="at"
        label={field('at')}
        render={(entry: AuditEntry) => <DateTime iso={entry.at} />}
      />
      <FunctionField
        source="actorId"
        label={field('actor')}
        sortable={false}
        render={(entry: AuditEntry) => <Actor entry={entry} />}
      />
      <FunctionField
        source="eventType"
        label={field('event_type')}
        sortable={false}
        render={(entry: AuditEntry) => <EventName type={entry.eventType} />}
      />
      <FunctionField
        source="amountCents"
        label={field('amount')}
        sortable={false}
        textAlign="right"
        render={(entry: AuditEntry) =>
          entry.amountCents === null ? '' : <Money cents={entry.amountCents} />
        }
      />
      <FunctionField
        source="recordId"
        label={field('record')}
        sortable={false}
        render={(entry: AuditEntry) => <RecordLink entry={entry} />}
      />
      <FunctionField
        source="reason"
        label={field('reason')}
        sortable={false}
        render={(entry: AuditEntry) => <ReasonText reason={entry.reason} />}
      />
    </Datagrid>
  );
}

function AuditDrawer({ entry, onClose }: { entry: AuditEntry; onClose: () => void }) {
  const translate = useTranslate();
  return (
    <Drawer anchor="right" open onClose={onClose}>
      <Box
        sx={{ width: { xs: '100vw', sm: 440 }, p: 2 }}
        role="region"
        aria-label={translate(`app.audit.events.${entry.eventType}`, { _: entry.eventType })}
      >
        <Box sx={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center' }}>
          <Typography variant="h6" component="h2">
            <EventName type={entry.eventType} />
          </Typography>
          <IconButton onClick={onClose} aria-label={translate('ra.action.close')}>
            ×
          </IconButton>
        </Box>
        <Detail label={field('at')}>
          <DateTime iso={entry.at} />
        </Detail>
        <Detail label={field('actor')}>
          <Actor entry={entry} />
        </Detail>
        <Detail label={field('record')}>
          <RecordLink entry={entry} />
        </Detail>
        {entry.amountCents !== null && (
          <Detail label={field('amount')}>
            <Money cents={entry.amountCents} />
          </Detail>
        )}
        <Detail label={field('reason')}>
          {entry.reason ? <ReasonText reason={entry.reason} /> : '—'}
        </Detail>
        {/* The stored type, as the CSV export and the Kafka topics name it. */}
        <Detail label={field('event_type')}>
          <bdi>{entry.eventType}</bdi>
        </Detail>
        <Detail label={field('event_id')}>
          <bdi>{entry.eventId}</bdi>
        </Detail>
        <Typography variant="subtitle2" sx={{ mt: 2 }}>
          {translate(field('details'))}
        </Typography>
        <Box
          component="pre"
          dir="ltr"
          sx={{
            fontSize: 12,
            whiteSpace: 'pre-wrap',
            overflowWrap: 'anywhere',
            bgcolor: 'action.hover',
            p: 1,
          }}
        >
          {JSON.stringify(entry.details, null, 2)}
        </Box>
      </Box>
    </Drawer>
  );
}

/**
 * `/audit`: every event of the company, newest first, with who, when, what, the reason and a
 * link to the record; filters, the exact count, the CSV export and a drawer with the details.
 */
export default function AuditList() {
  const translate = useTranslate();
  const [opened, setOpened] = useState<AuditEntry | null>(null);
  return (
    <Box sx={{ minWidth: 0 }}>
      <PhoneTitle title={translate('app.audit.title')} />
      <List
        {...listFailureProps}
        resource="audit"
        title={translate('app.audit.title')}
        filters={filters}
        sort={{ field: 'at', order: 'DESC' }}
        perPage={25}
        actions={
          <TopToolbar sx={{ flexWrap: 'wrap' }}>
            <FilterButton />
            <ExportButton />
          </TopToolbar>
        }
        exporter={false}
        empty={false}
        sx={{ '& .RaList-main': { minWidth: 0 } }}
      >
        <ListTotals messages="app.audit" testId="audit-totals" />
        <AuditRows onOpen={setOpened} />
      </List>
      {opened && <AuditDrawer entry={opened} onClose={() => setOpened(null)} />}
    </Box>
  );
}
