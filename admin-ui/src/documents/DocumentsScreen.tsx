import Description from '@mui/icons-material/Description';
import Draw from '@mui/icons-material/Draw';
import {
  Alert,
  Box,
  Button,
  Chip,
  Stack,
  Tab,
  Tabs,
  Typography,
  useMediaQuery,
} from '@mui/material';
import type { Theme } from '@mui/material/styles';
import { useState } from 'react';
import {
  Confirm,
  Datagrid,
  FunctionField,
  List,
  SimpleList,
  Title,
  useListContext,
  useLocaleState,
  useNotify,
  useRefresh,
  useTranslate,
} from 'react-admin';
import { ListEmpty } from '../layout/EmptyState';
import { DateTime } from '../payments/Money';
import {
  cancelSignatureRequest,
  type DocumentRecord,
  download,
  formatBytes,
  removeDocument,
  type SignatureRequestRecord,
  signingUrl,
  statusColors,
} from './documentApi';
import { SendForSignatureDialog } from './SendForSignatureDialog';
import { UploadZone } from './UploadZone';
import { VersionsDialog } from './VersionsDialog';

const field = (name: string) => `app.documents.fields.${name}`;
const action = (name: string) => `app.documents.actions.${name}`;

function useSmall() {
  return useMediaQuery((theme: Theme) => theme.breakpoints.down('md'), { noSsr: true });
}

function LoadError() {
  const translate = useTranslate();
  const { error } = useListContext();
  if (!error) return null;
  return (
    <Alert severity="error" sx={{ m: 1 }}>
      {translate('app.documents.load_failed', { message: (error as Error).message })}
    </Alert>
  );
}

type Dialog = { kind: 'versions' | 'send' | 'remove'; document: DocumentRecord } | null;

function DocumentActions({
  document,
  open,
}: {
  document: DocumentRecord;
  open: (dialog: Dialog) => void;
}) {
  const translate = useTranslate();
  const notify = useNotify();
  const stop = (act: () => void) => (event: { stopPropagation(): void }) => {
    event.stopPropagation();
    act();
  };
  return (
    <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 0.5 }}>
      <Button
        size="small"
        onClick={stop(() =>
          download(
            `/documents/${encodeURIComponent(document.id)}/content`,
            document.fileName,
          ).catch((error: Error) => notify(error.message, { type: 'error' })),
        )}
      >
        {translate(action('download'))}
      </Button>
      <Button size="small" onClick={stop(() => open({ kind: 'versions', document }))}>
        {translate(action('versions'))}
      </Button>
      <Button size="small" onClick={stop(() => open({ kind: 'send', document }))}>
        {translate(action('send'))}
      </Button>
      <Button size="small" color="error" onClick={stop(() => open({ kind: 'remove', document }))}>
        {translate(action('remove'))}
      </Button>
    </Stack>
  );
}

function DocumentRows({ open }: { open: (dialog: Dialog) => void }) {
  const small = useSmall();
  const [locale] = useLocaleState();
  const empty = (
    <ListEmpty icon={Description} empty="app.documents.empty" hint="app.documents.empty_hint" />
  );
  if (small) {
    return (
      <SimpleList<DocumentRecord>
        empty={empty}
        rowClick={false}
        primaryText={(record) => <bdi>{record.title}</bdi>}
        secondaryText={(record) => (
          <>
            v{record.version} · {formatBytes(record.sizeBytes, locale)} ·{' '}
            <DateTime iso={record.updatedAt} />
            <DocumentActions document={record} open={open} />
          </>
        )}
        rowSx={() => ({ overflowWrap: 'anywhere' })}
      />
    );
  }
  return (
    <Datagrid
      empty={empty}
      rowClick={false}
      bulkActionButtons={false}
      sx={{ overflowX: 'auto', maxWidth: '100%' }}
    >
      <FunctionField
        source="title"
        label={field('title')}
        render={(record: DocumentRecord) => <bdi>{record.title}</bdi>}
      />
      <FunctionField
        source="customerName"
        label={field('customer')}
        sortable={false}
        render={(record: DocumentRecord) => <bdi>{record.customerName ?? ''}</bdi>}
      />
      <FunctionField
        source="version"
        label={field('version')}
        sortable={false}
        render={(record: DocumentRecord) => record.version}
      />
      <FunctionField
        source="sizeBytes"
        label={field('size')}
        render={(record: DocumentRecord) => (
          <bdi style={{ whiteSpace: 'nowrap' }}>{formatBytes(record.sizeBytes, locale)}</bdi>
        )}
      />
      <FunctionField
        source="updatedAt"
        label={field('updated')}
        render={(record: DocumentRecord) => <DateTime iso={record.updatedAt} />}
      />
      <FunctionField
        label=""
        render={(record: DocumentRecord) => <DocumentActions document={record} open={open} />}
      />
    </Datagrid>
  );
}

