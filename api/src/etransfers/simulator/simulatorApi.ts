import { notFound } from '@issuer/events';
import { type Context, Hono } from 'hono';
import { z } from 'zod';
import { customerAccessGuard } from '../../customers/access';
import { type AppEnv, errorResponse, type Feature, idempotent, jsonBody } from '../../http';
import { acceptedDescription, answerDescription, describeRoute } from '../../http/openapiSpec';
import { amountCents } from '../../payments/api';
import { ownEtransfer } from '../etransferCommands';
import {
  type EtransferSimulatorControls,
  etransferSimulatorName,
  isEtransferSimulator,
} from './etransferSimulator';

const access = customerAccessGuard();
const incomingSchema = z.strictObject({
  fromEmail: z.email({ error: 'Must be an email address' }).max(320),
  amountCents,
  reference: z.string({ error: 'Must be text' }).trim().max(100).nullable().optional(),
});

const customerActed = z.strictObject({ etransferId: z.string() });

/** The caller's own money request (404 otherwise, another company's included). */
async function ownRequest(c: Context<AppEnv>, etransferId: string) {
  const state = await ownEtransfer(c.var.deps, c.var.caller.companyId, etransferId);
  if (state.kind !== 'request') throw notFound('E-transfer');
}

/**
 * The sandbox's customer side, mounted only while the simulator is the provider: pay or decline
 * a money request, or send the company an e-transfer nobody requested. `GET
 * /etransfers/simulator` answers 200 here and 404 otherwise: whether the UI offers the sandbox.
 */
export const etransferSimulatorRoutes: Feature = (deps) => {
  const routes = new Hono<AppEnv>();
  if (!isEtransferSimulator(deps.etransferProvider)) return routes;
  const simulator: EtransferSimulatorControls = deps.etransferProvider;
  const answer = (action: 'deposit' | 'decline') => async (c: Context<AppEnv>) => {
    const etransferId = c.req.param('id') ?? '';
    await ownRequest(c, etransferId);
    const done = await simulator[action](c.var.caller.companyId, etransferId);
    if (!done) {
      return errorResponse(c, 409, 'conflict', 'This request is not waiting for the customer');
    }
    return c.json({ etransferId }, 202);
  };
  return routes
    .get(
      '/etransfers/simulator',
      describeRoute(
        answerDescription(
          'Sandbox: whether the e-transfer simulator is on',
          200,
          z.strictObject({ provider: z.literal(etransferSimulatorName) }),
        ),
      ),
      access,
      (c) => c.json({ provider: etransferSimulatorName }, 200),
    )
    .post(
      '/etransfers/simulator/incoming',
      describeRoute(
        acceptedDescription(
          'Sandbox: send the company an e-transfer nobody requested',
          z.strictObject({ providerTransferId: z.string() }),
        ),
      ),
      access,
      idempotent,
      jsonBody(incomingSchema),
      async (c) => {
        const body = c.req.valid('json');
        const sent = await simulator.incoming({
          companyId: c.var.caller.companyId,
          fromEmail: body.fromEmail,
          amountCents: body.amountCents,
          reference: body.reference || null,
        });
        return c.json(sent, 202);
      },
    )
    .post(
      '/etransfers/:id/simulator/deposit',
      describeRoute(acceptedDescription('Sandbox: the customer pays the request', customerActed)),
      access,
      idempotent,
      answer('deposit'),
    )
    .post(
      '/etransfers/:id/simulator/decline',
      describeRoute(
        acceptedDescription('Sandbox: the customer declines the request', customerActed),
      ),
      access,
      idempotent,
      answer('decline'),
    );
};
