import { createTestDatabase, postgresServers } from '@issuer/test-support';
import { describeEventStoreContract } from '../contract/eventStoreContract';
import { PostgresEventStore } from './postgresEventStore';

// Once per server of this run: the embedded PostgreSQL 18 always, the TEST_DATABASE_URL server too.
for (const server of await postgresServers()) {
  describeEventStoreContract(`PostgreSQL (${server.name})`, async () => {
    const database = await createTestDatabase(server);
    const store = new PostgresEventStore(database.url);
    await store.migrate();
    return {
      store,
      cleanup: async () => {
        await store.close();
        await database.drop();
      },
    };
  });
}
