import type { AppDependencies } from './http';
import type { Infrastructure } from './infrastructure';
import { ensureFirstOperator, ensureOperatorFromEnv } from './operator/operator';

/**
 * What start-up guarantees before the port opens: the configured operator, and on the embedded
 * default's first start a generated one, each already in the read models, so a sign-in the
 * moment the port accepts succeeds. Answers what to tell a newcomer (undefined when the database
 * was in use before): printed once, for a person, not a log line.
 */
export async function prepareFirstStart(
  deps: AppDependencies,
  { config, store }: Infrastructure,
): Promise<{ guidance: string | undefined; generated: GeneratedOperator | undefined }> {
  const emptyStore = (await store.headPosition()) === undefined;
  const fromEnv = await ensureOperatorFromEnv(deps, config.operator);
  const generated = config.databaseUrl ? undefined : await ensureFirstOperator(deps);
  if (!emptyStore && !generated) return { guidance: undefined, generated };
  const operator = generated ?? config.operator;
  const guidance = firstStartGuidance({
    site: `http://localhost:${config.port}`,
    operator: operator && { email: operator.email, password: generated?.password },
    created: generated ? 'generated' : fromEnv === 'created' ? 'from-env' : undefined,
  });
  return { guidance, generated };
}

interface GeneratedOperator {
  email: string;
  password: string;
}

/**
 * What a start that could not open its port prints. An operator generated on the way exists
 * from now on and its password is shown nowhere else, so it is printed here too.
 */
export function listenFailureGuidance(
  port: number,
  error: unknown,
  generated: GeneratedOperator | undefined,
): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const why =
    code === 'EADDRINUSE'
      ? 'another program (an earlier `npm start`?) is using it'
      : code === 'EACCES'
        ? 'this user may not open it'
        : error instanceof Error
          ? error.message
          : String(error);
  return [
    `Issuer Portal could not listen on port ${port}: ${why}.`,
    `Stop that program, or choose a free port (PORT=${port + 1} npm start), then start again.`,
    '',
    ...(generated ? operatorLines(generated, 'generated') : []),
  ].join('\n');
}

export interface FirstStart {
  site: string;
  /** The operator to sign in as; the password only when it was generated (shown this once). */
  operator: { email: string; password?: string | undefined } | undefined;
  created: 'generated' | 'from-env' | undefined;
}

/** The example company of the guidance (and of the README's quick start). */
export const exampleCompany = {
  companyName: 'Maple Robotics',
  companySymbol: 'MAPL',
  email: 'cfo@maple.test',
  password: 'long-and-unusual-pass',
};

/** The first start's text: every step from registering a company to its first API call. */
export function firstStartGuidance({ site, operator, created }: FirstStart): string {
  const api = `${site}/api`;
  const json = "-H 'content-type: application/json'";
  const operatorLogin = JSON.stringify({
    email: operator?.email ?? '<operator email>',
    password: operator?.password ?? '<operator password>',
  });
  const companyLogin = JSON.stringify({
    email: exampleCompany.email,
    password: exampleCompany.password,
  });
  return [
    'Issuer Portal is running on a new, empty database.',
    '',
    ...operatorLines(operator, created),
    'Next steps, in a browser: register a company at',
    `  ${site}/register, sign in at ${site}/login as the operator, verify the company`,
    '  on the Companies screen, then sign in as the company.',
    '',
    'Or with curl (each answer is JSON; `json` reads a field of it with node):',
    `  json() { node -pe "JSON.parse(require('fs').readFileSync(0, 'utf8'))$1"; }`,
    '  # 1. register a company',
    `  curl -s -X POST ${api}/auth/register ${json} \\`,
    `    -d '${JSON.stringify(exampleCompany)}'`,
    '  # 2. sign in as the operator: the token goes in the Authorization header',
    `  OPERATOR_TOKEN=$(curl -s -X POST ${api}/auth ${json} \\`,
    `    -d '${operatorLogin}' | json .access_token)`,
    "  # 3. the company's id, from the operator's list of companies",
    `  COMPANY_ID=$(curl -s -G ${api}/operator/companies -H "Authorization: Bearer $OPERATOR_TOKEN" \\`,
    `    --data-urlencode 'filter=${JSON.stringify({ q: exampleCompany.companySymbol })}' | json '[0].id')`,
    '  # 4. verify it',
    `  curl -s -X POST ${api}/operator/companies/$COMPANY_ID/verify -H "Authorization: Bearer $OPERATOR_TOKEN"`,
    '  # 5. sign in as the company and list its customers',
    `  TOKEN=$(curl -s -X POST ${api}/auth ${json} -d '${companyLogin}' | json .access_token)`,
    `  curl -s ${api}/customers -H "Authorization: Bearer $TOKEN"`,
    '',
    `Health and projector lag: ${api}/health`,
  ].join('\n');
}

function operatorLines(operator: FirstStart['operator'], created: FirstStart['created']) {
  if (created === 'generated' && operator?.password) {
    return [
      'A platform operator was created (shown only this once; keep it safe):',
      `  email:    ${operator.email}`,
      `  password: ${operator.password}`,
      '',
    ];
  }
  if (created === 'from-env') {
    return [`The platform operator ${operator?.email} was created from OPERATOR_EMAIL.`, ''];
  }
  if (!operator) {
    return [
      'No platform operator is configured: create one with',
      '  npm run operator -- create --email <email> --password <a long password>',
      '',
    ];
  }
  return [];
}
