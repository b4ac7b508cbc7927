import { randomUUID } from 'node:crypto';
import { type NewEvent, streamCategories, streamName } from '@issuer/events';

/**
 * A stored history shaped like the portal's: per company, its symbol and email reservations, the
 * company stream (registration, profile, three terminals, a rename, verification, issuer status)
 * and its first user's stream (registration, then settings updates, sign-outs and a password
 * change). 100 events per company; every type the account read models handle appears.
 */
export const EVENTS_PER_COMPANY = 100;
const USER_EVENTS = EVENTS_PER_COMPANY - 10;

export interface CompanyHistory {
  companyId: string;
  userId: string;
  /** Streams written once, at registration, each with all its events. */
  registration: { streamId: string; events: NewEvent[] }[];
  userStreamId: string;
  /** The user stream after its registration event, appended in chunks over time. */
  userEvents: NewEvent[];
}

const PASSWORD_HASH = `$argon2id$v=19$m=19456,t=2,p=1$${'s'.repeat(22)}$${'h'.repeat(43)}`;

export function companyHistory(index: number, at: Date): CompanyHistory {
  const companyId = randomUUID();
  const userId = randomUUID();
  const symbol = `B${index.toString(36).toUpperCase()}`.slice(0, 10);
  const email = `user${index}@bench.example`;
  const occurredAt = at.toISOString();
  const meta = (userIdOrNull: string | null) => ({
    companyId,
    userId: userIdOrNull,
    correlationId: randomUUID(),
    causationId: null,
    occurredAt,
    schemaVersion: 1,
  });
  const event = (type: string, data: unknown, by: string | null = userId): NewEvent => ({
    id: randomUUID(),
    type,
    data,
    metadata: meta(by),
  });
  const terminals = [1, 2, 3].map((n) => ({ terminalId: randomUUID(), n }));
  const companyEvents = [
    event('CompanyRegistered', {
      companyId,
      name: `Bench Company ${index}`,
      symbol,
      registeredBy: userId,
      registeredAt: occurredAt,
    }),
    event('CompanyProfileUpdated', {
      companyId,
      name: `Bench Company ${index} Ltd`,
      avatar: null,
    }),
    ...terminals.map(({ terminalId, n }) =>
      event('PaymentTerminalRegistered', {
        companyId,
        terminalId,
        name: `Till ${n}`,
        deviceId: `DEV-${index}-${n}`,
      }),
    ),
    event('PaymentTerminalRenamed', {
      companyId,
      terminalId: terminals[0]?.terminalId,
      name: 'Front till',
    }),
    event('CompanyVerified', { companyId, verifiedBy: 'operator', verifiedAt: occurredAt }, null),
    event('IssuerStatusGranted', { companyId, grantedBy: 'operator', grantedAt: occurredAt }, null),
  ];
  const userEvents: NewEvent[] = [];
  for (let n = 0; n < USER_EVENTS - 1; n += 1) {
    if (n === 40)
      userEvents.push(
        event('UserPasswordChanged', {
          userId,
          passwordHash: PASSWORD_HASH,
          passwordVersion: 1,
          changedAt: occurredAt,
        }),
      );
    else if (n % 3 === 2)
      userEvents.push(
        event('UserSignedOut', {
          userId,
          tokenId: randomUUID(),
          expiresAt: new Date(at.getTime() + 43_200_000).toISOString(),
        }),
      );
    else
      userEvents.push(
        event('UserSettingsUpdated', {
          userId,
          settings: {
            layout: { type: 'vertical', navbar: 'fixed' },
            theme: n % 2 ? 'dark' : 'light',
            n,
          },
          shortcuts: ['calendar', 'mail', 'contacts', 'todo'],
        }),
      );
  }
  return {
    companyId,
    userId,
    registration: [
      {
        streamId: streamName(streamCategories.symbolReservation, symbol),
        events: [event('SymbolReserved', { symbol, companyId })],
      },
      {
        streamId: streamName(streamCategories.emailReservation, email),
        events: [event('EmailReserved', { email, userId, companyId })],
      },
      { streamId: streamName(streamCategories.company, companyId), events: companyEvents },
      {
        streamId: streamName(streamCategories.user, userId),
        events: [
          event('UserRegistered', {
            userId,
            companyId,
            email,
            displayName: `User ${index}`,
            passwordHash: PASSWORD_HASH,
            roles: ['admin'],
            registeredAt: occurredAt,
          }),
        ],
      },
    ],
    userStreamId: streamName(streamCategories.user, userId),
    userEvents,
  };
}
