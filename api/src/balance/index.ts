export { balanceRoutes } from './api';
