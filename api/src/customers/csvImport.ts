import { invalid } from '@issuer/events';
import { parse } from 'csv-parse/sync';
import { z } from 'zod';
import { fieldOfHeader, importableFields } from './csvColumns';
import { restoreNeutralized } from './csvFormulas';

const numericFields = new Set(['tokenPrice', 'tokenBalance', 'percentageOwned']);

export const maxImportLines = 10_000;

/** `{"CSV column": "customerField"}`; a column mapped to "" is skipped. */
export const columnMappingSchema = z.record(
  z.string().max(200),
  z.union([z.enum(importableFields), z.literal('')], {
    error: `Map each column to one of: ${importableFields.join(', ')}`,
  }),
);
export type ColumnMapping = z.infer<typeof columnMappingSchema>;

function fieldOfColumn(header: string, mapping: ColumnMapping | undefined): string | undefined {
  if (mapping && Object.hasOwn(mapping, header)) return mapping[header] || undefined;
  return fieldOfHeader(header);
}

/** A cell as the customer schema expects it: numbers, booleans and tag lists from text. */
function cellValue(field: string, text: string): unknown {
  const value = restoreNeutralized(text.trim());
  if (numericFields.has(field))
    return value === '' ? null : Number.isNaN(Number(value)) ? value : Number(value);
  if (field === 'tags') return value === '' ? [] : value.split(/[;|]/).map((tag) => tag.trim());
  if (field === 'starred') return /^(true|yes|1|y)$/i.test(value);
  if (field === 'leadStatus' || field === 'investorStatus') return value === '' ? undefined : value;
  return value;
}

export interface ParsedCsv {
  rows: { row: number; input: Record<string, unknown> }[];
  columns: { column: string; field: string | null }[];
}

/**
 * The header line names the columns (mapped by `mapping`, else by field name or a common alias);
 * each later line becomes one customer input, numbered by its line in the file. Unmapped columns
 * are ignored and listed in the answer.
 */
export function parseCustomerCsv(text: string, mapping?: ColumnMapping): ParsedCsv {
  let records: { record: string[]; info: { lines: number } }[];
  try {
    records = parse(text, {
      bom: true,
      info: true,
      relax_column_count: true,
      skip_empty_lines: true,
      trim: false,
    }) as unknown as typeof records;
  } catch (error) {
    const reason = error instanceof Error ? error.message : 'unreadable';
    throw invalid(`The file is not valid CSV: ${reason}`, { file: 'The file is not valid CSV' });
  }
  const [header, ...lines] = records;
  if (!header) throw invalid('The file is empty', { file: 'The file is empty' });
  if (lines.length > maxImportLines) {
    throw invalid(`At most ${maxImportLines} customers per file`, {
      file: `At most ${maxImportLines} customers per file`,
    });
  }
  const fields = header.record.map((column) => fieldOfColumn(column.trim(), mapping));
  if (!fields.includes('email')) {
    throw invalid('No column holds the email: name one "email" or map it', {
      mapping: 'No column is mapped to email',
    });
  }
  return {
    columns: header.record.map((column, index) => ({ column, field: fields[index] ?? null })),
    rows: lines.map(({ record, info }) => {
      const input: Record<string, unknown> = {};
      record.forEach((cell, index) => {
        const field = fields[index];
        if (!field) return;
        const value = cellValue(field, cell);
        if (value !== undefined) input[field] = value;
      });
      return { row: info.lines, input };
    }),
  };
}
