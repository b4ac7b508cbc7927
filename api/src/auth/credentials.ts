import { z } from 'zod';
import { commonPasswordMessage, isCommonPassword } from './commonPasswords';
import { hasControlCharacters, printableOnlyMessage } from './storableJson';

/** Validation rules and messages for everything a person types to get an account. */

const required = (label: string) => (issue: { input: unknown }) =>
  issue.input === undefined || issue.input === null ? `${label} is required` : 'Must be text';

export const minPasswordLength = 8;
export const maxPasswordLength = 128;

/** Emails are compared, reserved and stored lower-cased and trimmed. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

export const emailField = z
  .string({ error: required('Email') })
  .trim()
  .min(1, 'Email is required')
  .max(254, 'Max character length is 254')
  .regex(z.regexes.email, 'Please enter a valid email')
  .transform(normalizeEmail);

export const newPasswordField = z
  .string({ error: required('Password') })
  .min(1, 'Password is required')
  .min(minPasswordLength, `Min character length is ${minPasswordLength}`)
  .max(maxPasswordLength, `Max character length is ${maxPasswordLength}`)
  .refine((password) => !isCommonPassword(password), commonPasswordMessage);

export const companyNameField = z
  .string({ error: required('Company name') })
  .trim()
  .min(1, 'Company name is required')
  .min(4, 'Min character length is 4')
  .max(100, 'Max character length is 100')
  .refine((name) => !hasControlCharacters(name), printableOnlyMessage);

export const companySymbolField = z
  .string({ error: required('Company symbol') })
  .trim()
  .min(1, 'Company symbol is required')
  .transform((symbol) => symbol.toUpperCase())
  .pipe(z.string().regex(/^[A-Z0-9]{2,10}$/, 'Use 2 to 10 letters A–Z or digits 0–9'));

export const passwordsDoNotMatch = 'Passwords do not match';

/** Login checks only the shape: any wrong answer must look the same as an unknown account. */
export const loginSchema = z.strictObject({
  email: z
    .string({ error: required('Email') })
    .min(1, 'Email is required')
    .max(1024)
    .refine((email) => !hasControlCharacters(email), 'Please enter a valid email'),
  password: z
    .string({ error: required('Password') })
    .min(1, 'Password is required')
    .max(1024),
});
