export { transactionRoutes } from './api';
export { legacyTransactionRoutes } from './legacyApi';
