import { DomainError, defaultShortcuts, type UserSettings } from '@issuer/events';
import { getAvailableBalance, getUserWithCompany, type UserWithCompany } from '@issuer/projections';
import type { Context } from 'hono';
import type { AppEnv } from '../http';

/** The seed's session user (section 3), answered by register, login and access-token. */
export interface SessionUser {
  role: string[];
  uid: string;
  from: 'jwt';
  data: {
    companyName: string;
    fiatBalanceCad: number;
    email: string;
    photoURL: string;
    displayName: string;
    terminalDeviceId: string;
    terminalDeviceId2: string;
    terminalDeviceId3: string;
    providers: string[];
    verified: 1 | 0;
    settings: UserSettings;
    shortcuts: string[];
  };
  isIssuer: boolean;
  activeTerminalId: string;
}

/** What the platform operator's session shows: their company has no Company stream. */
export const platformCompanyName = 'Issuer Portal';

/** Cents to the seed's CAD number; exact for any balance below 2^53 cents. */
export function centsToCad(cents: bigint): number {
  return Number(cents) / 100;
}

/** '' for an empty slot, so the three fields are always strings. */
export function terminalSlots(deviceIds: readonly string[]) {
  return {
    terminalDeviceId: deviceIds[0] ?? '',
    terminalDeviceId2: deviceIds[1] ?? '',
    terminalDeviceId3: deviceIds[2] ?? '',
  };
}

export function sessionUser({ user, company }: UserWithCompany): SessionUser {
  const deviceIds = company?.terminals.map((terminal) => terminal.deviceId) ?? [];
  return {
    role: user.roles,
    uid: user.userId,
    from: 'jwt',
    data: {
      companyName: company?.name ?? platformCompanyName,
      fiatBalanceCad: centsToCad(company?.fiatBalanceCents ?? 0n),
      email: user.email,
      photoURL: '',
      displayName: user.displayName,
      ...terminalSlots(deviceIds),
      providers: [],
      verified: company?.verified ? 1 : 0,
      settings: user.settings,
      shortcuts: user.shortcuts ?? [...defaultShortcuts],
    },
    isIssuer: company?.isIssuer ?? false,
    activeTerminalId: deviceIds[0] ?? '',
  };
}

/**
 * The user and their company from the read models. Commands wait for the read models before
 * answering, so a miss means the user was created outside a request (the operator CLI) or the
 * projectors lag past that bound. Wait for what is stored, re-checking until the same bound
 * (the store's head is only a lower bound while other transactions are open), then give up with
 * a 503 rather than answer with a half-empty user.
 */
export async function loadUserWithCompany(
  c: Context<AppEnv>,
  ids: { userId: string; companyId: string },
): Promise<UserWithCompany> {
  const { pool, store, readModels, config } = c.var.deps;
  const deadline = Date.now() + config.readYourWritesTimeoutMs;
  for (;;) {
    const found = await getUserWithCompany(pool, ids);
    if (found) return withLedgerBalance(c, found);
    const remainingMs = deadline - Date.now();
    if (remainingMs <= 0) break;
    const head = await store.headPosition();
    if (head !== undefined) await readModels.waitFor(head, remainingMs);
    await new Promise((resolve) => setTimeout(resolve, Math.min(25, remainingMs)));
  }
  throw new DomainError(503, 'catching_up', 'The portal is catching up; try again in a moment');
}

/** The sidebar's balance is the ledger's available balance (the payments read model). */
async function withLedgerBalance(
  c: Context<AppEnv>,
  found: UserWithCompany,
): Promise<UserWithCompany> {
  if (!found.company) return found;
  const fiatBalanceCents = await getAvailableBalance(c.var.deps.pool, found.company.companyId);
  return { ...found, company: { ...found.company, fiatBalanceCents } };
}

export async function loadSessionUser(
  c: Context<AppEnv>,
  ids: { userId: string; companyId: string },
): Promise<SessionUser> {
  return sessionUser(await loadUserWithCompany(c, ids));
}
