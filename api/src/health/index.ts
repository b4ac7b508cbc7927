export { healthRoutes } from './health';
