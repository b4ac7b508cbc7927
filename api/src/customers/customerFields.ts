import {
  birthdayProblem,
  type CustomerProfile,
  customerProfileFields,
  customerTextLimits,
  emptyCustomerProfile,
  englishProblem,
  investorStatus,
  leadStatus,
  tagLimits,
} from '@issuer/events';
import { z } from 'zod';
import { emailField } from '../auth/credentials';
import { hasControlCharacters, printableOnlyMessage } from '../auth/storableJson';
import { walletAddressProblem } from './walletAddress';

/** Validation of a customer as people type it (forms, CSV rows, the seed's contact calls). */

const line = (max: number) =>
  z
    .string({ error: 'Must be text' })
    .trim()
    .max(max, `Max character length is ${max}`)
    .refine((text) => !hasControlCharacters(text), printableOnlyMessage);

// biome-ignore lint/suspicious/noControlCharactersInRegex: these are the characters refused
const controlsButLineBreaks = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;

/** Notes and addresses may hold line breaks and tabs, nothing else below a space. */
const multiline = (max: number) =>
  z
    .string({ error: 'Must be text' })
    .trim()
    .max(max, `Max character length is ${max}`)
    .refine((text) => !controlsButLineBreaks.test(text), printableOnlyMessage);

const amount = (max?: number) => {
  const base = z
    .number({ error: 'Must be a number' })
    .finite('Must be a number')
    .min(0, 'Must be 0 or more');
  return (max === undefined ? base : base.max(max, `Must be ${max} or less`)).nullable();
};

export const customerEmailField = emailField;

export const walletAddressField = z
  .string({ error: 'Must be text' })
  .trim()
  .superRefine((address, context) => {
    if (address === '') return;
    const problem = walletAddressProblem(address);
    if (problem === 'shape') {
      context.addIssue({ code: 'custom', message: 'Enter 0x followed by 40 hexadecimal digits' });
    } else if (problem === 'checksum') {
      context.addIssue({
        code: 'custom',
        message: 'The address checksum does not match: check its upper and lower case letters',
      });
    }
  });

/** zod's ISO date pattern knows month lengths and leap years; `Date.parse` rolls 02-30 over. */
const birthdayField = line(customerTextLimits.birthday).superRefine((text, context) => {
  const problem = birthdayProblem(text);
  if (problem) context.addIssue({ code: 'custom', message: englishProblem(problem, 'Birthday') });
});

const tagsField = z
  .array(line(tagLimits.length).pipe(z.string().min(1, 'A tag cannot be empty')), {
    error: 'Must be a list',
  })
  .max(tagLimits.count, `At most ${tagLimits.count} tags`)
  .transform((tags) => [...new Set(tags)]);

/** Every editable field; all optional here, the add schema requires the email. */
export const profileShape = {
  name: line(customerTextLimits.name),
  lastName: line(customerTextLimits.lastName),
  nickname: line(customerTextLimits.nickname),
  avatar: line(customerTextLimits.avatar),
  company: line(customerTextLimits.company),
  jobTitle: line(customerTextLimits.jobTitle),
  email: customerEmailField,
  phone: line(customerTextLimits.phone),
  address: multiline(customerTextLimits.address),
  birthday: birthdayField,
  notes: multiline(customerTextLimits.notes),
  tags: tagsField,
  roundId: line(customerTextLimits.roundId),
  tokenPrice: amount(),
  tokenBalance: amount(),
  percentageOwned: amount(100),
  walletAddress: walletAddressField,
} satisfies Record<keyof CustomerProfile, z.ZodType>;

export const newCustomerSchema = z.strictObject({
  ...Object.fromEntries(
    Object.entries(profileShape).map(([field, schema]) => [field, schema.optional()]),
  ),
  email: customerEmailField,
  leadStatus: leadStatus.optional(),
  investorStatus: investorStatus.optional(),
  starred: z.boolean({ error: 'Must be true or false' }).optional(),
}) as unknown as z.ZodType<NewCustomerInput>;

export interface NewCustomerInput extends Partial<CustomerProfile> {
  email: string;
  leadStatus?: z.infer<typeof leadStatus>;
  investorStatus?: z.infer<typeof investorStatus>;
  starred?: boolean;
}

/**
 * An edit: any editable field, plus what react-admin sends back from the record it loaded (id,
 * times, version, the workflow's next steps, tokenBalance and percentageOwned, which the cap table
 * derives, and roundId, which the customer's funded token orders derive), which is ignored. The investor status may be sent unchanged; changing it takes its own
 * command.
 */
export const customerChangesSchema = z
  .strictObject({
    ...Object.fromEntries(
      Object.entries(profileShape).map(([field, schema]) => [field, schema.optional()]),
    ),
    leadStatus: leadStatus.optional(),
    investorStatus: investorStatus.optional(),
    starred: z.boolean({ error: 'Must be true or false' }).optional(),
    id: z.unknown().optional(),
    createdAt: z.unknown().optional(),
    updatedAt: z.unknown().optional(),
    version: z.unknown().optional(),
    nextInvestorStatuses: z.unknown().optional(),
    // Derived from the cap table (issue 10): sent back with the record, never applied.
    tokenBalance: z.unknown().optional(),
    percentageOwned: z.unknown().optional(),
    // Derived from the customer's token orders (issue 10): sent back with the record, never applied.
    roundId: z.unknown().optional(),
  })
  .transform(
    ({ tokenBalance: _balance, percentageOwned: _percentage, roundId: _round, ...changes }) =>
      changes,
  ) as unknown as z.ZodType<CustomerChangesInput>;

export interface CustomerChangesInput extends Partial<CustomerProfile> {
  leadStatus?: z.infer<typeof leadStatus>;
  investorStatus?: z.infer<typeof investorStatus>;
  starred?: boolean;
}

/** A new customer's profile: what was sent, blanks for the rest. */
export function profileOf(input: NewCustomerInput): CustomerProfile {
  return { ...emptyCustomerProfile, ...pickProfile(input), email: input.email };
}

export function pickProfile(input: Partial<CustomerProfile>): Partial<CustomerProfile> {
  const picked: Record<string, unknown> = {};
  for (const field of customerProfileFields) {
    if (input[field] !== undefined) picked[field] = input[field];
  }
  return picked as Partial<CustomerProfile>;
}

export const customerIdSchema = z.uuid('Unknown customer');
export const customerPath = z.strictObject({ id: customerIdSchema });
