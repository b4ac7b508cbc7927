import { randomBytes, randomUUID } from 'node:crypto';
import { DomainError, streamCategories, streamName } from '@issuer/events';
import { anyUserWithRole } from '@issuer/projections';
import { z } from 'zod';
import { directStreamCommands, openAccount } from '../auth/accounts';
import { userDecider } from '../auth/businessLogic';
import { emailField, newPasswordField } from '../auth/credentials';
import { emailReservationDecider } from '../auth/emailReservation';
import { hashPassword } from '../auth/passwords';
import { type AppDependencies, foldStream, validationError } from '../http';

/** The platform's own tenant: operators belong to it; it has no Company stream. */
export const PLATFORM_COMPANY_ID = '00000000-0000-4000-8000-000000000000';
export const operatorRole = 'operator';
/** The account the embedded default creates on its first start when no operator exists. */
export const defaultOperatorEmail = 'operator@issuer-portal.local';

/**
 * What the CLI and start-up have. The clock defaults to the system's; with `readModels`, start-up
 * waits for the projectors: to reach the newest event before the first-operator check trusts the
 * users read model, and to apply an operator it creates before the port opens.
 */
type OperatorDeps = Pick<AppDependencies, 'store' | 'pool'> &
  Partial<Pick<AppDependencies, 'clock' | 'readModels'>>;

const startupCatchUpMs = 10_000;

export interface OperatorCredentials {
  email: string;
  password: string;
}

const credentialsSchema = z.strictObject({ email: emailField, password: newPasswordField });

/**
 * Creates an operator account: the same rules as a registration (valid and unique email, a
 * strong password), role `operator`, in the platform company. Throws a DomainError with field
 * messages when a rule is broken.
 */
export async function createOperator(
  deps: OperatorDeps,
  credentials: OperatorCredentials,
): Promise<{ userId: string; email: string; position: bigint }> {
  const parsed = credentialsSchema.safeParse(credentials);
  if (!parsed.success) throw validationError(parsed.error);
  const { email, password } = parsed.data;
  const userId = randomUUID();
  const clock = deps.clock ?? (() => new Date());
  const commands = directStreamCommands(
    { store: deps.store, clock },
    {
      companyId: PLATFORM_COMPANY_ID,
      userId,
    },
  );
  const position = await openAccount(commands, {
    userId,
    companyId: PLATFORM_COMPANY_ID,
    email,
    displayName: 'Platform operator',
    passwordHash: await hashPassword(password),
    roles: [operatorRole],
    now: clock(),
  });
  return { userId, email, position };
}

/** Creates the operator, then (with `readModels`) waits until the read models have it. */
async function createOperatorAtStart(deps: OperatorDeps, credentials: OperatorCredentials) {
  const { position } = await createOperator(deps, credentials);
  await deps.readModels?.waitFor(position, startupCatchUpMs);
}

/** The roles of the account holding this email, read from the write side; undefined if free. */
async function rolesOfEmail(
  deps: OperatorDeps,
  email: string,
): Promise<readonly string[] | undefined> {
  const emailStream = streamName(streamCategories.emailReservation, email);
  const reservation = await foldStream(deps.store, emailStream, emailReservationDecider);
  if (reservation.state.status !== 'reserved') return undefined;
  const userStream = streamName(streamCategories.user, reservation.state.userId);
  const user = await foldStream(deps.store, userStream, userDecider);
  return user.state.status === 'active' ? user.state.roles : [];
}

/**
 * Start-up with OPERATOR_EMAIL and OPERATOR_PASSWORD: creates that operator unless the email
 * already is one. Refuses an email that belongs to a company user.
 */
export async function ensureOperatorFromEnv(
  deps: OperatorDeps,
  operator: OperatorCredentials | undefined,
): Promise<'created' | 'exists' | 'not-configured'> {
  if (!operator) return 'not-configured';
  const roles = await rolesOfEmail(deps, operator.email.trim().toLowerCase());
  if (roles?.includes(operatorRole)) return 'exists';
  if (roles) {
    throw new Error('OPERATOR_EMAIL belongs to a company user; choose another email');
  }
  await createOperatorAtStart(deps, operator);
  return 'created';
}

/**
 * The embedded default's first start: when no operator exists, creates one with a generated
 * password and returns the credentials so main.ts can print them once. Undefined otherwise.
 */
export async function ensureFirstOperator(
  deps: OperatorDeps,
  generatePassword: () => string = () => randomBytes(18).toString('base64url'),
): Promise<OperatorCredentials | undefined> {
  const head = await deps.store.headPosition();
  if (head !== undefined) await deps.readModels?.waitFor(head, startupCatchUpMs);
  if (await anyUserWithRole(deps.pool, operatorRole)) return undefined;
  if (await rolesOfEmail(deps, defaultOperatorEmail)) return undefined;
  const credentials = { email: defaultOperatorEmail, password: generatePassword() };
  try {
    await createOperatorAtStart(deps, credentials);
  } catch (error) {
    // Another process starting at the same moment created it first.
    if (error instanceof DomainError && error.status === 409) return undefined;
    throw error;
  }
  return credentials;
}
