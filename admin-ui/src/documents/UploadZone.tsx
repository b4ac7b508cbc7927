import CloudUpload from '@mui/icons-material/CloudUpload';
import { Box, Button, LinearProgress, Typography } from '@mui/material';
import { type DragEvent, useEffect, useRef, useState } from 'react';
import { Form, useNotify, useRefresh, useTranslate } from 'react-admin';
import { useWatch } from 'react-hook-form';
import { CustomerPicker } from '../lists/customerFilter';
import { acceptedTypes, maxDocumentBytes, uploadDocument } from './documentApi';

/** Who the next uploads belong to (optional), told to the zone as it changes. */
function CustomerLink({ onChange }: { onChange: (customerId: string | null) => void }) {
  const customerId = useWatch({ name: 'customerId' }) as string | null | undefined;
  useEffect(() => onChange(customerId || null), [customerId, onChange]);
  return (
    <CustomerPicker
      label="app.documents.upload.customer"
      sx={{ minWidth: 220, maxWidth: '100%' }}
    />
  );
}

/** Drop files on the zone or choose them with the button; each becomes a document. */
export function UploadZone() {
  const translate = useTranslate();
  const notify = useNotify();
  const refresh = useRefresh();
  const input = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);
  const [current, setCurrent] = useState<string | null>(null);
  const [customerId, setCustomerId] = useState<string | null>(null);

  const send = async (files: File[]) => {
    for (const file of files) {
      if (file.size > maxDocumentBytes) {
        notify('app.documents.upload.too_large', {
          type: 'error',
          messageArgs: { name: file.name },
        });
        continue;
      }
      setCurrent(file.name);
      try {
        await uploadDocument(file, customerId ? { customerId } : {});
        notify('app.documents.upload.done', { type: 'success' });
      } catch (error) {
        notify('app.documents.upload.failed', {
          type: 'error',
          messageArgs: { name: file.name, message: (error as Error).message },
        });
      }
    }
    setCurrent(null);
    refresh();
  };
  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    void send([...event.dataTransfer.files]);
  };
  return (
    <Box
      data-testid="document-drop-zone"
      onDragOver={(event) => {
        event.preventDefault();
        setDragging(true);
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={onDrop}
      sx={{
        border: 2,
        borderStyle: 'dashed',
        borderColor: dragging ? 'primary.main' : 'divider',
        borderRadius: 2,
        p: 2,
        my: 1,
        display: 'flex',
        flexWrap: 'wrap',
        gap: 1,
        alignItems: 'center',
        justifyContent: 'center',
        textAlign: 'center',
        bgcolor: dragging ? 'action.hover' : 'transparent',
      }}
    >
      <Box sx={{ flexBasis: '100%', display: 'flex', justifyContent: 'center' }}>
        <Form record={{ customerId: null }} onSubmit={() => undefined}>
          <CustomerLink onChange={setCustomerId} />
        </Form>
      </Box>
      <CloudUpload color="action" />
      <Typography variant="body2" color="text.secondary">
        {translate('app.documents.upload.drop')}
      </Typography>
      <Button
        variant="contained"
        size="small"
        onClick={() => input.current?.click()}
        disabled={current !== null}
      >
        {translate('app.documents.upload.choose')}
      </Button>
      <input
        ref={input}
        type="file"
        accept={acceptedTypes}
        multiple
        hidden
        aria-label={translate('app.documents.upload.button')}
        data-testid="document-file-input"
        onChange={(event) => {
          const files = [...(event.target.files ?? [])];
          event.target.value = '';
          void send(files);
        }}
      />
      {current && (
        <Box sx={{ flexBasis: '100%' }} role="status">
          <Typography variant="caption">
            {translate('app.documents.upload.uploading', { name: current })}
          </Typography>
          <LinearProgress />
        </Box>
      )}
    </Box>
  );
}
