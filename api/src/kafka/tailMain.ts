import { tailTopics } from '@issuer/kafka';
import { loadConfigOrExit } from '../infrastructure';
import { parseTailArgs, tailUsage } from './cliArgs';

/**
 * `npm run kafka:tail -- <topic>`: prints each event as it arrives, one line each. It is also the
 * example for downstream teams (kafka/src/tail.ts): group id, manual commit, dedupe by event id.
 */
async function main(argv: readonly string[]): Promise<void> {
  const parsed = parseTailArgs(argv);
  if ('error' in parsed) {
    console.error(`${parsed.error}\n\n${tailUsage}`);
    process.exit(2);
  }
  const config = await loadConfigOrExit('background');
  if (config.kafka === undefined) {
    console.error('KAFKA_BROKERS is not set: nothing to tail');
    process.exit(2);
  }
  const groupId = parsed.groupId ?? `${config.kafka.clientId}-tail`;
  const tail = await tailTopics({
    connection: config.kafka,
    topics: parsed.topics,
    groupId,
    fromBeginning: parsed.fromBeginning,
    onEvent: (event, where) =>
      console.log(
        `${where.topic}[${where.partition}]@${where.offset} ${event.type} ${event.streamId}#${event.streamRevision} id=${event.eventId} at=${event.occurredAt} ${JSON.stringify(event.data)}`,
      ),
    onDuplicate: (event) => console.error(`duplicate ${event.eventId} (${event.type}) dropped`),
  });
  console.error(`tailing ${parsed.topics.join(', ')} as group ${groupId}; Ctrl-C to stop`);
  tail.stopped.catch((error: unknown) => {
    console.error('the tail stopped:', error);
    process.exit(1);
  });
  const stop = async () => {
    await tail.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop());
  process.once('SIGTERM', () => void stop());
}

await main(process.argv.slice(2));
