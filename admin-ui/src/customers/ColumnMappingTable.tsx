import {
  Alert,
  Box,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  TextField,
  Typography,
} from '@mui/material';
import { useTranslate } from 'react-admin';
import type { CsvColumn } from './bulkRows';
import {
  type ColumnChoice,
  type ColumnMapping,
  importableFields,
  type MappingProblems,
} from './columnMapping';

interface Props {
  columns: CsvColumn[];
  mapping: ColumnMapping;
  /** Said above the table (the import waits for them to be fixed); repeated fields are flagged. */
  problems: MappingProblems;
  onChoose: (header: string, choice: ColumnChoice) => void;
  disabled: boolean;
}

/** The mapping step: each column of the file, its first row's cell and the field it fills. */
export function ColumnMappingTable({ columns, mapping, problems, onChoose, disabled }: Props) {
  const translate = useTranslate();
  const title = translate('app.customers.bulk.mapping.title');
  return (
    <Box>
      <Typography variant="subtitle1" component="h3" id="column-mapping-title">
        {title}
      </Typography>
      {problems.missingEmail && (
        <Alert severity="warning" sx={{ my: 1 }}>
          {translate('app.customers.bulk.mapping.need_email')}
        </Alert>
      )}
      {problems.repeated.size > 0 && (
        <Alert severity="warning" sx={{ my: 1 }}>
          {translate('app.customers.bulk.mapping.repeated_summary')}
        </Alert>
      )}
      <Box sx={{ maxHeight: 320, overflow: 'auto' }}>
        <Table size="small" stickyHeader aria-labelledby="column-mapping-title">
          <TableHead>
            <TableRow>
              <TableCell>{translate('app.customers.bulk.mapping.column')}</TableCell>
              <TableCell>{translate('app.customers.bulk.mapping.sample')}</TableCell>
              <TableCell>{translate('app.customers.bulk.mapping.field')}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {columns.map((column, index) => {
              const name =
                column.header ||
                translate('app.customers.bulk.mapping.unnamed', { number: index + 1 });
              const choice = mapping[column.header] ?? '';
              const flagged = choice !== '' && problems.repeated.has(choice);
              return (
                <TableRow key={column.header}>
                  {/* A file's headers and cells may be in any script: each keeps its own direction. */}
                  <TableCell dir="auto">{name}</TableCell>
                  <TableCell dir="auto" sx={{ color: 'text.secondary', wordBreak: 'break-word' }}>
                    {column.sample}
                  </TableCell>
                  <TableCell sx={{ minWidth: 200 }}>
                    <TextField
                      select
                      hiddenLabel
                      size="small"
                      fullWidth
                      value={choice}
                      disabled={disabled}
                      error={flagged}
                      helperText={
                        flagged ? translate('app.customers.bulk.mapping.repeated') : undefined
                      }
                      onChange={(event) =>
                        onChoose(column.header, event.target.value as ColumnChoice)
                      }
                      slotProps={{
                        select: { native: true },
                        htmlInput: {
                          'aria-label': translate('app.customers.bulk.mapping.field_of', {
                            column: name,
                          }),
                        },
                      }}
                    >
                      <option value="">{translate('app.customers.bulk.mapping.skip')}</option>
                      {importableFields.map((field) => (
                        <option key={field} value={field}>
                          {translate(`app.customers.fields.${field}`)}
                        </option>
                      ))}
                    </TextField>
                  </TableCell>
                </TableRow>
              );
            })}
          </TableBody>
        </Table>
      </Box>
    </Box>
  );
}
