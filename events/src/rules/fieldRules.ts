import { regexes } from 'zod/v4/core';

/**
 * The rules for what people type (registration, sign-in, profile, customers), shared by the API's
 * zod schemas and the admin UI's form validators, so a form refuses exactly what the server
 * refuses and says so before submit. No I/O and no zod schema here: each rule answers a problem
 * (a code the UI translates, with its numbers) or undefined; `englishProblem` gives the API's text.
 */

export const fieldLimits = {
  passwordMin: 8,
  passwordMax: 128,
  companyNameMin: 4,
  companyNameMax: 100,
  emailMax: 254,
  symbolMin: 2,
  symbolMax: 10,
} as const;

/** zod's own email pattern, the one the API has always used. */
export const emailPattern: RegExp = regexes.email;
export const companySymbolPattern = /^[A-Z0-9]{2,10}$/;

export type FieldProblem =
  | { code: 'required' }
  | { code: 'min_length'; min: number }
  | { code: 'max_length'; max: number }
  | { code: 'email' }
  | { code: 'symbol'; min: number; max: number }
  | { code: 'date_format' }
  | { code: 'no_such_date' };

type Rule = (value: string) => FieldProblem | undefined;

const required: Rule = (value) => (value.length === 0 ? { code: 'required' } : undefined);
const minLength =
  (min: number): Rule =>
  (value) =>
    value.length < min ? { code: 'min_length', min } : undefined;
const maxLength =
  (max: number): Rule =>
  (value) =>
    value.length > max ? { code: 'max_length', max } : undefined;
const matches =
  (pattern: RegExp, problem: FieldProblem): Rule =>
  (value) =>
    pattern.test(value) ? undefined : problem;

function firstProblem(rules: Rule[], value: string): FieldProblem | undefined {
  for (const rule of rules) {
    const problem = rule(value);
    if (problem) return problem;
  }
  return undefined;
}

/** A new password as typed (never trimmed). The server also refuses common passwords. */
export const passwordProblem = (password: string) =>
  firstProblem(
    [required, minLength(fieldLimits.passwordMin), maxLength(fieldLimits.passwordMax)],
    password,
  );

/** A company name, trimmed first. */
export const companyNameProblem = (name: string) =>
  firstProblem(
    [required, minLength(fieldLimits.companyNameMin), maxLength(fieldLimits.companyNameMax)],
    name.trim(),
  );

const symbolProblem: FieldProblem = {
  code: 'symbol',
  min: fieldLimits.symbolMin,
  max: fieldLimits.symbolMax,
};

/** A company symbol, trimmed and upper-cased first: `maple` is `MAPLE`. */
export const companySymbolProblem = (symbol: string) =>
  firstProblem(
    [required, matches(companySymbolPattern, symbolProblem)],
    symbol.trim().toUpperCase(),
  );

/** An email, trimmed first. */
export const emailProblem = (email: string) =>
  firstProblem(
    [required, maxLength(fieldLimits.emailMax), matches(emailPattern, { code: 'email' })],
    email.trim(),
  );

/** The API's English message for a problem of the field named `label` ("Password"). */
export function englishProblem(problem: FieldProblem, label: string): string {
  switch (problem.code) {
    case 'required':
      return `${label} is required`;
    case 'min_length':
      return `Min character length is ${problem.min}`;
    case 'max_length':
      return `Max character length is ${problem.max}`;
    case 'email':
      return 'Please enter a valid email';
    case 'symbol':
      return `Use ${problem.min} to ${problem.max} letters A–Z or digits 0–9`;
    case 'date_format':
      return 'Use the date format YYYY-MM-DD';
    case 'no_such_date':
      return 'No such date in the calendar';
  }
}

/** The most characters each customer text field holds (trimmed), and the tags' limits. */
export const customerTextLimits = {
  name: 100,
  lastName: 100,
  nickname: 100,
  avatar: 2048,
  company: 200,
  jobTitle: 200,
  phone: 40,
  address: 500,
  birthday: 10,
  notes: 5000,
  roundId: 100,
} as const;
export const tagLimits = { length: 40, count: 20 } as const;

/** A customer text field, trimmed first: at most its limit. */
export const customerTextProblem = (field: keyof typeof customerTextLimits, text: string) =>
  maxLength(customerTextLimits[field])(text.trim());

const birthdayPattern = /^\d{4}-\d{2}-\d{2}$/;

/** A birthday: empty, or a real date written YYYY-MM-DD (zod's date pattern knows leap years). */
export function birthdayProblem(text: string): FieldProblem | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  if (!birthdayPattern.test(trimmed)) return { code: 'date_format' };
  return regexes.date.test(trimmed) ? undefined : { code: 'no_such_date' };
}

/** A plan's period is at most a year, as Stripe allows: 52 weeks, 12 months, 1 year. */
export const maxPlanIntervalCount = { week: 52, month: 12, year: 1 } as const;

/** A funding round's handle (the API lower-cases what is typed): `seed-2026`. */
export const roundHandlePattern = /^[a-z0-9]+(-[a-z0-9]+)*$/;

/** A share's par value in CAD, as a decimal with a dot: `0.0001`. */
export const parValuePattern = /^\d{1,12}(\.\d{1,10})?$/;
