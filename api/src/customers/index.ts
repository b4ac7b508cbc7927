export { customerRoutes, customerUploadPaths } from './api';
export { migrateCustomers } from './asOfSnapshots';
export { customerDecider } from './businessLogic';
export { legacyContactRoutes } from './legacyApi';
