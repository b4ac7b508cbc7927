import { customerProfile, investorStatus, leadStatus, transitionKinds } from '@issuer/events';
import { z } from 'zod';

/** A customer as every route answers it: the profile of the events plus what the streams keep. */
export const customerRecordSchema = z
  .strictObject({
    id: z.string(),
    ...customerProfile.shape,
    starred: z.boolean(),
    leadStatus,
    investorStatus,
    createdAt: z.string(),
    updatedAt: z.string(),
    version: z.int().meta({ description: 'The stream revision: send it back as `If-Match`' }),
  })
  .meta({ id: 'Customer' });

/** The single-customer answer adds the workflow's allowed next steps. */
export const customerDetailSchema = customerRecordSchema
  .extend({
    nextInvestorStatuses: z.array(
      z.strictObject({
        status: investorStatus,
        kind: z.enum(transitionKinds),
        reasonRequired: z.boolean(),
      }),
    ),
  })
  .meta({ id: 'CustomerDetail' });

/** `GET /customers/:id?asOf=`: the customer as they were then, replayed from their events. */
export const customerAsOfSchema = customerRecordSchema
  .extend({
    status: z.string(),
    removed: z.boolean().meta({ description: 'True when the customer was removed by then' }),
    asOf: z.string(),
  })
  .meta({ id: 'CustomerAsOf' });

export const customerReadSchema = z.union([customerDetailSchema, customerAsOfSchema]);
