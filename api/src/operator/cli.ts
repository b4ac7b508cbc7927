import { DomainError } from '@issuer/events';
import { withInfrastructure } from '../infrastructure';
import { parseOperatorArgs, usage } from './cliArgs';
import { createOperator } from './operator';

/** `npm run operator -- create --email … --password …` */
async function main(argv: readonly string[]): Promise<number> {
  const parsed = parseOperatorArgs(argv);
  if ('error' in parsed) {
    console.error(`${parsed.error}\n\n${usage}`);
    return 2;
  }
  try {
    const { email, password } = parsed;
    const created = await withInfrastructure((infrastructure) =>
      createOperator(infrastructure, { email, password }),
    );
    console.log(`Operator ${created.email} created. Sign in through POST /api/auth.`);
    return 0;
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    const details = Object.entries(error.fields ?? {}).map(
      ([field, text]) => `  ${field}: ${text}`,
    );
    console.error([error.message, ...details].join('\n'));
    return 1;
  }
}

// An explicit exit: a library's exit hook would otherwise turn a failure into status 0.
process.exit(await main(process.argv.slice(2)));
