import { Button, DialogContent, List, ListItem, ListItemText, Typography } from '@mui/material';
import { useRef, useState } from 'react';
import { useLocaleState, useNotify, useRefresh, useTranslate } from 'react-admin';
import { Actions, FormDialog } from '../etransfers/formParts';
import { DateTime } from '../payments/Money';
import {
  acceptedTypes,
  type DocumentRecord,
  download,
  formatBytes,
  uploadVersion,
} from './documentApi';

/** Every version of a document, newest first, each downloadable; and a new one to upload. */
export function VersionsDialog({
  document,
  onClose,
}: {
  document: DocumentRecord;
  onClose: () => void;
}) {
  const translate = useTranslate();
  const notify = useNotify();
  const refresh = useRefresh();
  const [locale] = useLocaleState();
  const [shown, setShown] = useState(document);
  const [busy, setBusy] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const upload = async (file: File | undefined) => {
    if (!file) return;
    setBusy(true);
    try {
      setShown(await uploadVersion(document.id, file));
      notify('app.documents.version_added', { type: 'success' });
      refresh();
    } catch (error) {
      notify((error as Error).message, { type: 'error' });
    } finally {
      setBusy(false);
    }
  };
  return (
    <FormDialog
      id="versions-title"
      title={translate('app.documents.versions_title', { title: shown.title })}
      onClose={onClose}
    >
      <DialogContent>
        <List dense>
          {shown.versions.map((version) => (
            <ListItem
              key={version.version}
              disableGutters
              secondaryAction={
                <Button
                  size="small"
                  onClick={() =>
                    download(
                      `/documents/${encodeURIComponent(shown.id)}/content?version=${version.version}`,
                      version.fileName,
                    ).catch((error: Error) => notify(error.message, { type: 'error' }))
                  }
                >
                  {translate('app.documents.actions.download')}
                </Button>
              }
            >
              <ListItemText
                primary={
                  <>
                    {translate('app.documents.version_label', { version: version.version })} ·{' '}
                    <bdi>{version.fileName}</bdi>
                  </>
                }
                secondary={
                  <>
                    <DateTime iso={version.uploadedAt} /> · {formatBytes(version.sizeBytes, locale)}
                  </>
                }
                sx={{ pe: 10, overflowWrap: 'anywhere' }}
              />
            </ListItem>
          ))}
        </List>
        <Typography variant="caption" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
          SHA-256 <bdi dir="ltr">{shown.sha256}</bdi>
        </Typography>
        <input
          ref={input}
          type="file"
          accept={acceptedTypes}
          hidden
          aria-label={translate('app.documents.actions.new_version')}
          onChange={(event) => {
            const file = event.target.files?.[0];
            event.target.value = '';
            void upload(file);
          }}
        />
      </DialogContent>
      <Actions onClose={onClose}>
        <Button variant="contained" disabled={busy} onClick={() => input.current?.click()}>
          {translate('app.documents.actions.new_version')}
        </Button>
      </Actions>
    </FormDialog>
  );
}
