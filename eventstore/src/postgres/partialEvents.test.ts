import { randomUUID } from 'node:crypto';
import type { NewEvent, RecordedEvent } from '@issuer/events';
import { createTestDatabase, postgresServers, type TestDatabase } from '@issuer/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PartNotReadError } from './partialEvents';
import { PostgresEventStore } from './postgresEventStore';

for (const server of await postgresServers()) {
  describe(`readAll with some parts only (${server.name})`, () => {
    let database: TestDatabase;
    let store: PostgresEventStore;
    let full: RecordedEvent[];

    beforeAll(async () => {
      database = await createTestDatabase(server);
      store = new PostgresEventStore(database.url);
      await store.migrate();
      await store.appendToStream('Parts-1', [event('Kept', 1), event('Other', 2)], {
        expectedRevision: 'no_stream',
      });
      const { position } = await store.appendToStream('Parts-2', [event('Kept', 3)], {
        expectedRevision: 'no_stream',
      });
      // An older transaction of this database still open would hold the read horizon back.
      while (((await store.headPosition()) ?? -1n) < position)
        await new Promise((resolve) => setTimeout(resolve, 5));
      full = await store.readAll();
      expect(full).toHaveLength(3);
    });
    afterAll(async () => {
      await store.close();
      await database.drop();
    });

    it('given no parts, then type, data and position equal a full read and every other part throws', async () => {
      const read = await store.readAll({ parts: [] });

      expect(read.map(({ type, data, position }) => ({ type, data, position }))).toEqual(
        full.map(({ type, data, position }) => ({ type, data, position })),
      );
      for (const part of ['id', 'metadata', 'streamId', 'revision', 'recordedAt'] as const)
        expect(() => read[0]?.[part]).toThrow(PartNotReadError);
    });

    it('given every part by name, then the events equal a full read', async () => {
      const read = await store.readAll({
        parts: ['id', 'metadata', 'streamId', 'revision', 'recordedAt'],
      });

      expect(read).toEqual(full);
    });

    it('given parts by type, then events of that type have them and the others do not', async () => {
      const read = await store.readAll({
        parts: { Kept: ['metadata', 'revision', 'recordedAt'], Other: ['id'] },
      });

      expect(read).toHaveLength(3);
      for (const [index, got] of read.entries()) {
        const expected = full[index] as RecordedEvent;
        expect(got.position).toBe(expected.position);
        if (got.type === 'Kept') {
          expect(got.metadata).toEqual(expected.metadata);
          expect(got.revision).toBe(expected.revision);
          expect(got.recordedAt).toEqual(expected.recordedAt);
          expect(() => got.id).toThrow(PartNotReadError);
        } else {
          expect(got.id).toBe(expected.id);
          expect(() => got.metadata).toThrow(PartNotReadError);
          expect(() => got.streamId).toThrow(PartNotReadError);
        }
      }
    });

    it('given maxCount and after, then paging is the same as a full read', async () => {
      const first = await store.readAll({ maxCount: 2, parts: [] });
      const rest = await store.readAll({ after: first.at(-1)?.position, parts: [] });

      expect([...first, ...rest].map((read) => read.position)).toEqual(
        full.map((read) => read.position),
      );
    });
  });
}

function event(type: string, n: number): NewEvent {
  return {
    id: randomUUID(),
    type,
    data: { n, nested: { list: [n, 'x'] } },
    metadata: {
      companyId: `c-${n}`,
      userId: null,
      correlationId: randomUUID(),
      causationId: null,
      occurredAt: '2025-06-01T09:00:00.000Z',
      schemaVersion: 1,
    },
  };
}
