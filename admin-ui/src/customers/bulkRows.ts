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

/** Records of CSV text with their first line; a line break inside quotes does not end one. */
export function csvRecords(csv: string): CsvRecord[] {
  const records: CsvRecord[] = [];
  let quoted = false;
  let start = 0;
  let line = 1;
  let startLine = 1;
  for (let index = 0; index <= csv.length; index++) {
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

const headerNamesEmail = (line: string) =>
  line
    .split(/[,;\t]/)
    .some((cell) => /^"?\s*(e-?mail|email ?address|mail)\s*"?$/i.test(cell.trim()));

/**
 * Batches of at most `size` rows. Text whose first line names no email column is taken as a
 * list of emails, one a line, and gets an `email` header (its lines keep their numbers).
 */
export function csvBatches(text: string, size: number): CsvBatch[] {
  const input = text.replace(/^\uFEFF/, '');
  const firstLine = input.trimStart().split(/\r?\n/, 1)[0] ?? '';
  const listOfEmails = !headerNamesEmail(firstLine);
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
