import {
  type EventMetadata,
  type EventPart,
  eventParts,
  type PartsByType,
  type RecordedEvent,
} from '@issuer/events';
import type pg from 'pg';

/** A read that asked for only some parts of each event (`ReadAllOptions.parts`). */
export interface PartialRead {
  /** Select list: position, type, data, then one column per part read for some event. */
  columns: string;
  /** Parameters of `columns`, numbered from `firstParameter` on. */
  values: string[][];
  /** Parses data and int8 columns as each row arrives, so their text dies young (less GC). */
  types: pg.CustomTypesConfig;
  decode(row: readonly unknown[]): RecordedEvent;
}

/** Column of each part (none of them is ever NULL); metadata as text, parsed when touched. */
const PART_COLUMNS: Record<EventPart, string> = {
  id: 'e.event_id',
  metadata: 'e.metadata::text',
  streamId: 'e.stream_id',
  revision: 'e.revision',
  recordedAt: '(extract(epoch FROM e.recorded_at) * 1000)::int8::text',
};

const JSON_OID = 114;
const INT8_OID = 20;

const PARSED_COLUMNS: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number) => {
    if (oid === JSON_OID) return JSON.parse;
    if (oid === INT8_OID) return toBigInt;
    return (text: string) => text;
  }) as pg.CustomTypesConfig['getTypeParser'],
};

/** The metadata's JSON text until first read; many consumers of a partial read never touch it. */
const METADATA_TEXT = Symbol('metadataText');

type Setter = (event: Record<PropertyKey, unknown>, value: unknown) => void;

const PART_SETTERS: Record<EventPart, Setter> = {
  id: (event, value) => {
    event.id = value;
  },
  metadata: (event, value) => {
    event[METADATA_TEXT] = value;
  },
  streamId: (event, value) => {
    event.streamId = value;
  },
  revision: (event, value) => {
    event.revision = value;
  },
  recordedAt: (event, value) => {
    event.recordedAt = new Date(Number(value));
  },
};

/** Thrown when a consumer touches a part its read left out: a missing declaration, not bad data. */
export class PartNotReadError extends Error {
  override readonly name = 'PartNotReadError';
  constructor(readonly part: EventPart) {
    super(`The event's ${part} was not read: add '${part}' to the parts asked for`);
  }
}

/**
 * Columns and decoding for the parts asked for; undefined when that is every part of every
 * event (read everything). A part asked for some types only comes as `CASE WHEN type = ANY(…)`:
 * NULL for the other types, whose events then lack that part.
 */
export function partialRead(
  parts: readonly EventPart[] | PartsByType,
  firstParameter: number,
): PartialRead | undefined {
  const byType = Array.isArray(parts) ? undefined : (parts as PartsByType);
  const everywhere = byType ? partsOfEveryType(byType) : (parts as readonly EventPart[]);
  if (eventParts.every((part) => everywhere.includes(part))) return undefined;
  const columns = ['e.position', 'e.type', 'e.data'];
  const values: string[][] = [];
  const read: EventPart[] = [];
  for (const part of eventParts) {
    if (everywhere.includes(part)) columns.push(PART_COLUMNS[part]);
    else {
      const types = Object.keys(byType ?? {}).filter((type) => byType?.[type]?.includes(part));
      if (types.length === 0) continue;
      values.push(types);
      columns.push(
        `CASE WHEN e.type = ANY($${firstParameter + values.length - 1}::text[]) THEN ${PART_COLUMNS[part]} END`,
      );
    }
    read.push(part);
  }
  const setters = read.map((part) => PART_SETTERS[part]);
  return {
    columns: columns.join(', '),
    values,
    types: PARSED_COLUMNS,
    decode(row) {
      let mask = 0;
      for (let index = 0; index < read.length; index += 1)
        if (row[3 + index] !== null) mask |= PART_BITS[read[index] as EventPart];
      const event: Record<PropertyKey, unknown> = Object.create(prototypeWith(mask));
      event.position = row[0];
      event.type = row[1];
      event.data = row[2];
      for (let index = 0; index < read.length; index += 1) {
        const value = row[3 + index];
        if (value !== null) setters[index]?.(event, value);
      }
      return event as unknown as RecordedEvent;
    },
  };
}

/** Parts asked for every type listed: read for every event (reading more is allowed). */
function partsOfEveryType(byType: PartsByType): EventPart[] {
  const lists = Object.values(byType);
  return eventParts.filter(
    (part) => lists.length > 0 && lists.every((list) => list.includes(part)),
  );
}

const PART_BITS = Object.fromEntries(eventParts.map((part, index) => [part, 1 << index])) as Record<
  EventPart,
  number
>;

const prototypes: object[] = [];

/**
 * Shared by every event with the same parts read (a bit of `mask` each): a getter that throws
 * for each part left out, and one that parses the metadata on first use (then kept on the
 * event). Parts on the prototype are not own properties: spreading such an event drops them.
 */
function prototypeWith(mask: number): object {
  let prototype = prototypes[mask];
  if (prototype) return prototype;
  prototype = {};
  for (const part of eventParts) {
    if (mask & PART_BITS[part]) continue;
    Object.defineProperty(prototype, part, {
      get() {
        throw new PartNotReadError(part);
      },
    });
  }
  if (mask & PART_BITS.metadata)
    Object.defineProperty(prototype, 'metadata', {
      get(this: Record<PropertyKey, unknown>) {
        const value = JSON.parse(this[METADATA_TEXT] as string) as EventMetadata;
        Object.defineProperty(this, 'metadata', { value, enumerable: true });
        return value;
      },
    });
  prototypes[mask] = prototype;
  return prototype;
}

/**
 * An int8's text as a bigint. Through a double when it has at most 15 digits (always exact
 * below 2^53): several times cheaper than parsing the string as a bigint, once per event.
 */
export function toBigInt(text: string): bigint {
  return text.length <= 15 ? BigInt(Number(text)) : BigInt(text);
}
