import { notFound } from '@issuer/events';
import { getCompanyProfile } from '@issuer/projections';
import { type Context, Hono } from 'hono';
import { z } from 'zod';
import { customerAccessGuard } from '../../customers/access';
import {
  type AppEnv,
  errorResponse,
  type Feature,
  idempotent,
  jsonBody,
  pathParams,
} from '../../http';
import { acceptedDescription, answerDescription, describeRoute } from '../../http/openapiSpec';
import {
  isTerminalSimulator,
  type TerminalSimulatorControls,
  type WaitingPayment,
} from './terminalSimulator';

/** Admin, staff and user present cards (they take payments); compliance only looks. */
const access = customerAccessGuard();
const terminalPath = z.strictObject({ id: z.string().min(1).max(100) });
const presentCardSchema = z.strictObject({
  card: z
    .string({ error: 'Must be a card number' })
    .regex(/^[\d\s-]{12,23}$/, 'Must be a card number')
    .optional(),
  paymentId: z.string().min(1).max(100).optional(),
});

/** The caller's company's terminal (from the read model), else 404. */
async function ownTerminal(c: Context<AppEnv>, terminalId: string): Promise<void> {
  const company = await getCompanyProfile(c.var.deps.pool, c.var.caller.companyId);
  if (!company?.terminals.some((terminal) => terminal.id === terminalId)) {
    throw notFound('Payment terminal');
  }
}

/**
 * The sandbox's card reader: mounted only while the simulator is the gateway, as Stripe's test
 * helpers exist only in test mode. Must come before the companies feature in `app.ts`, whose
 * `/terminals/*` guard admits admins only.
 */
export const terminalSimulatorRoutes: Feature = (deps) => {
  const routes = new Hono<AppEnv>();
  const gateway = deps.paymentGateway;
  if (!isTerminalSimulator(gateway)) return routes;
  const simulator: TerminalSimulatorControls = gateway;
  return routes
    .get(
      '/terminals/:id/simulator',
      describeRoute(
        answerDescription(
          'Sandbox: what the terminal waits for',
          200,
          z.strictObject({
            terminalId: z.string(),
            waiting: z.array(
              z.strictObject({
                paymentId: z.string(),
                gatewayPaymentId: z.string(),
                amountCents: z.int(),
                currency: z.string(),
                expiresAt: z.string(),
                waitingSince: z.string(),
              }) satisfies z.ZodType<WaitingPayment>,
            ),
          }),
        ),
      ),
      access,
      pathParams(terminalPath),
      async (c) => {
        const { id } = c.req.valid('param');
        await ownTerminal(c, id);
        const waiting = await simulator.waitingOn(c.var.caller.companyId, id);
        return c.json({ terminalId: id, waiting }, 200);
      },
    )
    .post(
      '/terminals/:id/simulator/present-card',
      describeRoute(
        acceptedDescription(
          'Sandbox: present a card to the terminal',
          z.strictObject({ paymentId: z.string() }),
        ),
      ),
      access,
      idempotent,
      pathParams(terminalPath),
      jsonBody(presentCardSchema),
      async (c) => {
        const { id } = c.req.valid('param');
        await ownTerminal(c, id);
        const presented = await simulator.presentCard({
          companyId: c.var.caller.companyId,
          terminalId: id,
          ...c.req.valid('json'),
        });
        if (!presented) {
          return errorResponse(c, 409, 'conflict', 'No payment is waiting on this terminal');
        }
        return c.json(presented, 202);
      },
    );
};
