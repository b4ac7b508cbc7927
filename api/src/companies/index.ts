export { companyRoutes } from './api';
export { companyDecider } from './businessLogic';
