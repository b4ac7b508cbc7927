import type { TransactionRow } from '@issuer/projections';
import { stringify } from 'csv-stringify/sync';
import { neutralizeFormula } from '../customers/csvFormulas';

/** Export columns: the resource's fields, with the amounts also as CAD decimals for spreadsheets. */
export const transactionExportColumns = [
  'id',
  'createdAt',
  'kind',
  'status',
  'amount',
  'net',
  'currency',
  'amountCents',
  'netCents',
  'paymentId',
  'refundReason',
  'customerId',
  'customerName',
  'terminalId',
  'terminalName',
  'description',
  'cardBrand',
  'cardLast4',
] as const;

/** Cents as a decimal with two places, exactly (no floating point): -1234 → "-12.34". */
export function centsToDecimal(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const magnitude = Math.abs(cents);
  return `${sign}${Math.trunc(magnitude / 100)}.${String(magnitude % 100).padStart(2, '0')}`;
}

function cells(row: TransactionRow): unknown[] {
  const decimals = { amount: centsToDecimal(row.amountCents), net: centsToDecimal(row.netCents) };
  return transactionExportColumns.map((column) => {
    if (column === 'amount' || column === 'net') return decimals[column];
    const value = row[column];
    return typeof value === 'string' ? neutralizeFormula(value) : (value ?? '');
  });
}

/** CSV text of rows as they stream from the read model, a batch at a time (header first). */
export function transactionsCsv(
  batches: AsyncGenerator<TransactionRow[]>,
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let headerSent = false;
  return new ReadableStream({
    async pull(controller) {
      if (!headerSent) {
        headerSent = true;
        controller.enqueue(
          encoder.encode(stringify([transactionExportColumns as readonly string[]])),
        );
      }
      const next = await batches.next();
      if (next.done) {
        controller.close();
        return;
      }
      controller.enqueue(encoder.encode(stringify(next.value.map(cells))));
    },
    async cancel() {
      await batches.return(undefined);
    },
  });
}
