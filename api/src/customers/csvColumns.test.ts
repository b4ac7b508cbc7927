import { readFile } from 'node:fs/promises';
import { customerProfileFields } from '@issuer/events';
import { describe, expect, it } from 'vitest';
import { fieldOfHeader, importableFields } from './csvColumns';

describe('the CSV columns a customer import understands', () => {
  it('are the customer profile fields, then the statuses and the star', () => {
    expect(importableFields).toEqual([
      ...customerProfileFields,
      'leadStatus',
      'investorStatus',
      'starred',
    ]);
  });

  it('match a field by its name or a common alias, whatever the case and punctuation', () => {
    expect(fieldOfHeader('First Name')).toBe('name');
    expect(fieldOfHeader('Surname')).toBe('lastName');
    expect(fieldOfHeader('E-mail')).toBe('email');
    expect(fieldOfHeader('Mobile')).toBe('phone');
    expect(fieldOfHeader('token_balance')).toBe('tokenBalance');
    expect(fieldOfHeader('Lead status')).toBe('leadStatus');
    expect(fieldOfHeader('Favourite colour')).toBeUndefined();
    expect(fieldOfHeader('constructor')).toBeUndefined();
  });

  it('match the admin UI’s own labels in Turkish and Arabic, whatever the accents', () => {
    expect(fieldOfHeader('E-posta')).toBe('email');
    expect(fieldOfHeader('Ad')).toBe('name');
    expect(fieldOfHeader('SOYAD')).toBe('lastName');
    expect(fieldOfHeader('Şirket')).toBe('company');
    expect(fieldOfHeader('Sirket')).toBe('company');
    expect(fieldOfHeader('YATIRIMCI DURUMU')).toBe('investorStatus');
    expect(fieldOfHeader('Doğum tarihi')).toBe('birthday');
    expect(fieldOfHeader('البريد الإلكتروني')).toBe('email');
    expect(fieldOfHeader('المسمى الوظيفي')).toBe('jobTitle');
    expect(fieldOfHeader('اسم العائلة')).toBe('lastName');
    expect(fieldOfHeader('Renk')).toBeUndefined();
  });

  it('import nothing, so the admin UI can bundle them without the server', async () => {
    const source = await readFile(new URL('./csvColumns.ts', import.meta.url), 'utf8');
    expect(source).not.toMatch(/^\s*import\b|\bimport\(|\brequire\(/m);
  });
});
