/**
 * A timestamptz column as JavaScript's `toISOString()` writes it (UTC, milliseconds, `Z`), for
 * rows PostgreSQL turns into the API's JSON itself.
 */
export const isoText = (column: string) =>
  `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
