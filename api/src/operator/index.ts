export { operatorRoutes } from './api';
export {
  createOperator,
  defaultOperatorEmail,
  ensureFirstOperator,
  ensureOperatorFromEnv,
  type OperatorCredentials,
  operatorRole,
  PLATFORM_COMPANY_ID,
} from './operator';
