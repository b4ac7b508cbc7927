import {
  birthdayProblem,
  companyNameProblem,
  companySymbolProblem,
  customerTextLimits,
  customerTextProblem,
  emailProblem,
  type FieldProblem,
  passwordProblem,
} from '@issuer/events/rules';
import { minLength, required, type Validator } from 'react-admin';

/**
 * The forms' validators, from the rules the API's schemas use (`@issuer/events/rules`): a form
 * refuses what the server would refuse, in the reader's language, before submit.
 */

/** A problem as react-admin's message: a key of `app.validation` with its numbers. */
export function problemMessage(problem: FieldProblem) {
  const { code, ...args } = problem;
  return { message: `app.validation.${code}`, args };
}

const fromRule =
  (problemOf: (value: string) => FieldProblem | undefined): Validator =>
  (value: unknown) => {
    const problem = problemOf(typeof value === 'string' ? value : '');
    return problem ? problemMessage(problem) : undefined;
  };

/** Sign-in keeps the seed's 4 characters: whether it is right is the server's to say. */
const seedMinimum = minLength(4, 'app.validation.min_length');
export const validateEmailForLogin = [required(), seedMinimum];
export const validateLoginPassword = [required(), seedMinimum];

/** `required()` marks the field with an asterisk; the rule gives its message. */
export const validatePassword = [required(), fromRule(passwordProblem)];
export const validateCompanyName = [required(), fromRule(companyNameProblem)];
export const validateCompanySymbol = [required(), fromRule(companySymbolProblem)];
export const validateEmail = [required(), fromRule(emailProblem)];

export const validateConfirmation = [
  required(),
  (value: unknown, values: { password?: unknown }) =>
    value === values.password ? undefined : 'app.validation.passwords_mismatch',
];

/** A customer's text field (its length), and the birthday (a real date, YYYY-MM-DD). */
export function validateCustomerField(source: string): Validator[] {
  if (source === 'birthday') return [fromRule(birthdayProblem)];
  if (!Object.hasOwn(customerTextLimits, source)) return [];
  const field = source as keyof typeof customerTextLimits;
  return [fromRule((text) => customerTextProblem(field, text))];
}
