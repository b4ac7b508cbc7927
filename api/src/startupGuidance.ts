import type { AppDependencies } from './http';
import type { Infrastructure } from './infrastructure';
import { ensureFirstOperator, ensureOperatorFromEnv } from './operator/operator';

/**
 * Creates the configured operator, and on the embedded default's first start a generated one,
 * then tells a newcomer what to do next. Printed once, for a person: not a log line.
 */
export async function printFirstStartGuidance(
  deps: AppDependencies,
  { config, store }: Infrastructure,
): Promise<void> {
  const emptyStore = (await store.headPosition()) === undefined;
  const fromEnv = await ensureOperatorFromEnv(deps, config.operator);
  const generated = config.databaseUrl ? undefined : await ensureFirstOperator(deps);
  if (!emptyStore && !generated) return;

  const site = `http://localhost:${config.port}`;
  const api = `${site}/api`;
  const lines = [
    'Issuer Portal is running on a new, empty database.',
    '',
    ...(generated
      ? [
          'A platform operator was created (shown only this once; keep it safe):',
          `  email:    ${generated.email}`,
          `  password: ${generated.password}`,
          '',
        ]
      : fromEnv === 'created'
        ? [`The platform operator ${config.operator?.email} was created from OPERATOR_EMAIL.`, '']
        : []),
    'Next steps:',
    `  1. Open ${site}/register in a browser and register a company, then sign in at ${site}/login`,
    '     as the operator above and verify it on the Companies screen. Or with the API:',
    `     Register a company:  curl -X POST ${api}/auth/register -H 'content-type: application/json' \\`,
    `       -d '{"companyName":"Maple Robotics","companySymbol":"MAPL","email":"you@example.com","password":"<a long password>"}'`,
    `     Sign in as the operator (POST ${api}/auth) and verify it: POST ${api}/operator/companies/<id>/verify`,
    `  2. Health and projector lag: ${api}/health`,
  ];
  console.log(`\n${lines.join('\n')}\n`);
}
