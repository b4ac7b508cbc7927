/**
 * Spreadsheet formula injection (OWASP "CSV Injection"): a cell that starts with = + - @ or a
 * tab or carriage return is run as a formula when the export is opened in Excel or Sheets. The
 * export puts an apostrophe before such text, which spreadsheets show as plain text; the import
 * takes it off again, so an exported file reads back to the same customers.
 */
const formulaStart = /^[=+\-@\t\r]/;

export const neutralizeFormula = (text: string) => (formulaStart.test(text) ? `'${text}` : text);

export const restoreNeutralized = (text: string) =>
  text.startsWith("'") && formulaStart.test(text.slice(1)) ? text.slice(1) : text;
