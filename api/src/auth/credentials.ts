import {
  companyNameProblem,
  companySymbolProblem,
  emailProblem,
  englishProblem,
  type FieldProblem,
  fieldLimits,
  passwordProblem,
} from '@issuer/events/rules';
import { z } from 'zod';
import { commonPasswordMessage, isCommonPassword } from './commonPasswords';
import { hasControlCharacters, printableOnlyMessage } from './storableJson';

/** Validation rules and messages for everything a person types to get an account. */

const required = (label: string) => (issue: { input: unknown }) =>
  issue.input === undefined || issue.input === null ? `${label} is required` : 'Must be text';

export const minPasswordLength = fieldLimits.passwordMin;
export const maxPasswordLength = fieldLimits.passwordMax;

/** Emails are compared, reserved and stored lower-cased and trimmed. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** A text field held to one of the shared rules (`@issuer/events/rules`, also the UI's). */
const ruledText = (label: string, problemOf: (value: string) => FieldProblem | undefined) =>
  z.string({ error: required(label) }).superRefine((value, context) => {
    const problem = problemOf(value);
    if (problem) context.addIssue({ code: 'custom', message: englishProblem(problem, label) });
  });

export const emailField = ruledText('Email', emailProblem).transform(normalizeEmail);

export const newPasswordField = ruledText('Password', passwordProblem).refine(
  (password) => !isCommonPassword(password),
  commonPasswordMessage,
);

export const companyNameField = ruledText('Company name', companyNameProblem)
  .transform((name) => name.trim())
  .refine((name) => !hasControlCharacters(name), printableOnlyMessage);

export const companySymbolField = ruledText('Company symbol', companySymbolProblem).transform(
  (symbol) => symbol.trim().toUpperCase(),
);

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
