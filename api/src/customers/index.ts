export { customerRoutes, customerUploadPaths } from './api';
export { customerDecider } from './businessLogic';
export { legacyContactRoutes } from './legacyApi';
