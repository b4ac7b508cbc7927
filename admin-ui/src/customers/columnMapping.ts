import {
  fieldOfHeader,
  type ImportableField,
  importableFields,
} from '../../../api/src/customers/csvColumns';

export type { ImportableField };
export { importableFields };

/** A column's customer field, or '' for a column not to import (as the import route takes it). */
export type ColumnChoice = ImportableField | '';
export type ColumnMapping = Record<string, ColumnChoice>;

/**
 * Each header's field: the user's choice, else the field the server would match by name or alias.
 * Sent in full, so the server imports exactly what the user saw.
 */
export function columnMapping(headers: string[], choices: ColumnMapping): ColumnMapping {
  return Object.fromEntries(
    headers.map((header) => [
      header,
      Object.hasOwn(choices, header)
        ? (choices[header] as ColumnChoice)
        : (fieldOfHeader(header) ?? ''),
    ]),
  );
}

export interface MappingProblems {
  missingEmail: boolean;
  /** Fields chosen for more than one column: the server would keep only the last column's cell. */
  repeated: Set<ImportableField>;
}

export function mappingProblems(mapping: ColumnMapping): MappingProblems {
  const chosen = Object.values(mapping).filter((field): field is ImportableField => field !== '');
  return {
    missingEmail: !chosen.includes('email'),
    repeated: new Set(chosen.filter((field, index) => chosen.indexOf(field) !== index)),
  };
}
