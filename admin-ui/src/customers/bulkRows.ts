/**
 * Bulk add input (pasted text or a CSV file) cut into batches for the import route, so the
 * dialog can show progress and still report every row by its line in what the user gave.
 */

export interface CsvBatch {
  /** The header line, then the batch's records exactly as they stand in the input. */
  csv: string;
  rows: number;
  /** Add to the line the server reports to get the line in the user's input. */
  lineShift: number;
}

interface CsvRecord {
  start: number;
  end: number;
  line: number;
}

/**
 * Records of CSV text with their first line; a line break inside quotes does not end one. Stops
 * after `limit` records (the mapping step reads only the header and the first row).
 */
export function csvRecords(csv: string, limit = Number.POSITIVE_INFINITY): CsvRecord[] {
  const records: CsvRecord[] = [];
  let quoted = false;
  let start = 0;
  let line = 1;
  let startLine = 1;
  for (let index = 0; index <= csv.length && records.length < limit; index++) {
    const char = csv[index];
    if (char === '"') quoted = !quoted;
    else if (index === csv.length || (char === '\n' && !quoted)) {
      if (csv.slice(start, index).trim()) records.push({ start, end: index, line: startLine });
      start = index + 1;
      startLine = line + 1;
    }
    if (char === '\n') line++;
  }
  return records;
}

/** The cells of one CSV record, as the server reads them: comma-separated, `""` in quotes is `"`. */
export function csvCells(record: string): string[] {
  const cells: string[] = [];
  let cell = '';
  let quoted = false;
  for (let index = 0; index < record.length; index++) {
    const char = record[index];
    if (quoted && char === '"' && record[index + 1] === '"') {
      cell += '"';
      index++;
    } else if (char === '"') quoted = !quoted;
    else if (char === ',' && !quoted) {
      cells.push(cell);
      cell = '';
    } else cell += char;
  }
  cells.push(cell.replace(/\r$/, ''));
  return cells;
}

const withoutBom = (text: string) => text.replace(/^\uFEFF/, '');

const looksLikeEmail = (cell: string) => /^[^\s@,]+@[^\s@,]+$/.test(cell.trim());

/**
 * Text whose first record is a single email is a list of emails, one a line, with no header.
 * Anything else starts with a header line, whose columns the user maps to customer fields.
 */
function isListOfEmails(firstRecord: string): boolean {
  const cells = csvCells(firstRecord);
  return cells.length === 1 && looksLikeEmail(cells[0] ?? '');
}

export interface CsvColumn {
  /** The header as the server matches it (trimmed); the key of the column mapping. */
  header: string;
  /** The column's cell in the first data row, '' when there is none. */
  sample: string;
}

/**
 * The columns named by the header line, each once (a mapping names a column by its header), with
 * its first row's cell; none for a list of emails or blank text.
 */
export function csvColumns(text: string): CsvColumn[] {
  const csv = withoutBom(text);
  const [header, firstRow] = csvRecords(csv, 2);
  if (!header) return [];
  const headerText = csv.slice(header.start, header.end);
  if (isListOfEmails(headerText)) return [];
  const samples = firstRow ? csvCells(csv.slice(firstRow.start, firstRow.end)) : [];
  const columns = new Map<string, CsvColumn>();
  csvCells(headerText).forEach((cell, index) => {
    const name = cell.trim();
    if (!columns.has(name)) columns.set(name, { header: name, sample: samples[index] ?? '' });
  });
  return [...columns.values()];
}

/**
 * Batches of at most `size` rows. A list of emails gets an `email` header (its lines keep their
 * numbers).
 */
export function csvBatches(text: string, size: number): CsvBatch[] {
  const input = withoutBom(text);
  const [first] = csvRecords(input, 1);
  const listOfEmails = first !== undefined && isListOfEmails(input.slice(first.start, first.end));
  const csv = listOfEmails ? `email\n${input}` : input;
  const [header, ...records] = csvRecords(csv);
  if (!header) return [];
  const headerText = csv.slice(header.start, header.end);
  const batches: CsvBatch[] = [];
  for (let first = 0; first < records.length; first += size) {
    const batch = records.slice(first, first + size);
    const from = batch[0] as CsvRecord;
    const to = batch[batch.length - 1] as CsvRecord;
    batches.push({
      csv: `${headerText}\n${csv.slice(from.start, to.end)}`,
      rows: batch.length,
      // The server numbers the batch's first record line 2 (after the header).
      lineShift: from.line - 2 - (listOfEmails ? 1 : 0),
    });
  }
  return batches;
}
