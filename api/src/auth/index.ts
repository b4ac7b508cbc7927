export { authRoutes } from './api';
export { authenticate, requireRole } from './authenticate';
export { isCommonPassword } from './commonPasswords';
export { companyUserRoutes } from './companyUsers';
export { loginThrottleDdl, migrateAuth } from './loginThrottle';
export { hashPassword, verifyPassword } from './passwords';
export { signAccessToken, verifyAccessToken } from './tokens';
export { type SessionUser, sessionUser } from './userObject';
