import { describe, expect, it } from 'vitest';
import {
  birthdayProblem,
  companyNameProblem,
  companySymbolProblem,
  customerTextProblem,
  emailProblem,
  englishProblem,
  passwordProblem,
} from './fieldRules';

const symbol = { code: 'symbol', min: 2, max: 10 } as const;

describe('the shared field rules', () => {
  it('want a password of 8 to 128 characters, as typed', () => {
    expect(passwordProblem('')).toEqual({ code: 'required' });
    expect(passwordProblem('tundra7')).toEqual({ code: 'min_length', min: 8 });
    expect(passwordProblem('tundra77')).toBeUndefined();
    expect(passwordProblem('x'.repeat(129))).toEqual({ code: 'max_length', max: 128 });
  });

  it('want a symbol of 2 to 10 letters or digits, upper-cased and trimmed first', () => {
    expect(companySymbolProblem('  ')).toEqual({ code: 'required' });
    expect(companySymbolProblem(' mapl ')).toBeUndefined();
    expect(companySymbolProblem('M')).toEqual(symbol);
    expect(companySymbolProblem('MAPLE-1')).toEqual(symbol);
    expect(companySymbolProblem('ABCDEFGHIJK')).toEqual(symbol);
  });

  it('want a company name of 4 to 100 characters and a valid email', () => {
    expect(companyNameProblem(' Abc ')).toEqual({ code: 'min_length', min: 4 });
    expect(companyNameProblem('Maple Robotics')).toBeUndefined();
    expect(emailProblem('cfo@maple')).toEqual({ code: 'email' });
    expect(emailProblem(' cfo@maple.test ')).toBeUndefined();
  });

  it('say in English what the API answers', () => {
    expect(englishProblem({ code: 'min_length', min: 8 }, 'Password')).toBe(
      'Min character length is 8',
    );
    expect(englishProblem({ code: 'required' }, 'Company symbol')).toBe(
      'Company symbol is required',
    );
    expect(englishProblem(symbol, 'Company symbol')).toBe('Use 2 to 10 letters A–Z or digits 0–9');
  });
});

describe('the shared customer rules', () => {
  it('hold each text field to its length and a birthday to a real date', () => {
    expect(customerTextProblem('phone', ` ${'1'.repeat(40)} `)).toBeUndefined();
    expect(customerTextProblem('phone', '1'.repeat(41))).toEqual({ code: 'max_length', max: 40 });
    expect(birthdayProblem('')).toBeUndefined();
    expect(birthdayProblem('1990-04-27')).toBeUndefined();
    expect(birthdayProblem('27/04/1990')).toEqual({ code: 'date_format' });
    expect(birthdayProblem('2023-02-29')).toEqual({ code: 'no_such_date' });
    expect(birthdayProblem('2024-02-29')).toBeUndefined();
  });
});
