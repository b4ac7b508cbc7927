import { describe, expect, it } from 'vitest';
import { csvBatches, csvCells, csvColumns, csvRecords } from './bulkRows';

describe('bulk add input', () => {
  it('keeps a quoted line break inside its record', () => {
    const csv = 'email,notes\na@x.test,"two\nlines"\nb@x.test,one';
    expect(csvRecords(csv).map((record) => record.line)).toEqual([1, 2, 4]);
  });

  it('cuts a CSV with a header into batches that each repeat the header', () => {
    const csv = ['name,Email', 'Ann,a@x.test', 'Bob,b@x.test', '', 'Cy,c@x.test'].join('\n');
    const batches = csvBatches(csv, 2);
    expect(batches.map((batch) => batch.csv)).toEqual([
      'name,Email\nAnn,a@x.test\nBob,b@x.test',
      'name,Email\nCy,c@x.test',
    ]);
    expect(batches.map((batch) => batch.rows)).toEqual([2, 1]);
    // Server line 2 of each batch is its first record: lines 2 and 5 of the input.
    expect(batches.map((batch) => 2 + batch.lineShift)).toEqual([2, 5]);
  });

  it('takes lines without an email header as a list of emails, numbered as pasted', () => {
    const batches = csvBatches('a@x.test\nb@x.test\n\nc@x.test\n', 10);
    expect(batches).toHaveLength(1);
    expect(batches[0]?.csv).toBe('email\na@x.test\nb@x.test\n\nc@x.test');
    expect(2 + (batches[0]?.lineShift ?? 0)).toBe(1);
  });

  it('has nothing to send for blank input', () => {
    expect(csvBatches('  \n', 10)).toEqual([]);
  });

  it('sends a CSV whose header names no email column as it is, for the mapping to fix', () => {
    const batches = csvBatches('Correo,Nombre\nana@x.test,Ana', 10);
    expect(batches[0]?.csv).toBe('Correo,Nombre\nana@x.test,Ana');
  });
});

describe('the columns of the mapping step', () => {
  it('splits a record as the server does: quoted commas, doubled quotes, a CR before the LF', () => {
    expect(csvCells('"Dee, Jr.","say ""hi""",,last\r')).toEqual([
      'Dee, Jr.',
      'say "hi"',
      '',
      'last',
    ]);
  });

  it('names each header once, trimmed, with its cell in the first data row', () => {
    const csv =
      '\uFEFFFirst Name, Surname ,E-mail,"Notes, long",E-mail\nAda,Lovelace,ada@x.test,"one\ntwo"\nBob';
    expect(csvColumns(csv)).toEqual([
      { header: 'First Name', sample: 'Ada' },
      { header: 'Surname', sample: 'Lovelace' },
      { header: 'E-mail', sample: 'ada@x.test' },
      { header: 'Notes, long', sample: 'one\ntwo' },
    ]);
  });

  it('has samples only for the cells the first row has', () => {
    expect(csvColumns('email,name\n')).toEqual([
      { header: 'email', sample: '' },
      { header: 'name', sample: '' },
    ]);
  });

  it('has none for a list of emails or blank text', () => {
    expect(csvColumns('a@x.test\nb@x.test')).toEqual([]);
    expect(csvColumns('\n  \n')).toEqual([]);
  });
});
