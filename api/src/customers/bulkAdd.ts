import { DomainError } from '@issuer/events';
import type { Context } from 'hono';
import { type AppEnv, describeIssues, type FieldMessages } from '../http';
import { addCustomer } from './customerCommands';
import { type NewCustomerInput, newCustomerSchema } from './customerFields';

export const maxBulkRows = 1_000;

export type RowOutcome =
  | { row: number; status: 'added'; id: string; email: string }
  | { row: number; status: 'duplicate'; email: string; message: string }
  | { row: number; status: 'invalid'; message: string; errors: FieldMessages };

export interface BulkAddResult {
  outcomes: RowOutcome[];
  /** Position of the last event written, for one read-your-writes wait. */
  position: bigint | undefined;
}

/** Rows in flight at once: enough to overlap round trips, few enough to leave the pool to others. */
const concurrency = 4;

/**
 * Validates each row on its own and adds the good ones. An email already in the company, or seen
 * earlier in the same batch, is reported as a duplicate and not added again. `row` is whatever
 * numbering the caller uses (array index, CSV line).
 */
export async function addMany(
  c: Context<AppEnv>,
  rows: readonly { row: number; input: unknown }[],
): Promise<BulkAddResult> {
  const outcomes: RowOutcome[] = [];
  const valid: { row: number; input: NewCustomerInput }[] = [];
  const firstRowOfEmail = new Map<string, number>();
  for (const { row, input } of rows) {
    const parsed = newCustomerSchema.safeParse(input);
    if (!parsed.success) {
      const { message, fields } = describeIssues(parsed.error.issues);
      outcomes.push({ row, status: 'invalid', message, errors: fields });
      continue;
    }
    const { email } = parsed.data;
    const first = firstRowOfEmail.get(email);
    if (first !== undefined) {
      outcomes.push({ row, status: 'duplicate', email, message: `Same email as row ${first}` });
      continue;
    }
    firstRowOfEmail.set(email, row);
    valid.push({ row, input: parsed.data });
  }
  let position: bigint | undefined;
  let next = 0;
  const worker = async () => {
    for (let item = valid[next++]; item; item = valid[next++]) {
      const outcome = await addOne(c, item.row, item.input);
      outcomes.push(outcome.result);
      if (
        outcome.position !== undefined &&
        (position === undefined || outcome.position > position)
      ) {
        position = outcome.position;
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  outcomes.sort((a, b) => a.row - b.row);
  return { outcomes, position };
}

async function addOne(
  c: Context<AppEnv>,
  row: number,
  input: NewCustomerInput,
): Promise<{ result: RowOutcome; position?: bigint }> {
  try {
    const added = await addCustomer(c, input);
    return { result: { row, status: 'added', id: added.id, email: input.email }, ...added };
  } catch (error) {
    if (!(error instanceof DomainError) || error.status !== 409) throw error;
    return { result: { row, status: 'duplicate', email: input.email, message: error.message } };
  }
}

export function summarize(outcomes: readonly RowOutcome[]) {
  const count = (status: RowOutcome['status']) =>
    outcomes.filter((outcome) => outcome.status === status).length;
  return { added: count('added'), duplicates: count('duplicate'), invalid: count('invalid') };
}
