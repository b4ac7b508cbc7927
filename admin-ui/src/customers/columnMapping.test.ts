import { describe, expect, it } from 'vitest';
import { parseCustomerCsv } from '../../../api/src/customers/csvImport';
import { columnMapping, mappingProblems } from './columnMapping';

const headers = ['First Name', 'Surname', 'E-mail', 'Mobile', 'Favourite colour'];

describe('the column mapping of a CSV import', () => {
  it('pre-selects the field of each header by name or alias, and nothing for the others', () => {
    expect(columnMapping(headers, {})).toEqual({
      'First Name': 'name',
      Surname: 'lastName',
      'E-mail': 'email',
      Mobile: 'phone',
      'Favourite colour': '',
    });
  });

  it('pre-selects what the server would import without a mapping', () => {
    const csv = `${headers.join(',')}\nAda,Lovelace,ada@x.test,+44 1,blue`;
    const server = parseCustomerCsv(csv).columns;
    const preselected = columnMapping(headers, {});
    expect(server.map(({ column, field }) => [column, field ?? ''])).toEqual(
      Object.entries(preselected),
    );
  });

  it('keeps the user’s choices, "don’t import" included, over the pre-selection', () => {
    const mapping = columnMapping(headers, { 'Favourite colour': 'notes', Mobile: '' });
    expect(mapping).toMatchObject({ 'Favourite colour': 'notes', Mobile: '', 'E-mail': 'email' });
  });

  it('asks for an email column and flags a field chosen twice', () => {
    expect(mappingProblems(columnMapping(headers, {}))).toEqual({
      missingEmail: false,
      repeated: new Set(),
    });
    const noEmail = columnMapping(headers, { 'E-mail': '' });
    expect(mappingProblems(noEmail).missingEmail).toBe(true);
    const twice = columnMapping(headers, { 'Favourite colour': 'name' });
    expect(mappingProblems(twice).repeated).toEqual(new Set(['name']));
  });
});
