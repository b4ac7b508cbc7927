import UploadFile from '@mui/icons-material/UploadFile';
import {
  Alert,
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  LinearProgress,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  TextField,
  Typography,
} from '@mui/material';
import { type ChangeEvent, useMemo, useState } from 'react';
import { useNotify, useRefresh, useTranslate } from 'react-admin';
import { csvBatches, csvColumns } from './bulkRows';
import { ColumnMappingTable } from './ColumnMappingTable';
import {
  type ColumnChoice,
  type ColumnMapping,
  columnMapping,
  mappingProblems,
} from './columnMapping';
import { type ImportAnswer, importCsv } from './customerApi';

/** Rows sent per request: small enough for the progress bar to move, large enough to be quick. */
const batchSize = 100;

type Report = ImportAnswer['results'];

function outcomeText(row: Report[number]): { email: string; message: string } {
  if (row.status === 'invalid') {
    return { email: '', message: Object.values(row.errors).join('; ') || row.message };
  }
  return { email: row.email, message: row.status === 'duplicate' ? row.message : '' };
}

function ReportTable({ report }: { report: Report }) {
  const translate = useTranslate();
  return (
    <Box sx={{ maxHeight: 280, overflow: 'auto' }}>
      <Table size="small" stickyHeader aria-label={translate('app.customers.bulk.outcome')}>
        <TableHead>
          <TableRow>
            <TableCell>{translate('app.customers.bulk.line')}</TableCell>
            <TableCell>{translate('app.customers.bulk.email')}</TableCell>
            <TableCell>{translate('app.customers.bulk.outcome')}</TableCell>
            <TableCell>{translate('app.customers.bulk.message')}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {report.map((row) => {
            const { email, message } = outcomeText(row);
            return (
              <TableRow key={row.line}>
                <TableCell>{row.line}</TableCell>
                <TableCell>{email}</TableCell>
                <TableCell>{translate(`app.customers.bulk.${row.status}`)}</TableCell>
                <TableCell>{message}</TableCell>
              </TableRow>
            );
          })}
        </TableBody>
      </Table>
    </Box>
  );
}

/** The columns of the text and the field each one fills: pre-selected, then as the user chose. */
function useColumnMapping(text: string) {
  const [choices, setChoices] = useState<ColumnMapping>({});
  const columns = useMemo(() => csvColumns(text), [text]);
  const mapping = useMemo(
    () =>
      columnMapping(
        columns.map((column) => column.header),
        choices,
      ),
    [columns, choices],
  );
  return {
    columns,
    mapping,
    problems: mappingProblems(mapping),
    choose: (header: string, choice: ColumnChoice) =>
      setChoices((before) => ({ ...before, [header]: choice })),
    reset: () => setChoices({}),
  };
}

/**
 * Adds many customers from pasted text or a CSV file, through the server's import route in
 * batches: first the user matches the file's columns to customer fields (a list of emails has
 * none to match), then a progress bar while it runs, then a line-by-line report (added,
 * duplicate, invalid).
 */
export function BulkAddDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const translate = useTranslate();
  const notify = useNotify();
  const refresh = useRefresh();
  const [text, setText] = useState('');
  const [fileName, setFileName] = useState<string>();
  const [progress, setProgress] = useState<{ done: number; total: number }>();
  const [report, setReport] = useState<Report>();
  const running = progress !== undefined && progress.done < progress.total;
  const mappingStep = useColumnMapping(text);
  const mapped = mappingStep.columns.length > 0;
  const blocked =
    mapped && (mappingStep.problems.missingEmail || mappingStep.problems.repeated.size > 0);

  const close = () => {
    setText('');
    setFileName(undefined);
    setProgress(undefined);
    setReport(undefined);
    mappingStep.reset();
    onClose();
  };

  const chooseFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    if (!file) return;
    setFileName(file.name);
    mappingStep.reset();
    setText(await file.text());
  };

  const send = async () => {
    const batches = csvBatches(text, batchSize);
    if (batches.length === 0) {
      notify('app.customers.bulk.nothing', { type: 'warning' });
      return;
    }
    const total = batches.reduce((sum, batch) => sum + batch.rows, 0);
    const rows: Report = [];
    setReport(undefined);
    setProgress({ done: 0, total });
    try {
      for (const batch of batches) {
        const answer = await importCsv(batch.csv, mapped ? mappingStep.mapping : undefined);
        rows.push(...answer.results.map((row) => ({ ...row, line: row.line + batch.lineShift })));
        setProgress((now) => now && { ...now, done: now.done + batch.rows });
      }
    } catch (error) {
      notify((error as Error).message, { type: 'error' });
      setProgress(undefined);
    } finally {
      setReport(rows);
      refresh();
    }
  };

  const count = (status: Report[number]['status']) =>
    report?.filter((row) => row.status === status).length ?? 0;

  return (
    <Dialog open={open} onClose={close} fullWidth maxWidth="md" aria-labelledby="bulk-add-title">
      <DialogTitle id="bulk-add-title">{translate('app.customers.bulk.title')}</DialogTitle>
      <DialogContent sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
        <TextField
          label={translate('app.customers.bulk.paste')}
          helperText={translate('app.customers.bulk.paste_help')}
          value={text}
          onChange={(event) => {
            setText(event.target.value);
            setFileName(undefined);
          }}
          multiline
          minRows={6}
          maxRows={12}
          disabled={running}
          sx={{ mt: 1 }}
          slotProps={{ htmlInput: { dir: 'ltr', spellCheck: false } }}
        />
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 2 }}>
          <Button component="label" startIcon={<UploadFile />} disabled={running}>
            {translate('app.customers.bulk.upload')}
            <input type="file" accept=".csv,text/csv,text/plain" hidden onChange={chooseFile} />
          </Button>
          {fileName && (
            <Typography color="text.secondary">
              {translate('app.customers.bulk.file', { name: fileName })}
            </Typography>
          )}
        </Box>
        {mapped && (
          <ColumnMappingTable
            columns={mappingStep.columns}
            mapping={mappingStep.mapping}
            problems={mappingStep.problems}
            onChoose={mappingStep.choose}
            disabled={running}
          />
        )}
        {progress && (
          <Box>
            <LinearProgress
              variant="determinate"
              value={(100 * progress.done) / Math.max(progress.total, 1)}
              aria-label={translate('app.customers.bulk.progress', progress)}
            />
            <Typography variant="body2" color="text.secondary">
              {translate('app.customers.bulk.progress', progress)}
            </Typography>
          </Box>
        )}
        {report && (
          <>
            <Alert severity={count('added') === report.length ? 'success' : 'info'} role="status">
              {translate('app.customers.bulk.summary', {
                added: count('added'),
                duplicates: count('duplicate'),
                invalid: count('invalid'),
              })}
            </Alert>
            <ReportTable report={report} />
          </>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={close}>{translate('app.customers.actions.close')}</Button>
        <Button variant="contained" onClick={() => void send()} disabled={running || blocked}>
          {translate('app.customers.bulk.submit')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
