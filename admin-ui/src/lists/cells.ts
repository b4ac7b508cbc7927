/**
 * A table cell whose text wraps anywhere (long emails, names, references) but never narrower than
 * `minWidth`, so a table keeps to its card instead of scrolling sideways.
 */
export const wrappingCell = (minWidth: number) =>
  ({ overflowWrap: 'anywhere', minWidth, display: 'block' }) as const;
