import { republish } from '@issuer/kafka';
import { withInfrastructure } from '../infrastructure';
import { parseRepublishArgs, republishUsage } from './cliArgs';

/** `npm run kafka:republish -- --from <position>`: a replay for a consumer that needs one. */
async function main(argv: readonly string[]): Promise<number> {
  const parsed = parseRepublishArgs(argv);
  if ('error' in parsed) {
    console.error(`${parsed.error}\n\n${republishUsage}`);
    return 2;
  }
  return withInfrastructure(async ({ config, store }) => {
    if (config.kafka === undefined) {
      console.error('KAFKA_BROKERS is not set: nowhere to republish to');
      return 2;
    }
    const result = await republish({ store, settings: config.kafka, after: parsed.after });
    console.log(
      `Republished ${result.published} records (${result.read} events read) after position ${parsed.after ?? 'start'}` +
        (result.lastPosition === undefined ? '' : `, up to position ${result.lastPosition}`),
    );
    return 0;
  });
}

process.exit(await main(process.argv.slice(2)));
