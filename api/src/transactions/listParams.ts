import type { Context } from 'hono';
import { z } from 'zod';
import { type AppEnv, jsonEncoded } from '../http';

/** The most rows one page (or a getMany) holds. */
export const maxPageRows = 1000;

/** `sort=["field","ASC"]` over the given fields. */
export const sortParam = <Field extends string>(fields: readonly [Field, ...Field[]]) =>
  jsonEncoded(z.tuple([z.enum(fields), z.enum(['ASC', 'DESC'])]));

/** `range=[start,end]`, inclusive, zero-based, as react-admin sends it. */
export const rangeParam = jsonEncoded(
  z
    .tuple([z.int().min(0).max(1e9), z.int().min(0).max(1e9)])
    .refine(([start, end]) => end >= start && end - start < maxPageRows, {
      message: `A range covers 1 to ${maxPageRows} rows`,
    }),
);

/** One value or several, always an array after parsing. */
export const oneOrMany = <Schema extends z.ZodType>(schema: Schema) =>
  z
    .union([schema, z.array(schema).min(1).max(20)])
    .transform((value) => (Array.isArray(value) ? value : [value]) as z.infer<Schema>[]);

export const idParam = z.string().trim().min(1).max(100);

/** Whether the date part names a real day: Date.parse takes 2026-02-30 for 2 March. */
function isCalendarDate(text: string): boolean {
  const [year, month, day] = text.slice(0, 10).split('-').map(Number);
  const date = new Date(Date.UTC(year ?? 0, (month ?? 0) - 1, day ?? 0));
  return date.getUTCMonth() === (month ?? 0) - 1 && date.getUTCDate() === day;
}

/** An ISO 8601 date or time (`2026-01-31` or `2026-01-31T23:59:59Z`) as a Date. */
export const isoTime = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/, {
    message: 'Use an ISO 8601 date or time such as 2026-01-31T23:59:59Z',
  })
  .refine(
    (text) => !Number.isNaN(Date.parse(text)) && isCalendarDate(text),
    'Not a valid date or time',
  )
  .transform((text) => new Date(text));

/** `Content-Range: <resource> a-b/total`, or `<resource> *\/total` for an empty page. */
export function setContentRange(
  c: Context<AppEnv>,
  resource: string,
  start: number,
  shown: number,
  total: number,
): void {
  c.header(
    'Content-Range',
    shown > 0 ? `${resource} ${start}-${start + shown - 1}/${total}` : `${resource} */${total}`,
  );
}

/**
 * A react-admin list query's sort and page, with the list's default sort; without a range, the
 * first 25 rows (or as many as `filter.id` names: getMany).
 */
export function listWindow<Field extends string>(
  query: {
    sort?: [Field, 'ASC' | 'DESC'];
    range?: [number, number];
    filter?: { id?: readonly string[] };
  },
  defaultSort: Field,
) {
  const ids = query.filter?.id;
  const [field, order] = query.sort ?? [defaultSort, 'DESC'];
  const [start, end] = query.range ?? [0, ids ? Math.max(ids.length - 1, 0) : 24];
  return { sort: { field, order }, range: { start, end } };
}
