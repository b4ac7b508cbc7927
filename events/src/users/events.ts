import { z } from 'zod';

/**
 * Events of the User stream (`User-<userId>`) and of the email reservation stream
 * (`UserEmail-<lower-cased email>`). `UserRegistered` and `UserPasswordChanged` carry the
 * password hash: no read model keeps it and the Kafka mapping must strip it.
 */

export const defaultShortcuts: readonly string[] = ['calendar', 'mail', 'contacts', 'todo'];

export const userSettings = z.record(z.string(), z.unknown());
export type UserSettings = z.infer<typeof userSettings>;

export const userRegisteredData = z.object({
  userId: z.string(),
  companyId: z.string(),
  email: z.string(),
  displayName: z.string(),
  passwordHash: z.string(),
  roles: z.array(z.string()),
  registeredAt: z.string(),
});

export const userSettingsUpdatedData = z.object({
  userId: z.string(),
  settings: userSettings,
  shortcuts: z.array(z.string()),
});

export const userPasswordChangedData = z.object({
  userId: z.string(),
  passwordHash: z.string(),
  /** 1 for the first change; tokens carry the version they were issued under. */
  passwordVersion: z.number().int(),
  changedAt: z.string(),
});

export const userSignedOutData = z.object({
  userId: z.string(),
  tokenId: z.string(),
  /**
   * The sign-in that ended: every token carrying it is revoked, not only `tokenId`. Absent from
   * sign-outs recorded before sessions had ids, which revoked `tokenId` alone.
   */
  sessionId: z.string().optional(),
  /** When every token it revokes would have expired anyway; revocation rows can be dropped after it. */
  expiresAt: z.string(),
});

export const emailReservedData = z.object({
  email: z.string(),
  userId: z.string(),
  companyId: z.string(),
});
export const emailReleasedData = z.object({ email: z.string(), userId: z.string() });

export type UserRegistered = { type: 'UserRegistered'; data: z.infer<typeof userRegisteredData> };
export type UserSettingsUpdated = {
  type: 'UserSettingsUpdated';
  data: z.infer<typeof userSettingsUpdatedData>;
};
export type UserPasswordChanged = {
  type: 'UserPasswordChanged';
  data: z.infer<typeof userPasswordChangedData>;
};
export type UserSignedOut = { type: 'UserSignedOut'; data: z.infer<typeof userSignedOutData> };

export type UserEvent = UserRegistered | UserSettingsUpdated | UserPasswordChanged | UserSignedOut;

export type EmailReserved = { type: 'EmailReserved'; data: z.infer<typeof emailReservedData> };
export type EmailReleased = { type: 'EmailReleased'; data: z.infer<typeof emailReleasedData> };
export type EmailReservationEvent = EmailReserved | EmailReleased;

export const userEventSchemas = {
  UserRegistered: userRegisteredData,
  UserSettingsUpdated: userSettingsUpdatedData,
  UserPasswordChanged: userPasswordChangedData,
  UserSignedOut: userSignedOutData,
} as const satisfies Record<UserEvent['type'], z.ZodType>;

export const emailReservationEventSchemas = {
  EmailReserved: emailReservedData,
  EmailReleased: emailReleasedData,
} as const satisfies Record<EmailReservationEvent['type'], z.ZodType>;

export const userEventTypes = Object.keys(userEventSchemas) as UserEvent['type'][];

/** Narrows a stored event to a user event by its type; undefined for any other type. */
export function asUserEvent(event: { type: string; data: unknown }): UserEvent | undefined {
  return Object.hasOwn(userEventSchemas, event.type) ? (event as UserEvent) : undefined;
}

export function asEmailReservationEvent(event: {
  type: string;
  data: unknown;
}): EmailReservationEvent | undefined {
  return Object.hasOwn(emailReservationEventSchemas, event.type)
    ? (event as EmailReservationEvent)
    : undefined;
}
