import { customerProfileFields } from '@issuer/events';
import type { CustomerRow } from '@issuer/projections';
import { stringify } from 'csv-stringify/sync';
import { neutralizeFormula } from './csvFormulas';

/** Export columns: the import reads the same names back. */
export const exportColumns = [
  'id',
  ...customerProfileFields,
  'starred',
  'leadStatus',
  'investorStatus',
  'createdAt',
  'updatedAt',
] as const;

function cells(row: CustomerRow): unknown[] {
  return exportColumns.map((column) => {
    const value = row[column];
    if (Array.isArray(value)) return neutralizeFormula(value.join(';'));
    return typeof value === 'string' ? neutralizeFormula(value) : (value ?? '');
  });
}

/** CSV text of rows as they stream from the read model, a batch at a time (header first). */
export function csvStream(batches: AsyncGenerator<CustomerRow[]>): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let headerSent = false;
  return new ReadableStream({
    async pull(controller) {
      if (!headerSent) {
        headerSent = true;
        controller.enqueue(encoder.encode(stringify([exportColumns as readonly string[]])));
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