function StatusChip({ status }: { status: SignatureRequestRecord['status'] }) {
  const translate = useTranslate();
  return (
    <Chip
      size="small"
      color={statusColors[status] ?? 'default'}
      label={translate(`app.documents.status.${status}`, { _: status })}
      data-testid="signature-status"
    />
  );
}

function RequestActions({ request }: { request: SignatureRequestRecord }) {
  const translate = useTranslate();
  const notify = useNotify();
  const refresh = useRefresh();
  const failed = (error: Error) => notify(error.message, { type: 'error' });
  const link = request.signingPath;
  return (
    <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 0.5 }}>
      {link && (
        <Button
          size="small"
          onClick={() =>
            navigator.clipboard
              .writeText(signingUrl(link))
              .then(() => notify('app.documents.link_copied', { type: 'info' }), failed)
          }
        >
          {translate(action('copy_link'))}
        </Button>
      )}
      {link && (
        <Button size="small" href={link} target="_blank" rel="noopener">
          {translate(action('open_link'))}
        </Button>
      )}
      {link && (
        <Button
          size="small"
          color="error"
          onClick={() =>
            cancelSignatureRequest(request.id).then(() => {
              notify('app.documents.cancelled', { type: 'info' });
              refresh();
            }, failed)
          }
        >
          {translate(action('cancel'))}
        </Button>
      )}
      {request.status === 'signed' && (
        <Button
          size="small"
          onClick={() =>
            download(
              `/signature-requests/${encodeURIComponent(request.id)}/certificate`,
              `signature-certificate-${request.id}.json`,
            ).catch(failed)
          }
        >
          {translate(action('certificate'))}
        </Button>
      )}
    </Stack>
  );
}

const documentTitles = (request: SignatureRequestRecord) =>
  request.documents.map((document) => document.title).join(', ');

function RequestRows() {
  const small = useSmall();
  const empty = (
    <ListEmpty
      icon={Draw}
      empty="app.documents.no_requests"
      hint="app.documents.no_requests_hint"
    />
  );
  if (small) {
    return (
      <SimpleList<SignatureRequestRecord>
        empty={empty}
        rowClick={false}
        primaryText={(record) => (
          <Box component="span" sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
            <bdi>{record.customerName ?? ''}</bdi>
            <StatusChip status={record.status} />
          </Box>
        )}
        secondaryText={(record) => (
          <>
            <bdi>{documentTitles(record)}</bdi> · <DateTime iso={record.requestedAt} />
            <RequestActions request={record} />
          </>
        )}
        rowSx={() => ({ overflowWrap: 'anywhere' })}
      />
    );
  }
  return (
    <Datagrid
      empty={empty}
      rowClick={false}
      bulkActionButtons={false}
      sx={{ overflowX: 'auto', maxWidth: '100%' }}
    >
      <FunctionField
        source="customerName"
        label={field('customer')}
        sortable={false}
        render={(record: SignatureRequestRecord) => <bdi>{record.customerName ?? ''}</bdi>}
      />
      <FunctionField
        source="documents"
        label={field('documents')}
        sortable={false}
        render={(record: SignatureRequestRecord) => <bdi>{documentTitles(record)}</bdi>}
      />
      <FunctionField
        source="status"
        label={field('status')}
        render={(record: SignatureRequestRecord) => <StatusChip status={record.status} />}
      />
      <FunctionField
        source="requestedAt"
        label={field('requested')}
        render={(record: SignatureRequestRecord) => <DateTime iso={record.requestedAt} />}
      />
      <FunctionField
        source="expiresAt"
        label={field('expires')}
        render={(record: SignatureRequestRecord) => <DateTime iso={record.expiresAt} />}
      />
      <FunctionField
        label=""
        render={(record: SignatureRequestRecord) => <RequestActions request={record} />}
      />
    </Datagrid>
  );
}

