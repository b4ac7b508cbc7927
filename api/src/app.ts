import type { Hono } from 'hono';
import { auditRoutes } from './audit/api';
import { authRoutes, companyUserRoutes } from './auth';
import { balanceRoutes } from './balance';
import { capTableRoutes } from './capTable/api';
import { changeRoutes } from './changes/api';
import { companyRoutes } from './companies';
import { customerRoutes, customerUploadPaths, legacyContactRoutes } from './customers';
import { dashboardRoutes } from './dashboard/api';
import { documentRoutes, documentUploadPaths } from './documents/api';
import { signingRoutes } from './documents/signingPage';
import { etransferRoutes, legacyEtransferRoutes } from './etransfers/api';
import { etransferSimulatorRoutes } from './etransfers/simulator/simulatorApi';
import { etransferWebhookRoutes } from './etransfers/webhookApi';
import { fundingRoundRoutes } from './fundingRounds/api';
import { healthRoutes } from './health';
import { type AppDependencies, type AppEnv, buildApp, type Feature } from './http';
import { serveOpenApi } from './http/openapi';
import { operatorRoutes } from './operator';
import { paymentMethodRoutes } from './paymentMethods/api';
import { paymentRoutes } from './payments';
import { paymentListRoutes } from './payments/paymentListApi';
import { terminalSimulatorRoutes } from './payments/simulator/simulatorApi';
import { terminalWebhookRoutes } from './payments/webhooks/webhookApi';
import { legacySubscriptionRoutes, subscriptionRoutes } from './subscriptions/api';
import { tokenOrderRoutes } from './tokenOrders/api';
import { legacyTransactionRoutes, transactionRoutes } from './transactions';
import { serveUi, type UiOptions } from './ui/serveUi';
import { welcome } from './welcome';

/** Every feature's routes, each mounted under `/api`: one line per feature. */
export const features: readonly Feature[] = [
  healthRoutes,
  authRoutes,
  companyUserRoutes,
  // Before companyRoutes, whose `/terminals/*` guard admits admins only: staff take payments too.
  terminalSimulatorRoutes,
  companyRoutes,
  operatorRoutes,
  customerRoutes,
  legacyContactRoutes,
  terminalWebhookRoutes,
  paymentRoutes,
  paymentListRoutes,
  paymentMethodRoutes,
  transactionRoutes,
  legacyTransactionRoutes,
  balanceRoutes,
  etransferWebhookRoutes,
  etransferSimulatorRoutes,
  etransferRoutes,
  legacyEtransferRoutes,
  subscriptionRoutes,
  legacySubscriptionRoutes,
  auditRoutes,
  changeRoutes,
  capTableRoutes,
  fundingRoundRoutes,
  tokenOrderRoutes,
  documentRoutes,
  dashboardRoutes,
];

/** With `ui`, the built admin UI answers every GET outside `/api`; without, `/` says hello. */
export function createApp(deps: AppDependencies, ui?: UiOptions): Hono<AppEnv> {
  const app = serveOpenApi(
    buildApp(deps, features, {
      largeBodyPaths: customerUploadPaths,
      streamedBodyPaths: documentUploadPaths,
    }),
  );
  // Public, outside `/api`: the signer has no account; before the UI, which answers other GETs.
  app.route('/', signingRoutes());
  return ui ? app.use(serveUi(ui)) : app.get('/', welcome);
}
