import { email, minLength, required } from 'react-admin';

/** The seed's rules and messages (section 5). */
const minCharacters = minLength(4, 'app.validation.min_length');
export const validateEmailForLogin = [required(), minCharacters];
export const validatePassword = [required(), minLength(4, 'app.validation.min_length')];
export const validateCompanyName = [required(), minCharacters];
export const validateEmail = [required(), email('app.validation.email')];

export const validateConfirmation = [
  required(),
  (value: unknown, values: { password?: unknown }) =>
    value === values.password ? undefined : 'app.validation.passwords_mismatch',
];
