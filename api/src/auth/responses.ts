import { z } from 'zod';

/** `{user, access_token}`: what register, sign-in and token renewal answer (the seed's shape). */
export const sessionAnswerSchema = z
  .strictObject({
    user: z.strictObject({
      role: z.array(z.string()),
      uid: z.string(),
      from: z.literal('jwt'),
      data: z.looseObject({
        companyName: z.string(),
        fiatBalanceCad: z.number(),
        email: z.string(),
        displayName: z.string(),
        verified: z.union([z.literal(0), z.literal(1)]),
        settings: z.record(z.string(), z.unknown()),
        shortcuts: z.array(z.string()),
      }),
      isIssuer: z.boolean(),
      activeTerminalId: z.string(),
    }),
    access_token: z.string().meta({ description: 'Send as `Authorization: Bearer <token>`' }),
  })
  .meta({ id: 'Session' });