function RemoveConfirm({ document, onClose }: { document: DocumentRecord; onClose: () => void }) {
  const translate = useTranslate();
  const notify = useNotify();
  const refresh = useRefresh();
  return (
    <Confirm
      isOpen
      title={translate('app.documents.remove_title', { title: document.title })}
      content={translate('app.documents.remove_content')}
      confirm={action('remove')}
      confirmColor="warning"
      onConfirm={() =>
        removeDocument(document.id).then(
          () => {
            notify('app.documents.removed', { type: 'info' });
            refresh();
            onClose();
          },
          (error: Error) => notify(error.message, { type: 'error' }),
        )
      }
      onClose={onClose}
    />
  );
}

/**
 * `/documents`: the company's documents (upload by drop or button, versions, download, remove,
 * send for signature) and the signature requests with their status, links and certificates.
 */
export default function DocumentsScreen() {
  const translate = useTranslate();
  const [tab, setTab] = useState<'documents' | 'requests'>('documents');
  const [dialog, setDialog] = useState<Dialog>(null);
  const close = () => setDialog(null);
  return (
    <Box sx={{ minWidth: 0 }}>
      <Title title={translate('app.documents.title')} />
      <Typography variant="h5" component="h1" sx={{ mt: 2 }}>
        {translate('app.documents.title')}
      </Typography>
      <Tabs
        value={tab}
        onChange={(_event, value) => setTab(value)}
        variant="scrollable"
        allowScrollButtonsMobile
      >
        <Tab value="documents" label={translate('app.documents.tabs.documents')} />
        <Tab value="requests" label={translate('app.documents.tabs.requests')} />
      </Tabs>
      {tab === 'documents' ? (
        <>
          <UploadZone />
          <List
            resource="documents"
            storeKey="documents.list"
            disableSyncWithLocation
            title={false}
            sort={{ field: 'updatedAt', order: 'DESC' }}
            perPage={25}
            actions={false}
            exporter={false}
            empty={false}
            sx={{ '& .RaList-main': { minWidth: 0 } }}
          >
            <LoadError />
            <DocumentRows open={setDialog} />
          </List>
        </>
      ) : (
        <List
          resource="signature-requests"
          storeKey="signature-requests.list"
          disableSyncWithLocation
          title={false}
          sort={{ field: 'requestedAt', order: 'DESC' }}
          perPage={25}
          actions={false}
          exporter={false}
          empty={false}
          sx={{ '& .RaList-main': { minWidth: 0 } }}
        >
          <LoadError />
          <RequestRows />
        </List>
      )}
      {dialog?.kind === 'versions' && <VersionsDialog document={dialog.document} onClose={close} />}
      {dialog?.kind === 'send' && (
        <SendForSignatureDialog document={dialog.document} onClose={close} />
      )}
      {dialog?.kind === 'remove' && <RemoveConfirm document={dialog.document} onClose={close} />}
    </Box>
  );
}
