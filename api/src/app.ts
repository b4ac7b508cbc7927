import type { Hono } from 'hono';
import { authRoutes } from './auth';
import { companyRoutes } from './companies';
import { healthRoutes } from './health';
import { type AppDependencies, type AppEnv, buildApp, type Feature } from './http';
import { operatorRoutes } from './operator';
import { welcome } from './welcome';

/** Every feature's routes, each mounted under `/api`: one line per feature. */
export const features: readonly Feature[] = [
  healthRoutes,
  authRoutes,
  companyRoutes,
  operatorRoutes,
];

export function createApp(deps: AppDependencies): Hono<AppEnv> {
  return buildApp(deps, features).get('/', welcome);
}
